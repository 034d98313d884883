// huge_pages.h — turning the command line's huge-page hint (huge_pages.cc) off for a while.
//
// The hint pays where a table grows by doubling to hundreds of MB (merge's model), and costs
// where the tables are reserved up front and filled once: `export --to=json` into a file. On
// this project's development VM a fresh 2 MB page is zeroed at 0.45-0.55 GB/s where reused
// small pages take 1.3-2.4 GB/s, and json's streaming run took a median 1.18 s with the hint
// against 0.97 s without, the best run about the same (docs/performance.md, "Huge pages").
#pragma once

namespace calltree::cli {

// While one lives, blocks handed out ask for no huge pages (blocks handed out before keep
// what they asked for). Not for use on several threads at once; a no-op where the hint is
// not built (sanitizers, not Linux).
class no_huge_pages {
 public:
  no_huge_pages();
  ~no_huge_pages();
  no_huge_pages(const no_huge_pages&) = delete;
  no_huge_pages& operator=(const no_huge_pages&) = delete;

 private:
  bool was_;
};

}  // namespace calltree::cli

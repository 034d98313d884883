// server/folder.h — the profiles of a folder, as `calltree serve DIR` lists them (docs/serve.md).
//
// What it is: the files of DIR (and below it with --recursive), each with an id that stays its
// own while the server runs, its size and modification time, and what its first block says
// (views/header_read.h: creator:, cmd:, events, the total of the first event when known, or
// its problem). A thread of its own scans the folder again every second (readdir and stat:
// new, changed and deleted files) and reads the headers of new and changed files, newest
// first, then the totals of the profiles larger than the block their header was read from
// (run_store.h: the index; a header's summary: is its first part's, and the rule of
// calltree/totals.h needs the whole file); a query reads the headers its page shows that are
// not read yet. One total per row, the figure annotate prints and the page shows once the
// file is opened (row_total below). What it is not: a
// loader (a profile is read whole when it is opened, server/api.cc) nor a route (the JSON is
// routes_folder.cc's).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "calltree/result.h"
#include "views/header_read.h"

namespace calltree::server {

class run_store;

struct folder_entry {
  std::uint64_t id = 0;  // 1, 2, ... in the order files were found; never reused
  std::string path;      // DIR/NAME, as the server opens it
  std::string name;      // relative to DIR
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool headed = false;  // `facts` are of this size and mtime
  views::header_facts facts;
  // The total of the first event from the run store (the index, or the file read whole), for
  // a profile larger than its header's block: of this size and mtime when `totalled`.
  bool totalled = false;
  std::optional<std::uint64_t> indexed_total;
  // Once the profile was opened (read whole) at this size and mtime: its parts and the total
  // of its first event as the page shows it (what the header alone may not say: an Xdebug
  // file states no summary:).
  bool opened = false;
  std::uint64_t opened_parts = 0;
  std::optional<std::uint64_t> opened_total;
  std::string opened_event;  // the event of opened_total
};

// The total of a row's first event and where it comes from: the file as opened (the page's
// figure); the whole file read with its header (a file of one block); the run store (the
// whole file, calltree/totals.h's rule, as annotate prints it); until the store answers, the
// first part's `summary:` of its header. None when nothing says it yet.
enum class row_total_from : std::uint8_t { opened, read, index, summary };
struct row_total_value {
  std::uint64_t value = 0;
  row_total_from from = row_total_from::read;
};
std::optional<row_total_value> row_total(const folder_entry& e);

// What a table query asks: a regex filter (the caller's matcher, nullptr: every file), a
// column to sort by and its direction, a window.
enum class folder_column : std::uint8_t { name, producer, cmd, time, size, parts, total };
struct folder_query {
  std::function<bool(const folder_entry&)> match;
  folder_column by = folder_column::time;
  bool descending = true;
  std::uint64_t offset = 0, limit = 100;
};
struct folder_page {
  std::vector<folder_entry> rows;  // the window's rows, headers read
  std::uint64_t matched = 0;       // rows that match the filter
  std::uint64_t listed = 0;        // files listed
  std::uint64_t pending = 0;       // files whose header is not read yet (of all listed)
  std::uint64_t scans = 0;         // scans of the folder so far
};

class folder {
 public:
  // Lists `dir` (below it too with `recursive`): the first scan is made here (no header read),
  // then a thread scans again every `interval_ms` and reads headers until destruction.
  folder(std::string dir, bool recursive, unsigned interval_ms = 1000);
  ~folder();
  folder(const folder&) = delete;
  folder& operator=(const folder&) = delete;

  folder_page query(const folder_query& q);
  // The file of id `id` as listed now (nullopt: no such id, or it was deleted).
  std::optional<folder_entry> entry(std::uint64_t id) const;
  // Scans now (and reads no header) unless a scan began less than `fresh_ms` ago: what the
  // page's poll asks (`rescan=1`), so a new file is listed by the poll that follows it while
  // many tabs polling at once cost one scan.
  void rescan(unsigned fresh_ms = 250);
  const std::string& dir() const { return dir_; }
  // Every file listed now, by id.
  std::vector<folder_entry> entries() const;
  // The runs (run_store.h) of the Trend view, which the scanning thread also asks for the
  // totals of the profiles larger than their header's block; none: no such totals.
  void set_store(std::shared_ptr<run_store> store);
  std::shared_ptr<run_store> store() const;
  // The file of id `id` was read whole at `size` and `mtime_ns`: its row shows `parts` and
  // `first_total` from now on (until the file changes).
  void note_opened(std::uint64_t id, std::uint64_t size, std::int64_t mtime_ns, std::uint64_t parts,
                   std::optional<std::uint64_t> first_total, std::string event);

 private:
  void scan();
  void run();
  // Reads the headers of the entries of `ids` that lack theirs (outside the lock).
  void read_headers(const std::vector<std::uint64_t>& ids);
  // Takes the totals of a few profiles not read whole with their header from the store;
  // false when there were none to take.
  bool read_totals();

  std::string dir_;
  bool recursive_;
  unsigned interval_ms_;
  mutable std::mutex m_;
  std::mutex scanning_;                                   // one scan at a time
  std::vector<folder_entry> entries_;                     // listed files, by id order
  std::unordered_map<std::string, std::size_t> by_name_;  // name -> index in entries_
  std::unordered_map<std::uint64_t, std::size_t> by_id_;  // id -> index in entries_
  std::uint64_t next_id_ = 1;
  std::uint64_t scans_ = 0;
  std::chrono::steady_clock::time_point last_scan_{};  // when the last scan began
  bool stop_ = false;
  std::condition_variable wake_;
  std::shared_ptr<run_store> store_;
  std::thread thread_;
};

// The listing of `dir`, or an error when it is no folder that can be read.
result<std::shared_ptr<folder>> open_folder(const std::string& dir, bool recursive);

}  // namespace calltree::server

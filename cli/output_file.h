// output_file.h — a command's output file, written whole or not at all.
//
// What it is: OUT written to a temporary file beside it (".NAME.calltree-XXXXXX", with the
// permissions a new file gets) and renamed onto OUT when complete. Any failure, or the end of
// the object without commit(), removes the temporary file: OUT is never half written, and an
// OUT that is also an input stays whole until the end. "-" is standard output. A path that is
// not a regular file (/dev/null, a FIFO) is written directly, never replaced. Used by `export`
// and `report`; `convert` and `merge`, which write through a std::ostream, ask
// written_in_place() the same question.
//
// No fsync: as convert and merge (and cp, gzip, sort, go tool pprof), the bytes are left to the
// kernel to write back, so a command ends when its output is complete in the page cache. On
// the 2-core VM of docs/performance.md the 894 MB folded export of the real profile took
// 2.9-3.2 s with an fsync and 1.8-2.1 s without, the difference spent waiting for a 430 MB/s
// disk. `sync OUT` afterwards makes a file durable where that matters (against a power cut;
// a crash of calltree is what the rename covers).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace calltree::cli {

// Whether OUT is written in place rather than through a temporary file renamed onto it: it
// exists and is a device, FIFO or socket (renaming onto /dev/null would replace the device
// with a regular file, for every later program on the machine).
bool written_in_place(const std::string& path);

class output_file {
 public:
  output_file() = default;
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() { discard(); }

  // Creates the temporary file (or takes standard output for "-"); false with `err`.
  bool open(const std::string& path, std::string& err);
  void write(std::string_view bytes);
  // Closes and renames; false (and the temporary removed) on any failure.
  bool commit(std::string& err);
  // Writes what is buffered to the temporary file (for another program to read it).
  bool flush_only(std::string& err);
  // Removes the temporary file; OUT is left as it was.
  void discard();
  const std::string& temporary() const { return tmp_; }

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  bool failed_ = false;
  bool direct_ = false;  // a device or FIFO, written in place
  int errno_ = 0;
};

}  // namespace calltree::cli

// progress.h — a one-line progress display on stderr for long reads, and --threads.
//
// What it is: the CLI side of reader_options::progress. Nothing shows unless stderr is a
// terminal and the read has taken more than a second; then one line, redrawn at most ten
// times a second, says how far the file is read and how fast, and it is erased when reading
// ends, so the output people keep (stdout, or stderr in a log) never sees it.
// What it is not: part of the library, which never prints.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "calltree/reader.h"

namespace calltree::cli {

class progress_line {
 public:
  explicit progress_line(std::string name);
  ~progress_line();  // erases the line if it was drawn
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  // Installs the callback (the reader calls it on this thread).
  void attach(reader_options& options);
  void update(const read_progress& p);
  void finish();

 private:
  std::string name_;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// The value of --threads=N (1 to 64), or, without the flag, the number of cores. nullopt for a
// value that is no such number.
std::optional<unsigned> parse_threads(const std::optional<std::string>& value);

}  // namespace calltree::cli

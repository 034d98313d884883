// views/annotate_options.h — what an annotate report asks of its tables: callgrind_annotate's
// options (--show, --sort, --threshold, --auto, --inclusive, --tree, -I, ...) and calltree's
// (--part, --raw, --source-root, --event, --threads).
//
// What it is: the options the tables are filled for (views/annotate_direct.h) and a report is
// printed with (report/annotate.h). What it is not: their parsing (cli/cmd_annotate.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/memory_limit.h"
#include "calltree/profile.h"

namespace calltree {

struct annotate_options {
  // callgrind_annotate's options.
  std::vector<std::string> show;             // --show (empty = every recorded event)
  std::vector<std::string> sort;             // --sort event names (empty = recorded order)
  std::vector<std::string> sort_thresholds;  // per --sort event "N" or "" ; empty = none given
  std::string threshold = "99";              // --threshold, as written
  bool show_percs = true;
  bool auto_annotate = true;
  std::uint64_t context = 8;
  bool inclusive = false;
  bool tree_caller = false, tree_calling = false;
  std::vector<std::string> include_dirs;  // -I, as given (a trailing '/' is trimmed)
  std::vector<std::string> user_files;    // source files named after the profile
  // The profile's name as given on the command line (printed in the header).
  std::string input_name;
  std::int64_t input_mtime = 0;  // seconds; 0 = unknown (no "more recent" warning)
  // calltree's additions.
  std::optional<part_id> part;  // --part=N (0-based here); default: all parts summed
  bool raw = false;             // --raw: callgrind_annotate 3.19's inclusive and calls=0 sums
  std::string cwd;              // stripped from the front of file names (with a '/')
  std::vector<std::pair<std::string, std::string>> source_roots;  // --source-root OLD=NEW
  std::vector<std::string> event_definitions;                     // --event "NAME = formula"
  // Threads the report may use (--threads): with 2 or more, the names it prints are read back
  // from a spilling pool on a thread of their own while it formats.
  std::size_t threads = 1;
  // The memory limit of annotate's tables built while reading (annotate_direct: the
  // limit_exceeded error past it; --max-memory), as builder_options::max_memory. 0 = none.
  std::uint64_t max_memory = machine_memory_limit();
  // Called for each function row the text report's table prints (not cycle rows), in order:
  // its file as shown, its name and its object ("" if none). (`annotate --asm` picks those.)
  std::function<void(std::string_view file, std::string_view name, std::string_view object)>
      on_function_row;
};

}  // namespace calltree

// report/annotate.h — callgrind_annotate's report (text and JSON): its options, and the report
// of a profile already built.
//
// What it is: `calltree annotate`, a drop-in for Valgrind 3.19's callgrind_annotate: the same
// sections, layout and number formatting (header, PROGRAM TOTALS, the `file:function [object]`
// table, caller/callee trees, auto- and user-annotated source), computed from the records
// (report/annotate_direct.h fills the tables, views/tables.h), with right numbers where
// callgrind_annotate is wrong (docs/annotate.md lists every difference). Functions are grouped
// as callgrind_annotate groups them: by "file:name" where file is the fl=/fi=/fe= file in force
// (cost of inlined code is a separate pseudo-function under its fi= file), with the current
// directory stripped from the front of file names.
// What it is not: a reader (the CLI streams the input into annotate_direct) or a printer (text
// comes back as a string; only cli/ prints).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calltree/profile.h"
#include "calltree/records.h"
#include "calltree/result.h"

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
  // Called for each function row the text report's table prints (not cycle rows), in order:
  // its file as shown, its name and its object ("" if none). (`annotate --asm` picks those.)
  std::function<void(std::string_view file, std::string_view name, std::string_view object)>
      on_function_row;
};

// The annotate report of a profile already built, as text, byte for byte in
// callgrind_annotate's layout: the profile replayed (replay()) through annotate's one filler
// of tables (report/annotate_direct.h). An error for what callgrind_annotate dies on (an unknown
// --show/--sort event, a user file not found); `warnings` receives notes for stderr. The model
// does not keep which cost columns a line left out, so every column a part has is defined ("0",
// never "."): `calltree annotate` reads the file itself.
result<std::string> annotate_text(const profile& p, const annotate_options& options,
                                  std::vector<std::string>* warnings = nullptr);

// The same text handed to `write` in pieces as it is made (about 1 MB each), so a large report
// is never held whole. The errors are annotate_text's; when one is returned nothing has been
// written.
status annotate_text_to(const profile& p, const annotate_options& options,
                        const std::function<void(std::string_view)>& write,
                        std::vector<std::string>* warnings = nullptr);

// The same report as JSON (schema "calltree-annotate", version 1, docs/json.md).
result<std::string> annotate_json(const profile& p, const annotate_options& options,
                                  std::vector<std::string>* warnings = nullptr);

}  // namespace calltree

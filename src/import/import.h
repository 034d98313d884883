// import.h — other profilers' files read into the records of callgrind's format.
//
// What it is: read_imported(), which the reader calls (reader.cc) for an input that is not
// callgrind's format (formats.h), with all its bytes: each importer of this folder makes of
// them the records a callgrind file of the same costs would give, for the same sinks, so no
// command, view or library user knows where a profile came from. What it is not: a converter
// to text; `calltree convert` writes what they read.
//
// Problems are diagnostics, as the callgrind reader's: `file:line:col` for text formats, the
// byte offset for binary ones (diagnostic::line 0, the offset in the message), each with a
// stable code (import_error.h); an input that holds nothing usable reads as no profile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "calltree/string_pool.h"
#include "import/formats.h"

namespace calltree::detail {

// What an importer reads into, and reports to.
struct recorded_stacks;

struct import_target {
  string_pool& names;
  record_sink& sink;
  diagnostic_sink& diagnostics;
  const reader_options& options;
  read_stats stats;
  // Why the input holds no profile (the reader's no_profile_), or empty.
  std::string no_profile;
  // Where the importers of sampled stacks leave each part's stacks (stacks.h, recorded_stacks)
  // as they emit it; null: not kept (every reading but the views' load).
  std::vector<recorded_stacks>* stacks = nullptr;

  // An error or warning at `line`:`column` (1-based; line 0 for a binary input, whose message
  // then says the byte offset).
  void report(severity s, diag_code code, std::uint64_t line, std::uint32_t column,
              std::string message, std::string_view line_text = {});
};

// `name` interned as a name callgrind's format can hold, read back the same: without the blanks
// around it (`(blank)` if that is all it was), NUL, CR and LF (which a profile's strings may
// hold, a callgrind line may not) become U+FFFD.
string_id import_name(string_pool& names, std::string_view name);

// `text` as the value of a header line (cmd:, creator:, desc:), read back the same: at most
// 4096 bytes, CR and LF as blanks, NUL as U+FFFD.
std::string import_line(std::string_view text);

// How a perf.data file becomes `perf script`'s text: the library runs no program, so the
// command-line tool sets one for its process (cli/perf_data_runner.cc), which runs `perf
// script` on the file `path` (the input's display name) whose bytes are `bytes`. The text, or
// why there is none ("perf is not on the PATH: ...", perf's own message): a perf-data error.
// Unset (the library's users, the Python module): every perf.data input is that error.
using perf_data_runner = result<std::string> (*)(const std::string& path, std::string_view bytes);
void set_perf_data_runner(perf_data_runner runner);

// Reads `bytes` (the whole input, decoded) as `format` (not callgrind).
void read_imported(profile_format format, std::string_view bytes, import_target& to);

// The importers, one a file of this folder.
void read_folded(std::string_view bytes, import_target& to);
void read_cpuprofile(std::string_view bytes, import_target& to);
void read_pprof(std::string_view bytes, import_target& to);
void read_pstats(std::string_view bytes, import_target& to);
void read_perf_script(std::string_view bytes, import_target& to);
void read_perf_data(std::string_view bytes, import_target& to);

}  // namespace calltree::detail

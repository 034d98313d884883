// diagnostic.h — one problem found in an input, with its place and a stable code.
//
// What it is: the record the reader emits for every malformed or doubtful line, and the sink
// interface that receives them. Each diagnostic names its file, line, column, severity, a
// stable code (the `[code]` users grep for and tests assert) and the text of the line.
// What it is not: printing. The library never prints; `format_diagnostic` only builds the
// familiar `file:line:col: severity: message [code]` text for the CLI to print.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/export.h"

namespace calltree {

// Threads and lifetime: a value.
enum class severity : std::uint8_t { note, warning, error };

CALLTREE_API std::string_view to_string(severity s);

// Stable codes. Never renumber or rename: they are part of the CLI and JSON interface.
// Threads and lifetime: a value.
enum class diag_code : std::uint8_t {
  io_error,                 // the input could not be read to its end
  truncated_input,          // a compressed stream ended early
  line_too_long,            // a line longer than the reader's limit (skipped)
  nul_byte,                 // a NUL byte inside a line
  binary_input,             // the input does not look like text at all
  leading_space,            // a line starts with white space
  unknown_line,             // a line that is no header line, no key=value and no cost line
  unknown_key,              // key=value with an unknown key
  unknown_header,           // "key: value" with an unknown key
  unsupported_version,      // version: 2 or later
  bad_positions,            // positions: with an unknown kind
  no_events,                // a part or file without events:
  duplicate_event,          // events: Ir Ir
  redefined_events,         // events: given twice in one header
  bad_event_definition,     // event: line that cannot be parsed
  cost_before_events,       // a cost line before any events:
  malformed_number,         // a token that is no number
  number_overflow,          // a number above 2^64-1
  cost_overflow,            // a sum of costs above 2^64-1 (saturated)
  negative_cost,            // a negative number: a file of differences, signed (a note, once)
  hex_cost,                 // a cost written in hex
  relative_cost,            // +N, -N or * in a cost column
  too_many_costs,           // more costs than events (line skipped)
  missing_position,         // fewer position columns than positions: names
  position_below_zero,      // a relative position that goes below 0 (clamped)
  position_overflow,        // a relative position above 2^64-1
  undefined_name,           // (id) used before it was defined
  redefined_name,           // (id) defined again with another name in one part
  bad_compressed_name,      // "(12" without ")", or an id over 2^64
  empty_name,               // fn= with nothing after it
  cost_without_function,    // a cost line before any fn=
  inline_without_function,  // fi=/fe= before any fn=
  call_without_cost,        // calls= not followed by its cost line
  call_without_callee,      // calls= without cfn= before it
  call_without_target,      // calls=N without a target position
  extra_call_target,        // calls= with more target tokens than position columns
  callee_file_after_cfn,    // cfi=/cob= after cfn= (the call's file still applies)
  bad_call_count,           // calls= count missing or malformed
  zero_call_count,          // calls=0 (valid; a call begun in an earlier dump, or sampling)
  jump_without_source,      // jump=/jcnd= not followed by its source position line
  bad_jump,                 // jump=/jcnd= that cannot be parsed
  jcnd_space_form,          // jcnd=A B (the spec's order, executed first) instead of A/B
  jump_followed_exceeds,    // jcnd= followed count above executed count
  summary_before_events,    // summary: before events:
  summary_mismatch,         // summary: smaller than the sum of self costs
  totals_mismatch,          // totals: differs from the sum of self costs
  bad_summary,              // summary:/totals: that cannot be parsed
  part_separator,           // Xdebug's "==== NEW PROFILING FILE" line
  no_data,                  // a file with no cost lines at all
  limit_exceeded,           // a resource guard (--max-memory) stopped reading
  likely_truncated,         // a callgrind file without its end: no totals:, no last newline,
                            // or summary: above the sum of self costs (the file was cut short)
  input_changed,            // the file shrank while it was read (its producer rewrote it)
  input_grew,               // the file grew while it was read (read to its size at the start)
  calls_above_lines,        // calls into a function cost more than its own lines add up to
  // Other profilers' files (share/doc/calltree/import.md):
  bad_folded_line,  // a folded-stacks line without its count, or a count that is no number
  bad_cpuprofile,   // V8 .cpuprofile JSON that cannot be read as one
  bad_pprof,        // a profile.proto that cannot be decoded (its byte offset said)
  bad_pstats,       // cProfile / pstats marshal data that cannot be read (its byte offset said)
  bad_perf_script,  // a `perf script` line that cannot be read
  perf_data,        // a perf.data file `perf script` could not be run on (perf missing, failing)
};

// The last code: loops over every code stop here.
inline constexpr diag_code last_diag_code = diag_code::perf_data;

CALLTREE_API std::string_view to_string(diag_code c);

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct diagnostic {
  calltree::severity severity = severity::error;
  diag_code code = diag_code::unknown_line;
  std::string file;          // display name of the input
  std::uint64_t line = 0;    // 1-based; 0 = the input as a whole
  std::uint32_t column = 0;  // 1-based; 0 = no column
  std::uint32_t length = 0;  // characters to underline from column (0 = one caret)
  std::string message;
  std::string line_text;  // the line as read (CR stripped), cut to a sane length
};

// `file:line:col: severity: message [code]`, then the line and a caret under the column.
CALLTREE_API std::string format_diagnostic(const diagnostic& d, bool with_source_line = true);

// Threads: the reader calls a sink on the thread that called it, one call at a time. Lifetime: a
// diagnostic handed over is the sink's to copy; it must outlive the reading.
class CALLTREE_API diagnostic_sink {
 public:
  virtual ~diagnostic_sink() = default;
  virtual void report(diagnostic d) = 0;
  // Whether the sink wants the next diagnostic of `code` whole (message, line text). A sink
  // that keeps only the first few of each code says no after those, and the reader calls
  // count_only() instead, without building the text: a file with a note on every line
  // (Xdebug's `calls=1 0 0`) then reads at nearly the speed of one without. Default: every
  // diagnostic whole.
  virtual bool wants(diag_code code) const {
    (void)code;
    return true;
  }
  // A diagnostic not wanted whole: its code and severity, to be counted.
  virtual void count_only(diag_code code, calltree::severity s) {
    (void)code;
    (void)s;
  }
};

// Keeps every count and the first `keep_per_code` diagnostics of each code, so a file with a
// million warnings stays small in memory and every problem is still counted.
// Threads: one thread at a time (a sink); read it once reading is over. Lifetime: kept() is valid
// as long as the collector.
class CALLTREE_API diagnostic_collector final : public diagnostic_sink {
 public:
  explicit diagnostic_collector(std::size_t keep_per_code = 20) : keep_per_code_(keep_per_code) {}
  void report(diagnostic d) override;
  bool wants(diag_code c) const override {
    return by_code_[static_cast<std::size_t>(c)] < keep_per_code_;
  }
  void count_only(diag_code c, calltree::severity s) override;

  const std::vector<diagnostic>& kept() const { return kept_; }
  std::uint64_t errors() const { return errors_; }
  std::uint64_t warnings() const { return warnings_; }
  std::uint64_t notes() const { return notes_; }
  std::uint64_t count(diag_code c) const { return by_code_[static_cast<std::size_t>(c)]; }
  std::uint64_t suppressed() const { return suppressed_; }

 private:
  void tally(diag_code c, calltree::severity s);
  std::size_t keep_per_code_;
  std::vector<diagnostic> kept_;
  std::uint64_t by_code_[64] = {};
  std::uint64_t errors_ = 0, warnings_ = 0, notes_ = 0, suppressed_ = 0;
};

}  // namespace calltree

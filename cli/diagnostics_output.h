// diagnostics_output.h — how the CLI prints what the library reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "views/session.h"

namespace calltree::cli {

// Prints each kept diagnostic to stderr (`file:line:col: severity: message [code]`, the line and
// a caret; colours on a TTY), then one line per code whose further diagnostics were not kept.
void print_diagnostics(const diagnostic_collector& c);

// Prints to stderr, without the source line, the kept diagnostics a command that does not list
// every diagnostic must still show: errors, and the warnings that a file was cut short
// (likely-truncated). The others are counted in the command's one-line summary.
void print_serious(const diagnostic_collector& c);

// `NAME: error: the file changed while it was read [input-changed]` on stderr: what serve and
// report, which list no diagnostics, say as they refuse a file that changed (read_stats::changed).
void print_input_changed(const std::string& name);

// Whether a file that serve or report read changed meanwhile: its input-changed error is among
// the diagnostics kept or, when those ran out before it (they keep the first ones), it was not
// read to its end and its size is no longer the `size_at_start` it had.
bool changed_while_read(const std::vector<diagnostic>& kept, bool complete, const std::string& path,
                        std::uint64_t size_at_start);

// The file of a session (one file, or each file of a run) that changed while it was read, if
// one did (changed_while_read): serve and tui refuse to show it.
std::optional<std::string> changed_input(const views::session& s);

// Passes every diagnostic on to `next`, the signs of a cut file (likely-truncated) as errors:
// `check --strict`.
class strict_sink final : public diagnostic_sink {
 public:
  explicit strict_sink(diagnostic_sink& next) : next_(next) {}
  void report(diagnostic d) override {
    if (d.code == diag_code::likely_truncated) d.severity = severity::error;
    next_.report(std::move(d));
  }
  bool wants(diag_code code) const override { return next_.wants(code); }
  void count_only(diag_code code, severity s) override {
    next_.count_only(code, code == diag_code::likely_truncated ? severity::error : s);
  }

 private:
  diagnostic_sink& next_;
};

// Parses sizes like 512M, 2G, 1048576 (bytes). nullopt if malformed.
std::optional<std::uint64_t> parse_size(std::string_view s);

// "calltree: " + message on stderr.
void print_error(std::string_view message);

}  // namespace calltree::cli

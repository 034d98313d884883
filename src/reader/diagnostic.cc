#include "calltree/diagnostic.h"

#include <array>

namespace calltree {

std::string_view to_string(severity s) {
  switch (s) {
    case severity::note:
      return "note";
    case severity::warning:
      return "warning";
    case severity::error:
      return "error";
  }
  return "error";
}

namespace {
constexpr std::array<std::string_view, 60> code_names = {
    "io-error",
    "truncated-input",
    "line-too-long",
    "nul-byte",
    "binary-input",
    "leading-space",
    "unknown-line",
    "unknown-key",
    "unknown-header",
    "unsupported-version",
    "bad-positions",
    "no-events",
    "duplicate-event",
    "redefined-events",
    "bad-event-definition",
    "cost-before-events",
    "malformed-number",
    "number-overflow",
    "cost-overflow",
    "negative-cost",
    "hex-cost",
    "relative-cost",
    "too-many-costs",
    "missing-position",
    "position-below-zero",
    "position-overflow",
    "undefined-name",
    "redefined-name",
    "bad-compressed-name",
    "empty-name",
    "cost-without-function",
    "inline-without-function",
    "call-without-cost",
    "call-without-callee",
    "call-without-target",
    "extra-call-target",
    "callee-file-after-cfn",
    "bad-call-count",
    "zero-call-count",
    "jump-without-source",
    "bad-jump",
    "jcnd-space-form",
    "jump-followed-exceeds",
    "summary-before-events",
    "summary-mismatch",
    "totals-mismatch",
    "bad-summary",
    "part-separator",
    "no-data",
    "limit-exceeded",
    "likely-truncated",
    "input-changed",
    "input-grew",
    "calls-above-lines",
    "bad-folded-line",
    "bad-cpuprofile",
    "bad-pprof",
    "bad-pstats",
    "bad-perf-script",
    "perf-data",
};
static_assert(static_cast<std::size_t>(last_diag_code) + 1 == code_names.size());
}  // namespace

std::string_view to_string(diag_code c) { return code_names[static_cast<std::size_t>(c)]; }

std::string format_diagnostic(const diagnostic& d, bool with_source_line) {
  std::string s = d.file;
  if (d.line) {
    s += ':' + std::to_string(d.line);
    if (d.column) s += ':' + std::to_string(d.column);
  }
  s += ": ";
  s += to_string(d.severity);
  s += ": ";
  s += d.message;
  s += " [";
  s += to_string(d.code);
  s += "]\n";
  if (with_source_line && d.line && !d.line_text.empty()) {
    s += "  ";
    // Control characters would garble a terminal: show them as '?'.
    for (char c : d.line_text) s += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
    s += '\n';
    if (d.column && d.column <= d.line_text.size() + 1) {
      s += "  ";
      for (std::uint32_t i = 1; i < d.column; ++i) s += d.line_text[i - 1] == '\t' ? '\t' : ' ';
      s += '^';
      // Underline no further than the line text shown (it is cut to a sane length).
      const std::size_t shown = d.line_text.size() + 1 - d.column;
      for (std::uint32_t i = 1; i < d.length && i < shown; ++i) s += '~';
      s += '\n';
    }
  }
  return s;
}

void diagnostic_collector::report(diagnostic d) {
  if (!wants(d.code)) {
    count_only(d.code, d.severity);
    return;
  }
  tally(d.code, d.severity);
  kept_.push_back(std::move(d));
}

void diagnostic_collector::count_only(diag_code c, calltree::severity s) {
  tally(c, s);
  ++suppressed_;
}

void diagnostic_collector::tally(diag_code c, calltree::severity s) {
  switch (s) {
    case severity::error:
      ++errors_;
      break;
    case severity::warning:
      ++warnings_;
      break;
    case severity::note:
      ++notes_;
      break;
  }
  ++by_code_[static_cast<std::size_t>(c)];
}

}  // namespace calltree

// report/diff.h — `calltree diff` output: the text tables, the JSON document, Markdown.
//
// What it is: formatting of an analysis/diff.h result. The text report has a header (inputs,
// events, order, threshold, function counts), the program totals with their change, then the
// listed functions with old, new, delta and delta % of self and inclusive cost, one row per
// shown event; `--function` details follow (per line with the source text when the file is
// found, per call site with call counts). The JSON document (schema in docs/json.md, "diff")
// holds the same facts for every compared event. What it is not: the analysis (no sums here),
// nor the CLI (no exit codes; the gate verdict is passed in).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "calltree/analysis/diff.h"

namespace calltree {

struct diff_input_info {
  std::string name;  // as given on the command line
  std::string cmd;   // the first part's cmd:
};

struct diff_report_options {
  diff_input_info old_input, new_input;
  std::vector<std::size_t> shown_events;  // indices into diff_result::events; empty = all
  diff_ranking ranking;
  std::optional<part_id> part;  // as in diff_options
  // Where `--function` looks for source files (callgrind_annotate's -I): each directory is
  // tried in front of the file name as written, after the name itself.
  std::vector<std::string> source_dirs;
  // --fail-above, if given, and its verdict (written to both outputs).
  std::optional<diff_gate> gate;
  std::vector<gate_failure> gate_failures;
};

// `file:name [object]`, as callgrind_annotate labels functions (no `file:` when the file is
// empty, no `[object]` when the object is).
std::string function_label(const function_key& k);

// "1,234,567".
std::string with_thousands(std::uint64_t v);
// "+1,234", "-56", "0".
std::string signed_delta(std::uint64_t old_value, std::uint64_t new_value);
// "+12.34%", "-100.00%", "0.00%", "n/a" (growth from 0).
std::string percent_text(std::uint64_t old_value, std::uint64_t new_value);

void write_diff_text(std::ostream& out, const diff_result& r, const diff_selection& selection,
                     const std::vector<function_detail>& details,
                     const diff_report_options& options);

// A Markdown report (report/diff_markdown.cc): the totals, then at most `markdown_rows` of the
// listed functions, then the gate's verdict.
inline constexpr std::size_t markdown_rows = 20;
void write_diff_markdown(std::ostream& out, const diff_result& r, const diff_selection& selection,
                         const diff_report_options& options);

void write_diff_json(std::ostream& out, const diff_result& r, const diff_selection& selection,
                     const std::vector<function_detail>& details,
                     const diff_report_options& options);

}  // namespace calltree

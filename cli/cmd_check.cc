// cmd_check.cc — `calltree check [--json] FILE...`: validate profiles, streaming.
#include <cstdio>
#include <optional>
#include <string>

#include "analysis/inclusive_solver.h"
#include "calltree/checker.h"
#include "calltree/cost_matrix.h"
#include "calltree/reader.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "model/string_pool_access.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "report/json.h"

namespace calltree::cli {
namespace {

struct check_flags {
  bool json = false, quiet = false, strict = false, help = false;
  std::optional<std::string> max_diagnostics, threads;
};

constexpr auto check_table = make_flag_table<check_flags>({
    {"json", 0, &check_flags::json, "one JSON object per file, one per line, on stdout"},
    {"quiet", 'q', &check_flags::quiet, "print no diagnostics, only the summary lines"},
    {"strict", 0, &check_flags::strict,
     "a file that looks cut short (likely-truncated: no totals: where its producer writes one, "
     "no last newline, a summary: above the sum read) fails: an error, not a warning"},
    {"max-diagnostics", 0, &check_flags::max_diagnostics,
     "keep at most N diagnostics of each code per file (default 20)", "N"},
    {"max-memory", 0, taken_by_main,
     "stop reading a file whose names take more than SIZE (e.g. 512M; 0 = no limit; "
     "default: 3/4 of this machine's memory)",
     "SIZE"},
    {"threads", 0, &check_flags::threads,
     "threads to read with; 2 or more decode a compressed file on a thread of its own (the "
     "results are the same) [number of cores]",
     "N"},
    {"help", 'h', &check_flags::help, "show this help"},
});

constexpr std::string_view check_usage = "[OPTIONS] FILE...";
constexpr std::string_view check_summary =
    "Reads each profile to its end and reports every problem as\n"
    "file:line:col: severity: message [code], then a one-line summary per file:\n"
    "parts, events, functions, calls and totals (the sum of all self costs),\n"
    "after a warning for each event whose stated total (summary:, totals:) differs.\n"
    "Never holds the profile in memory. Exit status: 0 no errors (warnings alone\n"
    "keep 0), 1 errors found or a file not read to its end, 2 usage or I/O error.";

// A cost as text: signed in a file of differences (read_stats::signed_costs).
std::string cost_text(std::uint64_t v, const read_stats& s) {
  return s.signed_costs ? std::to_string(as_signed(v)) : std::to_string(v);
}

// Where the file states a total other than the sum of its self costs, per event: the sentence
// of calltree/totals.h (which figure the percentages of annotate and serve are of).
std::vector<std::string> total_warnings(const check_result& r) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.events.size() && i < r.program.size(); ++i)
    if (std::string w = total_difference(r.program[i], r.events[i]); !w.empty())
      out.push_back(std::move(w));
  return out;
}

// The `calls-above-lines` note (serve's and export's, views/call_balance.h), from the
// checker's sums: the functions outside cycles called for more than their own lines add up
// to, counted per part, the largest difference at its function's first line. None for a file
// of differences (its sums are signed).
std::optional<diagnostic> calls_above_lines_note(const check_result& r, const std::string& file,
                                                 const read_stats& s) {
  if (r.calls_above_lines.empty() || s.signed_costs) return std::nullopt;
  std::uint32_t nodes = 0;
  for (auto v : r.arc_from) nodes = std::max(nodes, v + 1);
  for (auto v : r.arc_to) nodes = std::max(nodes, v + 1);
  for (const auto& c : r.calls_above_lines) nodes = std::max(nodes, c.function + 1);
  const auto component = strongly_connected_components(nodes, r.arc_from, r.arc_to);
  std::vector<std::uint32_t> size(nodes, 0);
  for (auto c : component) ++size[c];
  std::size_t count = 0;
  const check_result::call_balance* worst = nullptr;
  for (const auto& c : r.calls_above_lines) {
    if (size[component[c.function]] > 1) continue;  // (a cycle's member)
    ++count;
    if (!worst || c.called - c.lines > worst->called - worst->lines) worst = &c;
  }
  if (!worst) return std::nullopt;
  diagnostic d;
  d.severity = severity::note;
  d.code = diag_code::calls_above_lines;
  d.file = file;
  d.line = worst->line;
  d.message = std::to_string(count) +
              (count == 1 ? " function is called for more than its own lines add up to"
                          : " functions are called for more than their own lines add up to") +
              (worst->line ? " (the most: the function whose lines begin here, called for "
                           : " (the most: a function with no lines of its own, called for ") +
              std::to_string(worst->called) + " " + worst->event + ", its lines " +
              std::to_string(worst->lines) +
              (r.parts > 1 ? ", in part " + std::to_string(worst->part) : std::string()) +
              "); the views keep the file's numbers, and a flame graph leaves the difference "
              "as a gap in the caller's frame";
  return d;
}

// Whether the reader's `summary-mismatch` warning, printed above with its line, said what
// total warning `w` says (`summary: says N EVENT, less than ...` and `the file states a total of
// N EVENT but ...`, a file of one part): then the summary does not say it again.
bool said_by_a_diagnostic(const std::string& w, const diagnostic_collector& d) {
  static constexpr std::string_view says = "summary: says ", states = "the file states a total of ";
  for (const diagnostic& x : d.kept()) {
    if (x.code != diag_code::summary_mismatch || !x.message.starts_with(says)) continue;
    const std::string_view m(x.message);
    const std::size_t comma = m.find(", less than", says.size());
    if (comma == std::string_view::npos) continue;
    if (w.starts_with(std::string(states) +
                      std::string(m.substr(says.size(), comma - says.size())) + " but "))
      return true;
  }
  return false;
}

std::string summary_line(const std::string& file, const check_result& r, const read_stats& s,
                         const diagnostic_collector& d, bool quiet) {
  std::string line;
  for (const auto& w : total_warnings(r))
    if (quiet || !said_by_a_diagnostic(w, d)) line += file + ": warning: " + w + "\n";
  line += file + ": " + (d.errors() ? "FAILED" : "ok") + ": ";
  line += std::to_string(r.parts) + (r.parts == 1 ? " part, " : " parts, ");
  line += "events";
  for (const auto& e : r.events) line += " " + e;
  line += ", " + std::to_string(r.functions) + " functions, " + std::to_string(r.calls) +
          " calls, totals";
  for (std::size_t i = 0; i < r.events.size(); ++i)
    line += " " + r.events[i] + "=" + cost_text(r.totals[i], s);
  if (r.summary && *r.summary != r.totals) {
    line += " (summary:";
    for (std::size_t i = 0; i < r.events.size(); ++i)  // (append: GCC 12 -O3 -Wrestrict)
      line.append(" ").append(cost_text((*r.summary)[i], s));
    line += ")";
  }
  line += "; " + std::to_string(d.errors()) + " errors, " + std::to_string(d.warnings()) +
          " warnings, " + std::to_string(s.skipped_lines) + " of " + std::to_string(s.lines) +
          " lines skipped";
  if (!detail::read_to_end(s)) line += ", reading stopped early";
  return line + "\n";
}

std::string json_line(const std::string& file, const check_result& r, const read_stats& s,
                      const diagnostic_collector& d, compression comp) {
  json_writer j;
  j.begin_object();
  j.key("file").value(file);
  j.key("ok").value(d.errors() == 0);
  j.key("complete").value(detail::read_to_end(s));
  j.key("compression").value(to_string(comp));
  j.key("parts").value(r.parts);
  j.key("events").begin_array();
  for (const auto& e : r.events) j.value(e);
  j.end_array();
  j.key("totals").begin_object();
  for (std::size_t i = 0; i < r.events.size(); ++i)
    j.key(r.events[i]).cost(r.totals[i], s.signed_costs);
  j.end_object();
  j.key("summary");
  if (r.summary) {
    j.begin_object();
    for (std::size_t i = 0; i < r.events.size(); ++i)
      j.key(r.events[i]).cost((*r.summary)[i], s.signed_costs);
    j.end_object();
  } else {
    j.null();
  }
  // The figures of calltree/totals.h: what the file states (null for an event it states
  // nothing of), the figure percentages are of, and the sentence where the stated and summed
  // totals differ.
  j.key("totals_stated").begin_object();
  for (std::size_t i = 0; i < r.events.size() && i < r.program.size(); ++i) {
    j.key(r.events[i]);
    if (r.program[i].stated)
      j.value(*r.program[i].stated);
    else
      j.null();
  }
  j.end_object();
  j.key("program_totals").begin_object();
  for (std::size_t i = 0; i < r.events.size() && i < r.program.size(); ++i)
    j.key(r.events[i]).value(r.program[i].program);
  j.end_object();
  j.key("totals_warnings").begin_array();
  for (const auto& w : total_warnings(r)) j.value(w);
  j.end_array();
  j.key("functions").value(r.functions);
  j.key("calls").value(r.calls);
  j.key("cost_lines").value(s.cost_lines);
  j.key("call_lines").value(s.call_lines);
  j.key("jump_lines").value(s.jump_lines);
  j.key("lines").value(s.lines);
  j.key("skipped_lines").value(s.skipped_lines);
  j.key("bytes").value(s.bytes);
  j.key("errors").value(d.errors());
  j.key("warnings").value(d.warnings());
  j.key("notes").value(d.notes());
  j.key("diagnostics").begin_array();
  for (const auto& x : d.kept()) {
    j.begin_object();
    j.key("severity").value(to_string(x.severity));
    j.key("code").value(to_string(x.code));
    j.key("line").value(x.line);
    j.key("column").value(static_cast<std::uint64_t>(x.column));
    j.key("message").value(x.message);
    j.end_object();
  }
  j.end_array();
  j.key("diagnostics_not_shown").value(d.suppressed());
  j.end_object();
  return j.take() + "\n";
}

int run_check(std::span<const std::string_view> argv) {
  std::string err;
  auto args = parse_flags(argv, check_table, err);
  if (!args) {
    print_error(err + " (see 'calltree check --help')");
    return exit_usage;
  }
  if (args->help) {
    std::fputs(format_help("check", check_usage, check_summary, check_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (args->positional.empty()) {
    print_error("check: no input file (use - for standard input)");
    return exit_usage;
  }
  const bool json = args->json;
  const bool quiet = args->quiet;
  std::size_t keep = 20;
  if (const auto& v = args->max_diagnostics) {
    auto n = parse_size(*v);
    if (!n) {
      print_error("check: --max-diagnostics needs a number");
      return exit_usage;
    }
    keep = static_cast<std::size_t>(*n);
  }
  reader_options ropt;
  ropt.max_name_bytes = memory_limit();
  auto threads = parse_threads(args->threads);
  if (!threads) {
    print_error("check: --threads needs a number from 1 to 64");
    return exit_usage;
  }
  ropt.threads = *threads;
  // (The checker asks for sums, not lines: a chunk read ahead on another core hands over its
  // sums, src/reader/parallel.cc.)
  int rc = exit_ok;
  for (const auto& file : args->positional) {
    signed_costs_scope unsigned_sums(false);  // (each file's own: the reader says if signed)
    auto in = open_input(file);
    if (!in) {
      print_error(in.error().message);
      rc = exit_usage;
      continue;
    }
    std::string name = file == "-" ? "<stdin>" : file;
    ropt.display_name = name;
    diagnostic_collector diags(keep);
    checker chk;
    string_pool names = string_pool_access::make(pool_mode::digest);  // check needs no name text
    progress_line progress(name);
    progress.attach(ropt);
    strict_sink strict(diags);
    diagnostic_sink& sink = args->strict ? static_cast<diagnostic_sink&>(strict) : diags;
    auto stats = detail::read_profile(**in, names, chk, sink, ropt, detail::any_input());
    progress.finish();
    if (!stats) {
      print_error(stats.error().message);
      rc = exit_usage;
      continue;
    }
    auto r = chk.result();
    if (auto note = calls_above_lines_note(r, name, *stats)) diags.report(std::move(*note));
    if (!quiet && !json) print_diagnostics(diags);
    std::string out = json ? json_line(name, r, *stats, diags, (*in)->kind())
                           : summary_line(name, r, *stats, diags, quiet);
    std::fputs(out.c_str(), stdout);
    if ((diags.errors() || !detail::read_to_end(*stats)) && rc == exit_ok) rc = exit_findings;
  }
  return rc;
}

}  // namespace

CALLTREE_COMMAND(check, {.name = "check",
                         .summary = "validate profiles: diagnostics and a summary per file",
                         .usage = check_usage,
                         .description = check_summary,
                         .flags = check_table.flags,
                         .run = run_check});

}  // namespace calltree::cli

// cmd_diff.cc — `calltree diff OLD NEW`: what changed between two profiles, and a CI gate.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "calltree/analysis/diff.h"
#include "calltree/analysis/difference.h"
#include "calltree/cost_matrix.h"
#include "calltree/diagnostic.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "profile_output.h"
#include "progress.h"
#include "reader/load_any.h"
#include "reader/read_profile.h"
#include "report/diff.h"

namespace calltree::cli {
namespace {

struct diff_flags {
  std::optional<std::string> show, sort, inclusive, threshold, limit, part, fail_above, threads,
      format, output;
  std::vector<std::string> function, include, mod_filename, mod_funcname;
  bool json = false, ignore_object = false, strip_recursion = false, per_function = false,
       help = false;
};

constexpr auto diff_table = make_flag_table<diff_flags>({
    {"show", 0, &diff_flags::show, "events to show, comma-separated (default: all compared events)",
     "A,B"},
    {"sort", 0, &diff_flags::sort, "events to sort by, in turn (default: the first compared event)",
     "A,B"},
    {"inclusive", 0, &diff_flags::inclusive, "sort by inclusive instead of self cost", "yes|no"},
    {"threshold", 0, &diff_flags::threshold,
     "list functions whose change of the first sort event is at least PCT % of its old total "
     "(default 0.1; 0 lists every changed function)",
     "PCT"},
    {"limit", 0, &diff_flags::limit, "list at most N functions (default: no limit)", "N"},
    {"function", 0, &diff_flags::function,
     "per-line and per-call-site changes inside NAME (repeatable)", "NAME"},
    {"include", 'I', &diff_flags::include, "look for source files in DIR too (repeatable)", "DIR"},
    {"json", 0, &diff_flags::json, "write JSON (schema: docs/json.md) instead of text"},
    {"format", 0, &diff_flags::format,
     "text, json, or markdown: the totals and the functions that changed most as tables GitHub "
     "and GitLab render (default text)",
     "text|json|markdown"},
    {"mod-filename", 0, &diff_flags::mod_filename,
     "rewrite file names before matching (regex; repeatable)", "s/OLD/NEW/"},
    {"mod-funcname", 0, &diff_flags::mod_funcname,
     "rewrite function names before matching (regex; repeatable)", "s/OLD/NEW/"},
    {"ignore-object", 0, &diff_flags::ignore_object, "match functions by file and name only"},
    {"strip-recursion", 0, &diff_flags::strip_recursion,
     "drop callgrind's 'N recursion suffixes (fib'2 -> fib)"},
    {"part", 0, &diff_flags::part,
     "compare part N (1-based) of both files (default: all parts summed)", "N"},
    {"fail-above", 0, &diff_flags::fail_above,
     "exit 1 when the program total of EVENT (default: the first sort event) grows by more "
     "than PCT %",
     "PCT[:EVENT]"},
    {"per-function", 0, &diff_flags::per_function,
     "apply --fail-above to each listed function as well"},
    {"threads", 0, &diff_flags::threads,
     "threads to read with; 2 or more decode a compressed file on a thread of its own, and "
     "read a plain file's chunks ahead on the others (the results are the same) [number of "
     "cores]",
     "N"},
    {"output", 'o', &diff_flags::output,
     "write the difference NEW - OLD as a callgrind file (negative where cost went down, as "
     "Valgrind's cg_diff writes) to FILE ('-' = standard output), and no report",
     "FILE"},
    {"help", 'h', &diff_flags::help, "show this help"},
});

constexpr std::string_view diff_usage = "[OPTIONS] OLD NEW";
constexpr std::string_view diff_summary =
    "Compare two profiles: program totals, then functions sorted by the absolute change of the\n"
    "first sort event, with old, new, delta and delta % of self and inclusive cost. Functions\n"
    "are matched by (object, file, name), after the optional rewrites. Exit status: 0, or 1\n"
    "when --fail-above is exceeded or an input has errors (the diff is printed) or was not\n"
    "read to its end (no diff); 2 on usage or I/O errors.";

bool parse_count(std::string_view s, std::uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Loads one input; prints its errors (a warning count only) and returns false on a fatal error.
// Positions are kept only for --function (the function table needs none), jumps never. With
// no positions the reader may hand over sums (per run of lines, per context in a chunk read
// ahead on another core): the model has one row per function and file, and per caller and
// callee, whichever way its records came.
bool load(const std::string& path, profile& p, bool keep_positions, unsigned threads,
          bool& faulty) {
  diagnostic_collector diags(5);
  reader_options ro;
  ro.display_name = path;
  ro.threads = threads;
  ro.max_name_bytes = memory_limit();
  builder_options bo;  // (with no positions the builder asks for sums, profile_builder.h)
  bo.max_memory = memory_limit();
  bo.keep_jumps = false;
  bo.keep_positions = keep_positions ? static_cast<std::uint8_t>(pos_instr | pos_line) : 0;
  auto r = detail::load_any_input(path, p, diags, ro, bo);
  if (!r) {
    std::fprintf(stderr, "calltree diff: %s\n", r.error().message.c_str());
    return false;
  }
  print_serious(diags);
  // Half a profile would diff as a fall in every function after the cut: no diff, status 1
  // (docs/cli.md, "Exit status"). Errors in lines that were skipped: the diff, status 1.
  if (!detail::read_to_end(*r)) {
    std::fprintf(stderr, "calltree diff: %s could not be read to its end; no diff\n", path.c_str());
    faulty = true;
    return false;
  }
  if (diags.errors()) faulty = true;
  if (p.parts.empty() && diags.errors()) {  // nothing read (a binary file): nothing to compare
    std::fprintf(stderr, "calltree diff: %s holds no profile that could be read; no diff\n",
                 path.c_str());
    return false;
  }
  if (diags.errors() || diags.warnings())
    std::fprintf(stderr,
                 "calltree diff: %s: %llu errors, %llu warnings (see 'calltree check %s')\n",
                 path.c_str(), static_cast<unsigned long long>(diags.errors()),
                 static_cast<unsigned long long>(diags.warnings()), path.c_str());
  return true;
}

// `diff OLD NEW -o DELTA`: the difference as a callgrind file (difference.h), no report.
int write_difference(const command_line<diff_flags>& a, unsigned threads) {
  const bool report_flag = a.show || a.sort || a.inclusive || a.threshold || a.limit || a.part ||
                           a.fail_above || a.json || a.per_function || !a.function.empty() ||
                           !a.include.empty() || !a.mod_filename.empty() ||
                           !a.mod_funcname.empty() || a.ignore_object || a.strip_recursion;
  if (report_flag)
    return usage_error("diff",
                       "-o writes the difference of the whole files, matched by (object, file, "
                       "name); it takes no report or matching option (only --threads)");
  if (a.output->empty()) return usage_error("diff", "-o needs a file name ('-' = stdout)");
  if (a.positional[0] == "-" && a.positional[1] == "-")
    return usage_error("diff", "standard input ('-') can be read only once");
  merge_options options;
  options.threads = threads;
  options.max_memory = memory_limit();
  diagnostic_collector diags(5);
  profile delta;
  auto stats = difference_inputs(a.positional[0], a.positional[1], delta, diags, options);
  writer_options wo;
  wo.creator = std::string("calltree ") + CALLTREE_VERSION + " diff";
  return write_summed_profile(stats, diags, delta, *a.output, wo, "diff");
}

std::string first_cmd(const profile& p) {
  return p.parts.empty() ? "" : p.parts.front().header.cmd;
}

int run_diff(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, diff_table, err);
  if (!parsed) return usage_error("diff", err);
  const command_line<diff_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("diff", diff_usage, diff_summary, diff_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (a.positional.size() != 2) return usage_error("diff", "needs exactly two files, OLD and NEW");
  if (a.output) {
    auto threads = parse_threads(a.threads);
    if (!threads) return usage_error("diff", "--threads needs a number from 1 to 64");
    return write_difference(a, *threads);
  }
  std::string format = a.format.value_or(a.json ? "json" : "text");
  if (format != "text" && format != "json" && format != "markdown")
    return usage_error("diff", "--format takes text, json or markdown");
  if (a.json && a.format && format != "json")
    return usage_error("diff", "--json and --format=" + format + " exclude each other");
  if (format == "markdown" && !a.function.empty())
    return usage_error("diff", "--function has no Markdown form (use text or json)");

  diff_options options;
  for (const auto& e : a.mod_filename) {
    auto s = parse_substitution(e);
    if (!s) return usage_error("diff", "--mod-filename: " + s.error().message);
    options.match.file_rewrites.push_back(std::move(*s));
  }
  for (const auto& e : a.mod_funcname) {
    auto s = parse_substitution(e);
    if (!s) return usage_error("diff", "--mod-funcname: " + s.error().message);
    options.match.function_rewrites.push_back(std::move(*s));
  }
  options.match.ignore_object = a.ignore_object;
  options.match.strip_recursion = a.strip_recursion;
  if (const auto& v = a.part) {
    std::uint64_t n = 0;
    if (!parse_count(*v, n) || n == 0 || n > 0xffffffffu)
      return usage_error("diff", "--part needs a part number from 1");
    options.part = part_id{n - 1};
  }
  diff_report_options report;
  if (const auto& v = a.threshold) {
    auto t = parse_nonnegative(*v);
    if (!t || *t > 100) return usage_error("diff", "--threshold needs a percentage from 0 to 100");
    report.ranking.threshold_percent = *t;
  }
  if (const auto& v = a.limit) {
    std::uint64_t n = 0;
    if (!parse_count(*v, n)) return usage_error("diff", "--limit needs a number");
    report.ranking.limit = n;
  }
  if (const auto& v = a.inclusive) {
    auto b = parse_yes_no(*v);
    if (!b) return usage_error("diff", "--inclusive needs yes or no");
    report.ranking.inclusive = *b;
  }
  if (a.per_function && !a.fail_above)
    return usage_error("diff", "--per-function needs --fail-above");

  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("diff", "--threads needs a number from 1 to 64");

  profile old_profile, new_profile;
  const bool positions = !a.function.empty();
  bool faulty = false;  // an input with errors, or not read to its end: exit 1
  if (!load(a.positional[0], old_profile, positions, *threads, faulty) ||
      !load(a.positional[1], new_profile, positions, *threads, faulty))
    return faulty ? exit_findings : exit_usage;
  // The report's numbers: signed where either file holds differences (each reading started
  // unsigned, and the thread is as the last one left it).
  signed_costs_scope sums(old_profile.signed_costs || new_profile.signed_costs);

  auto diffed = diff_profiles(old_profile, new_profile, options);
  if (!diffed) {
    std::fprintf(stderr, "calltree diff: %s\n", diffed.error().message.c_str());
    return exit_usage;
  }
  const diff_result& r = *diffed;
  if (r.events.empty()) {
    std::fprintf(stderr, "calltree diff: the two profiles have no event in common\n");
    return exit_usage;
  }
  if (!r.old_only_events.empty() || !r.new_only_events.empty()) {
    std::string msg;
    for (const auto& e : r.old_only_events) msg += " " + e + " (only in old)";
    for (const auto& e : r.new_only_events) msg += " " + e + " (only in new)";
    std::fprintf(stderr, "calltree diff: warning: events not compared:%s\n", msg.c_str());
  }
  if (r.saturated)
    std::fprintf(stderr, "calltree diff: warning: some costs exceed 2^64-1 and are saturated\n");

  auto event_index = [&](const std::string& name, const char* flag_name, event_id& out) {
    auto e = r.find_event(name);
    if (!e) {
      usage_error(
          "diff", std::string(flag_name) + ": event '" + name + "' is not compared (compared: " +
                      [&] {
                        std::string s;
                        for (const auto& x : r.events) s += (s.empty() ? "" : " ") + x;
                        return s;
                      }() +
                      ")");
      return false;
    }
    out = *e;
    return true;
  };
  if (const auto& v = a.show) {
    for (const auto& name : split_commas(*v)) {
      event_id e;
      if (!event_index(name, "--show", e)) return exit_usage;
      report.shown_events.push_back(e.index());
    }
    if (report.shown_events.empty()) return usage_error("diff", "--show needs at least one event");
  }
  if (const auto& v = a.sort) {
    for (const auto& name : split_commas(*v)) {
      event_id e;
      if (!event_index(name, "--sort", e)) return exit_usage;
      report.ranking.sort_events.push_back(e);
    }
    if (report.ranking.sort_events.empty())
      return usage_error("diff", "--sort needs at least one event");
  }
  if (const auto& v = a.fail_above) {
    diff_gate gate;
    std::string pct = *v, event;
    if (auto colon = pct.find(':'); colon != std::string::npos) {
      event = pct.substr(colon + 1);
      pct.resize(colon);
    }
    auto limit = parse_nonnegative(pct);
    if (!limit)
      return usage_error("diff", "--fail-above needs PCT or PCT:EVENT, PCT a number >= 0");
    gate.percent = *limit;
    if (!event.empty()) {
      if (!event_index(event, "--fail-above", gate.event)) return exit_usage;
    } else {
      gate.event =
          report.ranking.sort_events.empty() ? event_id{0} : report.ranking.sort_events.front();
    }
    gate.per_function = a.per_function;
    report.gate = gate;
  }

  const diff_selection selection = select_functions(r, report.ranking);
  std::vector<function_detail> details;
  for (const auto& name : a.function) {
    auto d = diff_function(old_profile, new_profile, r, name, options);
    if (d.empty()) {
      std::string msg = "--function: no function named '" + name + "' in either profile";
      auto similar = similar_function_names(r, name);
      if (!similar.empty()) {
        msg += "; similar names:";
        for (const auto& s : similar) msg += "\n  " + s;
      }
      return usage_error("diff", msg);
    }
    for (auto& x : d) details.push_back(std::move(x));
  }
  if (report.gate) report.gate_failures = check_gate(r, selection, report.ranking, *report.gate);

  report.old_input = {a.positional[0], first_cmd(old_profile)};
  report.new_input = {a.positional[1], first_cmd(new_profile)};
  report.part = options.part;
  report.source_dirs = a.include;
  if (format == "json")
    write_diff_json(std::cout, r, selection, details, report);
  else if (format == "markdown")
    write_diff_markdown(std::cout, r, selection, report);
  else
    write_diff_text(std::cout, r, selection, details, report);
  std::cout.flush();

  if (report.gate && !report.gate_failures.empty()) {
    for (const auto& f : report.gate_failures) {
      std::string what =
          f.function ? function_label(r.functions[*f.function].key) : std::string("program total");
      std::fprintf(stderr, "calltree diff: %s: %s grew %s (%s -> %s), above %g%%\n", what.c_str(),
                   r.events[f.event.index()].c_str(),
                   percent_text(f.old_value, f.new_value).c_str(),
                   with_thousands(f.old_value).c_str(), with_thousands(f.new_value).c_str(),
                   report.gate->percent);
    }
    return exit_findings;
  }
  return faulty ? exit_findings : exit_ok;
}

}  // namespace
}  // namespace calltree::cli

CALLTREE_COMMAND(diff, {.name = "diff",
                        .summary = "compare two profiles (functions, lines, calls; CI gate)",
                        .usage = calltree::cli::diff_usage,
                        .description = calltree::cli::diff_summary,
                        .flags = calltree::cli::diff_table.flags,
                        .run = calltree::cli::run_diff});

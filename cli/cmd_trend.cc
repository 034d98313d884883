// cmd_trend.cc — `calltree trend DIR | FILE...`: how each function's cost moved across runs,
// the run that changed it, and a CI gate on the last run (docs/trend.md).
#include <re2/re2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "flag_table.h"
#include "history/index.h"
#include "history/run_order.h"
#include "history/runs.h"
#include "history/trend.h"
#include "history/trend_report.h"
#include "memory_option.h"
#include "progress.h"
#include "report/diff.h"

namespace calltree::cli {
namespace {

struct trend_flags {
  std::optional<std::string> event, function, threshold, min_share, order, format, fail_above,
      index, limit, detector, threads;
  bool json = false, csv = false, per_function = false, help = false;
};

constexpr auto trend_table = make_flag_table<trend_flags>({
    {"event", 0, &trend_flags::event,
     "events to follow, comma-separated (default: the first event of the oldest run)", "A,B"},
    {"function", 0, &trend_flags::function,
     "list the changes of the functions whose name matches RE only (RE2, anywhere in the name)",
     "RE"},
    {"threshold", 0, &trend_flags::threshold,
     "the least step that is a change, in % of the cost before it (default 1)", "PCT"},
    {"min-share", 0, &trend_flags::min_share,
     "leave out a function's change when its cost before and after it is below PCT % of the "
     "program total (default 0.1)",
     "PCT"},
    {"order", 0, &trend_flags::order,
     "oldest first by the files' modification time, or by their names in natural order "
     "(run9 before run10) (default time)",
     "time|name"},
    {"detector", 0, &trend_flags::detector,
     "how a change is found: exact (counted events), robust (medians of windows, for timed "
     "events), auto: robust for events that speak of time and for a timing or sampling "
     "profiler's files, exact for the others (default auto)",
     "auto|exact|robust"},
    {"limit", 0, &trend_flags::limit,
     "show at most N changes in text and Markdown (default 50; 0: all)", "N"},
    {"json", 0, &trend_flags::json, "write JSON (schema: docs/json.md) instead of text"},
    {"csv", 0, &trend_flags::csv, "write the changes as CSV instead of text"},
    {"format", 0, &trend_flags::format,
     "text, json, csv, or markdown (a table GitHub and GitLab render) (default text)",
     "text|json|csv|markdown"},
    {"fail-above", 0, &trend_flags::fail_above,
     "exit 1 when the last run's program total of EVENT (default: the first event) grew by "
     "more than PCT % over the runs before it",
     "PCT[:EVENT]"},
    {"per-function", 0, &trend_flags::per_function,
     "apply --fail-above to each function's self and inclusive cost as well"},
    {"index", 0, &trend_flags::index,
     "the index of the runs read (SQLite; default: $XDG_CACHE_HOME/calltree/index.sqlite); "
     "none: no index",
     "PATH|none"},
    {"threads", 0, &trend_flags::threads,
     "threads to read each file with (the results are the same) [number of cores]", "N"},
    {"help", 'h', &trend_flags::help, "show this help"},
});

constexpr std::string_view trend_usage = "[OPTIONS] DIR | FILE...";
constexpr std::string_view trend_summary =
    "Follow a folder of runs (or the files named) oldest first: each run's program total, and\n"
    "the runs at which the program total or a function's self or inclusive cost stepped by the\n"
    "threshold or more and stayed there (change points), the biggest first. What was read is\n"
    "kept in an index, so a folder answers fast the second time. Exit status: 0, or 1 when\n"
    "--fail-above is exceeded or a profile could not be read (it is left out); 2 on usage or\n"
    "I/O errors, or when no run could be read.";

bool is_dir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int run_trend(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, trend_table, err);
  if (!parsed) return usage_error("trend", err);
  const command_line<trend_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("trend", trend_usage, trend_summary, trend_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (a.positional.empty()) return usage_error("trend", "needs a folder or files");

  std::string format = a.format.value_or("text");
  if (format != "text" && format != "json" && format != "csv" && format != "markdown")
    return usage_error("trend", "--format takes text, json, csv or markdown");
  if (a.json + a.csv + a.format.has_value() > 1)
    return usage_error("trend", "--json, --csv and --format exclude each other");
  if (a.json) format = "json";
  if (a.csv) format = "csv";

  history::trend_options options;
  history::trend_report_options report;
  if (a.threshold) {
    auto t = parse_nonnegative(*a.threshold);
    if (!t || *t <= 0) return usage_error("trend", "--threshold needs a percentage above 0");
    options.threshold_percent = *t;
  }
  report.threshold_percent = options.threshold_percent;
  if (a.min_share) {
    auto t = parse_nonnegative(*a.min_share);
    if (!t || *t > 100) return usage_error("trend", "--min-share needs a percentage from 0 to 100");
    options.min_share_percent = *t;
  }
  history::run_order order = history::run_order::time;
  report.order = a.order.value_or("time");
  if (report.order == "name")
    order = history::run_order::name;
  else if (report.order != "time")
    return usage_error("trend", "--order takes time or name");
  if (a.detector && *a.detector != "auto") {
    if (*a.detector == "exact")
      options.how = history::detector::exact;
    else if (*a.detector == "robust")
      options.how = history::detector::robust;
    else
      return usage_error("trend", "--detector takes auto, exact or robust");
  }
  report.limit = 50;
  if (a.limit) {
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(a.limit->data(), a.limit->data() + a.limit->size(), n);
    if (ec != std::errc() || p != a.limit->data() + a.limit->size())
      return usage_error("trend", "--limit needs a number");
    report.limit = static_cast<std::size_t>(n);
  }
  if (a.event) options.events = split_commas(*a.event);
  if (a.event && options.events.empty()) return usage_error("trend", "--event needs an event");
  std::shared_ptr<RE2> re;
  if (a.function) {
    RE2::Options ro;
    ro.set_log_errors(false);
    ro.set_max_mem(8 << 20);
    re = std::make_shared<RE2>(*a.function, ro);
    if (!re->ok()) return usage_error("trend", "--function: " + re->error());
    options.match = [re](const std::string& name) { return RE2::PartialMatch(name, *re); };
  }
  if (a.per_function && !a.fail_above)
    return usage_error("trend", "--per-function needs --fail-above");
  std::optional<std::string> gate_event;
  if (a.fail_above) {
    history::trend_gate gate;
    std::string pct = *a.fail_above;
    if (auto colon = pct.find(':'); colon != std::string::npos) {
      gate_event = pct.substr(colon + 1);
      pct.resize(colon);
    }
    auto limit = parse_nonnegative(pct);
    if (!limit)
      return usage_error("trend", "--fail-above needs PCT or PCT:EVENT, PCT a number >= 0");
    gate.percent = *limit;
    gate.per_function = a.per_function;
    report.gate = gate;
    // The gate's event is followed too.
    if (gate_event && !options.events.empty() &&
        std::find(options.events.begin(), options.events.end(), *gate_event) ==
            options.events.end())
      options.events.push_back(*gate_event);
  }
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("trend", "--threads needs a number from 1 to 64");

  // The files: a folder's (its profiles; the other files are skipped), or those named.
  std::vector<history::run_file> files;
  const bool folder = a.positional.size() == 1 && is_dir(a.positional[0]);
  if (folder) {
    auto listed = history::list_runs(a.positional[0]);
    if (!listed) {
      std::fprintf(stderr, "calltree trend: %s\n", listed.error().message.c_str());
      return exit_usage;
    }
    files = std::move(*listed);
  } else {
    for (const auto& p : a.positional) {
      auto f = history::stat_run(p);
      if (!f) {
        std::fprintf(stderr, "calltree trend: %s\n", f.error().message.c_str());
        return exit_usage;
      }
      files.push_back(std::move(*f));
    }
  }
  history::order_runs(files, order);

  std::unique_ptr<history::run_index> index;
  const std::string index_flag = a.index.value_or("");
  if (index_flag != "none") {
    std::string path = index_flag;
    if (path.empty()) {
      auto d = history::default_index_path();
      if (d)
        path = *d;
      else
        std::fprintf(stderr, "calltree trend: warning: %s; no index\n", d.error().message.c_str());
    }
    if (!path.empty()) {
      auto x = history::run_index::open(path);
      if (x) {
        index = std::move(*x);
        if (!index->note().empty())
          std::fprintf(stderr, "calltree trend: note: %s: %s\n", path.c_str(),
                       index->note().c_str());
      } else {
        std::fprintf(stderr, "calltree trend: warning: %s; the files are read with no index\n",
                     x.error().message.c_str());
      }
    }
  }

  history::run_read_options ro;
  ro.threads = *threads;
  ro.max_memory = memory_limit();
  progress_line progress("trend");
  std::vector<history::loaded_run> runs = history::load_runs(files, index.get(), ro);
  progress.finish();
  if (index && !index->failure().empty())
    std::fprintf(stderr, "calltree trend: warning: %s: %s; the index is not used further\n",
                 index->path().c_str(), index->failure().c_str());

  bool faulty = false;
  std::size_t skipped = 0;
  for (const auto& r : runs) {
    if (r.problem.empty()) {
      if (r.costs.errors)
        std::fprintf(stderr, "calltree trend: %s: %llu error(s) (see 'calltree check %s')\n",
                     r.file.path.c_str(), static_cast<unsigned long long>(r.costs.errors),
                     r.file.path.c_str()),
            faulty = true;
      continue;
    }
    if (r.no_profile && folder) {
      ++skipped;  // a folder's other files
      continue;
    }
    std::fprintf(stderr, "calltree trend: %s; left out\n", r.problem.c_str());
    faulty = true;
  }
  if (skipped)
    std::fprintf(stderr, "calltree trend: %zu %s of %s %s no profile: skipped\n", skipped,
                 skipped == 1 ? "file" : "files", a.positional[0].c_str(),
                 skipped == 1 ? "holds" : "hold");

  auto trend = history::compute_trend(runs, options);
  if (!trend) {
    std::fprintf(stderr, "calltree trend: %s\n", trend.error().message.c_str());
    return exit_usage;
  }
  const history::trend_result& r = *trend;
  for (const auto& l : r.left_out)
    std::fprintf(stderr, "calltree trend: %s; left out\n", l.c_str());
  if (report.gate) {
    if (gate_event) {
      auto e = r.find_event(*gate_event);
      if (!e)
        return usage_error("trend", "--fail-above: event '" + *gate_event + "' is not followed");
      report.gate->event = *e;
    }
    report.gate_failures = history::check_trend_gate(r, *report.gate, options);
  }

  if (format == "json")
    history::write_trend_json(std::cout, r, report);
  else if (format == "csv")
    history::write_trend_csv(std::cout, r, report);
  else if (format == "markdown")
    history::write_trend_markdown(std::cout, r, report);
  else
    history::write_trend_text(std::cout, r, report);
  std::cout.flush();

  if (report.gate && !report.gate_failures.empty()) {
    for (const auto& f : report.gate_failures) {
      std::string what =
          f.function ? r.functions[*f.function].name + (f.inclusive ? " (inclusive)" : " (self)")
                     : std::string("program total");
      char pct[64] = "from 0";
      if (f.percent) std::snprintf(pct, sizeof pct, "%+.2f%%", *f.percent);
      auto whole = [](double v) {
        return with_thousands(v <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(v)));
      };
      std::fprintf(stderr,
                   "calltree trend: %s: %s grew %s in the last run (%s -> %s), above %g%%\n",
                   what.c_str(), r.events[report.gate->event].c_str(), pct, whole(f.before).c_str(),
                   whole(f.after).c_str(), report.gate->percent);
    }
    return exit_findings;
  }
  return faulty ? exit_findings : exit_ok;
}

}  // namespace
}  // namespace calltree::cli

CALLTREE_COMMAND(trend, {.name = "trend",
                         .summary = "follow a folder of runs: which run changed which function",
                         .usage = calltree::cli::trend_usage,
                         .description = calltree::cli::trend_summary,
                         .flags = calltree::cli::trend_table.flags,
                         .run = calltree::cli::run_trend});

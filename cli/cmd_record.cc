// cmd_record.cc — `calltree record [OPTIONS] -- PROGRAM [ARGS...]`: run a program under its
// profiler (callgrind, or Xdebug, cProfile, V8 for php, python, node) into a folder of runs,
// one file per run, and say what it found (docs/record.md).
//
// The order of things, each step the one before it needs:
//  1. Everything that can be refused is refused before the program runs: the flags, Valgrind's
//     options (the installed Valgrind's own list, with the right spelling suggested), the
//     program and the script.
//  2. The profiler writes into a staging folder inside the folder of runs, `.record-XXXXXX`
//     (a dot: trend and serve skip it), one file per process (and thread, or dump).
//  3. The run's files become one file: the one file itself, or several merged with a part
//     each (merge --parts=keep). It is linked into the folder under its final name (link(2)
//     fails rather than replace a file: two records into one folder at once take two numbers),
//     so no half-written profile ever has a run's name. The staging folder is then removed;
//     when something failed it is left, and its path said.
//  4. The report on standard output (the path, the total, the top functions), --compare's diff
//     with the run before, --serve.
// Exit status: the program's (128 + N when signal N killed it), 1 when --fail-above was
// exceeded by a program that exited 0, 2 on usage errors and when no profile was made
// (Valgrind missing or failed, the interpreter wrote none).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/analysis/callers.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/load.h"
#include "calltree/totals.h"
#include "child_process.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "history/run_names.h"
#include "memory_option.h"
#include "profile_output.h"
#include "record_launch.h"
#include "record_profilers.h"
#include "report/diff.h"
#include "valgrind_options.h"

namespace calltree::cli {
namespace {

struct record_flags {
  std::optional<std::string> out, profiler, function, start_at, stop_at, callgrind_args, valgrind,
      top, fail_above;
  std::vector<std::string> valgrind_option;
  bool fast = false, children = false, compare = false, serve = false, help = false;
};

constexpr auto record_table = make_flag_table<record_flags>({
    {"out", 'o', &record_flags::out,
     "the folder of runs: each run is one file in it, numbered (created if missing) "
     "[calltree-runs/PROGRAM]",
     "DIR"},
    {"profiler", 0, &record_flags::profiler,
     "the profiler, else told by the program: php Xdebug, python/python3 cProfile, node V8's "
     "--cpu-prof, anything else callgrind",
     "callgrind|xdebug|cprofile|node"},
    {"fast", 0, &record_flags::fast,
     "callgrind: leave out instruction addresses and jumps (--dump-instr, --collect-jumps): a "
     "faster run, no machine code or branches in the views"},
    {"children", 0, &record_flags::children,
     "callgrind: follow the programs the program runs (--trace-children=yes); each process is "
     "a part of the run's one file"},
    {"function", 0, &record_flags::function,
     "callgrind: collect only inside NAME and what it calls (--toggle-collect; * and ? match "
     "any characters)",
     "NAME"},
    {"start-at", 0, &record_flags::start_at,
     "callgrind: count from the last entry into NAME on (--zero-before; for a function entered "
     "once, from its start)",
     "NAME"},
    {"stop-at", 0, &record_flags::stop_at,
     "callgrind: keep what was counted before the first entry into NAME (--dump-before; for a "
     "function entered a few times: each entry writes a dump)",
     "NAME"},
    {"valgrind-option", 0, &record_flags::valgrind_option,
     "pass OPTION to Valgrind (repeatable), e.g. --valgrind-option=--cache-sim=yes; checked "
     "against the installed Valgrind's options before the run",
     "OPTION"},
    {"callgrind-args", 0, &record_flags::callgrind_args,
     "Valgrind options separated by spaces, checked as --valgrind-option's", "'OPTIONS'"},
    {"valgrind", 0, &record_flags::valgrind, "the Valgrind to run [valgrind, from PATH]", "PATH"},
    {"top", 0, &record_flags::top, "functions listed after the run, by self cost (0: none) [5]",
     "N"},
    {"compare", 0, &record_flags::compare,
     "print the difference to the run before, in the folder, of the same program (calltree "
     "diff's text)"},
    {"fail-above", 0, &record_flags::fail_above,
     "with --compare: exit 1 when the program total of EVENT grew by more than PCT % (as "
     "calltree diff's)",
     "PCT[:EVENT]"},
    {"serve", 0, &record_flags::serve,
     "then serve the profile to a browser, as calltree serve FILE does (prints the URL; Ctrl-C "
     "ends it)"},
    {"help", 'h', &record_flags::help, "show this help"},
});

constexpr std::string_view record_usage = "[OPTIONS] -- PROGRAM [ARGS...]";
constexpr std::string_view record_summary =
    "Run PROGRAM under Valgrind's callgrind, with the options the views need, and put its\n"
    "profile into a folder of runs (--out), one file per run, named so that 'calltree trend\n"
    "DIR' orders them and 'calltree serve DIR' lists them; the processes and threads of one\n"
    "run are the parts of its file. php, python3 and node are run with their own profilers\n"
    "instead (Xdebug, cProfile, --cpu-prof). Then prints the profile's path, its total and\n"
    "top functions. Ctrl-C stops the program and keeps what was collected. Exit status: the\n"
    "program's (128+N when signal N killed it), 1 when --fail-above was exceeded, 2 on\n"
    "usage errors or when no profile was made (Valgrind missing or failed).";

constexpr const char* me = "calltree record";

int failure(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", me, message.c_str());
  return exit_usage;
}

std::string end_text(const child_end& end) {
  if (end.signal) return "killed by " + signal_name(end.signal);
  return "exit status " + std::to_string(end.exit_status);
}

// "--cache-sim=yes --branch-sim=yes" -> its words.
std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Every option is one the installed Valgrind knows, and none is record's own; else the
// message that says which is not, and what was meant.
std::optional<std::string> check_valgrind_options(const std::vector<std::string>& options,
                                                  const std::string& valgrind) {
  if (options.empty()) return std::nullopt;
  std::string help, err;
  auto rc = run_capture({valgrind, "--tool=callgrind", "--help-debug"}, help, 1 << 20, err);
  if (!rc) return "cannot run " + valgrind + ": " + err;
  const auto known = valgrind_option_names(help);
  if (known.size() < 20)
    return "'" + valgrind +
           " --tool=callgrind --help-debug' listed no options: " + help.substr(0, 200);
  for (const auto& o : options) {
    auto name = option_name(o);
    if (!name) {
      auto near = similar_options(o.substr(0, o.find('=')), known);
      return "'" + o + "' is not an option (Valgrind's begin with --)" +
             (near.empty() ? std::string() : "; did you mean --" + near[0] + "?");
    }
    if (auto why = reserved_option(*name); !why.empty()) return "'" + o + "': " + std::string(why);
    if (known_option(*name, known)) continue;
    std::string msg = "Valgrind has no option '" + o.substr(0, o.find('=')) + "'";
    auto near = similar_options(*name, known);
    if (!near.empty()) {
      msg += "; did you mean";
      for (std::size_t i = 0; i < near.size(); ++i)
        msg += (i == 0 ? " --" : i + 1 == near.size() ? " or --" : ", --") + near[i];
      msg += "?";
    }
    return msg + " ('" + valgrind + " --tool=callgrind --help' lists them)";
  }
  return std::nullopt;
}

std::string read_text(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string s(limit, '\0');
  in.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

// Valgrind failed and left no profile: its own words (its logs, which hold what it says once
// the tool started; what it says before that went to the terminal, above), and a hint when the
// words say what is likely wrong.
int valgrind_failed(const record_plan& plan, const child_end& end, const std::string& staging) {
  std::string said;
  for (const auto& log : valgrind_logs(plan)) {
    std::istringstream in(read_text(log, 64 << 10));
    for (std::string line; std::getline(in, line);) {
      // (Its banner and blank lines say nothing of the failure.)
      const auto text = line.find("== ");
      const std::string_view rest = text == std::string::npos
                                        ? std::string_view(line)
                                        : std::string_view(line).substr(text + 3);
      if (rest.empty() || rest.starts_with("Callgrind, a call-graph") ||
          rest.starts_with("Copyright (C)") || rest.starts_with("Using Valgrind-") ||
          rest.starts_with("Parent PID:") || rest.starts_with("For interactive control"))
        continue;
      said += "  " + line + "\n";
    }
  }
  const std::string hint = no_profile_hint(plan, end, said);
  std::fprintf(stderr, "%s: valgrind failed (%s) and wrote no profile%s\n", me,
               end_text(end).c_str(),
               said.empty() ? (hint.empty() ? "; its message, if any, is above" : "") : ":");
  std::fputs(said.c_str(), stderr);
  if (!hint.empty()) std::fprintf(stderr, "%s: %s\n", me, hint.c_str());
  std::error_code ec;
  std::filesystem::remove_all(staging, ec);
  return exit_usage;
}

// Where Valgrind saw the program die: each log's "Process terminating with default action of
// signal 11 (SIGSEGV)" and the stack under it (its advice about stack sizes left out).
std::string valgrind_death(const record_plan& plan) {
  std::string out;
  for (const auto& log : valgrind_logs(plan)) {
    std::istringstream in(read_text(log, 64 << 10));
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
      const auto text = line.find("== ");
      const std::string_view rest = text == std::string::npos
                                        ? std::string_view(line)
                                        : std::string_view(line).substr(text + 3);
      if (rest.starts_with("Process terminating")) inside = true;
      if (!inside) continue;
      if (rest.empty() || rest.starts_with(" If you believe")) break;
      out += "  " + line + "\n";
    }
  }
  return out;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  return out;
}

// Links `file` into `dir` under the next free run name; the name, or empty with `error`.
std::string place_run(const std::string& file, const std::string& dir, history::run_name name,
                      std::string& error) {
  name.number = history::next_run_number(names_in(dir));
  for (int tries = 0; tries < 1000; ++tries, ++name.number) {
    const std::string target = dir + "/" + history::format_run_name(name);
    if (::link(file.c_str(), target.c_str()) == 0) return history::format_run_name(name);
    if (errno == EEXIST) continue;
    if (errno == EPERM || errno == EXDEV || errno == ENOTSUP) {
      // (A file system without hard links: renamed, after a look that the name is free.)
      struct stat st;
      if (::lstat(target.c_str(), &st) == 0) continue;
      if (::rename(file.c_str(), target.c_str()) == 0) return history::format_run_name(name);
    }
    error = "cannot put the profile into " + dir + ": " + std::strerror(errno);
    return {};
  }
  error = "no free run name in " + dir;
  return {};
}

std::string local_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

// Whether the profile at `path` counted nothing: every event's program total 0 (a run of
// --function=NAME in which NAME never ran). Such a run is no baseline for --compare: every
// function of the next would look new. A file that cannot be read is not called empty.
bool empty_run(const std::string& path) {
  load_options lo;
  lo.build.keep_jumps = false;
  lo.build.keep_positions = 0;
  lo.build.max_memory = memory_limit();
  auto loaded = calltree::load(path, lo);
  if (!loaded || loaded->profile.events.empty()) return false;
  for (std::size_t e = 0; e < loaded->profile.events.size(); ++e)
    if (program_total(loaded->profile, event_id{e}) != 0) return false;
  return true;
}

// The report of the run: the path, the total of the first event, the top functions.
void print_summary(const std::string& path, std::size_t files, std::size_t top) {
  std::printf("\n%s: %s\n", me, path.c_str());
  load_options lo;
  lo.build.keep_jumps = false;
  lo.build.keep_positions = 0;
  lo.build.max_memory = memory_limit();
  auto loaded = calltree::load(path, lo);
  if (!loaded || loaded->profile.events.empty()) {
    std::printf("  (no costs could be read: %s)\n",
                loaded ? "no events" : loaded.error().message.c_str());
    return;
  }
  const profile& p = loaded->profile;
  const event_id first{0};
  // (The program total, annotate's: the file's stated total (summary:, totals:) where it has
  // one. Xdebug's states more than its cost lines sum to (the time and memory of its own
  // start and end): the sum would be a figure no other command shows.)
  const std::uint64_t total = program_total(p, first);
  std::string parts;
  if (files > 1) parts = " (" + std::to_string(files) + " parts)";
  // (Every event's total: with --cache-sim=yes the misses are what the run was for.)
  std::string totals;
  for (std::size_t e = 0; e < p.events.size(); ++e)
    totals += (e ? ", " : "") + with_thousands(program_total(p, event_id{e})) + " " +
              p.events[event_id{e}].name;
  std::printf("  total  %s%s\n", totals.c_str(), parts.c_str());
  if (top == 0 || total == 0) return;
  const inclusive_result inc = compute_inclusive(p);
  const auto best = top_functions(inc, first, cost_kind::self, top);
  std::size_t width = 0;
  for (function_id f : best) width = std::max(width, with_thousands(inc.self_of(f)[0]).size());
  bool head = true;
  for (function_id f : best) {
    const std::uint64_t self = inc.self_of(f)[0];
    std::printf("  %s %*s %6s  %.*s\n", head ? "self " : "     ", static_cast<int>(width),
                with_thousands(self).c_str(), percent(self, total).c_str(),
                static_cast<int>(p.function_name(f).size()), p.function_name(f).data());
    head = false;
  }
}

int run_command(std::string_view name, const std::vector<std::string>& args) {
  std::fflush(stdout);
  const std::vector<std::string_view> views(args.begin(), args.end());
  for (const auto& c : commands())
    if (c.name == name) return c.run(views);
  return exit_usage;
}

int run_record(std::span<const std::string_view> args) {
  std::string err;
  // (The first argument that is no option is the program: its own options are its.)
  auto parsed = parse_args(args, record_table.flags, err, /*stop_at_positional=*/true);
  if (!parsed) return usage_error("record", err);
  command_line<record_flags> a{};
  store_flags(record_table, *parsed, static_cast<record_flags&>(a));
  a.positional = std::move(parsed->positional);
  if (a.help) {
    std::fputs(format_help("record", record_usage, record_summary, record_table.flags).c_str(),
               stdout);
    return exit_ok;
  }
  if (a.positional.empty())
    return usage_error("record", "needs a program to run: -- PROGRAM [ARGS]");

  record_plan plan;
  plan.program = a.positional;
  plan.kind = profiler_of_program(plan.program[0]);
  if (a.profiler) {
    auto k = profiler_named(*a.profiler);
    if (!k) return usage_error("record", "--profiler takes callgrind, xdebug, cprofile or node");
    plan.kind = *k;
  }
  const bool callgrind = plan.kind == profiler_kind::callgrind;
  std::vector<std::string> vg_options = a.valgrind_option;
  if (a.callgrind_args)
    for (auto& w : words(*a.callgrind_args)) vg_options.push_back(std::move(w));
  if (!callgrind && (a.fast || a.children || a.function || a.start_at || a.stop_at ||
                     !vg_options.empty() || a.valgrind))
    return usage_error("record",
                       std::string("--fast, --children, --function, --start-at, --stop-at and "
                                   "Valgrind's options are callgrind's; this run uses ") +
                           std::string(profiler_word(plan.kind)) +
                           " (--profiler=callgrind runs the interpreter under Valgrind)");
  for (const auto* v : {&a.function, &a.start_at, &a.stop_at})
    if (*v && (*v)->empty())
      return usage_error("record", "--function, --start-at and --stop-at need a function name");
  std::size_t top = 5;
  if (a.top) {
    if (a.top->empty() || a.top->size() > 4 ||
        a.top->find_first_not_of("0123456789") != std::string::npos)
      return usage_error("record", "--top takes a number from 0 to 9999");
    top = static_cast<std::size_t>(std::stoul(*a.top));
  }
  if (a.fail_above && !a.compare) return usage_error("record", "--fail-above needs --compare");
  if (a.fail_above && !parse_nonnegative(a.fail_above->substr(0, a.fail_above->find(':'))))
    return usage_error("record", "--fail-above needs PCT or PCT:EVENT, PCT a number >= 0");
  plan.fast = a.fast;
  plan.children = a.children;
  plan.function = a.function;
  plan.start_at = a.start_at;
  plan.stop_at = a.stop_at;

  // What would fail only after the program ran is refused now.
  if (callgrind) {
    plan.valgrind = a.valgrind.value_or("valgrind");
    if (!find_program(plan.valgrind))
      return failure(plan.valgrind +
                     " was not found: install Valgrind (Debian, Ubuntu: apt-get install "
                     "valgrind), or name it with --valgrind=PATH");
    if (auto bad = check_valgrind_options(vg_options, plan.valgrind))
      return usage_error("record", *bad);
    plan.valgrind_options = vg_options;
  }
  if (!find_program(plan.program[0]))
    return failure(plan.program[0] + ": no such program" +
                   (plan.program[0].find('/') == std::string::npos ? " in PATH" : ""));
  if (auto script = script_of(plan); script && ::access(script->c_str(), R_OK) != 0)
    return failure(*script + ": " + std::strerror(errno));
  {
    std::string why;
    plan.staging = "/nonexistent";
    if (!launch_of(plan, why)) return usage_error("record", why);
  }

  const std::string label = history::safe_label(run_label(plan));
  const std::string dir = a.out.value_or("calltree-runs/" + label);
  {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
      return failure("cannot make the folder of runs " + dir + ": " +
                     (ec ? ec.message() : std::string("not a folder")));
  }
  std::string staging = dir + "/.record-XXXXXX";
  if (!::mkdtemp(staging.data()))
    return failure("cannot write into " + dir + ": " + std::strerror(errno));
  plan.staging = std::filesystem::absolute(staging).string();

  history::run_name name;
  name.label = label;
  name.stamp = local_stamp();
  catch_stop_signals();
  auto run = run_recording(plan, {}, err);
  if (!run) {
    restore_signals();
    std::error_code ec;
    std::filesystem::remove_all(staging, ec);
    return failure(err);
  }
  const child_end* end = &run->end;
  const std::size_t dropped = run->dropped;
  const auto& files = run->files;
  if (files.empty()) {
    restore_signals();
    if (callgrind) return valgrind_failed(plan, *end, staging);
    std::error_code ec;
    std::filesystem::remove_all(staging, ec);
    return failure(plan.program[0] + " wrote no profile (" + end_text(*end) +
                   "): " + no_profile_hint(plan, *end, ""));
  }
  if (end->signal) name.signal = signal_name(end->signal);
  name.extension = files.size() == 1 ? std::string(profile_extension(plan.kind)) : "callgrind";
  const std::string file = one_recorded_file(files, staging);
  // --function=NAME collects only while NAME runs: a profile of nothing says that NAME never
  // ran (a typo, a name as the program does not spell it, an inlined function). It is not kept:
  // as a run in the folder it would be the next --compare's baseline.
  if (!file.empty() && plan.function && empty_run(file)) {
    restore_signals();
    std::error_code ec;
    std::filesystem::remove_all(staging, ec);
    std::fprintf(stderr,
                 "%s: --function=%s never ran: no function of that name was entered, so "
                 "nothing was counted and no run was kept (%s; callgrind's names are as "
                 "'calltree annotate' lists them, e.g. 'ns::fn(int)', and * and ? match any "
                 "characters; an inlined function is never entered)\n",
                 me, plan.function->c_str(), end_text(*end).c_str());
    return exit_usage;
  }
  std::string placed;
  if (!file.empty()) placed = place_run(file, dir, name, err);
  if (placed.empty()) {
    restore_signals();
    if (!err.empty()) std::fprintf(stderr, "%s: %s\n", me, err.c_str());
    std::fprintf(stderr, "%s: the profiler's files are kept in %s\n", me, staging.c_str());
    return exit_usage;
  }
  const std::string death = callgrind && end->signal ? valgrind_death(plan) : std::string();
  {
    std::error_code ec;
    std::filesystem::remove_all(staging, ec);
  }
  restore_signals();

  const std::string path = dir + "/" + placed;
  print_summary(path, files.size(), top);
  std::fflush(stdout);
  if (end->signal) {
    std::fprintf(stderr, "%s: %s was killed by %s; the profile holds what ran until then\n", me,
                 plan.program[0].c_str(), signal_name(end->signal).c_str());
    std::fputs(death.c_str(), stderr);
  } else if (end->exit_status)
    std::fprintf(stderr, "%s: %s exited with status %d\n", me, plan.program[0].c_str(),
                 end->exit_status);
  if (dropped)
    std::fprintf(stderr, "%s: %zu later dumps of --stop-at=%s were left out\n", me, dropped,
                 plan.stop_at->c_str());

  int status = end->shell_status();
  if (a.compare) {
    // (The run before that counted something: an empty one, of a --function that never
    // ran, recorded before record refused to keep them, is passed over.)
    const auto names = names_in(dir);
    auto before = history::previous_run(names, name.label, history::parse_run_name(placed)->number);
    while (before && empty_run(dir + "/" + *before)) {
      std::printf("\n%s: %s counted nothing: not a baseline\n", me, before->c_str());
      before = history::previous_run(names, name.label, history::parse_run_name(*before)->number);
    }
    if (!before) {
      std::printf("\n%s: no run of %s before this one in %s: nothing to compare\n", me,
                  name.label.c_str(), dir.c_str());
    } else {
      std::printf("\n%s: compared with %s\n", me, before->c_str());
      std::vector<std::string> diff_args{dir + "/" + *before, path, "--limit=10"};
      if (a.fail_above) diff_args.push_back("--fail-above=" + *a.fail_above);
      const int rc = run_command("diff", diff_args);
      if (status == exit_ok) status = rc;
    }
  }
  std::fflush(stdout);
  if (a.serve) {
    std::printf("\n");
    const int rc = run_command("serve", {path});
    if (status == exit_ok) status = rc;
  }
  return status;
}

}  // namespace
}  // namespace calltree::cli

CALLTREE_COMMAND(
    record, {.name = "record",
             .summary = "profile a program (callgrind; php, python, node) into a folder of runs",
             .usage = calltree::cli::record_usage,
             .description = calltree::cli::record_summary,
             .flags = calltree::cli::record_table.flags,
             .run = calltree::cli::run_record});

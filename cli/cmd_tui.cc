// cmd_tui.cc — `calltree tui FILE`: the viewer in a terminal (tui/app.h, docs/tui.md).
//
// Reads the profile as `calltree serve` does (views/session.h: the function tables first, a
// function's lines from its chunks when it is opened), with a progress line on standard
// error, then takes the terminal over until `q`. The rest of what the page's first views need
// is made on a thread of its own meanwhile (views::warm_up).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "app.h"
#include "args.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "objdump_runner.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "terminal_check.h"
#include "viewer_options.h"
#include "views/diff.h"
#include "views/function_list.h"
#include "views/session.h"

namespace calltree::cli {
namespace {

struct tui_flags {
  std::optional<std::string> threads, objdump;
  std::vector<std::string> include, source_root, event, object_root;
  bool parts = false, no_mouse = false, help = false;
};

constexpr auto tui_table = make_flag_table<tui_flags>({
    {"include", 'I', &tui_flags::include, "look for source files in DIR too (repeatable)", "DIR"},
    {"source-root", 0, &tui_flags::source_root,
     "look for sources under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"event", 0, &tui_flags::event, "define a derived event, e.g. 'CEst = Ir + 10 Bm' (repeatable)",
     "'NAME = FORMULA'"},
    {"threads", 0, &tui_flags::threads, "threads to read with [number of cores]", "N"},
    {"objdump", 0, &tui_flags::objdump, "the objdump of the machine-code view [objdump]", "PATH"},
    {"object-root", 0, &tui_flags::object_root,
     "look for object files under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"parts", 0, &tui_flags::parts,
     "the files are one run whose parts they are (two files without it are OLD NEW)"},
    {"no-mouse", 0, &tui_flags::no_mouse,
     "leave the mouse to the terminal (its own selection; no clicks or wheel in the viewer)"},
    {"help", 'h', &tui_flags::help, "show this help"},
});

constexpr std::string_view tui_usage = "[OPTIONS] FILE | OLD NEW | FILE... | --parts A B";
constexpr std::string_view tui_summary =
    "Reads a profile once and shows KCachegrind's views of it in the terminal, for\n"
    "a machine reached by SSH: the function list (sorted, filtered by a regular\n"
    "expression, grouped by object, file or class; one part alone), a function's\n"
    "callers and callees (Enter follows a call, Backspace goes back), the annotated\n"
    "source of its file, its machine code (objdump), and the call tree (perf\n"
    "report's children view, the flame graph's estimate); with two profiles, the\n"
    "functions whose cost changed, signed. The numbers are calltree annotate's and\n"
    "the page's. Keys: `?` in the viewer, and docs/tui.md. Standard input and\n"
    "output must be a terminal. Exit status: 0 after `q`, 130 after Ctrl-C, 1 when\n"
    "the profile cannot be read, 2 on usage errors or without a terminal.";

int run_tui(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, tui_table, err);
  if (!parsed) return usage_error("tui", err);
  const command_line<tui_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("tui", tui_usage, tui_summary, tui_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (a.positional.empty()) return usage_error("tui", "needs a profile (or the files of a run)");
  if (std::count(a.positional.begin(), a.positional.end(), "-") > 0)
    return usage_error("tui", "reads a file, not standard input (the keys come from there)");
  if (a.objdump && a.objdump->empty()) return usage_error("tui", "--objdump needs a program");
  for (const auto& v : a.object_root)
    if (v.find('=') == std::string::npos || v.front() == '=')
      return usage_error("tui", "--object-root takes OLD=NEW");
  if (auto problem = tui::terminal_problem()) {
    std::fprintf(stderr, "calltree tui: error: %s\n", problem->c_str());
    return exit_usage;
  }
  auto viewer = viewer_options(a.include, a.source_root);
  if (!viewer) return usage_error("tui", viewer.error().message);
  views::load_options lo = std::move(*viewer);
  lo.event_definitions = a.event;
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("tui", "--threads needs a number from 1 to 64");
  lo.threads = *threads;
  lo.defer_lines = true;

  // One run (a file, or the files of one), or OLD and NEW.
  const bool diff = a.positional.size() == 2 && !a.parts;
  std::vector<std::vector<std::string>> inputs;
  if (diff)
    inputs = {{a.positional[0]}, {a.positional[1]}};
  else
    inputs = {std::vector<std::string>(a.positional.begin(), a.positional.end())};
  std::vector<std::unique_ptr<views::session>> sessions;
  for (const auto& paths : inputs) {
    progress_line progress(
        paths.size() == 1 ? paths[0]
                          : paths[0] + " and " + std::to_string(paths.size() - 1) + " more files");
    lo.progress = [&progress](const read_progress& p) { progress.update(p); };
    auto loaded = views::load_run(paths, lo);
    progress.finish();
    lo.progress = nullptr;
    if (!loaded) {
      std::fprintf(stderr, "calltree tui: %s\n", loaded.error().message.c_str());
      return exit_findings;
    }
    const views::session& s = **loaded;
    if (auto changed = changed_input(s)) {
      print_input_changed(*changed);  // (what was read is not the file's: nothing is shown of it)
      return exit_findings;
    }
    if (s.p.parts.empty()) {
      std::fprintf(
          stderr, "calltree tui: %s: %s\n", paths[0].c_str(),
          s.diagnostics.empty() ? "no profile in it" : s.diagnostics.front().message.c_str());
      return exit_findings;
    }
    if (s.errors || !detail::read_to_end(s.stats))
      std::fprintf(stderr,
                   "calltree tui: warning: %s: %llu errors%s ('calltree check' shows them)\n",
                   paths[0].c_str(), static_cast<unsigned long long>(s.errors),
                   detail::read_to_end(s.stats) ? "" : ", not read to its end");
    sessions.push_back(std::move(*loaded));
  }
  // A difference: both read again as calltree diff reads them (views/diff.h).
  std::unique_ptr<views::diff_source> difference;
  if (diff) {
    auto made = views::diff_source::load(*sessions[0], *sessions[1], lo.threads);
    if (!made) {
      std::fprintf(stderr, "calltree tui: %s\n", made.error().message.c_str());
      return exit_findings;
    }
    difference = std::move(*made);
  }

  // What the later views need, made while the first is read (stopped at the end).
  std::atomic<bool> stop{false};
  std::thread warm([&sessions, &stop] {
    try {
      for (const auto& s : sessions) views::warm_up(*s, &stop);
    } catch (const std::bad_alloc&) {
      // (made when a view asks, then)
    }
  });
  tui::app_options o;
  o.mouse = !a.no_mouse;
  objdump_settings od;
  if (a.objdump) od.objdump = *a.objdump;
  for (const auto& v : a.object_root) {
    const auto eq = v.find('=');
    od.object_roots.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  }
  if (inputs.size() == 1 && inputs[0].size() == 1) {
    std::int64_t mtime = 0;
    if (is_file(inputs[0][0], &mtime)) od.input_mtime = mtime;
  }
  o.objdump = make_objdump_runner(std::move(od));
  for (const auto& paths : inputs) {
    const auto slash = paths[0].rfind('/');
    if (!o.profile_name.empty()) o.profile_name += " -> ";
    o.profile_name += slash == std::string::npos ? paths[0] : paths[0].substr(slash + 1);
  }
  int status = exit_ok;
  try {
    status = difference ? tui::run_diff(*difference, o) : tui::run(*sessions[0], o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "calltree tui: error: %s\n", e.what());
    status = exit_findings;
  }
  stop = true;
  for (const auto& s : sessions) s->stop_reading();
  warm.join();
  return status;
}

}  // namespace

CALLTREE_COMMAND(tui, {.name = "tui",
                       .summary = "explore a profile in the terminal",
                       .usage = tui_usage,
                       .description = tui_summary,
                       .flags = tui_table.flags,
                       .run = run_tui});

}  // namespace calltree::cli

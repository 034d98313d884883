// record_launch.cc — a program run under its profiler into a staging folder, for `calltree
// record` and the mcp record tool alike (record_launch.h).
#include "record_launch.h"

#include <signal.h>

#include <cctype>
#include <fstream>

#include "analysis/merge_any.h"
#include "calltree/analysis/merge.h"
#include "command.h"
#include "diagnostics_output.h"
#include "memory_option.h"
#include "profile_output.h"

namespace calltree::cli {

std::optional<recording> run_recording(const record_plan& plan, const spawn_options& how,
                                       std::string& error) {
  auto l = launch_of(plan, error);
  if (!l) return std::nullopt;
  auto end = spawn_and_wait(l->argv, l->env, error, how);
  if (!end) {
    error = "cannot run " + l->argv[0] + ": " + error;
    return std::nullopt;
  }
  recording r;
  r.end = *end;
  r.files = collected_profiles(plan, r.dropped);
  return r;
}

std::string one_recorded_file(const std::vector<std::string>& files, const std::string& staging) {
  if (files.size() == 1) return files[0];
  merge_options options;
  options.parts = parts_mode::keep;
  options.max_memory = memory_limit();
  diagnostic_collector diags(5);
  profile merged;
  auto stats = detail::merge_any_inputs(files, merged, diags, options);
  writer_options wo;
  wo.creator = std::string("calltree ") + CALLTREE_VERSION + " record";
  const std::string out = staging + "/run.callgrind";
  const int rc = write_summed_profile(stats, diags, merged, out, wo, "record");
  return rc == exit_usage ? std::string() : out;
}

namespace {

// The first line of the file the program names when it is a script ("#!/bin/sh"), else "".
std::string shebang_of(const std::string& program) {
  const auto path = find_program(program);
  if (!path) return {};
  std::ifstream in(*path, std::ios::binary);
  std::string line;
  std::getline(in, line);
  if (!line.starts_with("#!")) return {};
  return line.substr(0, 120);
}

}  // namespace

std::string no_profile_hint(const record_plan& plan, const child_end& end,
                            const std::string& valgrind_said) {
  switch (plan.kind) {
    case profiler_kind::xdebug:
      return "is Xdebug installed and loaded? ('php -m' lists it; Debian, Ubuntu: apt-get "
             "install php-xdebug)";
    case profiler_kind::node:
      return end.signal ? "node writes its profile when the program ends by itself or by "
                          "process.exit(), not when a signal ends it"
                        : "node 12 or later writes one with --cpu-prof";
    case profiler_kind::cprofile:
      return "python ended before cProfile could write it";
    case profiler_kind::callgrind:
      break;
  }
  std::string lower = valgrind_said;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("dwarf") != std::string::npos)
    return "this Valgrind cannot read the program's debug information (DWARF 5 is GCC 11's "
           "and Clang 14's default; Valgrind reads it from 3.18): update Valgrind, or build "
           "the program with -gdwarf-4";
  if (end.signal == SIGKILL)
    return "SIGKILL (the out-of-memory killer, or kill -9) ends Valgrind before callgrind can "
           "write its profile";
  // A script that ran another program in its place (a pyenv or rbenv shim, a wrapper that
  // ends with exec): Valgrind ran the shell, whose profile an exec ends unwritten, and did not
  // follow the program it started.
  if (!plan.children && !plan.program.empty())
    if (const std::string line = shebang_of(plan.program[0]); !line.empty())
      return plan.program[0] + " is a script (" + line +
             ") that started another process, which Valgrind does not follow by itself: "
             "record with --children to follow it" +
             (profiler_of_program(plan.program[0]) != profiler_kind::callgrind
                  ? std::string(", or leave out --profiler=callgrind: ") +
                        std::string(profiler_word(profiler_of_program(plan.program[0]))) +
                        " profiles it without Valgrind"
                  : std::string());
  return {};
}

}  // namespace calltree::cli

// record_profilers.h — how `calltree record` runs a program under each profiler it knows.
//
// What it is: for callgrind (Valgrind), Xdebug (php), cProfile (python) and V8 (node), the
// command line and environment that make the profiler write its files into a staging folder,
// and afterwards the files it left there, in the order they become the parts of one run
// (docs/record.md says which options each profiler gets). What it is not: the run (
// child_process.h), nor the naming of the run in the folder (history/run_names.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace calltree::cli {

enum class profiler_kind { callgrind, xdebug, cprofile, node };

// "callgrind", "xdebug", "cprofile", "node".
std::string_view profiler_word(profiler_kind k);
std::optional<profiler_kind> profiler_named(std::string_view word);
// The profiler for a program by its name: php (php8.2 ...) Xdebug, python/python3 (python3.11
// ...) cProfile, node/nodejs V8's, anything else callgrind.
profiler_kind profiler_of_program(std::string_view program);

struct record_plan {
  profiler_kind kind = profiler_kind::callgrind;
  std::vector<std::string> program;  // PROGRAM ARGS..., as the user gave them
  std::string staging;               // the folder the profiler writes into
  std::string valgrind = "valgrind";
  bool fast = false, children = false;
  std::optional<std::string> function, start_at, stop_at;
  std::vector<std::string> valgrind_options;  // checked already (valgrind_options.h)
};

struct launch {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;  // added to the environment
};

// The command that runs `plan.program` under its profiler; nullopt with `error` when the
// program's arguments cannot take the profiler (python -c CODE).
std::optional<launch> launch_of(const record_plan& plan, std::string& error);

// The name the run gets in the folder: the program's, or the script's for an interpreter
// (`python3 bench.py` is bench.py, `python3 -m pkg.mod` pkg.mod).
std::string run_label(const record_plan& plan);

// The script an interpreter is to run (python's SCRIPT, not -m MODULE; php's and node's first
// argument that is no option), to be checked before the run; nullopt for callgrind or none.
std::optional<std::string> script_of(const record_plan& plan);

// The extension of one file of the profiler (callgrind, pstats, cpuprofile).
std::string_view profile_extension(profiler_kind k);

// The profiles the run left in the staging folder (paths), in the order of the run's parts:
// by process, then dump, then thread. With --stop-at, each process's first dump only (its
// costs up to the first entry into the function); `dropped` counts the other dumps.
std::vector<std::string> collected_profiles(const record_plan& plan, std::size_t& dropped);

// Valgrind's logs in the staging folder (one per process, the first process's first).
std::vector<std::string> valgrind_logs(const record_plan& plan);

}  // namespace calltree::cli

// record_launch.h — the one launcher of `calltree record` and the mcp record tool: a program
// run under its profiler (record_profilers.h) into a staging folder, the files it left there
// collected, and made one file.
//
// What it is: the part of a recording both front ends share, so that the record tool of
// `calltree mcp --allow-record` runs what `calltree record` runs: the same profilers
// (callgrind, Xdebug, cProfile, V8's) with the same options, --children, the same merging of
// processes and threads into the parts of one file, and the same words when no profile was
// made. What it is not: the folder of runs and its names (cmd_record.cc), the report printed
// after a run, or the protocol's answer (mcp_record.cc).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "child_process.h"
#include "record_profilers.h"

namespace calltree::cli {

struct recording {
  child_end end;
  std::vector<std::string> files;  // the profiles the run left in plan.staging, in part order
  std::size_t dropped = 0;         // later dumps left out (--stop-at)
};

// Runs `plan` (its staging folder made) under its profiler, `how` as spawn_and_wait takes it;
// nullopt with `error` when the profiler could not be started.
std::optional<recording> run_recording(const record_plan& plan, const spawn_options& how,
                                       std::string& error);

// The run's files as one file: the file itself, or their merge, a part each, into
// `staging`/run.callgrind. Empty when the merge failed (its diagnostics are on standard error).
std::string one_recorded_file(const std::vector<std::string>& files, const std::string& staging);

// Why the profiler wrote no profile, when the run says it, beyond the profiler's own words:
// a hint for the user ("" when there is none). Callgrind: a program that is a script (a
// pyenv shim, a wrapper) started another process, which Valgrind follows only with
// --children; Valgrind too old for the program's DWARF; SIGKILL. The interpreters: Xdebug not
// loaded, node killed by a signal, python ended early.
std::string no_profile_hint(const record_plan& plan, const child_end& end,
                            const std::string& valgrind_said);

}  // namespace calltree::cli

// history/run_names.h — (internal) the names `calltree record` gives the runs of a folder.
//
// What it is: one file per run, named `NNNN-LABEL-YYYYMMDD-HHMMSS[-SIGNAL].EXT`: a number one
// above the highest of the folder, the program's name (LABEL: letters, digits, '.', '_', '+'
// kept, anything else '_'), the local time the run started, the signal that killed the program
// if one did (`SIGSEGV`, `SIGINT`), and the extension of what the profiler wrote (`callgrind`,
// `pstats`, `cpuprofile`). The number comes first so that both orders of `calltree trend`
// agree: by name (natural order: 0009 before 0010, and 9999 before 10000) and by time (each
// run is renamed into the folder when it ends). Which run came before, for `record --compare`:
// the highest number below this run's, of the same LABEL, not killed by a signal (a profile cut
// short by a crash or Ctrl-C is no baseline). What it is not: a listing of the folder (the
// caller lists it, history/runs.h), nor a writer of files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace calltree::history {

struct run_name {
  std::uint64_t number = 0;
  std::string label;      // the program, made safe (safe_label)
  std::string stamp;      // YYYYMMDD-HHMMSS
  std::string signal;     // "SIGSEGV" when the program was killed by it, else empty
  std::string extension;  // without the dot
};

// `name` with every character but [A-Za-z0-9._+] turned into '_', at most 40 bytes; "run" when
// nothing is left.
std::string safe_label(std::string_view name);

// "NNNN-LABEL-STAMP[-SIGNAL].EXT" (the number at least 4 digits).
std::string format_run_name(const run_name& r);

// The parts of a file name format_run_name made; nullopt for any other name.
std::optional<run_name> parse_run_name(std::string_view file_name);

// One above the highest number of the run names among `file_names` (1 for none).
std::uint64_t next_run_number(const std::vector<std::string>& file_names);

// Of `file_names`, the run that came before run `number`: of `label`, not killed by a signal,
// the highest number below `number`. nullopt when there is none.
std::optional<std::string> previous_run(const std::vector<std::string>& file_names,
                                        std::string_view label, std::uint64_t number);

}  // namespace calltree::history

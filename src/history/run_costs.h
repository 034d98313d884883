// history/run_costs.h — (internal) what `calltree trend` keeps of one profile: its events, its
// program total and every function's self and inclusive cost per event.
//
// What it is: one run of a folder of runs, reduced to the numbers a time series needs, so the
// index (history/index.h) can keep it and a thousand runs fit in memory. The functions are the
// library's (profile.h: a function is its object, the file of its fl= and its name, never the
// name alone), their self cost as analysis/inclusive.h sums it over the parts and their
// inclusive cost as it computes it (cycles, recursion); the total is the program's total of
// each event (calltree/totals.h: the stated total, else the sum of the self costs). What it
// is not: a profile (no calls, lines or parts), nor a reader of its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calltree/result.h"

namespace calltree::history {

struct function_costs {
  std::string object, file, name;
  std::vector<std::uint64_t> self, inclusive;  // run_costs::events order
};

struct run_costs {
  std::string creator, cmd;          // the first part's creator: and cmd:
  std::vector<std::string> events;   // the profile's recorded events, in profile order
  std::vector<std::uint64_t> total;  // the program total of each event (totals.h)
  std::vector<function_costs> functions;
  std::uint64_t errors = 0, warnings = 0;  // what the reader found while reading it
};

struct run_read_options {
  unsigned threads = 1;
  std::uint64_t max_memory = 0;  // 0: the library's default (3/4 of the machine's memory)
};

// Reads `path` whole and reduces it. An error (error_code::no_profile for a file that holds
// none) when it cannot be opened, holds no profile, cannot be read to its end or looks cut
// short (read_state::likely_truncated): half a run would show as a fall of every function
// after the cut.
result<run_costs> read_run_costs(const std::string& path, const run_read_options& options = {});

}  // namespace calltree::history

// history/runs.h — (internal) the runs of a folder or of a list of files, read or taken from
// the index.
//
// What it is: the files' stamps (size, modification time), each file's run_costs from the
// index when its entry is of the same stamp, else read (history/run_costs.h) and put into
// the index; a file that holds no profile is kept with its reason, so a folder's other files
// (a README, callgrind_annotate's text beside each profile) are known as such without being
// read again. What it is not: the order of the runs (history/run_order.h) nor the trend.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "calltree/result.h"
#include "history/index.h"
#include "history/run_costs.h"
#include "history/run_order.h"

namespace calltree::history {

struct loaded_run {
  run_file file;
  std::string problem;      // empty: a profile, `costs` is its
  bool no_profile = false;  // the problem is that the file holds no profile (vs. a bad one)
  bool from_index = false;
  run_costs costs;
};

// The regular files of `dir` (not below it), but those whose name begins with '.', with their
// stamps; paths are DIR/NAME. An error when `dir` cannot be read.
result<std::vector<run_file>> list_runs(const std::string& dir);

// The stamp of one file (an error when it cannot be stat()ed or is not a regular file).
result<run_file> stat_run(const std::string& path);

// Each file's run, in the order given. The index (may be null) is keyed by each file's
// absolute path. `progress` (may be empty) is called after each file with (done, of).
std::vector<loaded_run> load_runs(
    const std::vector<run_file>& files, run_index* index, const run_read_options& options = {},
    const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace calltree::history

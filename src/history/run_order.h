// history/run_order.h — (internal) the runs of a folder, oldest first.
//
// What it is: the order `calltree trend` and serve's Trend view put runs in. By time: the
// file's modification time (no producer calltree knows writes a wall-clock time into the file:
// callgrind's `desc: Timerange:` counts basic blocks, Xdebug, pprof and the Python converters
// write none), ties by name. By name: natural order, digits compared as numbers, so `run9`
// comes before `run10` and `out.2.callgrind` before `out.10.callgrind`. What it is not: a
// listing of a folder (the CLI and server/folder.h list files).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace calltree::history {

enum class run_order : std::uint8_t { time, name };

struct run_file {
  std::string path;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
};

// Natural order of two names: runs of digits compare as numbers (leading zeros ignored, then
// the shorter run first), everything else byte by byte.
bool natural_less(std::string_view a, std::string_view b);

// Sorts `files` oldest first as `order` says (stable, then by path).
void order_runs(std::vector<run_file>& files, run_order order);

}  // namespace calltree::history

// history/change_points.h — (internal) the runs at which a series of costs stepped and stayed.
//
// What it is: given one cost per run, oldest first (a function's self or inclusive cost of one
// event, or the program total), the runs at which the cost moved by at least a threshold
// (a percentage of the level before) and stayed there: change points, not every wiggle.
//
// Two detectors, because two kinds of events:
//  * exact (callgrind's and cachegrind's counts: Ir, Dr, cache misses, anything counted by
//    instrumentation): a run of one program on one input counts the same again, so a step is a
//    step. The level is the cost at the last change (the first run's at first); run k is a
//    change when it differs from the level by at least the threshold and the run after it (if
//    any) is nearer the new cost than the old level: a run that jumps and comes back is a
//    spike, not a change. Each change sets the level to its run's cost.
//  * robust (timed events: Xdebug's Time, pprof's cpu and samples, anything measured by a
//    clock, whose runs differ by noise): binary segmentation, in logarithms (a clock's noise
//    grows with what it measures). In the runs [a, b), the split k (at least three runs on
//    each side: a median of three outvotes one outlier) is the one of least total absolute
//    deviation of each side from its median; it is a change when the medians of the windows
//    before and after it (up to `window` runs each) differ by at least the threshold of the
//    one before, and their logarithms by more than `noise` times the larger of the two
//    windows' scaled median absolute deviations (so a noisy window needs a larger step). Then
//    [a, k) and [k, b) are searched again. One outlier moves no median and costs little, so
//    it makes no change; a step in the last two runs cannot be told from noise and is not
//    reported (`last_step` is the CI gate's question for the last run).
// What it is not: a statistical test with a p-value; the thresholds are the user's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace calltree::history {

enum class detector : std::uint8_t { exact, robust };

struct change_options {
  double threshold_percent = 1;  // the least step, in % of the level before
  detector how = detector::exact;
  std::size_t window = 5;  // robust: runs on each side whose median is taken
  double noise = 2;        // robust: the step must exceed this many scaled MADs
};

struct change_point {
  std::size_t run = 0;           // 0-based index of the first run at the new level
  double before = 0, after = 0;  // the levels (exact: costs; robust: medians)
};

// The change points of `series`, by run.
std::vector<change_point> find_change_points(std::span<const double> series,
                                             const change_options& options);

// The last run against the runs before it (exact: the run before; robust: the median of the
// window before it): nullopt when there are fewer than two runs.
std::optional<change_point> last_step(std::span<const double> series,
                                      const change_options& options);

// The step in % of `before`: nullopt when before is 0 and after is not (growth from nothing).
std::optional<double> step_percent(double before, double after);

// Whether an event is measured by a clock or a sampler (the robust detector's) rather than
// counted: its name or long name speaks of time, nanoseconds, microseconds, milliseconds,
// seconds, ticks, cpu or samples, or is such a unit alone (Xdebug's Time_(10ns), pprof's
// cpu(nanoseconds) and samples, cProfile's ns, ruby-prof's wall_time), or is gperftools' Hits.
bool timed_event(std::string_view name, std::string_view long_name = {});

// Whether a file's `creator:` names a sampling or timing profiler, every event of which is
// timed: any creator but Valgrind's tools (callgrind, cachegrind, DHAT, xtree) and what counts
// with them (gungraun, iai-callgrind). Xdebug, cProfile, V8, perf, pprof, py-spy's folded
// stacks, pprofile: a run's Memory_(bytes) or hits move with its timing too. No creator: the
// event's name decides.
bool timed_creator(std::string_view creator);

}  // namespace calltree::history

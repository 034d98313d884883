// history/trend.h — (internal) how each function's cost moved across runs, and which run
// changed it: what `calltree trend` prints and serve's Trend view draws.
//
// What it is: from runs oldest first (history/runs.h, ordered by history/run_order.h), the
// series of the program total and of every function's self and inclusive cost per event, and
// their change points (history/change_points.h): the exact detector for counted events, the
// robust one for timed events (change_points.h says which event is which, and how each
// detector decides). Functions are matched across runs by the library's identity (object,
// file of their fl=, name); a function absent from a run costs 0 there. A function's change
// is listed when its cost before or after it is at least `min_share_percent` of the program
// total of that run (the program total's changes always are): a function of 3 instructions
// that takes 4 has stepped 33 % but matters to no one. The CI gate compares the last run with
// the ones before it (change_points.h, last_step). What it is not: a reader (runs.h) or a
// printer (trend_report.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "calltree/result.h"
#include "history/change_points.h"
#include "history/runs.h"

namespace calltree::history {

struct trend_options {
  std::vector<std::string> events;  // empty: the first event of the first run
  // Which functions get their changes listed (by name; empty: all). The series of every
  // function are kept whatever it says.
  std::function<bool(const std::string& name)> match;
  double threshold_percent = 1;
  double min_share_percent = 0.1;
  std::optional<detector> how;  // nullopt: per event (timed_event: robust, else exact)
  std::size_t window = 5;       // the robust detector's window
};

struct trend_run {
  std::string file;
  std::int64_t mtime_ns = 0;
  std::vector<std::uint64_t> total;  // per trend event
};

struct trend_function {
  std::string object, file, name;
};

struct trend_change {
  std::optional<std::size_t>
      function;           // index into trend_result::functions; none: the program total
  std::size_t run = 0;    // index into trend_result::runs: the first run at the new level
  std::size_t event = 0;  // index into trend_result::events
  bool inclusive = false;
  double before = 0, after = 0;
  std::optional<double> percent;  // nullopt: from 0
};

struct trend_result {
  std::vector<std::string> events;
  std::vector<detector> detectors;    // per event
  std::vector<trend_run> runs;        // oldest first
  std::vector<std::string> left_out;  // runs that lack one of the events: "FILE: why"
  std::vector<trend_function> functions;
  // [function][event][run], events.size() * runs.size() values per function.
  std::vector<std::uint64_t> self, inclusive;
  std::vector<trend_change> changes;  // each event's program total first, then biggest first

  std::uint64_t self_of(std::size_t f, std::size_t e, std::size_t run) const {
    return self[(f * events.size() + e) * runs.size() + run];
  }
  std::uint64_t inclusive_of(std::size_t f, std::size_t e, std::size_t run) const {
    return inclusive[(f * events.size() + e) * runs.size() + run];
  }
  std::optional<std::size_t> find_event(std::string_view name) const;
  // Functions named `name` (or `file:name`) in any run.
  std::vector<std::size_t> find_function(std::string_view name) const;
};

// The trend of `runs` (those with a problem are skipped: the caller reports them). An error
// when no run is left, or an event asked for is in none of them.
result<trend_result> compute_trend(const std::vector<loaded_run>& runs,
                                   const trend_options& options);
result<trend_result> compute_trend(const std::vector<const loaded_run*>& runs,
                                   const trend_options& options);

// The CI gate (`--fail-above`): the last run against the runs before it, for the program total
// of `event`, and with `per_function` for each function's self and inclusive cost (those of
// at least the minimum share). A failure is a step up of more than `percent`.
struct trend_gate {
  double percent = 0;
  std::size_t event = 0;
  bool per_function = false;
};
struct trend_gate_failure {
  std::optional<std::size_t> function;
  bool inclusive = true;
  double before = 0, after = 0;
  std::optional<double> percent;
};
std::vector<trend_gate_failure> check_trend_gate(const trend_result& r, const trend_gate& gate,
                                                 const trend_options& options);

}  // namespace calltree::history

// analysis/diff.h — the difference between two profiles, function by function and line by line.
//
// What it is: `diff_profiles` matches the functions of an old and a new profile (identity
// (object, file, name) after the rewrites of diff_match.h) and gives, per function, the old and
// new self cost and inclusive cost of every event the two profiles have in common, plus the
// program totals; `select_functions` sorts and cuts that list (sort events, threshold, limit);
// `check_gate` is the CI verdict (`--fail-above`); `diff_function` gives the per-line and
// per-call-site changes inside one function. What it is not: printing (`calltree diff` does),
// reading files (the CLI), or a textual diff of two callgrind files.
//
// Choices made:
//  * Events: only events recorded in both profiles are compared, in the old profile's order;
//    the others are listed (old_only_events, new_only_events) for a warning. Events defined
//    only by a formula are not compared.
//  * Parts: summed by default; `part` selects one part (part_id, in file order) of both sides.
//  * Inclusive cost comes from analysis/inclusive.h (cycles, recursion, never above the
//    total), computed on the graph of *matched* functions: when rewrites join two functions of
//    one profile (`fib` and `fib'2` with strip_recursion), the call between them becomes a
//    self-call and is not counted twice.
//  * A function is present on a side when a row of the selected parts names it (self cost,
//    call from it, call to it); present on one side only = added or removed.
//  * Deltas are exact: costs are unsigned 64-bit and the delta is kept as old and new, so
//    callers format sign and magnitude without overflow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/diff_match.h"
#include "calltree/export.h"
#include "calltree/profile.h"
#include "calltree/result.h"

namespace calltree {

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct function_key {
  std::string object, file, name;
  friend bool operator==(const function_key&, const function_key&) = default;
};

// Threads and lifetime: a value.
enum class function_change : std::uint8_t { unchanged, changed, added, removed };
CALLTREE_API std::string_view to_string(function_change c);

// A function of a diff: an index into diff_result::functions (id.h), not a profile's
// function_id (a function of the diff may be on one side only, or join several of a side).
using function_diff_id = strong_id<struct function_diff_tag>;

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct function_diff {
  function_key key;
  function_change change = function_change::unchanged;
  // One value per compared event, indexed by diff_result::events' ids (`self_old[e.index()]`).
  std::vector<std::uint64_t> self_old, self_new, inclusive_old, inclusive_new;
};

// Threads: a value; const members may be called from several threads at once. Lifetime: it
// holds its own copies of every name (nothing points into the profiles diffed).
struct CALLTREE_API diff_result {
  // The compared events, in the old profile's order. An event_id of a diff is an index of
  // these (`events[e.index()]`, and of every per-event vector here), not a profile's event.
  std::vector<std::string> events;
  std::vector<std::string> old_only_events, new_only_events;
  std::vector<std::uint64_t> total_old, total_new;       // program totals (selected parts)
  id_vector<function_diff_id, function_diff> functions;  // every function of either side
  std::size_t functions_old = 0, functions_new = 0;      // functions present on each side
  std::size_t parts_old = 0, parts_new = 0;              // parts in each profile
  bool saturated = false;  // some sum did not fit in 64 bits (values are 2^64-1)

  std::size_t count(function_change c) const;
  // The id of `name` in `events`, or nullopt.
  std::optional<event_id> find_event(std::string_view name) const;
};

// Threads and lifetime: a value, copied freely.
struct diff_options {
  match_options match;
  std::optional<part_id> part;  // one part of both profiles; default all
  // Several parts of both profiles, summed, when `part` is not set; empty: all.
  std::vector<part_id> parts;
};

// Fails only when `part` (or one of `parts`) names a part one of the profiles does not have.
CALLTREE_API result<diff_result> diff_profiles(const profile& old_profile,
                                               const profile& new_profile,
                                               const diff_options& options = {});

// Percentage change from `old_value` to `new_value`: nullopt when old is 0 and new is not
// (growth from nothing), 0 when both are 0.
CALLTREE_API std::optional<double> percent_change(std::uint64_t old_value, std::uint64_t new_value);

// How the function list is ordered and cut. Threads and lifetime: a value, copied freely.
struct diff_ranking {
  std::vector<event_id> sort_events;  // of diff_result::events; empty = the first event
  bool inclusive = false;             // rank by inclusive instead of self cost
  // A function is listed when its absolute change of the first sort event is at least this
  // percentage of the old program total of that event (of the new total if the old is 0).
  // Unchanged functions are never listed.
  double threshold_percent = 0.1;
  std::size_t limit = 0;  // at most this many functions; 0 = no limit
};

// Threads and lifetime: a value, copied freely.
struct diff_selection {
  std::vector<function_diff_id> listed;  // of diff_result::functions, in display order
  std::size_t below_threshold = 0;       // changed functions not listed because of the threshold
  std::size_t beyond_limit = 0;          // changed functions not listed because of the limit
};

// Sorts by decreasing absolute change of the sort events in turn (then by name, object, file),
// and applies threshold and limit.
CALLTREE_API diff_selection select_functions(const diff_result& r, const diff_ranking& ranking);

// The CI gate: fails when the program total of `event` grows by more than `percent`
// (or, with `per_function`, when a listed function's cost of `event` does: self or inclusive as
// the ranking says; a function with no old cost grows without bound).
// Threads and lifetime: a value, copied freely.
struct diff_gate {
  double percent = 0;
  event_id event;  // of diff_result::events
  bool per_function = false;
};

// Threads and lifetime: a value, copied freely.
struct gate_failure {
  std::optional<function_diff_id> function;  // nullopt = the program total
  event_id event;
  std::uint64_t old_value = 0, new_value = 0;
  std::optional<double> percent;  // nullopt = grew from 0
};

CALLTREE_API std::vector<gate_failure> check_gate(const diff_result& r,
                                                  const diff_selection& selection,
                                                  const diff_ranking& ranking,
                                                  const diff_gate& gate);

// Changes inside one function: self cost per source line (or per instruction address when no
// row of the function has a line number and the profiles have addresses: --dump-line=no, code
// without debug info), and calls per call site and callee.
// Threads and lifetime (line_diff, call_site_diff, function_detail): values, copied freely.
struct line_diff {
  std::string file;       // source file (fi=/fe= for inlined code), after rewrites
  std::uint64_t pos = 0;  // line number, or instruction address when by_instr
  std::vector<std::uint64_t> cost_old, cost_new;
};

struct call_site_diff {
  std::string file;
  std::uint64_t pos = 0;
  function_key callee;
  std::uint64_t count_old = 0, count_new = 0;
  std::vector<std::uint64_t> cost_old, cost_new;  // inclusive cost of those calls
};

struct function_detail {
  function_diff_id function;  // of diff_result::functions
  bool by_instr = false;
  std::vector<line_diff> lines;       // by file, then position
  std::vector<call_site_diff> calls;  // by file, position, then callee
};

// Every function named `name` (after rewrites; `file:name` also accepted), one detail each.
// Empty when no function has that name.
CALLTREE_API std::vector<function_detail> diff_function(const profile& old_profile,
                                                        const profile& new_profile,
                                                        const diff_result& r, std::string_view name,
                                                        const diff_options& options = {});

// Names of functions containing `fragment` (for a "did you mean" when diff_function finds none).
CALLTREE_API std::vector<std::string> similar_function_names(const diff_result& r,
                                                             std::string_view fragment,
                                                             std::size_t max = 10);

}  // namespace calltree

// analysis/inclusive.h — inclusive cost with recursion and call cycles handled.
//
// What it is: the one computation of "cost of F and everything below it" in calltree,
// `compute_inclusive` over a profile's functions (annotate, diff, merge and the viewer compute
// theirs the same way). What it is not: a call tree (no contexts), nor a way to fix a profile
// whose call costs are inconsistent: it only reads what the file says.
//
// Semantics (the choice made; see share/doc/calltree/annotate.md for the reasoning and examples):
//
//  * A call line gives the inclusive cost of the calls from one call site; summing every call
//    line into a function counts recursion twice (callgrind_annotate prints 31,679 % on
//    corpus/vg-recurse-default). So:
//  * The functions that call each other, directly or through others, are grouped (without
//    recursion as deep as the input); self-calls (F -> F) never count.
//  * A function in no such group: inclusive = sum of the calls into it from other
//    functions, if it has any in that part; else (a root: main, a thread start, a function
//    whose stack began before a dump) self + calls out of it to other functions.
//  * A group of several functions is a cycle, a pseudo-node `<cycle N>` as in KCachegrind.
//    Its inclusive = the sum of its members' self costs and of the calls leaving the cycle
//    (equal to the calls into the cycle when the file is consistent, and still right when
//    stacks were truncated, as gperftools does at 64 frames); a member's inclusive = its self
//    + the calls it makes to functions outside the cycle (what KCachegrind shows for a cycle
//    member); cycles are numbered 1.. by decreasing inclusive cost of the first event.
//  * Each part is solved on its own (a thread's start function is a root in its thread's
//    part) and the results are summed over the selected parts; the cycles are those of the
//    calls of all selected parts together.
//  * Sums saturate at 2^64-1. With consistent input no inclusive cost exceeds the total.
//
// `raw = true` gives callgrind_annotate 3.19's numbers instead: a function that is the callee
// of some call with count > 0 gets the sum of all those incoming calls, self-calls included;
// any other function gets self + all its calls with count > 0; no cycles, no parts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/export.h"
#include "calltree/profile.h"

namespace calltree {

// A cycle of an inclusive_result (id.h), numbered as KCachegrind numbers them: cycle_id{n} is
// `<cycle n>`, whose facts are cycles[n - 1]; cycle_id{} (0) is no cycle.
using cycle_id = strong_id<struct cycle_tag>;

// Threads and lifetime: a value, copied freely.
struct cycle_info {
  // Node ids, ascending (of compute_inclusive's result: function ids, `function_id{n}`).
  std::vector<std::uint32_t> members;
  std::vector<std::uint64_t> self;  // sum of the members' self costs
  std::vector<std::uint64_t> inclusive;
};

// Threads: a value; const members may be called from several threads at once. Lifetime: it holds
// its own costs (nothing points into the profile).
struct inclusive_result {
  std::size_t events = 0;
  cost_matrix self;       // [node][event], summed over the selected parts
  cost_matrix inclusive;  // [node][event]
  // Per node: its cycle, cycle_id{} when it is in none.
  std::vector<cycle_id> cycle_of;
  std::vector<cycle_info> cycles;
  bool saturated = false;  // some sum did not fit in 64 bits
  // The profile's profile::signed_costs: the costs are signed numbers (as_signed), ranked by
  // size (cost_magnitude).
  bool signed_costs = false;

  // Of compute_inclusive's result (node id = function id): function f's row of `self` and of
  // `inclusive`, one cost per event (`inc.inclusive_of(f)[e.index()]`).
  std::span<const std::uint64_t> self_of(function_id f) const { return self.row(f.index()); }
  std::span<const std::uint64_t> inclusive_of(function_id f) const {
    return inclusive.row(f.index());
  }
  // Function f's cycle (cycle_id{}: none).
  cycle_id cycle_of_function(function_id f) const {
    return f.index() < cycle_of.size() ? cycle_of[f.index()] : cycle_id{};
  }
};

// Threads and lifetime: a value, copied freely.
struct inclusive_options {
  std::optional<part_id> part;  // only this part; default all parts
  bool raw = false;             // callgrind_annotate's raw summing (see above)
};

// Inclusive cost of every function of `p` (node id = function_id), in profile event order.
CALLTREE_API inclusive_result compute_inclusive(const profile& p,
                                                const inclusive_options& options = {});

}  // namespace calltree

// analysis/coverage.h — KCachegrind's coverage lists: All Callers and All Callees of a function.
//
// What it is: for one selected function F, every function that reaches F (its callers, theirs,
// and so on up to the roots) or that F reaches (its callees, down to the leaves), with the part
// of F's inclusive cost that flows along the call paths through it, and how far from F it is
// (the fewest and the most calls between them, over those paths). What it is not: a new
// inclusive cost, nor a record of stacks: a Callgrind file keeps costs per call arc, so how F's
// cost splits between paths is the one estimate of analysis/call_paths.h.
//
// Semantics (the choice made, KCachegrind's libcore/coverage in spirit, on exact integers):
//
//  * The paths are the frames of estimate_paths from F, towards its callees (All Callees) or
//    its callers (All Callers): the root frame is F with the weight W(F) (callees: F's self plus
//    its calls out; callers: the calls into F, F's inclusive cost when it is in no cycle, as
//    analysis/inclusive.h counts it); each frame's total is the share of W(F) estimated to flow
//    along its path, split at each function by the inclusive costs of its calls.
//  * All Callees: for each function G below F, the sum of the totals of G's frames: the part of
//    F's inclusive cost spent in G and below it, on F's behalf ("G's inclusive cost as F pays
//    it"). All Callers: for each function C above F, the sum of C's frames' totals: the part of
//    F's inclusive cost that comes through C, the part of C's inclusive cost that goes to F.
//  * Recursion, as inclusive.h treats it: a call whose callee (callers: whose caller) is already
//    on the path is not followed, since its cost is a sum over nested calls already inside the
//    frame it would repeat; a self-call never counts. So a function is counted once per path,
//    its frames never nest, and every cost is at most W(F): the sum over one list may exceed
//    W(F) (a cost below G is below G's callers in the list too), a single entry never does.
//  * Cycles (coverage_options::cycles, as `calltree serve` with cycle detection on): for a
//    member of a cycle, W(F) is its inclusive cost as a member (its self and its calls leaving
//    the cycle, analysis/inclusive.h) and the calls between F and the other members are not
//    followed (KCachegrind's rule: calls inside a cycle are not shown), so no entry passes
//    W(F), nor W(F) the cycle's cost. Without it, a member's W(F) is its self and all its calls
//    out (callees) or all the calls into it (callers), sums over nested calls.
//  * Distance: the depth of a frame (F is 0, its direct callers or callees 1); an entry's
//    minimum and maximum over its frames (KCachegrind shows "min-max"). F itself is no entry.
//  * Pruning: a path whose share is below `min_share` of W(F), or past `max_frames`, is not
//    followed (KCachegrind stops at 0.01 %); `pruned` says how many were cut.
//  * Order: by decreasing cost of the weight event, then increasing minimum distance, then node.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/export.h"
#include "calltree/profile.h"

namespace calltree {

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct coverage_entry {
  std::uint32_t node = 0;           // a graph node (a function id for coverage_of_function)
  std::vector<std::uint64_t> cost;  // per event: the sum of its frames' totals
  std::uint32_t min_distance = 0, max_distance = 0;
  std::uint64_t paths = 0;  // its frames: the paths through it that were followed
};

// Threads: a value. Lifetime: independent of the estimator once made.
struct coverage_list {
  path_direction direction = path_direction::callees;
  std::vector<std::uint64_t> total;  // per event: the root frame's total, W(F)
  std::vector<coverage_entry> entries;
  bool estimated = false;  // some cost was split by ratios (path_tree::estimated)
  std::size_t pruned = 0;
  bool saturated = false;
};

// Threads and lifetime: a value, copied freely.
struct coverage_options {
  std::size_t weight_event = 0;  // the event whose shares split the costs, and the order
  double min_share = 1e-4;
  std::size_t max_frames = std::size_t{1} << 18;
  // For a member of a cycle: its cost and the calls followed as KCachegrind's with cycle
  // detection on (path_options::cycles): W(F) is its self and its calls leaving the cycle.
  bool cycles = false;
};

// The entries of a tree of paths from one root (estimate_paths with options.root): every node
// of the tree but the root's, its frames' totals summed (a frame under another frame of its
// node is not added again). `direction` is recorded as given.
CALLTREE_API coverage_list coverage_of_tree(const path_tree& tree, path_direction direction,
                                            std::size_t weight_event);

// All Callers (direction callers) or All Callees (callees) of `node` in an estimator's graph.
CALLTREE_API coverage_list coverage_of(const path_estimator& estimator, std::uint32_t node,
                                       path_direction direction,
                                       const coverage_options& options = {});

// The same over a profile's functions (node id = function_id) and its calls, every part summed,
// in profile event order. Empty for an `f` that is no function of `p`.
CALLTREE_API coverage_list coverage_of_function(const profile& p, function_id f,
                                                path_direction direction,
                                                const coverage_options& options = {});

}  // namespace calltree

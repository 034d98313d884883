// views/flame.h — (internal) flame graphs, icicles, sandwiches and callee maps.
//
// What it is: the one estimate of call paths (analysis/call_paths.h) run on a session's keys
// (or, for a file that records its stacks, the tree of those stacks: recorded_stacks.h):
// the call graph is the tables' self costs and (caller key, callee key) calls of the selected
// parts, in the query's columns (so a derived event can weigh the shares); from the roots (a
// flame graph or icicle), or from one function towards its callees (the lower half of a
// sandwich, a callee map) or its callers (the upper half). Sibling frames of one display label
// (a function's caller contexts `f'g`, recursion levels `f'2`) are merged unless asked not to.
// The prepared estimator of a graph is kept by the session (the costly half of an estimate).
// What it is not: a second estimate (there is one: call_paths.h), nor drawing (the browser).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"
#include "views/scope.h"
#include "views/stack_filter.h"

namespace calltree::views {

class session;

// The exact tree every stack export draws (export_options' defaults): a call below this share
// of the total gets no frame of its own, and at most this many frames. The program's flame
// graph (no root) is this tree, cut for display (cut_paths).
inline constexpr double exact_min_share = 1e-5;
inline constexpr std::size_t exact_max_frames = std::size_t{1} << 20;

struct flame_query : scope {          // (without detect_cycles, no cycle as a root)
  std::string weight_event;           // empty: the first column
  std::optional<std::uint32_t> root;  // a key; empty: from the graph's roots
  path_direction direction = path_direction::callees;
  double min_share = 0.0005;  // of the tree's weight
  std::size_t max_frames = 20000;
  bool merge = true;  // merge sibling frames of one label
  // From the roots: the exact tree of min_share and max_frames itself, uncut (the exports).
  // Without it, the program's flame graph is the exact tree of exact_min_share and
  // exact_max_frames (the exports' stacks, whose roots sum to the total) cut to min_share and
  // max_frames for display; a tree from one function is the estimate's weights.
  bool exact_self = false;
  // pprof's focus, ignore, hide and show (views/stack_filter.h), applied once, to the exact tree
  // of the program's stacks (exact_min_share and exact_max_frames, or the exports' own): the
  // program's flame graph is that tree filtered, then cut; a tree from one function is read
  // from the filtered stacks (the paths below, or above, its frames), not estimated from it.
  stack_filter filter;
  // From the roots: one root frame per selected part (a thread of --separate-threads, as
  // KCachegrind's parts), above that part's own roots, its total the part's functions' costs;
  // the frames of each part within its own (the same stack in two threads is two frames).
  bool by_thread = false;
};

// A root frame of by_thread: the part (0-based) it holds, and its name: "thread T" where the
// part's `thread:` is that of no other part of the profile, else "part N" (1-based), with
// ", thread T" when it has one.
struct thread_root {
  std::uint32_t part = 0;
  std::string name;
};

struct flame_view {
  column_set columns;
  std::shared_ptr<const part_costs> costs;
  std::size_t weight_column = 0;
  path_tree tree;                          // nodes are keys; costs in `columns`
  std::optional<filter_summary> filtered;  // with a filter: what it left out of the program's
  // With a transform (stack_transform.h): the nodes named otherwise than their key.
  std::vector<std::pair<std::uint32_t, std::string>> renamed;
  // With by_thread: the node of threads[i]'s root frame is thread_node + i (above every id).
  std::vector<thread_root> threads;
  std::uint32_t thread_node = 0;
  // The tree is made from the stacks the file records (recorded_stacks.h: an imported
  // profile's), not estimated: exact.
  bool recorded = false;
  // A profile with recorded stacks whose tree is estimated all the same: why ("part 2 records
  // no stacks", a cycle as the root). Empty otherwise.
  std::string stacks_note;
};

// An error for an unknown event, a root that is no function, or a cycle id as root (or a
// cycle as root with a filter).
result<flame_view> flame(const session& s, const flame_query& q);

}  // namespace calltree::views

// views/stack_filter.h — (internal) pprof's stack filters (focus, ignore, hide, show) on a tree
// of call paths, and the trees a view reads from a filtered one.
//
// What it is: a stack is a path of the tree from a root to a frame, whose cost is that frame's
// self cost (one pprof sample). As pprof's FilterSamplesByName (profile/filter.go):
//  * a frame is ignored when its function's name matches `ignore`, else focused when there is
//    no `focus` or its name matches it; a stack is kept when one of its frames is focused and
//    none is ignored (so `ignore` wins over `focus`);
//  * a frame is hidden when its name matches `hide`, or does not match `show`; a kept stack
//    loses its hidden frames (its cost goes to its deepest frame left: its new leaf; a root
//    hidden makes the next frame left a root), and a stack with no frame left is dropped;
//  * stacks that became the same path are one path again (their costs summed).
// The cost of the stacks dropped is what the view says it left out. Names are matched by the
// caller's predicates (RE2's partial match in serve and export, as the function filter).
// What it is not: a second estimate: it only moves and drops the self costs of a tree.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/analysis/call_path_transforms.h"
#include "calltree/analysis/call_paths.h"

namespace calltree::views {

using name_match = std::function<bool(std::string_view)>;

struct stack_filter {
  name_match focus, ignore, hide, show;  // empty: not given
  // The transforms of views/stack_transform.h, applied to the tree before the filters above:
  // those fields in their fixed order (one walk of the tree), then `steps` in their order.
  bool merge_clones = false;
  name_match collapse_recursion, collapse_direct_recursion;  // on a function's name
  name_match collapse_object;                                // on a function's object (ob=)
  std::vector<std::string> focus_path;                       // names from a root; empty: none
  std::vector<path_transform> steps;                         // in the user's order
  std::string key;   // the session remembers filtered trees by it (each expression's length too)
  std::string text;  // for people: "focus=RE ignore=RE" of those given
  bool transforms() const {
    return merge_clones || collapse_recursion || collapse_direct_recursion || collapse_object ||
           !focus_path.empty() || !steps.empty();
  }
  // Some transform focuses on a call path.
  bool focuses_path() const {
    if (!focus_path.empty()) return true;
    for (const path_transform& s : steps)
      if (s.what == path_transform::kind::focus_path) return true;
    return false;
  }
  bool any() const { return focus || ignore || hide || show || transforms(); }
};

// What a filter did to a tree, per event (the tree's columns).
struct filter_summary {
  std::vector<std::uint64_t> total;    // the stacks' costs before: the tree's total
  std::vector<std::uint64_t> dropped;  // the costs of the stacks left out (total - kept)
  // Some frame's name matched the expression (as pprof warns "no matches found for regexp").
  bool focus_matched = false, ignore_matched = false, hide_matched = false, show_matched = false;
  bool focus_path_matched = false;  // some frame had focus_path's path (each step's, in steps)
};

struct filtered_tree {
  path_tree tree;
  filter_summary summary;
  // The frames whose node stands for more than itself (stack_transform.h): a merged clone's
  // node named by its function, an object's node named by the object.
  std::vector<std::pair<std::uint32_t, std::string>> renamed;
};

// "focus=a ignore=b: left out 120 of 1000 Ir (12.00 %), ..." (`text` is stack_filter::text;
// `events` names the summary's columns): what export says of a filtered export.
std::string filter_note(const filter_summary& summary, std::span<const std::string> events,
                        std::string_view text);

// `tree` (frames in preorder, parents first) filtered; `name` gives a frame node's name. The
// result's frames are in preorder, each frame's children by decreasing total of `weight_event`
// (then by node), as estimate_paths orders them; frames whose stacks all went have no frame.
filtered_tree filter_paths(const path_tree& tree, const stack_filter& filter,
                           const std::function<std::string_view(std::uint32_t)>& name,
                           std::size_t weight_event);

// From the stacks of `tree`, the tree of what `node` calls: every frame of `node` (a node is
// on a path at most once) and the paths below it, merged into one root. Self costs unchanged.
path_tree callees_below(const path_tree& tree, std::uint32_t node, std::size_t weight_event);

// From the stacks of `tree`, the tree of who calls `node`: its root is `node`, a frame's
// children are the callers of its path, and each frame of `node` in `tree` brings its total
// along its path of callers up to its root, where it stays as self cost (a frame of `node`
// below another of `node`, a recorded stack's recursion, is inside that one's total: not again).
path_tree callers_above(const path_tree& tree, std::uint32_t node, std::size_t weight_event);

}  // namespace calltree::views

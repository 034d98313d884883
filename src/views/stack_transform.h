// views/stack_transform.h — (internal) Firefox Profiler's call-tree transforms on a tree of
// call paths: merge compiler clones, collapse recursion, collapse an object, focus on a path.
//
// What it is: a stack is a path of the tree from a root to a frame, whose cost is that frame's
// self cost (views/stack_filter.h). The transforms rename or merge frames, so every cost stays
// where it was in its stack, and the tree's total stays; only focus_path drops stacks. The
// fields of stack_filter are applied in this order, whatever order they were given in (one
// walk of the tree), then its `steps` in theirs (calltree/analysis/call_path_transforms.h:
// each step reads the tree the steps before it made; consecutive steps in this order share a
// walk, which is the same as one walk each):
//  * merge clones: a function's compiler clones (`f.constprop.0`, `f.isra.0`, `f.part.0`,
//    `f.cold`, `f.lto_priv.0`, their combinations, and demangled `f() [clone .isra.0]`) are
//    the function: their frames get one node, `f`'s own when some key is named `f` in the tree,
//    else the first clone's (then named `f` in `renamed`); a recursion level or caller context
//    stays (`f.part.0'2` is `f'2`);
//  * collapse an object: the frames of a function whose object (callgrind's ob=) matches, called
//    by a frame of the same object, are that frame: a run of frames of the object is one frame,
//    whose node is the object's first in the tree, named by the object in `renamed`;
//  * collapse recursion: a frame of a matching function under a frame of the same function (at
//    any depth) is that outer frame: the stack [A f B f C] is [A f C], [A f B] stays (Firefox
//    Profiler's "collapse recursion"); collapse direct recursion only merges a frame into its
//    parent of the same function ([A f f C] is [A f C], [A f B f C] stays). A function is its
//    name without callgrind's recursion level or caller context (--separate-recs' `f'2` and
//    --separate-callers' `f'g` are f: matched as `f`, and one function with f);
//  * focus on a path: of the stacks that begin with the path's functions (display names, as
//    `renamed` or the keys' names), the frame at the path's end becomes the root; the others are
//    left out (their costs are what the summary says was dropped).
// What it is not: a filter by name (stack_filter.h, applied after these), nor a new estimate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "calltree/analysis/call_path_transforms.h"
#include "calltree/analysis/call_paths.h"
#include "views/stack_filter.h"

namespace calltree::views {

using calltree::clone_base;
using frame_names = path_names;  // of a frame's node (a key)

// `name` with each compiler clone suffix gone from each of its caller context's names
// ("f'g.part.0'h" is "f'g'h", "f.cold'2" is "f'2"): the name merge clones gives a frame's node,
// and a row of the function list (list_transforms.h).
std::string without_clones(std::string_view name);

// A function's identity for recursion: its name without callgrind's recursion level or caller
// context ("f'2", "f'g" are f), so that --separate-recs' levels are one function.
std::string_view recursion_identity(std::string_view name);

// `tree` (frames in preorder) transformed by `filter`'s transforms (its name filters are not
// applied). The summary has the tree's total, and what focus_path dropped.
filtered_tree transform_paths(const path_tree& tree, const stack_filter& filter,
                              const frame_names& names, std::size_t weight_event);

// transform_paths, then filter_paths (stack_filter.h) with names as `renamed` says: the one
// tree every view of a filtered session reads.
filtered_tree transform_and_filter(const path_tree& tree, const stack_filter& filter,
                                   const frame_names& names, std::size_t weight_event);

}  // namespace calltree::views

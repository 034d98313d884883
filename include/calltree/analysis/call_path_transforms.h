// analysis/call_path_transforms.h — Firefox Profiler's call-tree transforms on a tree of call
// paths (call_paths.h), applied one after the other in the order given, as Firefox Profiler
// applies its transform stack: merge compiler clones, collapse an object (a library),
// collapse recursion (at any depth, or direct only), focus on a call path.
//
// What it is: a stack is a path of the tree from a root to a frame, whose cost is that frame's
// self cost. Every transform but focus_path renames or merges frames, so every cost stays in
// its stack and the tree's total stays; focus_path leaves out the stacks not on its path (the
// cost `dropped`). Each step reads the tree the steps before it made: collapsing the recursion
// of f and then focusing on [main f f] finds no such path (it is [main f] now), focusing first
// and collapsing then does. What each transform does: share/doc/calltree/export.md,
// "Call-tree transforms".
// What it is not: a filter by name (pprof's focus, ignore, hide, show), nor a new estimate.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/export.h"

namespace calltree {

struct path_transform {
  enum class kind : std::uint8_t {
    merge_clones,               // f.constprop.0, f.isra.0, f.part.0, f.cold... are f
    collapse_object,            // a run of frames of an object (ob=) `match` matches is one
    collapse_recursion,         // f (`match`ed) under f, at any depth, is the outer f
    collapse_direct_recursion,  // f (`match`ed) right under f is that f
    focus_path,                 // the frame at the end of `path` (names from a root) is a root
  };
  kind what = kind::merge_clones;
  std::function<bool(std::string_view)> match;  // collapse_*: on a function's or object's name
  std::vector<std::string> path;                // focus_path
};

// A frame node's function name and object (callgrind's ob=).
struct path_names {
  std::function<std::string_view(std::uint32_t)> name, object;
};

struct transformed_paths {
  path_tree tree;                       // frames in preorder, children by decreasing total
  std::vector<std::uint64_t> total;     // per event: the stacks' costs before
  std::vector<std::uint64_t> dropped;   // per event: the costs focus_path left out
  bool focus_path_matched = true;       // every focus_path step found its path
  // The nodes that stand for more than themselves, by their new name: a merged clone's node
  // named by its function, a collapsed object's node named by the object.
  std::vector<std::pair<std::uint32_t, std::string>> renamed;
};

// `tree` (frames in preorder, parents first) transformed by `steps`, in their order.
CALLTREE_API transformed_paths transform_call_paths(const path_tree& tree,
                                                    std::span<const path_transform> steps,
                                                    const path_names& names,
                                                    std::size_t weight_event);

// The name of a function without its compiler clone suffixes ("f.constprop.0.isra.0" is "f",
// "g(int) [clone .part.0] [clone .cold]" is "g(int)"); a name without any is itself.
CALLTREE_API std::string_view clone_base(std::string_view name);

}  // namespace calltree

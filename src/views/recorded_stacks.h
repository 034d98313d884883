// views/recorded_stacks.h — (internal) the stacks an imported profile records, keyed as the
// session keys functions: what the flame graph, icicle, sandwich, callee map and the stack
// exports draw for such a file, exactly, instead of the estimate.
//
// What it is: folded stacks, `perf script`, pprof and V8's .cpuprofile hold every stack of
// their samples. Their importers hand the records of callgrind's format to the reading (self
// costs and caller->callee pairs, import/stacks.h), from which no stack can be read back:
// estimated from them (analysis/call_paths.h), the stacks of a function with several callers
// are split in proportion to the calls (on gprof2dot's synapse.collapse, a py-spy profile,
// 435 of its 451 stacks of 1 % or more came out otherwise than the file has them). So the
// load keeps each part's stacks too (the reading's recorded_stacks, their frames mapped to the
// session's keys: object, display file, name), and the program's tree of a selection of parts
// that all have them is made from them: a frame per distinct path of keys (two frames of one
// function at different lines are one frame, as a flame graph by function draws them), its
// self cost the stacks that end there, in the query's columns. The tree is exact
// (path_tree::estimated false); what views cut from it (cut_paths), filter and transform is
// then cut from the file's own stacks. A stack may hold a function twice (recursion): views
// that sum frames (callers_above, the filtered call graph, coverage) count a frame below one
// of its own function once, in the outer one.
// What it is not: a profile (the tables are the function-level truth), nor kept for callgrind
// files, whose stacks are not in the file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/cost_matrix.h"

namespace calltree::detail {
struct recorded_stacks;
}

namespace calltree::views {

class session;
struct column_set;

// One part's stacks: a prefix tree of the session's keys, outermost first, parents before
// their children.
struct part_stacks {
  std::vector<std::uint32_t> key, parent;  // per node; parent path_tree::no_frame: outermost
  cost_matrix self{0};  // [node][recorded column]: the stacks that end at the node
};

struct session_stacks {
  // Per part of the session: its stacks, or null (a callgrind file's part, or a reading whose
  // frames did not all find their keys).
  std::vector<std::shared_ptr<const part_stacks>> of_part;
  bool any() const;
  // Why the parts `parts` (0-based; empty: every part) cannot be drawn from recorded stacks
  // ("part 2 has no recorded stacks"), or "" when they can.
  std::string missing(const std::vector<std::uint32_t>& parts) const;
};

// The reading's stacks (each `part` a part of the session) keyed by `s`'s tables, into
// s.stacks (sized to its parts).
void keep_recorded_stacks(session& s, const std::vector<calltree::detail::recorded_stacks>& raw);

// The exact tree of the stacks of `parts` (0-based, sorted; empty: every part; each must have
// stacks) in the columns `cols`, children by decreasing total of column `weight` (then by key),
// as estimate_paths orders them. With `thread_base`, one root frame per part of `thread_parts`
// (node *thread_base + i for thread_parts[i]) above that part's stacks, its total theirs.
path_tree recorded_tree(const session& s, const std::vector<std::uint32_t>& parts,
                        const column_set& cols, std::size_t weight,
                        std::optional<std::uint32_t> thread_base,
                        const std::vector<std::uint32_t>& thread_parts);

}  // namespace calltree::views

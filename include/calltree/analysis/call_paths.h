// analysis/call_paths.h — call paths estimated from a call graph: the one tree behind flame
// graphs, icicles, sandwich views, callee maps and every stack-based export (pprof,
// speedscope, folded stacks, the flame SVG, Chrome traces).
//
// What it is: `estimate_paths` turns a call graph (nodes with self costs, calls with their
// inclusive costs) into a tree of call paths (frames), each with a self and a total cost per
// event. What it is not: a record of what the program did. A Callgrind file keeps costs per
// function and per call arc, not per stack, so a call graph does not define one call tree
// (speedscope PR #331, "How profilers lie"): where a function has several callers, how its
// cost splits between the paths through them is estimated. The estimate is exact where the
// file carries caller contexts, because those contexts are nodes of their own: with
// callgrind's --separate-callers=N, `f'g'h` is f called from g called from h, and only g's
// contexts call it, so the tree is exact to depth N; with --separate-recs, `f'2` is the second
// recursion level of f.
//
// The invariant: a frame never holds more than the calls it stands for, and children are
// fitted into their parent. A frame reached through a call of f to g holds at most what that
// call cost (all of g's frames under f's frames together: at most f's calls of g), whatever
// g's own lines add up to; a root holds at most its node's self cost plus its calls out.
// Where a file's numbers disagree (calls into g that cost more than g's lines add up to, or
// less), the file's numbers are kept and the frames are not inflated: the difference is a gap
// in the frame, or, for lines that cost more than all the calls into g, a root frame of g
// (see Direction). The one exception: units of an exact tree that no frame has room for (see
// below).
//
// The estimate (share/doc/calltree/estimate.md has examples):
//
//  * Weights. Every frame P (a path root -> ... -> f) has a weight W(P), the share of cost
//    estimated to flow through it, in the weight event. A root's weight is its self cost plus
//    its calls out (to other nodes). P's weight is split between f's own self cost and f's
//    calls out, in proportion to self(f) and to each call's inclusive cost: a callee g gets
//    W(P) * incl(f->g) / D(P), with D(P) = self(f) + the inclusive costs of the calls of f
//    that are followed from P. A call is not followed where its callee is already on P
//    (recursion: its cost is already inside the ancestor's), nor a self-call f -> f. For the
//    invariant, D(P) is never below W(P) (a share is never more than its call), nor, for an f
//    in no cycle and not a root, below the calls into f (its frames together give no call
//    more than its cost): what the calls into f hold beyond f's lines is a gap in P's frame.
//  * Exact self costs. With `exact_self`, the estimate then places every node's self cost,
//    in every event and in whole units, on the frames of that node, in proportion to their
//    estimated self shares (largest remainders): summed over a node's frames, a self cost is
//    the node's exactly, so summed over the tree it is the graph's total, whatever the event.
//    A node with self cost that no expanded path reached (pruned, or behind a call of no
//    weight) gets one path of its own: its heaviest chain of callers up to a root. A total is
//    then a frame's self plus its children's totals. Only how inclusive cost splits between
//    paths is an estimate. Whole units, pruned paths and those chains can put a frame above
//    its bound: its weight rounded up, or, for a frame of a node in a cycle (whose share of
//    the node's self cost is no guide), a frame of a chain and a frame the fit makes, the
//    calls it stands for (its parent's node's calls of its node). The fit then moves, per
//    event and deepest frame first, the units a frame holds beyond its bound to other frames
//    of the same node with room up to their root, or to a new frame under a chain of its
//    callers from a frame with room (a call pruned there), every frame of that chain within
//    the calls it stands for, or, when no frame has room within its weight, to frames of the
//    node within the calls they stand for; what is left stays where the apportioning put it,
//    under the calls into its node, in proportion to their shares. A node that others call
//    is never a root for it: its cost is routed through its callers. `unfitted` says the most
//    a frame holds beyond the calls it stands for, in any event: a few units of rounding, or,
//    in a tree pruned by min_share or max_frames, the self cost of paths pruned where no frame
//    had room (0: no frame is above the calls it stands for).
//  * Pruning. Frames are expanded heaviest first; a call whose share is below `min_share` of
//    the tree's weight, or past `max_frames`, gets no frame. Without `exact_self` (a display),
//    a frame's total is its estimated weight and its self is what its children leave of it
//    (its own cost, recursion, and the calls pruned below it), as a flame graph draws it; with
//    `exact_self`, totals are sums of exact self costs, and the self cost of a pruned frame's
//    node goes to its other frames.
//  * Direction. From the roots (a flame graph: roots are nodes no other node calls; nodes
//    whose own lines, self cost and calls out, cost more than all the calls into them, for
//    that difference only, the cost that ran there with no call recorded into it, as a
//    thread's entry in a file whose threads are not separated (for a cycle: its nodes' self
//    costs and calls leaving it beyond the calls entering it, at its heaviest node); and with
//    none, as in a cycle with no way in, the heaviest nodes of the cycle), or from one node:
//    its callees (the lower half of a sandwich, a callee map), or its callers (the upper half,
//    where a frame's children are the callers of its node, and its weight splits in
//    proportion to the inclusive cost of the calls into it, over no less than the weight
//    itself, so that no caller gets more than its calls; the weight that reaches a node no
//    one calls, or that its callers' calls do not cover, stays there as the frame's self).
//    From a member of a cycle with `cycles` (path_options): its inclusive cost as a cycle's
//    member (its self and its calls leaving the cycle), the calls inside the cycle not
//    followed, as KCachegrind's maps do with cycle detection on.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/export.h"

namespace calltree {

// The graph the estimate reads: nodes 0..nodes-1 (functions, keyed however the caller keys
// them) with self costs, and calls (caller, callee) with the inclusive cost of those calls
// and their count, summed over whatever parts the caller chose. Several calls may join one
// pair (they are summed); self-calls are allowed and ignored.
// Threads: a const graph may be read from several threads at once. Lifetime: a value (its own
// tables).
struct CALLTREE_API call_graph {
  std::size_t nodes = 0;
  std::size_t events = 0;
  cost_matrix self{0};  // [node][event]
  std::vector<std::uint32_t> call_from, call_to;
  std::vector<std::uint64_t> call_count;
  cost_matrix call_cost{0};  // [call][event]

  call_graph() = default;
  call_graph(std::size_t node_count, std::size_t event_count);
  void add_call(std::uint32_t from, std::uint32_t to, std::uint64_t count,
                std::span<const std::uint64_t> costs);
  std::size_t calls() const { return call_from.size(); }
};

// Threads and lifetime: a value.
enum class path_direction : std::uint8_t { callees, callers };

// Threads and lifetime: a value, copied freely.
struct path_options {
  // From one node (its callees or its callers); default: from the graph's roots.
  std::optional<std::uint32_t> root;
  // Without `root`: from these nodes, each a root frame (one function's node in each part of a
  // graph whose nodes are (part, function) pairs, a run of threads); empty: the graph's roots.
  std::vector<std::uint32_t> roots;
  path_direction direction = path_direction::callees;
  // From one node (`root` or `roots`) that is a member of a cycle (a strongly connected
  // component of two or more nodes): its weight is its self cost and its calls leaving the
  // cycle (its inclusive cost as analysis/inclusive.h counts a cycle's member), and its calls
  // to and from the other members are not followed (KCachegrind's maps and coverage with cycle
  // detection on: calls inside a cycle are not shown). Every other frame is bounded by its
  // parent, so no share of the tree is above that cost. False: a member starts with its self
  // cost and all its calls out (callees) or all the calls into it (callers), sums over nested
  // calls that can pass the program's total, as with cycle detection off.
  bool cycles = false;
  // With `cycles`: each node's cycle (0: in none; nodes of one number are one cycle), as the
  // caller formed them (a viewer's cycles, numbered from 1); empty: the graph's strongly
  // connected components of two or more nodes.
  std::vector<std::uint32_t> cycle_of;
  std::size_t weight_event = 0;  // the event whose shares split the costs
  double min_share = 0;          // of the tree's weight; 0 = expand every frame of weight > 0
  // A call graph's paths can be exponentially many (a ladder of 64 diamonds has 2^64), so the
  // tree always has a cap; the heaviest frames are expanded first.
  std::size_t max_frames = std::size_t{1} << 20;
  // Place every node's self cost exactly (see above). Only from the graph's roots, callees
  // direction.
  bool exact_self = true;
};

// Frames in depth-first preorder, each frame's children by decreasing total of the weight
// event (then by node). A root frame's parent is no_frame.
// Threads: a value. Lifetime: independent of the estimator and graph it came from.
struct path_tree {
  static constexpr std::uint32_t no_frame = UINT32_MAX;
  std::size_t events = 0;
  std::vector<std::uint32_t> node;    // per frame: its graph node
  std::vector<std::uint32_t> parent;  // per frame
  std::vector<std::uint32_t> depth;   // per frame: 0 for a root
  cost_matrix self{0};                // [frame][event]
  cost_matrix total{0};               // [frame][event]: self + the children's totals
  // Some frame's children split a cost by ratios: its node has several callers, or a call
  // was cut for recursion. False: the tree is the call graph itself (every expanded node has
  // one caller, as with enough --separate-callers contexts).
  bool estimated = false;
  // Calls left without a frame by min_share or max_frames, and frames left unexpanded by
  // max_frames (0: the tree is complete).
  std::size_t pruned = 0;
  bool saturated = false;  // some total did not fit in 64 bits
  // An exact tree's units that no frame had room for stay under the calls into their node:
  // the most that a frame (not a root) holds beyond the calls it stands for (its parent's
  // node's calls of its node), in any event (rounding, or pruned paths' self cost). 0: no
  // frame holds more than the calls it stands for.
  std::size_t unfitted = 0;

  std::size_t frames() const { return node.size(); }
};

// A call graph made ready for estimates: calls summed per pair, cycles found. Make it once and
// estimate as often as needed (a viewer's flame graphs and sandwiches of one profile): on a
// graph of 275 k nodes and 530 k calls this part takes most of an estimate's time. Copies may
// be shared between threads; estimate() changes nothing.
// Threads: estimate() of one estimator (or its copies) from several threads at once: it changes
// nothing. Lifetime: it keeps what it needs of its graph.
class CALLTREE_API path_estimator {
 public:
  explicit path_estimator(const call_graph& graph);
  path_tree estimate(const path_options& options = {}) const;
  std::size_t nodes() const;
  std::size_t events() const;

 private:
  struct impl;
  std::shared_ptr<const impl> impl_;
};

// path_estimator(graph).estimate(options).
CALLTREE_API path_tree estimate_paths(const call_graph& graph, const path_options& options = {});

// The frames of `tree` a display shows: every root, and the frames whose total of
// `weight_event` is at least `min_share` of the roots' sum (and above 0); at most `max_frames`
// of them (the heaviest), each with its whole path from its root; costs unchanged. Cut from an
// exact tree (`exact_self`), a display shows the frames of the exports' stacks with their exact
// totals, and what was cut is the gap under a frame. `pruned` adds the frames cut.
CALLTREE_API path_tree cut_paths(const path_tree& tree, std::size_t weight_event, double min_share,
                                 std::size_t max_frames);

// The same tree with sibling frames of one label merged (their costs summed, their subtrees
// merged in turn), for display names that join several nodes: a function's caller contexts
// (`f'g`, `f'h`) or recursion levels (`f'2`) under the same parent. `label` has one entry per
// graph node; a merged frame keeps the node of its heaviest part.
CALLTREE_API path_tree merge_by_label(const path_tree& tree, std::span<const std::uint32_t> label);

}  // namespace calltree

// call_paths_test.cc — the flame-graph estimate: exact where the graph is a tree, exact self
// costs and totals always, recursion and cycles, the frame cap, both directions, and every
// corpus profile's call graph.
#include "calltree/analysis/call_paths.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "profile_files.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

using costs = std::vector<std::uint64_t>;

struct graph_maker {
  call_graph g;
  graph_maker(std::size_t nodes, std::size_t events) : g(nodes, events) {}
  graph_maker& self(std::uint32_t n, costs c) {
    std::copy(c.begin(), c.end(), g.self.row(n).begin());
    return *this;
  }
  graph_maker& call(std::uint32_t from, std::uint32_t to, costs c, std::uint64_t count = 1) {
    g.add_call(from, to, count, c);
    return *this;
  }
};

// Every frame's total is its self plus its children's totals, frames in preorder; returns the
// frames of each node.
std::map<std::uint32_t, std::vector<std::size_t>> check_consistent(const path_tree& t) {
  std::map<std::uint32_t, std::vector<std::size_t>> of;
  cost_matrix sums(t.events);
  for (std::size_t f = 0; f < t.frames(); ++f) {
    of[t.node[f]].push_back(f);
    auto s = sums.row(sums.add_row());
    std::copy(t.self.row(f).begin(), t.self.row(f).end(), s.begin());
    if (t.parent[f] != path_tree::no_frame) {
      EXPECT_LT(t.parent[f], f) << "preorder";
      EXPECT_EQ(t.depth[f], t.depth[t.parent[f]] + 1);
    } else {
      EXPECT_EQ(t.depth[f], 0u);
    }
  }
  for (std::size_t f = t.frames(); f-- > 0;) {
    for (std::size_t e = 0; e < t.events; ++e)
      EXPECT_EQ(sums.row(f)[e], t.total.row(f)[e]) << "frame " << f << " event " << e;
    if (t.parent[f] != path_tree::no_frame) add_saturating(sums.row(t.parent[f]), t.total.row(f));
  }
  return of;
}

// Each node's self cost, summed over its frames, is the graph's; the roots sum to the total.
void check_exact(const call_graph& g, const path_tree& t) {
  check_consistent(t);
  for (std::size_t e = 0; e < g.events; ++e) {
    std::vector<std::uint64_t> placed(g.nodes, 0);
    std::uint64_t roots = 0, all = 0;
    for (std::size_t f = 0; f < t.frames(); ++f) {
      placed[t.node[f]] += t.self.row(f)[e];
      if (t.parent[f] == path_tree::no_frame) roots += t.total.row(f)[e];
    }
    for (std::uint32_t n = 0; n < g.nodes; ++n) {
      EXPECT_EQ(placed[n], g.self.row(n)[e]) << "node " << n << " event " << e;
      all += g.self.row(n)[e];
    }
    EXPECT_EQ(roots, all) << "event " << e;
  }
}

// main(0) -> a(1) -> c(3); main -> b(2). A tree: every node one caller.
TEST(CallPaths, ATreeIsItselfAndNotEstimated) {
  graph_maker m(4, 1);
  m.self(0, {10}).self(1, {20}).self(2, {30}).self(3, {40});
  m.call(0, 1, {60}).call(0, 2, {30}).call(1, 3, {40});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  ASSERT_EQ(t.frames(), 4u);
  EXPECT_FALSE(t.estimated);
  EXPECT_EQ(t.pruned, 0u);
  // Preorder, heaviest child first: main, a, c, b.
  EXPECT_EQ(t.node, (std::vector<std::uint32_t>{0, 1, 3, 2}));
  EXPECT_EQ(t.total.row(0)[0], 100u);
  EXPECT_EQ(t.total.row(1)[0], 60u);
  EXPECT_EQ(t.total.row(3)[0], 30u);
}

// r -> a, r -> b, a -> c, b -> c, c -> d: c's cost splits 3:1 by its callers' calls.
graph_maker diamond() {
  graph_maker m(5, 2);
  m.self(0, {0, 1}).self(1, {10, 1}).self(2, {10, 1}).self(3, {40, 7}).self(4, {40, 0});
  m.call(0, 1, {70, 6}).call(0, 2, {30, 3}).call(1, 3, {60, 5}).call(2, 3, {20, 2});
  m.call(3, 4, {40, 0});
  return m;
}

TEST(CallPaths, ADiamondSplitsByTheCallsShares) {
  auto m = diamond();
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  EXPECT_TRUE(t.estimated);
  auto of = check_consistent(t);
  ASSERT_EQ(of[3].size(), 2u);
  // Under a (60 of c's 80): c's self 40 splits 30 / 10, d's 40 likewise.
  const std::size_t under_a = t.parent[of[3][0]] == of[1][0] ? of[3][0] : of[3][1];
  EXPECT_EQ(t.self.row(under_a)[0], 30u);
  EXPECT_EQ(t.total.row(under_a)[0], 60u);
  EXPECT_EQ(t.total.row(0)[0], 100u);
}

TEST(CallPaths, ADisplayKeepsEstimatedTotalsAndPrunes) {
  auto m = diamond();
  path_options o;
  o.exact_self = false;
  o.min_share = 0.25;  // the tree weighs 100: calls under 25 get no frame
  const auto t = estimate_paths(m.g, o);
  auto of = check_consistent(t);
  EXPECT_GT(t.pruned, 0u);
  EXPECT_EQ(t.total.row(0)[0], 100u);
  // b (30) stays, its call to c (20) is pruned: its self is what its children leave.
  ASSERT_EQ(of[2].size(), 1u);
  EXPECT_EQ(t.total.row(of[2][0])[0], 30u);
  EXPECT_EQ(t.self.row(of[2][0])[0], 30u);
}

TEST(CallPaths, RecursionTerminatesAndSelfCostsStayExact) {
  // main(0) -> f(1); f -> f (self-call); f -> g(2); g -> f (mutual recursion).
  graph_maker m(3, 1);
  m.self(0, {1}).self(1, {50}).self(2, {30});
  m.call(0, 1, {80}).call(1, 1, {200}).call(1, 2, {60}).call(2, 1, {30});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  EXPECT_TRUE(t.estimated);  // g's call back to f was cut
  for (std::size_t f = 0; f < t.frames(); ++f) EXPECT_LE(t.depth[f], 2u);
}

TEST(CallPaths, ACycleWithNoWayInGetsARoot) {
  graph_maker m(2, 1);
  m.self(0, {5}).self(1, {7});
  m.call(0, 1, {9}).call(1, 0, {12});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  EXPECT_EQ(t.node[0], 1u);  // the heavier of the two (7 + 12 against 5 + 9)
}

// The invariant: no frame above the calls it stands for. main(0) calls f(1) once for 200,
// but f's own lines add up to 110 (self 10, a call of g(2) for 100), as in a file whose call
// cost is larger than its callee's lines: g's frame is its call, 100, never 200 * 100 / 110.
TEST(CallPaths, AFrameNeverHoldsMoreThanItsCalls) {
  graph_maker m(3, 1);
  m.self(0, {5}).self(1, {10}).self(2, {100});
  m.call(0, 1, {200}).call(1, 2, {100});
  for (bool exact : {false, true}) {
    path_options o;
    o.exact_self = exact;
    const auto t = estimate_paths(m.g, o);
    auto of = check_consistent(t);
    ASSERT_EQ(of[2].size(), 1u);
    EXPECT_EQ(t.total.row(of[2][0])[0], 100u) << "exact " << exact;
    ASSERT_EQ(of[1].size(), 1u);
    EXPECT_LE(t.total.row(of[1][0])[0], 200u);
    EXPECT_EQ(t.unfitted, 0u);
  }
  // The callees of f (a callee map): f's 110 split as its lines say, g within its call.
  path_options o;
  o.root = 1;
  const auto t = estimate_paths(m.g, o);
  auto of = check_consistent(t);
  EXPECT_EQ(t.total.row(of[2][0])[0], 100u);
}

// The other way: main(0) calls f(1) for 50, but f's lines add up to 100. An exact tree keeps
// f's self cost (the file's numbers) without putting more than 50 under main's call: the
// other 50 ran in f with no call recorded into it (a thread's entry), and is a root of f's
// own, for that difference only.
TEST(CallPaths, ASelfCostBeyondItsCallsIsARootForTheDifference) {
  graph_maker m(2, 1);
  m.self(0, {10}).self(1, {100});
  m.call(0, 1, {50});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  auto of = check_consistent(t);
  ASSERT_EQ(of[1].size(), 2u);
  for (auto f : of[1])
    EXPECT_EQ(t.total.row(f)[0], 50u) << (t.parent[f] == path_tree::no_frame ? "root" : "called");
  ASSERT_EQ(of[0].size(), 1u);
  EXPECT_EQ(t.total.row(of[0][0])[0], 60u);  // main: its 10 and the call's 50
  EXPECT_EQ(t.unfitted, 0u);
}

// Issue 57: a function that others call is never a root, however the paths to it were pruned.
// main(0) calls a(1) for 1000 (a's self 500, its call of c(2) 500) and twenty b's (3..22) for
// 40 each (self 15, a call of c for 25): c's self cost is 1000. With a min_share that prunes
// every b's call of c (25 of 1810: below 2 %), c's 500 from the b's is fitted under the b's
// where there is room, and what is left stays under a's call of c (above that call: the tree
// says by how much, `unfitted`), never a root frame of c: the one root is main, holding the
// whole total.
TEST(CallPaths, AFunctionThatOthersCallIsNeverARoot) {
  graph_maker m(23, 1);
  m.self(0, {10}).self(1, {500}).self(2, {1000});
  m.call(0, 1, {1000}).call(1, 2, {500});
  for (std::uint32_t b = 3; b < 23; ++b) m.self(b, {15}).call(0, b, {40}).call(b, 2, {25});
  for (double share : {0.0, 0.02}) {
    path_options o;
    o.min_share = share;
    const auto t = estimate_paths(m.g, o);
    check_exact(m.g, t);
    auto of = check_consistent(t);
    std::size_t roots = 0;
    for (std::size_t f = 0; f < t.frames(); ++f) roots += t.parent[f] == path_tree::no_frame;
    EXPECT_EQ(roots, 1u) << "min_share " << share;
    EXPECT_EQ(t.node[0], 0u);
    EXPECT_EQ(t.total.row(0)[0], 1810u);
    std::uint64_t c = 0;
    for (auto f : of[2]) {
      EXPECT_NE(t.parent[f], path_tree::no_frame);
      c += t.total.row(f)[0];
    }
    EXPECT_EQ(c, 1000u);
    if (share == 0) {
      EXPECT_EQ(t.unfitted, 0u);
    }
    EXPECT_LE(t.unfitted, 500u);
  }
}

// A thread's entry in a file of one part: clone(1) is called once by the main thread's
// __clone_internal(0) for 72 (its start there), but its lines hold the thread's whole run
// (its call of worker(2), 1000): clone is a root for the 1000 - 72 no call holds, and main's
// frames hold main's own calls only.
TEST(CallPaths, AThreadsEntryIsARootForWhatNoCallHolds) {
  graph_maker m(3, 1);
  m.self(0, {28}).self(1, {72}).self(2, {1000});
  m.call(0, 1, {72}).call(1, 2, {1000});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
  auto of = check_consistent(t);
  std::uint64_t under_main = 0, root = 0;
  for (auto f : of[1])
    (t.parent[f] == path_tree::no_frame ? root : under_main) += t.total.row(f)[0];
  EXPECT_EQ(t.total.row(of[0][0])[0], 100u);  // main: 28 and its call of clone, 72
  EXPECT_EQ(under_main, 72u);
  EXPECT_EQ(root, 1000u);
  EXPECT_EQ(t.unfitted, 0u);
}

// Several roots (a function's node in each part of a run): one tree from each.
TEST(CallPaths, FromSeveralRoots) {
  graph_maker m(4, 1);
  m.self(0, {1}).self(1, {2}).self(2, {3}).self(3, {4});
  m.call(0, 1, {2}).call(2, 3, {4});
  path_options o;
  o.roots = {0, 2};
  const auto t = estimate_paths(m.g, o);
  check_consistent(t);
  std::uint64_t roots = 0;
  for (std::size_t f = 0; f < t.frames(); ++f)
    if (t.parent[f] == path_tree::no_frame) roots += t.total.row(f)[0];
  EXPECT_EQ(roots, 10u);
  EXPECT_EQ(t.frames(), 4u);
}

TEST(CallPaths, ALadderOfDiamondsIsCappedNotExploded) {
  // 64 diamonds in a row: 2^64 paths. The cap holds the tree, and every self cost is placed.
  const std::uint32_t levels = 64;
  graph_maker m(1 + 3 * levels, 1);
  for (std::uint32_t i = 0; i < m.g.nodes; ++i) m.self(i, {1});
  for (std::uint32_t l = 0; l < levels; ++l) {
    const std::uint32_t top = 3 * l, left = top + 1, right = top + 2, bottom = top + 3;
    const std::uint64_t below = 3 * (levels - l - 1) + 1;
    m.call(top, left, {below + 1}).call(top, right, {below + 1});
    m.call(left, bottom, {below}).call(right, bottom, {below});
  }
  path_options o;
  o.max_frames = 5000;
  const auto t = estimate_paths(m.g, o);
  // The cap, plus chains for nodes it left out, plus the frames (at most 4 per node) and
  // roots (one per node) of self costs that did not fit under their frames' calls.
  EXPECT_LE(t.frames(), 5000u + 6 * m.g.nodes);
  EXPECT_GT(t.pruned, 0u);
  check_exact(m.g, t);
}

TEST(CallPaths, EveryEventIsExactEvenWhereTheWeightEventIsZero) {
  // b's call has no weight in event 0, but costs in event 1: b's self still lands somewhere.
  graph_maker m(3, 2);
  m.self(0, {10, 0}).self(1, {5, 3}).self(2, {0, 9});
  m.call(0, 1, {5, 3}).call(0, 2, {0, 9});
  const auto t = estimate_paths(m.g);
  check_exact(m.g, t);
}

TEST(CallPaths, CallersOfANodeSplitItsInclusiveCost) {
  // x(0) -> a(1) -> f(3); y(4) -> a; b(2) -> f. f's callers: a (60), b (20).
  graph_maker m(5, 1);
  m.self(3, {80}).self(1, {5}).self(2, {5});
  m.call(1, 3, {60}).call(2, 3, {20}).call(0, 1, {50}).call(4, 1, {15});
  path_options o;
  o.root = 3;
  o.direction = path_direction::callers;
  const auto t = estimate_paths(m.g, o);
  auto of = check_consistent(t);
  EXPECT_EQ(t.node[0], 3u);
  EXPECT_EQ(t.total.row(0)[0], 80u);
  ASSERT_EQ(of[1].size(), 1u);
  EXPECT_EQ(t.total.row(of[1][0])[0], 60u);
  EXPECT_EQ(t.total.row(of[2][0])[0], 20u);
  EXPECT_EQ(t.self.row(of[2][0])[0], 20u);  // nothing calls b: its share stays there
  // a's 60 splits 50:15 between x and y.
  EXPECT_EQ(t.total.row(of[0][0])[0], 46u);  // 60 * 50 / 65 = 46.15
  EXPECT_TRUE(t.estimated);
}

TEST(CallPaths, CalleesOfANode) {
  auto m = diamond();
  path_options o;
  o.root = 3;  // c: self 40, calls d 40
  const auto t = estimate_paths(m.g, o);
  check_consistent(t);
  ASSERT_EQ(t.frames(), 2u);
  EXPECT_EQ(t.total.row(0)[0], 80u);
  EXPECT_EQ(t.self.row(0)[0], 40u);
}

TEST(CallPaths, OneEstimatorGivesEveryEstimateAsAFreshOneDoes) {
  auto m = diamond();
  const path_estimator once(m.g);
  for (std::uint32_t root = 0; root < 5; ++root)
    for (auto dir : {path_direction::callees, path_direction::callers}) {
      path_options o;
      o.root = root;
      o.direction = dir;
      o.weight_event = 1;
      const auto a = once.estimate(o), b = estimate_paths(m.g, o);
      EXPECT_EQ(a.node, b.node);
      EXPECT_EQ(a.parent, b.parent);
      for (std::size_t f = 0; f < a.frames(); ++f)
        for (std::size_t e = 0; e < 2; ++e) {
          EXPECT_EQ(a.total.row(f)[e], b.total.row(f)[e]);
          EXPECT_EQ(a.self.row(f)[e], b.self.row(f)[e]);
        }
    }
}

TEST(CallPaths, MergeByLabelJoinsSiblings) {
  // main(0) -> f'a(1), main -> f'b(2), both labelled f; f'a -> g(3), f'b -> g.
  graph_maker m(4, 1);
  m.self(0, {1}).self(1, {10}).self(2, {20}).self(3, {30});
  m.call(0, 1, {25}).call(0, 2, {35}).call(1, 3, {15}).call(2, 3, {15});
  const auto t = estimate_paths(m.g);
  const std::vector<std::uint32_t> label{0, 1, 1, 3};
  const auto merged = merge_by_label(t, label);
  check_consistent(merged);
  ASSERT_EQ(merged.frames(), 3u);  // main, f, g
  EXPECT_EQ(merged.node[1], 2u);   // the heavier part names it
  EXPECT_EQ(merged.total.row(1)[0], 60u);
  EXPECT_EQ(merged.self.row(2)[0], 30u);
}

// Every corpus profile's call graph (model functions as nodes): exact self costs and totals in
// every event, consistent frames.
TEST(CallPaths, EveryCorpusProfileIsExact) {
  for (const auto& file : test::corpus_profiles(true)) {
    SCOPED_TRACE(file.string());
    profile p;
    diagnostic_collector diags;
    auto in = open_input(file.string());
    ASSERT_TRUE(in.has_value());
    profile_builder b(p, &diags, file.string());
    ASSERT_TRUE(
        detail::read_profile(**in, p.strings, b, diags, {}, detail::any_input()).has_value());
    call_graph g(p.functions.size(), p.events.size());
    for (std::size_t r = 0; r < p.self_rows.size(); ++r)
      add_saturating(g.self.row(p.self_rows[r].function.index()), p.self_costs.row(r));
    for (std::size_t c = 0; c < p.calls.size(); ++c)
      g.add_call(p.calls[c].caller.index(), p.calls[c].callee.index(), p.calls[c].count,
                 p.call_costs.row(c));
    // (Shares down to a millionth, as the exports take them, and a cap a few files reach.)
    path_options o;
    o.min_share = 1e-6;
    o.max_frames = 100000;
    const auto t = estimate_paths(g, o);
    EXPECT_FALSE(t.saturated);
    check_exact(g, t);
    const auto total = p.total();
    for (std::size_t e = 0; e < g.events; ++e) {
      std::uint64_t roots = 0;
      for (std::size_t f = 0; f < t.frames(); ++f)
        if (t.parent[f] == path_tree::no_frame) roots += t.total.row(f)[e];
      EXPECT_EQ(roots, total[e]) << p.events[event_id{e}].name;
    }
  }
}

}  // namespace
}  // namespace calltree

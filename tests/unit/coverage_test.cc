// coverage_test.cc — All Callers / All Callees (analysis/coverage.h): small graphs worked by
// hand (a diamond, self-recursion, mutual recursion), and every corpus profile's sums: no entry
// above the selected function's cost, the caller map's top the function's inclusive cost, no
// frame's children above it.
#include "calltree/analysis/coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "calltree/analysis/callers.h"
#include "calltree/analysis/inclusive.h"
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
  graph_maker& call(std::uint32_t from, std::uint32_t to, costs c) {
    g.add_call(from, to, 1, c);
    return *this;
  }
};

// "node cost min-max; " per entry, in the list's order.
std::string show(const coverage_list& l) {
  std::string s;
  for (const auto& e : l.entries)
    s += std::to_string(e.node) + " " + std::to_string(e.cost[0]) + " " +
         std::to_string(e.min_distance) + "-" + std::to_string(e.max_distance) + "; ";
  return s;
}

coverage_list of(const call_graph& g, std::uint32_t n, path_direction d) {
  return coverage_of(path_estimator(g), n, d);
}

// main(0) -> a(1) 90; a -> b(2) 40, a -> c(3) 30; b -> c 30. Self: main 10, a 20, b 10, c 60.
TEST(Coverage, DiamondByHand) {
  graph_maker m(4, 1);
  m.self(0, {10}).self(1, {20}).self(2, {10}).self(3, {60});
  m.call(0, 1, {90}).call(1, 2, {40}).call(1, 3, {30}).call(2, 3, {30});
  const auto down = of(m.g, 0, path_direction::callees);
  EXPECT_EQ(down.total, costs{100});
  // c: 30 straight from a (distance 2) and 30 through b (distance 3).
  EXPECT_EQ(show(down), "1 90 1-1; 3 60 2-3; 2 40 2-2; ");
  EXPECT_FALSE(down.estimated);
  const auto up = of(m.g, 3, path_direction::callers);
  EXPECT_EQ(up.total, costs{60});  // c's inclusive: the calls into it
  // a pays 30 directly and 30 through b; main pays all 60, at distance 2 or 3.
  EXPECT_EQ(show(up), "1 60 1-2; 0 60 2-3; 2 30 1-1; ");
  // An id past the graph: nothing.
  EXPECT_TRUE(of(m.g, 9, path_direction::callees).entries.empty());
}

// main(0) -> f(1) 100; f -> f 300 (a sum over nested levels), f -> g(2) 40; self f 60, g 40.
TEST(Coverage, SelfRecursionCountsOnce) {
  graph_maker m(3, 1);
  m.self(1, {60}).self(2, {40});
  m.call(0, 1, {100}).call(1, 1, {300}).call(1, 2, {40});
  EXPECT_EQ(show(of(m.g, 0, path_direction::callees)), "1 100 1-1; 2 40 2-2; ");
  EXPECT_EQ(show(of(m.g, 2, path_direction::callers)), "1 40 1-1; 0 40 2-2; ");
  // f's callers: main only (the self-call is no caller), all of f's 100.
  const auto up = of(m.g, 1, path_direction::callers);
  EXPECT_EQ(up.total, costs{100});
  EXPECT_EQ(show(up), "0 100 1-1; ");
}

// main(0) -> a(1) 100; a -> b(2) 90; b -> a 40 (nested), b -> c(3) 30. Self a 10, b 20, c 30.
TEST(Coverage, MutualRecursionCutsTheWayBack) {
  graph_maker m(4, 1);
  m.self(1, {10}).self(2, {20}).self(3, {30});
  m.call(0, 1, {100}).call(1, 2, {90}).call(2, 1, {40}).call(2, 3, {30});
  // From main: a 100; b 90 of a's 10 + 90; b's call back to a is on the path, cut: its share
  // stays in b's frame (the estimate's invariant: c's frame never holds more than its call,
  // 30, which 90 * 30 / 50 = 54 would).
  const auto down = of(m.g, 0, path_direction::callees);
  EXPECT_EQ(show(down), "1 100 1-1; 2 90 2-2; 3 30 3-3; ");
  EXPECT_TRUE(down.estimated);
  // c's callers: b 30, a 30 (a's callers: main; b is on the path), main 30.
  EXPECT_EQ(show(of(m.g, 3, path_direction::callers)), "2 30 1-1; 1 30 2-2; 0 30 3-3; ");
  // a's callers: the calls into it, 100 from main and 40 from b (the file's nested sum): a's
  // inclusive with no cycle formed; b's own callers (only a, on the path) end there.
  const auto up = of(m.g, 1, path_direction::callers);
  EXPECT_EQ(up.total, costs{140});
  EXPECT_EQ(show(up), "0 100 1-1; 2 40 1-1; ");
  // From a: b 90 (its call back to a cut), c 30 (its call).
  EXPECT_EQ(show(of(m.g, 1, path_direction::callees)), "2 90 1-1; 3 30 2-2; ");
}

// A tree given by hand where a node's frame sits under another of its frames: counted once.
TEST(Coverage, NestedFramesOfOneNodeCountOnce) {
  path_tree t;
  t.events = 1;
  t.self = cost_matrix(1);
  t.total = cost_matrix(1);
  auto frame = [&](std::uint32_t node, std::uint32_t parent, std::uint32_t depth,
                   std::uint64_t total) {
    t.node.push_back(node);
    t.parent.push_back(parent);
    t.depth.push_back(depth);
    t.self.add_row();
    t.total.row(t.total.add_row())[0] = total;
  };
  frame(0, path_tree::no_frame, 0, 100);
  frame(1, 0, 1, 80);
  frame(2, 1, 2, 50);
  frame(1, 2, 3, 20);  // 1 again under 1: inside the 80 already
  frame(2, 0, 1, 10);
  const auto l = coverage_of_tree(t, path_direction::callees, 0);
  EXPECT_EQ(show(l), "1 80 1-1; 2 60 1-2; ");
  EXPECT_EQ(l.entries[1].paths, 2u);
}

profile read(const std::filesystem::path& file) {
  profile p;
  diagnostic_collector diags;
  auto in = open_input(file.string());
  EXPECT_TRUE(in.has_value());
  profile_builder b(p, &diags, file.string());
  EXPECT_TRUE(detail::read_profile(**in, p.strings, b, diags, {}, detail::any_input()).has_value());
  return p;
}

// Every corpus profile, its heaviest functions: each entry at most the selected function's
// cost; the callers' top is its inclusive cost (analysis/inclusive.h) where it is in no cycle
// and has one part; no frame of the caller map below its children.
TEST(Coverage, CorpusSums) {
  std::size_t checked = 0, tops = 0;
  for (const auto& file : test::corpus_profiles(false)) {
    SCOPED_TRACE(file.string());
    const profile p = read(file);
    if (p.events.empty() || p.functions.empty()) continue;
    const inclusive_result inc = compute_inclusive(p);
    call_graph g(p.functions.size(), p.events.size());
    for (std::size_t r = 0; r < p.self_rows.size(); ++r)
      add_saturating(g.self.row(p.self_rows[r].function.index()), p.self_costs.row(r));
    for (std::size_t c = 0; c < p.calls.size(); ++c)
      g.add_call(p.calls[c].caller.index(), p.calls[c].callee.index(), p.calls[c].count,
                 p.call_costs.row(c));
    const path_estimator est(g);
    for (auto f : top_functions(inc, event_id{0}, cost_kind::inclusive, 4)) {
      const std::uint32_t n = f.index();  // (graph node = function index)
      for (auto d : {path_direction::callees, path_direction::callers}) {
        const coverage_list l = coverage_of(est, n, d);
        for (const auto& e : l.entries) {
          EXPECT_NE(e.node, n);
          EXPECT_LE(e.min_distance, e.max_distance);
          EXPECT_GE(e.min_distance, 1u);
          for (std::size_t ev = 0; ev < g.events; ++ev)
            EXPECT_LE(e.cost[ev], l.total[ev]) << "entry " << e.node << " event " << ev;
        }
        for (std::size_t i = 1; i < l.entries.size(); ++i)
          EXPECT_GE(l.entries[i - 1].cost[0], l.entries[i].cost[0]);
        ++checked;
      }
      // The caller map: the callers' tree itself.
      path_options o;
      o.root = n;
      o.direction = path_direction::callers;
      o.min_share = 1e-4;
      o.exact_self = false;
      const path_tree t = est.estimate(o);
      ASSERT_GT(t.frames(), 0u);
      for (std::size_t fr = 0; fr < t.frames(); ++fr)
        for (std::size_t ev = 0; ev < g.events; ++ev) {
          std::uint64_t children = 0;
          for (std::size_t c = fr + 1; c < t.frames() && t.depth[c] > t.depth[fr]; ++c)
            if (t.parent[c] == fr) children += t.total.row(c)[ev];
          EXPECT_LE(children, t.total.row(fr)[ev]) << "frame " << fr << " event " << ev;
        }
      // (In an event the calls into it carry no cost of, as cache-use events on call lines,
      // the estimate's root takes its self and calls out instead: not compared.)
      if (inc.cycle_of[n] == cycle_id{} && p.parts.size() <= 1) {
        std::vector<std::uint64_t> in(g.events, 0);
        bool called = false;
        for (std::size_t c = 0; c < p.calls.size(); ++c)
          if (p.calls[c].callee == f && p.calls[c].caller != f) {
            add_saturating(std::span<std::uint64_t>(in), p.call_costs.row(c));
            called = true;
          }
        for (std::size_t ev = 0; ev < g.events; ++ev)
          if (in[ev] > 0 || !called) {
            EXPECT_EQ(t.total.row(0)[ev], inc.inclusive.row(n)[ev])
                << p.function_name(f) << " event " << p.events[event_id{ev}].name;
          }
        ++tops;
      }
    }
  }
  EXPECT_GT(checked, 50u);
  EXPECT_GT(tops, 20u);
}

// coverage_of_function reads the model's calls as the estimator's graph.
TEST(Coverage, OfAModelFunction) {
  const profile p =
      read(std::filesystem::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind");
  const auto main = find_function(p, "main");
  ASSERT_TRUE(main);
  const auto l = coverage_of_function(p, *main, path_direction::callees);
  EXPECT_EQ(l.total.size(), p.events.size());
  EXPECT_FALSE(l.entries.empty());
  for (const auto& e : l.entries) EXPECT_LE(e.cost[0], l.total[0]);
  // main's direct callees at distance 1 with at least its calls' cost.
  const auto calls = calls_of(p, compute_inclusive(p), *main);
  for (const auto& c : calls.callees) {
    if (static_cast<double>(c.inclusive[0]) <= 1e-4 * static_cast<double>(l.total[0]) + 1)
      continue;  // (below the paths followed)
    auto it = std::find_if(l.entries.begin(), l.entries.end(),
                           [&](const coverage_entry& e) { return e.node == c.function.index(); });
    ASSERT_NE(it, l.entries.end()) << p.function_name(c.function);
    EXPECT_EQ(it->min_distance, 1u);
    EXPECT_GE(it->cost[0] + 1, c.inclusive[0]);
  }
}

}  // namespace
}  // namespace calltree

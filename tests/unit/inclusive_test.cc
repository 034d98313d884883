// inclusive_test.cc — inclusive cost with recursion and cycles (format-semantics.md §5.1 T6/T7),
// derived events (T15), and Tarjan on a graph deeper than any call stack.
#include "calltree/analysis/inclusive.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "analysis/inclusive_solver.h"
#include "calltree/analysis/derived_events.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

profile load_text(const std::string& text) {
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(text);
  profile_builder b(p, &diags, "test");
  auto r = detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input());
  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(diags.errors(), 0u);
  return p;
}

function_id fn(const profile& p, std::string_view name) {
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == name) return f;
  ADD_FAILURE() << "no function " << name;
  return function_id{};
}

// T6: direct recursion. f calls itself (2 calls, 140) and g (30); main calls f once (100).
const char* t6 =
    "events: Ir\nfl=r.c\nfn=main\n1 1\ncfn=f\ncalls=1 10\n1 100\n"
    "fn=f\n10 70\ncfn=f\ncalls=2 10\n10 140\ncfn=g\ncalls=1 20\n10 30\n"
    "fn=g\n20 30\n";

TEST(Inclusive, DirectRecursionIsNotCountedTwice) {
  profile p = load_text(t6);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive_of(fn(p, "main"))[0], 101u);
  EXPECT_EQ(r.inclusive_of(fn(p, "f"))[0], 100u);  // naive incoming sum: 240
  EXPECT_EQ(r.inclusive_of(fn(p, "g"))[0], 30u);
  EXPECT_EQ(r.self_of(fn(p, "f"))[0], 70u);
  EXPECT_TRUE(r.cycles.empty());
  EXPECT_EQ(r.cycle_of[fn(p, "f").index()], cycle_id{});
  EXPECT_EQ(r.cycle_of_function(fn(p, "f")), cycle_id{});
}

TEST(Inclusive, RawModeGivesCallgrindAnnotateSums) {
  profile p = load_text(t6);
  inclusive_options o;
  o.raw = true;
  auto r = compute_inclusive(p, o);
  EXPECT_EQ(r.inclusive_of(fn(p, "f"))[0], 240u);
  EXPECT_EQ(r.inclusive_of(fn(p, "main"))[0], 101u);
}

// T7: mutual recursion a <-> b, entered once from main with 50.
const char* t7 =
    "events: Ir\nfl=c.c\nfn=main\n1 1\ncfn=a\ncalls=1 10\n1 50\n"
    "fn=a\n10 20\ncfn=b\ncalls=2 20\n10 60\n"
    "fn=b\n20 30\ncfn=a\ncalls=1 10\n20 30\n";

TEST(Inclusive, CycleBecomesOneUnit) {
  profile p = load_text(t7);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive_of(fn(p, "main"))[0], 51u);
  ASSERT_EQ(r.cycles.size(), 1u);
  EXPECT_EQ(r.cycles[0].inclusive[0], 50u);
  EXPECT_EQ(r.cycles[0].self[0], 50u);
  EXPECT_EQ(r.cycles[0].members.size(), 2u);
  EXPECT_EQ(r.cycle_of[fn(p, "a").index()], cycle_id{1});
  EXPECT_EQ(r.cycle_of_function(fn(p, "b")), cycle_id{1});
  // KCachegrind's member figures: self + calls leaving the cycle.
  EXPECT_EQ(r.inclusive_of(fn(p, "a"))[0], 20u);
  EXPECT_EQ(r.inclusive_of(fn(p, "b"))[0], 30u);
  inclusive_options o;
  o.raw = true;
  auto raw = compute_inclusive(p, o);
  EXPECT_EQ(raw.inclusive_of(fn(p, "a"))[0], 80u);
  EXPECT_EQ(raw.inclusive_of(fn(p, "b"))[0], 60u);
}

TEST(Inclusive, RootsPerPart) {
  // Part 1: main calls w (5). Part 2: w is a root (thread start) with self 7.
  const char* two =
      "events: Ir\nfl=t.c\nfn=main\n1 1\ncfn=w\ncalls=1 5\n1 5\nfn=w\n5 5\ntotals: 6\n"
      "events: Ir\nfl=t.c\nfn=w\n5 7\n";
  profile p = load_text(two);
  ASSERT_EQ(p.parts.size(), 2u);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive_of(fn(p, "w"))[0], 12u);
  inclusive_options o;
  o.part = part_id{1};
  EXPECT_EQ(compute_inclusive(p, o).inclusive_of(fn(p, "w"))[0], 7u);
}

TEST(Inclusive, TarjanHandlesAMillionDeepChainWithoutRecursion) {
  const std::uint32_t n = 1000000;
  std::vector<std::uint32_t> from, to;
  for (std::uint32_t i = 0; i + 1 < n; ++i) {
    from.push_back(i);
    to.push_back(i + 1);
  }
  from.push_back(n - 1);  // close the ring: one component
  to.push_back(0);
  std::uint32_t count = 0;
  auto comp = strongly_connected_components(n, from, to, &count);
  EXPECT_EQ(count, 1u);
  from.pop_back();
  to.pop_back();
  comp = strongly_connected_components(n, from, to, &count);
  EXPECT_EQ(count, n);
}

// The solver against the semantics of inclusive.h written out the slow way (components from
// reachability, each part's sums taken node by node), on random graphs of a few nodes: cycles,
// self-calls, calls inside cycles, several parts with their entries added out of part order,
// two events, raw summing too.
struct graph_case {
  struct self_e {
    std::uint32_t part, node;
    std::uint64_t cost[2];
  };
  struct call_e {
    std::uint32_t part, from, to;
    std::uint64_t count, cost[2];
  };
  std::uint32_t nodes = 0;
  std::vector<self_e> selfs;
  std::vector<call_e> calls;
};

inclusive_result reference(const graph_case& g, bool raw) {
  const std::uint32_t n = g.nodes;
  inclusive_result r;
  r.events = 2;
  r.self = cost_matrix(2);
  r.inclusive = cost_matrix(2);
  for (std::uint32_t i = 0; i < n; ++i) {
    r.self.add_row();
    r.inclusive.add_row();
  }
  r.cycle_of.assign(n, cycle_id{});
  for (const auto& s : g.selfs)
    for (int e = 0; e < 2; ++e) r.self.row(s.node)[e] += s.cost[e];
  if (raw) {
    std::vector<bool> called(n, false);
    for (const auto& c : g.calls) {
      if (c.count) called[c.to] = true;
      if (!c.count)
        for (int e = 0; e < 2; ++e) r.self.row(c.from)[e] += c.cost[e];
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      for (const auto& c : g.calls)
        if (c.count && (c.to == v || (c.from == v && !called[v])))
          for (int e = 0; e < 2; ++e) r.inclusive.row(v)[e] += c.cost[e];
      if (!called[v])
        for (int e = 0; e < 2; ++e) r.inclusive.row(v)[e] += r.self.row(v)[e];
    }
    return r;
  }
  // reach[a][b]: a path of one or more calls from a to b.
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (const auto& c : g.calls) reach[c.from][c.to] = true;
  for (std::uint32_t k = 0; k < n; ++k)
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = 0; b < n; ++b)
        if (reach[a][k] && reach[k][b]) reach[a][b] = true;
  auto same = [&](std::uint32_t a, std::uint32_t b) {
    return a == b || (reach[a][b] && reach[b][a]);
  };
  // Cycles (components of two or more), numbered later.
  std::vector<cycle_info> cycles;
  std::vector<int> cycle(n, -1);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (cycle[v] >= 0) continue;
    cycle_info ci;
    for (std::uint32_t w = 0; w < n; ++w)
      if (same(v, w)) ci.members.push_back(w);
    if (ci.members.size() < 2) continue;
    ci.self.assign(2, 0);
    ci.inclusive.assign(2, 0);
    for (std::uint32_t w : ci.members) {
      cycle[w] = static_cast<int>(cycles.size());
      for (int e = 0; e < 2; ++e) ci.self[e] += r.self.row(w)[e];
    }
    cycles.push_back(ci);
  }
  std::uint32_t parts = 0;
  for (const auto& s : g.selfs) parts = std::max(parts, s.part + 1);
  for (const auto& c : g.calls) parts = std::max(parts, c.part + 1);
  for (std::uint32_t p = 0; p < parts; ++p)
    for (std::uint32_t v = 0; v < n; ++v) {
      std::uint64_t in[2] = {0, 0}, own[2] = {0, 0};
      bool entered = false;
      for (const auto& c : g.calls) {
        if (c.part != p || same(c.from, c.to)) continue;
        if (c.to == v) {
          entered = true;
          for (int e = 0; e < 2; ++e) in[e] += c.cost[e];
        }
        if (c.from == v)
          for (int e = 0; e < 2; ++e) own[e] += c.cost[e];
      }
      for (const auto& s : g.selfs)
        if (s.part == p && s.node == v)
          for (int e = 0; e < 2; ++e) own[e] += s.cost[e];
      const bool take_in = entered && cycle[v] < 0;
      for (int e = 0; e < 2; ++e) r.inclusive.row(v)[e] += take_in ? in[e] : own[e];
      if (cycle[v] >= 0)
        for (int e = 0; e < 2; ++e) cycles[cycle[v]].inclusive[e] += own[e];
    }
  std::stable_sort(cycles.begin(), cycles.end(), [](const cycle_info& a, const cycle_info& b) {
    if (a.inclusive[0] != b.inclusive[0]) return a.inclusive[0] > b.inclusive[0];
    return a.members.front() < b.members.front();
  });
  for (std::size_t c = 0; c < cycles.size(); ++c)
    for (std::uint32_t w : cycles[c].members) r.cycle_of[w] = cycle_id{c + 1};
  r.cycles = cycles;
  return r;
}

TEST(Inclusive, SolverMatchesTheSemanticsOnRandomGraphs) {
  std::mt19937 rng(20261123);
  auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  for (int round = 0; round < 3000; ++round) {
    graph_case g;
    g.nodes = 1 + below(9);
    const std::uint32_t parts = 1 + below(3);
    for (std::uint32_t i = below(2 * g.nodes + 1); i > 0; --i)
      g.selfs.push_back({below(parts), below(g.nodes), {below(100), below(5)}});
    for (std::uint32_t i = below(3 * g.nodes + 1); i > 0; --i)
      g.calls.push_back(
          {below(parts), below(g.nodes), below(g.nodes), below(3), {below(100), below(5)}});
    for (const bool raw : {false, true}) {
      inclusive_solver s(g.nodes, 2);
      if (round % 2) s.reserve(g.selfs.size(), g.calls.size());
      for (const auto& e : g.selfs) s.add_self(e.part, e.node, e.cost);
      for (const auto& c : g.calls) s.add_call(c.part, c.from, c.to, c.count, c.cost);
      const inclusive_result got = s.solve(raw), want = reference(g, raw);
      SCOPED_TRACE("round " + std::to_string(round) + (raw ? " raw" : ""));
      for (std::uint32_t v = 0; v < g.nodes; ++v) {
        for (int e = 0; e < 2; ++e) {
          ASSERT_EQ(got.self.row(v)[e], want.self.row(v)[e]) << "node " << v;
          ASSERT_EQ(got.inclusive.row(v)[e], want.inclusive.row(v)[e]) << "node " << v;
        }
        ASSERT_EQ(got.cycle_of[v], want.cycle_of[v]) << "node " << v;
      }
      ASSERT_EQ(got.cycles.size(), want.cycles.size());
      for (std::size_t c = 0; c < got.cycles.size(); ++c) {
        EXPECT_EQ(got.cycles[c].members, want.cycles[c].members);
        EXPECT_EQ(got.cycles[c].self, want.cycles[c].self);
        EXPECT_EQ(got.cycles[c].inclusive, want.cycles[c].inclusive);
      }
      EXPECT_FALSE(got.saturated);
    }
  }
}

TEST(Inclusive, SaturatedSumsAreFlagged) {
  // main calls f twice from two sites, each near 2^64: f's inclusive saturates.
  inclusive_solver s(2, 1);
  const std::uint64_t big = UINT64_MAX - 5;
  s.add_call(0, 0, 1, 1, std::vector<std::uint64_t>{big});
  s.add_call(0, 0, 1, 1, std::vector<std::uint64_t>{big});
  s.add_self(0, 1, std::vector<std::uint64_t>{7});
  const auto r = s.solve();
  EXPECT_TRUE(r.saturated);
  EXPECT_EQ(r.inclusive.row(1)[0], UINT64_MAX);
  EXPECT_EQ(r.inclusive.row(0)[0], UINT64_MAX);
}

TEST(DerivedEvents, FormulasResolveThroughOtherDerivedEvents) {
  // T15: order-independent definitions, Ge absent (0), LLm from the built-in table.
  const char* t15 =
      "event: Bm = Bim + Bcm\n"
      "event: CEst = Ir + 10 Bm + 10 L1m + 20 Ge + 100 LLm : Cycle Estimation\n"
      "event: L1m = I1mr + D1mr + D1mw\n"
      "events: Ir I1mr D1mr D1mw ILmr DLmr DLmw Bim Bcm\n"
      "fl=a.c\nfn=f\n1 1000 1 2 3 1 0 1 4 5\n";
  profile p = load_text(t15);
  std::vector<std::string> names{"CEst", "Bm", "L1m"};
  auto r = resolve_events(p, names);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  auto row = p.self_costs.row(0);
  // Ir 1000 + 10*(4+5) + 10*(1+2+3) + 0 + 100*(1+0+1)
  EXPECT_EQ(r->events[0].evaluate(row), 1000u + 90u + 60u + 200u);
  EXPECT_EQ(r->events[1].evaluate(row), 9u);
  EXPECT_EQ(r->events[2].evaluate(row), 6u);
}

TEST(DerivedEvents, ParserForms) {
  auto t = parse_event_formula("2*Dr - Dw + 10 Bm+Ir");
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->size(), 4u);
  EXPECT_EQ((*t)[0].factor, 2);
  EXPECT_EQ((*t)[0].name, "Dr");
  EXPECT_EQ((*t)[1].factor, -1);
  EXPECT_EQ((*t)[2].factor, 10);
  EXPECT_EQ((*t)[3].name, "Ir");
  EXPECT_FALSE(parse_event_formula("Ir Dr").has_value());
  EXPECT_FALSE(parse_event_formula("").has_value());
}

TEST(DerivedEvents, UnknownAndCyclicNamesFail) {
  profile p = load_text("events: Ir\nfl=a.c\nfn=f\n1 1\n");
  std::vector<std::string> unknown{"Nope"};
  EXPECT_FALSE(resolve_events(p, unknown).has_value());
  std::vector<std::string> defs{"X = Y + Ir", "Y = X"};
  std::vector<std::string> x{"X"};
  EXPECT_FALSE(resolve_events(p, x, defs).has_value());
  std::vector<std::string> ok{"D2 = 2 Ir"};
  std::vector<std::string> d2{"D2"};
  auto r = resolve_events(p, d2, ok);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->events[0].evaluate(p.self_costs.row(0)), 2u);
}

}  // namespace
}  // namespace calltree

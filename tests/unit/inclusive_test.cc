// inclusive_test.cc — inclusive cost with recursion and cycles (format-semantics.md §5.1 T6/T7),
// derived events (T15), and Tarjan on a graph deeper than any call stack.
#include "calltree/analysis/inclusive.h"

#include <gtest/gtest.h>

#include <string>

#include "calltree/analysis/derived_events.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"

namespace calltree {
namespace {

profile load_text(const std::string& text) {
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(text);
  profile_builder b(p, &diags, "test");
  auto r = read_callgrind(*in, p.strings, b, diags);
  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(diags.errors(), 0u);
  return p;
}

function_id fn(const profile& p, std::string_view name) {
  for (function_id f = 0; f < p.functions.size(); ++f)
    if (p.function_name(f) == name) return f;
  ADD_FAILURE() << "no function " << name;
  return 0;
}

// T6: direct recursion. f calls itself (2 calls, 140) and g (30); main calls f once (100).
const char* t6 =
    "events: Ir\nfl=r.c\nfn=main\n1 1\ncfn=f\ncalls=1 10\n1 100\n"
    "fn=f\n10 70\ncfn=f\ncalls=2 10\n10 140\ncfn=g\ncalls=1 20\n10 30\n"
    "fn=g\n20 30\n";

TEST(Inclusive, DirectRecursionIsNotCountedTwice) {
  profile p = load_text(t6);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive.row(fn(p, "main"))[0], 101u);
  EXPECT_EQ(r.inclusive.row(fn(p, "f"))[0], 100u);  // naive incoming sum: 240
  EXPECT_EQ(r.inclusive.row(fn(p, "g"))[0], 30u);
  EXPECT_EQ(r.self.row(fn(p, "f"))[0], 70u);
  EXPECT_TRUE(r.cycles.empty());
  EXPECT_EQ(r.cycle_of[fn(p, "f")], 0u);
}

TEST(Inclusive, RawModeGivesCallgrindAnnotateSums) {
  profile p = load_text(t6);
  inclusive_options o;
  o.raw = true;
  auto r = compute_inclusive(p, o);
  EXPECT_EQ(r.inclusive.row(fn(p, "f"))[0], 240u);
  EXPECT_EQ(r.inclusive.row(fn(p, "main"))[0], 101u);
}

// T7: mutual recursion a <-> b, entered once from main with 50.
const char* t7 =
    "events: Ir\nfl=c.c\nfn=main\n1 1\ncfn=a\ncalls=1 10\n1 50\n"
    "fn=a\n10 20\ncfn=b\ncalls=2 20\n10 60\n"
    "fn=b\n20 30\ncfn=a\ncalls=1 10\n20 30\n";

TEST(Inclusive, CycleBecomesOneUnit) {
  profile p = load_text(t7);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive.row(fn(p, "main"))[0], 51u);
  ASSERT_EQ(r.cycles.size(), 1u);
  EXPECT_EQ(r.cycles[0].inclusive[0], 50u);
  EXPECT_EQ(r.cycles[0].self[0], 50u);
  EXPECT_EQ(r.cycles[0].members.size(), 2u);
  EXPECT_EQ(r.cycle_of[fn(p, "a")], 1u);
  EXPECT_EQ(r.cycle_of[fn(p, "b")], 1u);
  // KCachegrind's member figures: self + calls leaving the cycle.
  EXPECT_EQ(r.inclusive.row(fn(p, "a"))[0], 20u);
  EXPECT_EQ(r.inclusive.row(fn(p, "b"))[0], 30u);
  inclusive_options o;
  o.raw = true;
  auto raw = compute_inclusive(p, o);
  EXPECT_EQ(raw.inclusive.row(fn(p, "a"))[0], 80u);
  EXPECT_EQ(raw.inclusive.row(fn(p, "b"))[0], 60u);
}

TEST(Inclusive, RootsPerPart) {
  // Part 1: main calls w (5). Part 2: w is a root (thread start) with self 7.
  const char* two =
      "events: Ir\nfl=t.c\nfn=main\n1 1\ncfn=w\ncalls=1 5\n1 5\nfn=w\n5 5\ntotals: 6\n"
      "events: Ir\nfl=t.c\nfn=w\n5 7\n";
  profile p = load_text(two);
  ASSERT_EQ(p.parts.size(), 2u);
  auto r = compute_inclusive(p);
  EXPECT_EQ(r.inclusive.row(fn(p, "w"))[0], 12u);
  inclusive_options o;
  o.part = 1;
  EXPECT_EQ(compute_inclusive(p, o).inclusive.row(fn(p, "w"))[0], 7u);
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

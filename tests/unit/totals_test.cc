// totals_test.cc — the figure percentages are of (calltree/totals.h): a part's stated total
// (summary:, else totals:, per event), its summed total and the program total, in the library,
// in the streaming checker, and for parts summed.
#include "calltree/totals.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "calltree/checker.h"
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

check_result check_text(const std::string& text) {
  checker c;
  diagnostic_collector diags;
  auto in = memory_input(text);
  profile scratch;  // (its pool holds the names read)
  auto r = detail::read_profile(*in, scratch.strings, c, diags, {}, detail::any_input());
  EXPECT_TRUE(r.has_value());
  return c.result();
}

event_totals figures(std::optional<std::uint64_t> summary, std::optional<std::uint64_t> totals,
                     std::uint64_t summed) {
  event_totals t;
  t.summary = summary;
  t.totals_line = totals;
  t.summed = summed;
  return t;
}

TEST(Totals, TheRuleOfOnePart) {
  // Nothing stated: the sum.
  EXPECT_EQ(figures({}, {}, 40).stated(), std::nullopt);
  EXPECT_EQ(figures({}, {}, 40).program(), 40u);
  // summary: above the sum (Xdebug's time outside any function): the summary.
  EXPECT_EQ(figures(50, {}, 40).program(), 50u);
  // summary: below the sum, no totals: (pyprof2calltree): still the summary, as stated.
  EXPECT_EQ(figures(57000, {}, 58000).stated(), 57000u);
  EXPECT_EQ(figures(57000, {}, 58000).program(), 57000u);
  // totals: alone, any value (a file with totals: and no summary:).
  for (std::uint64_t n : {11u, 15u, 19u}) EXPECT_EQ(figures({}, n, 5).program(), n);
  // summary: wins over totals:, as in callgrind_annotate...
  EXPECT_EQ(figures(362861226, 362861224, 362861224).program(), 362861226u);
  // ... unless it is below the costs while totals: is there and is not (callgrind
  // --dump-before, zeroed); two lines both below the costs: the summary, as stated.
  EXPECT_EQ(figures(154871410, 162313504, 162313504).program(), 162313504u);
  EXPECT_EQ(figures(50, 1, 190).program(), 50u);
  // A 0 (a short summary: line, padded) is no count: totals:, else the sum.
  EXPECT_EQ(figures(0, 7846118, 7846118).program(), 7846118u);
  EXPECT_EQ(figures(0, {}, 12).stated(), std::nullopt);
  // A negative number wrapped to 64 bits is no count either.
  EXPECT_EQ(figures(18446744073693740485u, 16, 16).program(), 16u);
  EXPECT_EQ(figures(18446744073693740485u, {}, 16).program(), 16u);
}

TEST(Totals, PartsSummed) {
  summed_totals t;
  t.add(figures(100, {}, 90));  // states 100
  t.add(figures({}, {}, 30));   // states nothing: counts with its sum
  EXPECT_EQ(t.stated, 130u);
  EXPECT_EQ(t.summed, 120u);
  EXPECT_EQ(t.program, 130u);
  EXPECT_TRUE(t.differ());
  summed_totals none;
  none.add(figures({}, {}, 30));
  none.add(figures({}, {}, 12));
  EXPECT_EQ(none.stated, std::nullopt);
  EXPECT_EQ(none.program, 42u);
  EXPECT_FALSE(none.differ());
  EXPECT_EQ(total_difference(none, "Ir"), "");
}

TEST(Totals, TheSentenceWhereTheyDiffer) {
  summed_totals above;
  above.add(figures(68773927, {}, 67739373));
  EXPECT_EQ(total_difference(above, "Time"),
            "the file states a total of 68773927 Time but its self costs sum to 67739373 (98.5 % "
            "of it): percentages are of the stated total");
  summed_totals below;
  below.add(figures(57000, {}, 58000));
  EXPECT_EQ(total_difference(below, "ns"),
            "the file states a total of 57000 ns but its self costs sum to 58000 (101.8 % of it): "
            "percentages are of the stated total and can pass 100 %");
}

TEST(Totals, OfAProfile) {
  // Xdebug writes summary: after the body; its time holds more than its functions.
  const std::string xdebug =
      "version: 1\ncreator: xdebug 3.2.0\nevents: Time Memory\n\nfl=(1) a.php\nfn=(1) {main}\n"
      "1 40 100\n\nsummary: 50 60\n";
  profile p = load_text(xdebug);
  const event_id time = *p.find_event("Time"), memory = *p.find_event("Memory");
  EXPECT_EQ(p.total()[time.index()], 40u);
  EXPECT_EQ(stated_total(p, time), 50u);
  EXPECT_EQ(program_total(p, time), 50u);
  // Memory: peak 60 stated, deltas sum to 100: the stated figure, said to differ.
  EXPECT_EQ(program_total(p, memory), 60u);
  EXPECT_TRUE(totals_of(p, memory).differ());
  EXPECT_EQ(part_totals(p, part_id{0}, time).summary, 50u);
  EXPECT_EQ(part_totals(p, part_id{0}, time).totals_line, std::nullopt);

  // Two parts: the first states summary: and totals:, the second nothing.
  const std::string two =
      "events: Ir\nsummary: 30\nfl=a.c\nfn=main\n1 20\ntotals: 20\n"
      "events: Ir\nfl=a.c\nfn=main\n1 7\n";
  profile q = load_text(two);
  ASSERT_EQ(q.parts.size(), 2u);
  const event_id ir = *q.find_event("Ir");
  EXPECT_EQ(part_totals(q, part_id{0}, ir).program(), 30u);
  EXPECT_EQ(part_totals(q, part_id{1}, ir).stated(), std::nullopt);
  EXPECT_EQ(totals_of(q, ir).stated, 37u);
  EXPECT_EQ(totals_of(q, ir).summed, 27u);
  EXPECT_EQ(program_total(q, ir), 37u);

  // Nothing stated anywhere: the sum, and no stated total.
  profile r = load_text("events: Ir\nfl=a.c\nfn=main\n1 7\n");
  EXPECT_EQ(stated_total(r, *r.find_event("Ir")), std::nullopt);
  EXPECT_EQ(program_total(r, *r.find_event("Ir")), 7u);
}

TEST(Totals, TheCheckerTakesTheSameFigures) {
  const std::string two =
      "events: Ir Dr\nsummary: 30\nfl=a.c\nfn=main\n1 20 4\ntotals: 20 4\n"
      "events: Ir Dr\nfl=a.c\nfn=main\n1 7 1\n";
  check_result c = check_text(two);
  profile p = load_text(two);
  ASSERT_EQ(c.events.size(), 2u);
  ASSERT_EQ(c.program.size(), 2u);
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    const summed_totals t = totals_of(p, *p.find_event(c.events[i]));
    EXPECT_EQ(c.program[i].stated, t.stated) << c.events[i];
    EXPECT_EQ(c.program[i].summed, t.summed) << c.events[i];
    EXPECT_EQ(c.program[i].program, t.program) << c.events[i];
  }
  EXPECT_EQ(c.program[0].program, 37u);  // Ir: 30 stated + 7 summed
  EXPECT_EQ(c.program[1].program, 5u);   // Dr: the short summary: gives none; totals: 4 + 1
}

}  // namespace
}  // namespace calltree

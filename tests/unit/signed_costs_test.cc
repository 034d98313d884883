// Signed costs (docs/format.md, "Signed costs"; cost_matrix.h): the reader's parse of negative
// numbers in cost lines, summary: and totals:, its edges (-2^63, one past it, 2^63 unsigned in
// a signed file, a sum past the signed range), and the arithmetic modes.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "calltree/analysis/callers.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/cost_matrix.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/totals.h"
#include "reader/read_hooks.h"

using namespace calltree;

namespace {

struct loaded {
  profile p;
  diagnostic_collector diags{100};
  read_stats stats;
};

// Reads `text` on a thread whose mode is unsigned at the start, and puts the mode back after.
std::unique_ptr<loaded> read_text(std::string text) {
  signed_costs_scope unsigned_start(false);
  auto l = std::make_unique<loaded>();
  auto in = memory_input(std::move(text));
  profile_builder b(l->p, &l->diags, "t");
  reader_options opt;
  opt.display_name = "t";
  auto st = detail::read_profile(*in, l->p.strings, b, l->diags, opt, detail::any_input());
  EXPECT_TRUE(st.has_value());
  if (st) l->stats = *st;
  return l;
}

std::int64_t total(const loaded& l, std::size_t event = 0) {
  return as_signed(l.p.parts[part_id{0}].totals.at(event));
}

std::size_t count(const loaded& l, diag_code c, severity s) {
  std::size_t n = 0;
  for (const auto& d : l.diags.kept()) n += d.code == c && d.severity == s;
  return n;
}

}  // namespace

TEST(signed_costs, negative_costs_are_signed_with_one_note_per_file) {
  auto l = read_text(
      "events: Ir Dr\nfl=a.c\nfn=f\n1 0 -129\n2 -1 -1\nfn=g\n3 -28 5\n4 10\n"
      "summary: -19 -125\n");
  EXPECT_TRUE(l->stats.signed_costs);
  EXPECT_TRUE(l->p.signed_costs);
  EXPECT_EQ(total(*l, 0), -19);
  EXPECT_EQ(total(*l, 1), -125);
  ASSERT_TRUE(l->p.parts[part_id{0}].summary);
  EXPECT_EQ(as_signed((*l->p.parts[part_id{0}].summary)[0]), -19);
  EXPECT_EQ(l->diags.count(diag_code::negative_cost), 1u);
  EXPECT_EQ(count(*l, diag_code::negative_cost, severity::note), 1u);
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(l->diags.warnings(), 0u);
  EXPECT_EQ(l->diags.count(diag_code::bad_summary), 0u);
  EXPECT_EQ(l->diags.count(diag_code::summary_mismatch), 0u);
  EXPECT_EQ(l->diags.count(diag_code::cost_overflow), 0u);
}

TEST(signed_costs, a_negative_summary_or_totals_alone_makes_the_file_signed) {
  auto l = read_text("events: Ir\nfl=a.c\nfn=f\n1 5\n2 3\ntotals: 8\nsummary: -18494684\n");
  EXPECT_TRUE(l->stats.signed_costs);
  EXPECT_EQ(l->diags.count(diag_code::bad_summary), 0u);  // (was: "is not a number")
  ASSERT_TRUE(l->p.parts[part_id{0}].summary);
  EXPECT_EQ(as_signed((*l->p.parts[part_id{0}].summary)[0]), -18494684);
  // A summary below the sum of the self costs, in signed order.
  EXPECT_EQ(l->diags.count(diag_code::summary_mismatch), 1u);
}

TEST(signed_costs, int64_min_is_read_and_one_past_it_is_an_error) {
  auto l = read_text(
      "events: A B\nfl=a.c\nfn=f\n1 -9223372036854775808 9223372036854775807\n"
      "2 -9223372036854775809 1\n3 5 -1\n");
  EXPECT_EQ(l->diags.count(diag_code::number_overflow), 1u);
  EXPECT_EQ(l->stats.skipped_lines, 1u);
  EXPECT_EQ(total(*l, 0), INT64_MIN + 5);
  EXPECT_EQ(total(*l, 1), INT64_MAX - 1);
}

TEST(signed_costs, an_unsigned_number_above_int64_max_in_a_signed_file_is_an_error) {
  auto l = read_text("events: A\nfl=a.c\nfn=f\n1 -1\n2 9223372036854775808\n3 2\n");
  EXPECT_EQ(l->diags.count(diag_code::number_overflow), 1u);
  EXPECT_EQ(l->stats.skipped_lines, 1u);
  EXPECT_EQ(total(*l), 1);
  // Before the first negative number the file is unsigned: the big number is read, and the
  // negative one after it says the earlier number cannot be right.
  auto k = read_text("events: A\nfl=a.c\nfn=f\n1 9223372036854775808\n2 -1\n");
  EXPECT_GE(k->diags.count(diag_code::number_overflow), 1u);
}

TEST(signed_costs, a_sum_past_the_signed_range_is_held_at_its_limit_with_an_error) {
  auto l = read_text("events: A\nfl=a.c\nfn=f\n1 -9223372036854775808\n2 -1\n");
  EXPECT_EQ(l->diags.count(diag_code::cost_overflow), 1u);
  EXPECT_EQ(as_signed(l->p.parts[part_id{0}].totals[0]), INT64_MIN);
  auto h =
      read_text("events: A\nfl=a.c\nfn=f\n1 -1\n2 9223372036854775807\n3 9223372036854775807\n");
  EXPECT_EQ(h->diags.count(diag_code::cost_overflow), 1u);
  EXPECT_EQ(as_signed(h->p.parts[part_id{0}].totals[0]), INT64_MAX);
}

TEST(signed_costs, files_without_negative_numbers_stay_unsigned) {
  auto l = read_text("events: A\nfl=a.c\nfn=f\n1 18446744073709551615\n2 0\n3 -0\n");
  EXPECT_FALSE(l->stats.signed_costs);
  EXPECT_FALSE(l->p.signed_costs);
  EXPECT_EQ(l->p.parts[part_id{0}].totals[0], UINT64_MAX);
  EXPECT_EQ(l->diags.count(diag_code::negative_cost), 0u);
  EXPECT_EQ(l->diags.errors(), 0u);
}

TEST(signed_costs, arithmetic_follows_the_threads_mode) {
  {
    signed_costs_scope off(false);
    std::uint64_t a = UINT64_MAX - 1;
    EXPECT_FALSE(add_saturating(a, 5));
    EXPECT_EQ(a, UINT64_MAX);
    std::uint64_t b = std::uint64_t{1} << 63;  // past 2^63 unsigned: no overflow
    EXPECT_TRUE(add_saturating(b, 7));
    EXPECT_EQ(b, (std::uint64_t{1} << 63) + 7);
  }
  {
    signed_costs_scope on(true);
    EXPECT_TRUE(signed_costs_here());
    std::uint64_t a = 10;
    EXPECT_TRUE(add_saturating(a, static_cast<std::uint64_t>(-25)));
    EXPECT_EQ(as_signed(a), -15);
    std::uint64_t b = static_cast<std::uint64_t>(INT64_MAX);
    EXPECT_FALSE(add_saturating(b, 1));
    EXPECT_EQ(as_signed(b), INT64_MAX);
    std::uint64_t c = static_cast<std::uint64_t>(INT64_MIN);
    EXPECT_FALSE(add_saturating(c, static_cast<std::uint64_t>(-1)));
    EXPECT_EQ(as_signed(c), INT64_MIN);
  }
  EXPECT_FALSE(signed_costs_here());
}

// Each reading starts unsigned: a file of differences read before on the same thread (which
// leaves the thread signed) does not make the next file's sums signed (fuzz_roundtrip's
// 2^64-1 read after a signed file was written as -1).
TEST(signed_costs, a_reading_after_a_signed_file_on_the_thread_starts_unsigned) {
  auto read_here = [](std::string text, profile& p, diagnostic_collector& diags) {
    auto in = memory_input(std::move(text));
    profile_builder b(p, &diags, "t");
    reader_options opt;
    opt.display_name = "t";
    return detail::read_profile(*in, p.strings, b, diags, opt, detail::any_input());
  };
  const bool before = set_signed_costs_here(false);
  profile d;
  diagnostic_collector dd{100};
  ASSERT_TRUE(read_here("events: A\nfl=a.c\nfn=f\n1 -5\n", d, dd));
  EXPECT_TRUE(d.signed_costs);
  EXPECT_TRUE(signed_costs_here());  // (left as the reading made it)
  profile u;
  diagnostic_collector ud{100};
  auto st = read_here("events: A\nfl=a.c\nfn=f\n1 18446744073709551610\n2 10\n", u, ud);
  ASSERT_TRUE(st);
  EXPECT_FALSE(st->signed_costs);
  EXPECT_FALSE(u.signed_costs);
  EXPECT_FALSE(signed_costs_here());
  // Unsigned: the sum passes 2^64-1 and is held there (signed, it would be -6 + 10 = 4).
  EXPECT_EQ(u.parts[part_id{0}].totals[0], UINT64_MAX);
  EXPECT_EQ(ud.count(diag_code::cost_overflow), 1u);
  set_signed_costs_here(before);
}

// The one total rule (totals.h) in a file of differences: a negative stated total counts.
TEST(signed_costs, a_negative_stated_total_is_the_program_total) {
  event_totals t;
  t.summary = static_cast<std::uint64_t>(-330149);
  t.summed = static_cast<std::uint64_t>(-330149);
  EXPECT_FALSE(t.stated());  // unsigned: a wrapped negative, no count
  t.signed_costs = true;
  ASSERT_TRUE(t.stated());
  EXPECT_EQ(as_signed(t.program()), -330149);
  // summary: below the summed total (signed order) gives way to a totals: line that is not.
  t.summary = static_cast<std::uint64_t>(-400000);
  t.totals_line = static_cast<std::uint64_t>(-330149);
  EXPECT_EQ(as_signed(t.program()), -330149);
  summed_totals s;
  s.add(t);
  s.add(t);
  EXPECT_EQ(as_signed(s.program), -660298);
  EXPECT_EQ(as_signed(*s.stated), -660298);
}

// The library's rankings on a profile of differences: by the size of the change, as `calltree
// annotate` lists them (-1 below +14 below -1,000), never by the bit pattern (2^64-1 for -1).
TEST(signed_costs, top_functions_and_calls_of_rank_by_the_size_of_the_change) {
  auto l = read_text(
      "events: Ir\nfl=a.c\nfn=main\n1 2\ncfn=up\ncalls=1 5\n5 14\ncfn=down\ncalls=1 6\n6 -1000\n"
      "cfn=tiny\ncalls=1 7\n7 -1\nfn=up\n5 14\nfn=down\n6 -1000\nfn=tiny\n7 -1\n");
  const profile& p = l->p;
  ASSERT_TRUE(p.signed_costs);
  const inclusive_result inc = compute_inclusive(p);
  EXPECT_TRUE(inc.signed_costs);
  auto names = [&](const std::vector<function_id>& ids) {
    std::string out;
    for (function_id f : ids) out += std::string(p.function_name(f)) + " ";
    return out;
  };
  EXPECT_EQ(names(top_functions(inc, event_id{0}, cost_kind::self, 10)), "down up main tiny ");
  EXPECT_EQ(names(top_functions(inc, event_id{0}, cost_kind::self, 2)), "down up ");
  // main's inclusive: 2 + 14 - 1000 - 1 = -985, above up's +14.
  EXPECT_EQ(names(top_functions(inc, event_id{0}, cost_kind::inclusive, 10)), "down main up tiny ");
  const auto main_id = find_function(p, "main");
  ASSERT_TRUE(main_id);
  const function_calls calls = calls_of(p, inc, *main_id);
  std::string callees;
  for (const call_summary& c : calls.callees)
    callees += std::string(p.function_name(c.function)) + "=" +
               std::to_string(as_signed(c.inclusive[0])) + " ";
  EXPECT_EQ(callees, "down=-1000 up=14 tiny=-1 ");
  EXPECT_EQ(cost_magnitude(static_cast<std::uint64_t>(-1000), true), 1000u);
  EXPECT_EQ(cost_magnitude(static_cast<std::uint64_t>(-1000), false),
            static_cast<std::uint64_t>(-1000));
}

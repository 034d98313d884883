// list_transforms_test.cc — the function list's rows merged by the call-tree transforms
// (views/list_transforms.h): known answers on small profiles (clones, an object, recursion
// levels, direct recursion only), whether a merged row's inclusive cost is exact (entered
// again below itself or not), and the list around them: names, filter, sort by name, groups.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "views/function_list.h"
#include "views/session.h"

namespace calltree {
namespace {

std::unique_ptr<views::session> load(const std::string& text) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "list_transforms_" + std::to_string(::getpid()) +
                           "_" + std::to_string(n++) + ".cg";
  std::ofstream(path) << text;
  auto s = views::load_session(path, views::load_options{});
  std::remove(path.c_str());
  EXPECT_TRUE(s) << s.error().message;
  return s ? std::move(*s) : nullptr;
}

views::name_match re(const std::string& e) {
  return
      [r = std::regex(e)](std::string_view s) { return std::regex_search(s.begin(), s.end(), r); };
}

path_transform step(path_transform::kind k, const std::string& e = "") {
  path_transform t;
  t.what = k;
  t.match = re(e);  // ("": every name)
  return t;
}

struct shown {
  std::uint64_t self = 0, inclusive = 0, calls = 0;
  std::size_t functions = 1;
  bool exact = true;
};

// The list (every row, by self cost) as name -> what it shows, with these steps.
std::map<std::string, shown> rows(const views::session& s, std::vector<path_transform> steps,
                                  views::list_query q = {}) {
  static int queries = 0;  // (the session remembers a list by its key: one key a query)
  q.transforms.steps = std::move(steps);
  q.transforms.key = "query " + std::to_string(queries++);
  q.limit = 1000;
  auto l = views::list_functions(s, q);
  EXPECT_TRUE(l);
  std::map<std::string, shown> out;
  if (!l) return out;
  for (const views::list_row& r : l->rows) {
    shown x{r.self[0], r.inclusive[0], r.calls, 1, true};
    if (r.merged) {
      x.functions = r.merged->functions();
      x.exact = r.merged->exact;
    }
    out[r.merged ? r.merged->name : std::string(s.name(r.id))] = x;
  }
  return out;
}

// main calls f (100 Ir) and g; f calls f.cold; g calls f.constprop.0. f is never entered
// again below itself: its row's inclusive cost is exact.
constexpr const char* clones = R"(events: Ir
ob=prog
fl=a.c
fn=main
1 10
cfn=f
calls=1 2
1 100
cfn=g
calls=1 3
1 40
fn=f
2 50
cfn=f.cold
calls=1 4
2 50
fn=f.cold
4 50
fn=g
3 10
cfn=f.constprop.0
calls=1 5
3 30
fn=f.constprop.0
5 30
)";

TEST(ListTransforms, ClonesAreTheirFunctionsRow) {
  auto s = load(clones);
  ASSERT_TRUE(s);
  const auto plain = rows(*s, {});
  EXPECT_EQ(plain.size(), 5u);
  const auto merged = rows(*s, {step(path_transform::kind::merge_clones)});
  ASSERT_EQ(merged.size(), 3u);
  ASSERT_TRUE(merged.count("f"));
  const shown f = merged.at("f");
  EXPECT_EQ(f.functions, 3u);
  EXPECT_EQ(f.self, 130u);
  EXPECT_EQ(f.inclusive, 130u);  // main's 100 and g's 30: f.cold's 50 is within f's
  EXPECT_EQ(f.calls, 2u);
  EXPECT_TRUE(f.exact);
  // The others as they were.
  EXPECT_EQ(merged.at("main").inclusive, 150u);
  EXPECT_EQ(merged.at("g").inclusive, 40u);
  EXPECT_EQ(merged.at("g").functions, 1u);
}

// A profile of differences (negative costs): f went down by 10 under main and f.constprop.0
// up by 5 under g; f's row is the sum, -5, exact (its costs compared as signed numbers, not
// capped at the total of 0 as unsigned ones would be).
TEST(ListTransforms, ADifferenceFilesRowIsItsSignedSum) {
  auto s = load(R"(events: Ir
fn=main
1 3
cfn=f
calls=1 2
1 -10
cfn=g
calls=1 5
1 7
fn=f
2 -6
cfn=f.cold
calls=1 3
2 -4
fn=f.cold
3 -4
fn=g
5 2
cfn=f.constprop.0
calls=1 6
5 5
fn=f.constprop.0
6 5
)");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->p.signed_costs);
  signed_costs_scope differences(true);  // (as the server answers for such a profile)
  const auto merged = rows(*s, {step(path_transform::kind::merge_clones)});
  ASSERT_TRUE(merged.count("f"));
  EXPECT_EQ(merged.at("f").functions, 3u);
  EXPECT_EQ(as_signed(merged.at("f").self), -5);
  EXPECT_EQ(as_signed(merged.at("f").inclusive), -5);
  EXPECT_TRUE(merged.at("f").exact);
  EXPECT_EQ(as_signed(merged.at("g").inclusive), 7);
}

TEST(ListTransforms, ARowEnteredAgainBelowItselfIsAnUpperBound) {
  // h calls k, which calls h.part.0: h's row holds k's call of h.part.0 twice.
  auto s = load(R"(events: Ir
fl=a.c
fn=main
1 100
cfn=h
calls=1 2
1 60
fn=h
2 20
cfn=k
calls=1 3
2 40
fn=k
3 10
cfn=h.part.0
calls=2 4
3 30
fn=h.part.0
4 30
)");
  ASSERT_TRUE(s);
  const auto merged = rows(*s, {step(path_transform::kind::merge_clones)});
  ASSERT_TRUE(merged.count("h"));
  EXPECT_EQ(merged.at("h").self, 50u);
  EXPECT_EQ(merged.at("h").inclusive, 90u);  // main's 60 and k's 30, h.part.0's 30 twice
  EXPECT_FALSE(merged.at("h").exact);
  EXPECT_EQ(merged.at("k").inclusive, 40u);
}

// main calls printf of libc, which calls vfprintf; with `callback`, printf also calls cb of
// the program, which calls vfprintf again.
std::string with_libc(bool callback) {
  std::string t = R"(events: Ir
ob=prog
fl=a.c
fn=main
1 10
cob=libc.so.6
cfl=printf.c
cfn=printf
calls=1 2
)";
  t += callback ? "1 70\n" : "1 60\n";
  t += R"(ob=libc.so.6
fl=printf.c
fn=printf
2 20
cfn=vfprintf
calls=1 3
2 40
)";
  if (!callback) return t + "fn=vfprintf\n3 40\n";
  return t + R"(cob=prog
cfl=a.c
cfn=cb
calls=1 5
2 10
fn=vfprintf
3 45
ob=prog
fl=a.c
fn=cb
5 5
cob=libc.so.6
cfl=printf.c
cfn=vfprintf
calls=1 3
5 5
)";
}

TEST(ListTransforms, AnObjectIsOneRow) {
  auto s = load(with_libc(false));
  ASSERT_TRUE(s);
  const auto merged = rows(*s, {step(path_transform::kind::collapse_object, "libc")});
  ASSERT_EQ(merged.size(), 2u);
  ASSERT_TRUE(merged.count("libc.so.6"));
  EXPECT_EQ(merged.at("libc.so.6").functions, 2u);
  EXPECT_EQ(merged.at("libc.so.6").self, 60u);
  EXPECT_EQ(merged.at("libc.so.6").inclusive, 60u);
  EXPECT_TRUE(merged.at("libc.so.6").exact);

  // Entered again below itself through the program's callback: an upper bound.
  auto cb = load(with_libc(true));
  ASSERT_TRUE(cb);
  const auto again = rows(*cb, {step(path_transform::kind::collapse_object, "libc")});
  ASSERT_TRUE(again.count("libc.so.6"));
  EXPECT_EQ(again.at("libc.so.6").self, 65u);
  EXPECT_EQ(again.at("libc.so.6").inclusive, 75u);
  EXPECT_FALSE(again.at("libc.so.6").exact);
  EXPECT_EQ(again.at("cb").inclusive, 10u);
}

// fib calls fib'2 calls fib'3 (callgrind's --separate-recs levels); cyc_a'2 is called by
// cyc_c, not by a level of cyc_a.
constexpr const char* levels = R"(events: Ir
fl=a.c
fn=main
1 5
cfn=fib
calls=1 2
1 70
cfn=cyc_a
calls=1 10
1 25
fn=fib
2 10
cfn=fib'2
calls=1 3
2 60
fn=fib'2
3 20
cfn=fib'3
calls=1 4
3 40
fn=fib'3
4 40
fn=cyc_a
10 5
cfn=cyc_c
calls=1 11
10 20
fn=cyc_c
11 5
cfn=cyc_a'2
calls=1 12
11 15
fn=cyc_a'2
12 15
)";

TEST(ListTransforms, RecursionLevelsAreTheirFunctionsRow) {
  auto s = load(levels);
  ASSERT_TRUE(s);
  const auto all = rows(*s, {step(path_transform::kind::collapse_recursion, "")});
  ASSERT_TRUE(all.count("fib"));
  EXPECT_FALSE(all.count("fib'2"));
  EXPECT_EQ(all.at("fib").functions, 3u);
  EXPECT_EQ(all.at("fib").self, 70u);
  EXPECT_EQ(all.at("fib").inclusive, 70u);
  EXPECT_TRUE(all.at("fib").exact);
  // cyc_a'2 is cyc_a's, entered again below it through cyc_c: an upper bound.
  ASSERT_TRUE(all.count("cyc_a"));
  EXPECT_EQ(all.at("cyc_a").self, 20u);
  EXPECT_FALSE(all.at("cyc_a").exact);

  // Only fib's recursion: cyc_a'2 stays a row.
  const auto fib = rows(*s, {step(path_transform::kind::collapse_recursion, "^fib$")});
  EXPECT_EQ(fib.at("fib").functions, 3u);
  EXPECT_TRUE(fib.count("cyc_a'2"));

  // Direct recursion only: fib'2 and fib'3 are called by fib's levels, cyc_a'2 by cyc_c.
  const auto direct = rows(*s, {step(path_transform::kind::collapse_direct_recursion, "")});
  EXPECT_EQ(direct.at("fib").functions, 3u);
  EXPECT_TRUE(direct.at("fib").exact);
  EXPECT_TRUE(direct.count("cyc_a'2"));
  EXPECT_EQ(direct.at("cyc_a").functions, 1u);
}

// A ring of two functions recursing through each other, at callgrind's second level
// (--separate-recs=2): main -> ring_a -> ring_b -> ring_a'2 -> ring_b'2 -> ring_a'2 ... four
// levels deep. Each call into ring_a'2 carries the levels below it again (80 + 60 + 40 + 20),
// so the calls into ring_a's row add up to 300 where the ring costs 100 in all.
constexpr const char* ring = R"(events: Ir
fl=r.c
fn=main
1 1000
cfn=ring_a
calls=1 2
1 100
fn=ring_a
2 10
cfn=ring_b
calls=1 3
2 90
fn=ring_b
3 10
cfn=ring_a'2
calls=1 4
3 80
fn=ring_a'2
4 40
cfn=ring_b'2
calls=4 5
4 160
fn=ring_b'2
5 40
cfn=ring_a'2
calls=3 4
5 120
)";

TEST(ListTransforms, ARowOfRecursionLevelsIsAtMostItsFunctionsInclusiveCosts) {
  auto s = load(ring);
  ASSERT_TRUE(s);
  const auto all = rows(*s, {step(path_transform::kind::collapse_recursion, "")});
  ASSERT_TRUE(all.count("ring_a"));
  const shown& a = all.at("ring_a");
  EXPECT_EQ(a.functions, 2u);
  EXPECT_EQ(a.self, 50u);
  // ring_a's own 100 and its level's cycle (ring_a'2 <-> ring_b'2: 80): 180, not the 300 of
  // the calls into it, nor the program's 1,100 (which main's row is).
  EXPECT_EQ(a.inclusive, 180u);
  EXPECT_GE(a.inclusive, 100u);  // (what the ring costs)
  EXPECT_FALSE(a.exact);
  EXPECT_LT(a.inclusive, all.at("main").inclusive);
  // The same without cycles: ring_a'2's own inclusive cost is the file's (80 + 120).
  views::list_query q;
  q.detect_cycles = false;
  const auto flat = rows(*s, {step(path_transform::kind::collapse_recursion, "")}, q);
  EXPECT_LE(flat.at("ring_a").inclusive, 100u + 200u);
  EXPECT_FALSE(flat.at("ring_a").exact);
}

// --separate-callers with --separate-recs: the level comes before the callers' context.
TEST(ListTransforms, RecursionLevelsWithACallersContextAreOneRow) {
  auto s = load(R"(events: Ir
fl=q.c
fn=main
1 5
cfn=q'main
calls=1 2
1 70
fn=q'main
2 10
cfn=q'2'main
calls=2 3
2 60
fn=q'2'main
3 60
cfn=q'2'main
calls=4 3
3 50
)");
  ASSERT_TRUE(s);
  const auto all = rows(*s, {step(path_transform::kind::collapse_recursion, "")});
  ASSERT_TRUE(all.count("q'main"));
  EXPECT_FALSE(all.count("q'2'main"));
  EXPECT_EQ(all.at("q'main").functions, 2u);
  EXPECT_EQ(all.at("q'main").self, 70u);
  EXPECT_EQ(all.at("q'main").inclusive, 70u);
  EXPECT_TRUE(all.at("q'main").exact);
  // Direct recursion only: q'2'main is called by q's levels alone.
  const auto direct = rows(*s, {step(path_transform::kind::collapse_direct_recursion, "")});
  EXPECT_EQ(direct.at("q'main").functions, 2u);
}

TEST(ListTransforms, AFocusOnACallPathIsNotApplied) {
  auto s = load(levels);
  ASSERT_TRUE(s);
  path_transform focus;
  focus.what = path_transform::kind::focus_path;
  focus.path = {"main", "fib"};
  views::list_query q;
  q.transforms.steps = {focus};
  q.transforms.key = "focus";
  auto l = views::list_functions(*s, q);
  ASSERT_TRUE(l);
  ASSERT_TRUE(l->merge);
  EXPECT_TRUE(l->merge->focus_path);
  EXPECT_TRUE(l->merge->rows.empty());
  EXPECT_EQ(l->total_rows, rows(*s, {}).size());
}

TEST(ListTransforms, NamesFilterSortAndGroups) {
  // A clone with no function of its name is a row named by it.
  auto s = load(std::string(clones) + "fn=z.isra.0\n6 1\nfn=b.cold\n7 2\nfn=b\n8 3\n");
  ASSERT_TRUE(s);
  const auto merged = rows(*s, {step(path_transform::kind::merge_clones)});
  ASSERT_TRUE(merged.count("z"));
  EXPECT_EQ(merged.at("z").functions, 1u);
  EXPECT_EQ(merged.at("z").self, 1u);
  EXPECT_EQ(merged.at("b").functions, 2u);
  EXPECT_EQ(merged.at("b").self, 5u);

  views::list_query q;
  q.filter = "^f$";
  q.match = re("^f$");
  const auto only_f = rows(*s, {step(path_transform::kind::merge_clones)}, q);
  ASSERT_EQ(only_f.size(), 1u);
  EXPECT_EQ(only_f.at("f").self, 130u);

  // By name: the names shown.
  views::list_query byname;
  byname.by = views::sort_by::name;
  byname.descending = false;
  byname.transforms.steps = {step(path_transform::kind::merge_clones)};
  byname.transforms.key = "byname";
  auto l = views::list_functions(*s, byname);
  ASSERT_TRUE(l);
  std::vector<std::string> names;
  for (const auto& r : l->rows)
    names.push_back(r.merged ? r.merged->name : std::string(s->name(r.id)));
  EXPECT_EQ(names, (std::vector<std::string>{"b", "f", "g", "main", "z"}));

  // Grouped by object: a group's costs are its functions', merged or not.
  views::list_query g;
  g.group = views::grouping::object;
  auto plain = views::list_functions(*s, g);
  g.transforms.steps = {step(path_transform::kind::merge_clones)};
  g.transforms.key = "grouped";
  auto grouped = views::list_functions(*s, g);
  ASSERT_TRUE(plain && grouped);
  ASSERT_EQ(plain->groups.size(), grouped->groups.size());
  for (std::size_t i = 0; i < plain->groups.size(); ++i) {
    EXPECT_EQ(plain->groups[i].self, grouped->groups[i].self);
    EXPECT_EQ(plain->groups[i].inclusive, grouped->groups[i].inclusive);
  }
  EXPECT_EQ(grouped->total_rows, 5u);
}

}  // namespace
}  // namespace calltree

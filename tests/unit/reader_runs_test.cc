// Sums per run (record_needs::sums_per_run): consecutive self-cost lines of one context arrive
// as one cost record. Per context the sums and the largest `given` are those of the lines one by
// one, and every other record, every diagnostic and the statistics are unchanged, on every corpus,
// golden and malformed file.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>

#include "calltree/input.h"
#include "context_sums.h"

using namespace calltree;

TEST(ReaderRuns, SumsPerContextAndEverythingElseUnchanged) {
  const auto files = test::every_profile(true);
  ASSERT_GT(files.size(), 60u);
  bool fewer_somewhere = false;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    test::summed_reading r[2];
    for (int runs = 0; runs < 2; ++runs) {
      auto in = open_input(f.string());
      ASSERT_TRUE(in);
      test::read_options opt;
      opt.sum_cost_runs = runs;
      r[runs] = test::read_summed(**in, opt);
    }
    const auto &a = r[0], &b = r[1];
    EXPECT_EQ(a.stats, b.stats);
    EXPECT_EQ(a.names, b.names);
    EXPECT_EQ(a.sums, b.sums);
    EXPECT_EQ(a.given, b.given);
    EXPECT_EQ(a.others, b.others);
    EXPECT_LE(b.cost_records, a.cost_records);
    fewer_somewhere |= b.cost_records * 2 < a.cost_records;
  }
  EXPECT_TRUE(fewer_somewhere) << "no file had runs to sum";
}

namespace {

// `text` read line by line ([0]) and with sum_cost_runs ([1]).
std::array<test::summed_reading, 2> read_line_by_line_and_in_runs(const std::string& text) {
  std::array<test::summed_reading, 2> r;
  for (int runs = 0; runs < 2; ++runs) {
    auto in = memory_input(text);
    test::read_options opt;
    opt.sum_cost_runs = runs;
    r[runs] = test::read_summed(*in, opt);
  }
  return r;
}

}  // namespace

// The run loop (fast_paths.cc, fast_cost_run) takes the lines that continue a run in registers and
// must hand back, unread, the line whose cost takes a part total above 2^64-1: that line's
// error is reported where it stands, and the total is held at 2^64-1, with one event and with
// several.
TEST(ReaderRuns, AnOverflowInsideARunIsReportedAsLineByLine) {
  for (const std::string events : {"events: A\n", "events: A B\n"}) {
    const bool two = events.size() > 10;
    const std::string text = events + "fn=f\n1 1" + (two ? " 1" : "") +
                             "\n2 18446744073709551614\n+1 1\n+1 5" + (two ? " 7" : "") +
                             "\nfn=g\n4 2\n";
    SCOPED_TRACE(text);
    const auto r = read_line_by_line_and_in_runs(text);
    EXPECT_EQ(r[0].stats, r[1].stats);
    EXPECT_EQ(r[0].others, r[1].others);
    EXPECT_EQ(r[0].sums, r[1].sums);
    EXPECT_EQ(r[0].given, r[1].given);
    const bool reported = std::any_of(r[1].others.begin(), r[1].others.end(), [](const auto& s) {
      return s.find("cost-overflow") != std::string::npos;
    });
    EXPECT_TRUE(reported);
    EXPECT_LT(r[1].cost_records, r[0].cost_records);  // the lines were summed in runs
  }
}

namespace {

// Self costs per function and source line, and the largest `given` of each.
struct line_sums final : record_sink {
  std::map<std::pair<string_id, std::uint64_t>, std::vector<std::uint64_t>> sums;
  std::map<std::pair<string_id, std::uint64_t>, std::uint32_t> given;
  std::size_t records = 0;
  void on_cost(const cost_record& r) override {
    ++records;
    auto& s = sums[{r.ctx.function, r.pos.line}];
    s.resize(r.costs.size());
    for (std::size_t k = 0; k < r.costs.size(); ++k) s[k] += r.costs[k];
    auto& g = given[{r.ctx.function, r.pos.line}];
    g = std::max(g, r.given);
  }
};

}  // namespace

// Sums per line (record_needs::per_line): a run ends where the line changes, in the run loop as
// line by line (relative and repeated lines, position-only lines, one event and several).
TEST(ReaderRuns, SummedPerLineARunEndsWhereTheLineChanges) {
  for (const std::string head : {"events: A\n", "events: A B\npositions: instr line\n"}) {
    const bool instr = head.find("instr") != std::string::npos;
    auto pos = [&](const std::string& line) { return (instr ? "+1 " : "") + line; };
    std::string text = head + "fn=f\n";
    for (const char* l : {"10 1", "10 2", "+1 4", "+0 8", "11", "* 16", "-1 32", "12 64", "* 1"})
      text += pos(l) + "\n";
    text += "fn=g\n" + pos("10 128") + "\n" + pos("10 256") + "\n";
    SCOPED_TRACE(text);
    line_sums s[2];
    for (int runs = 0; runs < 2; ++runs) {
      auto in = memory_input(text);
      string_pool names;
      test::read_options opt;
      opt.sum_cost_runs = opt.sum_per_line = runs;
      diagnostic_collector diags;
      ASSERT_TRUE(test::read_as(*in, names, s[runs], diags, opt));
    }
    EXPECT_EQ(s[0].sums, s[1].sums);
    EXPECT_EQ(s[0].given, s[1].given);
    EXPECT_EQ(s[0].sums.size(), 4u);
    EXPECT_LT(s[1].records, s[0].records);
  }
}

// The run loop reads the commonest line starts at fixed offsets (`+D 0 `, `+D * `, `+D ` then
// any other line token; `+D ` alone with positions: instr): it must leave the base where the
// lines read one by one do, or the call after the run has its site and target wrong.
TEST(ReaderRuns, TheRunLoopLeavesTheBaseWhereLineByLineDoes) {
  struct shape {
    const char* positions;
    std::vector<const char*> lines;  // the run, after its first line "0x10 7 1" (or "0x10 1")
    const char* call;                // calls= and its cost line, relative to the run's end
    const char* site;                // the call record's site and target as the text sink says
  };
  const shape shapes[] = {
      {"instr line",
       {"+1 0 1", "+2 0 3", "+3 * 5", "+4 0 7"},
       "calls=1 +5 *\n* * 9\n",
       "@26,0 -> 31,0"},
      {"instr line",
       {"+1 * 1", "+2 +3 3", "+9 -2 5", "+1 0", "+2 * 7"},
       "calls=2 +1 +4\n+1 +1 9\n",
       "@32,1 -> 32,4"},
      {"instr line",
       {"+1 12 1", "+2 0 2", "+3 +1 4", "+4 * 8 "},
       "calls=1 -1 -1\n* * 9\n",
       "@26,1 -> 25,0"},
      {"instr", {"+1 1", "+2 3", "+3", "+4 7", "+5 9 "}, "calls=1 +1\n+1 9\n", "@32,0 -> 32,0"},
  };
  for (const auto& sh : shapes) {
    const bool line = std::string(sh.positions).find("line") != std::string::npos;
    std::string text = std::string("events: A\npositions: ") + sh.positions + "\nfn=f\ncfn=g\n" +
                       (line ? "0x10 7 1\n" : "0x10 1\n");
    for (const char* l : sh.lines) text += std::string(l) + "\n";
    text += sh.call;
    text += line ? "+1 0 3\n" : "+1 3\n";
    SCOPED_TRACE(text);
    const auto r = read_line_by_line_and_in_runs(text);
    EXPECT_EQ(r[0].stats, r[1].stats);
    EXPECT_EQ(r[0].others, r[1].others);
    EXPECT_EQ(r[0].sums, r[1].sums);
    EXPECT_LT(r[1].cost_records, r[0].cost_records);  // the lines were read in a run
    const auto call = std::find_if(r[1].others.begin(), r[1].others.end(),
                                   [](const std::string& s) { return s.starts_with("call "); });
    ASSERT_NE(call, r[1].others.end());
    EXPECT_NE(call->find(sh.site), std::string::npos) << *call;
  }
}

// reader_options::sum_cost_runs: consecutive self-cost lines of one context arrive as one cost
// record. Per context the sums and the largest `given` are those of the lines one by one, and
// every other record, every diagnostic and the statistics are unchanged, on every corpus,
// golden and malformed file.
#include <gtest/gtest.h>

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
      reader_options opt;
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

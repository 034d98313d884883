// report_text_test.cc — the text report's own arithmetic against the library calls it stands
// in for: format_percent against snprintf (every hundredth, the halves between them and values
// a hair either side, random costs and totals), and radix_sort against std::stable_sort (keys
// with many ties, keys spread over all 64 bits, keys equal in all bytes but one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "model/radix_sort.h"
#include "report/annotate_data.h"

namespace {

using calltree::detail::format_percent;
using calltree::detail::keyed_index;
using calltree::detail::radix_sort;

std::string by_snprintf(double perc) {
  char buf[400];
  const int k = -9.995 < perc && perc < 99.995 ? std::snprintf(buf, sizeof buf, " (%5.2f%%)", perc)
                                               : std::snprintf(buf, sizeof buf, " (%5.1f%%)", perc);
  return std::string(buf, static_cast<std::size_t>(k));
}

std::string by_format_percent(double perc) {
  char buf[400];
  return std::string(buf, format_percent(buf, sizeof buf, perc));
}

TEST(FormatPercent, SameAsSnprintfAtEveryHundredthAndHalfAndEitherSide) {
  for (int h = 0; h <= 10000; ++h) {
    for (double base : {h / 100.0, (h + 0.5) / 100.0}) {
      double x = base;
      for (int step = 0; step < 4; ++step) x = std::nextafter(x, -1.0);
      for (int step = 0; step < 9; ++step, x = std::nextafter(x, 200.0))
        ASSERT_EQ(by_format_percent(x), by_snprintf(x)) << x;
    }
  }
}

TEST(FormatPercent, SameAsSnprintfForCostsOverTotals) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000000; ++i) {
    const std::uint64_t total = rng() >> (rng() % 64);
    if (total == 0) continue;
    const std::uint64_t v = rng() % (total + 1);
    const double perc = static_cast<double>(v) * 100.0 / static_cast<double>(total);
    ASSERT_EQ(by_format_percent(perc), by_snprintf(perc)) << v << "/" << total;
  }
}

TEST(FormatPercent, OutOfRangeAndShortBuffers) {
  for (double perc : {99.995, 100.0, 123.456, 1e20, -0.004, -5.0, -9.995, -1e9})
    EXPECT_EQ(by_format_percent(perc), by_snprintf(perc)) << perc;
  char buf[6];
  EXPECT_EQ(format_percent(buf, sizeof buf, 12.5), 5u);  // cut as snprintf cuts
  EXPECT_EQ(std::string(buf, 5), " (12.");
  EXPECT_EQ(format_percent(buf, 0, 12.5), 0u);
}

void expect_stable_order(std::vector<keyed_index> v) {
  std::vector<keyed_index> want = v;
  std::stable_sort(want.begin(), want.end(),
                   [](const keyed_index& a, const keyed_index& b) { return a.key < b.key; });
  radix_sort(v);
  ASSERT_EQ(v.size(), want.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(v[i].key, want[i].key) << i;
    ASSERT_EQ(v[i].index, want[i].index) << i;
  }
}

TEST(RadixSort, SameAsStableSort) {
  std::mt19937_64 rng(7);
  expect_stable_order({});
  expect_stable_order({{3, 0}});
  for (std::size_t n : {2u, 17u, 1000u, 100000u}) {
    std::vector<keyed_index> ties, wide, one_byte, costs;
    for (std::uint32_t i = 0; i < n; ++i) {
      ties.push_back({rng() % 5, i});
      wide.push_back({rng(), i});
      one_byte.push_back({0x1234'5678'0000'9abcULL | ((rng() % 256) << 24), i});
      costs.push_back({~(rng() >> (30 + rng() % 34)), i});
    }
    expect_stable_order(ties);
    expect_stable_order(wide);
    expect_stable_order(one_byte);
    expect_stable_order(costs);
  }
}

}  // namespace

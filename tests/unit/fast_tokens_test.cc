// fast_tokens.h: decimal_wide(), the run loop's cost scanner (8 bytes at once), against
// decimal(), the plain loop it stands for: the same result, end and value on random texts of
// digits, separators and other bytes (numbers of 0 to 25 digits, near the end of the text or
// not), and on the edges: 7, 8, 19 and 20 digits, and fewer than 8 bytes left.
#include "reader/fast_tokens.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace calltree::detail;

namespace {

void expect_same(const std::string& s) {
  const char *p1 = s.data(), *p2 = s.data(), *end = s.data() + s.size();
  std::uint64_t v1 = 1, v2 = 2;
  const bool a = fast::decimal(p1, end, v1), b = fast::decimal_wide(p2, end, v2);
  ASSERT_EQ(a, b) << '"' << s << '"';
  if (a) {
    EXPECT_EQ(p1 - s.data(), p2 - s.data()) << '"' << s << '"';
    EXPECT_EQ(v1, v2) << '"' << s << '"';
  }
}

}  // namespace

TEST(FastTokens, DecimalWideReadsWhatDecimalReads) {
  for (const char* s :
       {"0 ", "7\n", "1234567 1", "12345678 1", "99999999\n", "1234567890123456789 ",
        "12345678901234567890 ", "18446744073709551615 ", "", "x", " 1", "5", "1234567",
        "0000000000001\n", "9\x80\x80\x80\x80\x80\x80\x80"})
    expect_same(s);
  std::mt19937_64 rng(20261122);
  const std::string others = " \n\t\r+-*x/:()a\x80\xff";
  for (int it = 0; it < 200000; ++it) {
    std::string s;
    const int len = static_cast<int>(rng() % 26);
    for (int k = 0; k < len; ++k)
      s += rng() % 4 ? static_cast<char>('0' + rng() % 10) : others[rng() % others.size()];
    s.append(rng() % 10, rng() % 2 ? ' ' : '7');
    expect_same(s);
    if (HasFatalFailure()) return;
  }
}

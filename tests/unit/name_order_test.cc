// name_order_test.cc — the session's order by name and the function list's regex filter on a
// profile of many functions whose names share long prefixes (the paths that sort by 8-byte
// pieces and match on two threads), against the plain comparison and one match a name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "views/function_list.h"
#include "views/session.h"

namespace calltree {
namespace {

// A profile of `n` functions in 3 files: names from a few long shared prefixes, short names,
// names that are prefixes of others, the same name in two files.
std::string write_profile(std::size_t n) {
  std::mt19937 rng(7);
  const char* prefixes[] = {"",
                            "a",
                            "support::support::",
                            "support::support::Module::",
                            "std::vector<int, std::allocator<int> >::",
                            "zz",
                            "support:"};
  std::string path = ::testing::TempDir() + "name_order_" + std::to_string(::getpid()) + ".cg";
  std::ofstream out(path);
  out << "events: Ir\n";
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = prefixes[rng() % 7];
    const std::size_t tail = rng() % 13;
    for (std::size_t j = 0; j < tail; ++j) name += static_cast<char>('a' + rng() % 4);
    if (name.empty()) name = "x";
    out << "fl=file" << rng() % 3 << ".cc\nfn=" << name << "\n"
        << i % 50 + 1 << " " << i + 1 << "\n";
  }
  return path;
}

TEST(NameOrder, SameAsTheComparison) {
  const std::string path = write_profile(20000);
  auto s = views::load_session(path, views::load_options{});
  std::remove(path.c_str());
  ASSERT_TRUE(s) << s.error().message;
  const views::session& v = **s;
  ASSERT_GT(v.keys(), 5000u);
  std::vector<std::uint32_t> want(v.ids());
  for (std::uint32_t i = 0; i < v.ids(); ++i) want[i] = i;
  std::sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) {
    const int c = v.name(a).compare(v.name(b));
    if (c != 0) return c < 0;
    if (a < v.keys() && b < v.keys()) {
      const int f = v.file(a).compare(v.file(b));
      if (f != 0) return f < 0;
    }
    return a < b;
  });
  EXPECT_EQ(v.name_order(), want);
}

TEST(NameOrder, RegexFilterMatchesEachName) {
  const std::string path = write_profile(20000);
  auto s = views::load_session(path, views::load_options{});
  std::remove(path.c_str());
  ASSERT_TRUE(s) << s.error().message;
  const views::session& v = **s;
  const std::regex re("Module::.*b|^ab");
  auto match = [&](std::string_view n) { return std::regex_search(n.begin(), n.end(), re); };
  std::vector<std::uint32_t> want;
  for (std::uint32_t k = 0; k < v.keys(); ++k)
    if (match(v.name(k))) want.push_back(k);
  ASSERT_GT(want.size(), 100u);
  for (views::sort_by by : {views::sort_by::self, views::sort_by::name}) {
    views::list_query q;
    q.filter = "Module::.*b|^ab";
    q.match = match;
    q.by = by;
    q.limit = v.ids();
    auto l = views::list_functions(v, q);
    ASSERT_TRUE(l) << l.error().message;
    std::vector<std::uint32_t> got;
    for (const views::list_row& r : l->rows) got.push_back(r.id);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want);
    EXPECT_EQ(l->total_rows, want.size());
  }
}

}  // namespace
}  // namespace calltree

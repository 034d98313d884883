// annotate_spill_test.cc — the annotate report is the same whatever holds the names.
//
// `calltree annotate` keeps names in a spilling pool (pool_mode::spill: long names'
// text in a temporary file, read back only for the functions the report prints or orders by
// name). On every corpus file and several option sets, the text (and the JSON) of a profile
// replayed through annotate's filler must be the same as from a pool in memory. The report orders
// functions by cost and only the runs of equal cost it prints by name: a profile of many equal
// costs checks that the rows printed are, in order, the first rows of the full (cost, name) order,
// whatever the threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/string_pool_access.h"
#include "profile_files.h"
#include "reader/read_hooks.h"
#include "report/annotate.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

struct loaded {
  profile p;
  explicit loaded(bool) {}
};

// As `calltree annotate` reads: positions by line only when source lines are annotated.
void load(loaded& l, std::unique_ptr<input> in, bool by_line) {
  diagnostic_collector diags;
  builder_options bo;
  bo.keep_positions = by_line ? pos_line : 0;
  bo.keep_jumps = false;
  profile_builder b(l.p, &diags, "test", bo);
  detail::read_hooks hooks;  // (summed per run where no line is kept, as the test has it)
  hooks.any_input = true;
  read_needs& n = hooks.needs.emplace();
  if (!by_line) n.costs = read_needs::grain::sums_per_run;
  n.jumps = false;
  ASSERT_TRUE(detail::read_with_hooks(*in, l.p.strings, b, diags, {}, hooks).has_value());
}

std::unique_ptr<loaded> load_file(const std::string& path, pool_mode m, bool by_line) {
  auto l = std::make_unique<loaded>(by_line);
  l->p.strings = string_pool_access::make(m);
  auto in = open_input(path);
  EXPECT_TRUE(in.has_value()) << path;
  if (in) load(*l, std::move(*in), by_line);
  return l;
}

std::unique_ptr<loaded> load_text(const std::string& text, pool_mode m) {
  auto l = std::make_unique<loaded>(false);
  l->p.strings = string_pool_access::make(m);
  load(*l, memory_input(text), false);
  return l;
}

// The report of the profile, replayed through annotate's filler (report/annotate.h).
std::string text_of(const profile& p, const annotate_options& o) {
  auto r = annotate_text(p, o);
  EXPECT_TRUE(r.has_value());
  return r ? *r : std::string();
}

std::vector<annotate_options> option_sets() {
  std::vector<annotate_options> v;
  annotate_options o;
  o.input_name = "x";
  o.auto_annotate = false;
  v.push_back(o);  // the benchmark's --auto=no
  o.threshold = "100";
  o.inclusive = true;
  o.tree_caller = o.tree_calling = true;
  v.push_back(o);
  o = {};
  o.input_name = "x";
  o.threshold = "90";
  o.tree_calling = true;  // --auto=yes: sources, call sites ("=> name")
  v.push_back(o);
  return v;
}

TEST(annotate_spill, same_report_on_every_corpus_file) {
  std::uint64_t spilled = 0;
  for (const auto& file : test::corpus_profiles(true)) {
    const std::string path = file.string();
    for (const annotate_options& o : option_sets()) {
      const bool by_line = o.auto_annotate;
      auto full = load_file(path, pool_mode::full, by_line);
      auto spill = load_file(path, pool_mode::spill, by_line);
      spilled += string_pool_access::spilled_bytes(spill->p.strings);
      const std::string want = text_of(full->p, o);
      EXPECT_TRUE(want == text_of(spill->p, o))
          << path << " threshold " << o.threshold << " inclusive " << o.inclusive;
      annotate_options two = o;  // the names read ahead on a thread of their own
      two.threads = 2;
      EXPECT_TRUE(want == text_of(spill->p, two))
          << path << " threshold " << o.threshold << " inclusive " << o.inclusive << " threads 2";
      EXPECT_FALSE(string_pool_access::read_failed(spill->p.strings));
    }
    auto full = load_file(path, pool_mode::full, false);
    auto spill = load_file(path, pool_mode::spill, false);
    annotate_options o;
    o.input_name = "x";
    o.auto_annotate = false;
    auto a = annotate_json(full->p, o);
    auto b = annotate_json(spill->p, o);
    ASSERT_TRUE(a && b) << path;
    EXPECT_TRUE(*a == *b) << path << ": JSON differs";
  }
  EXPECT_GT(spilled, 0u);
}

// The rows of the function table: "cost (pct)  file:name".
std::vector<std::string> table_rows(const std::string& report) {
  std::vector<std::string> rows;
  std::istringstream in(report);
  std::string line;
  int dashes = 0;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.find("file:function") != std::string::npos) {
      in_table = true;
      dashes = 0;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("----", 0) == 0) {
      ++dashes;
      continue;
    }
    if (dashes == 0) continue;
    if (line.empty()) break;
    rows.push_back(line);
  }
  return rows;
}

TEST(annotate_spill, equal_costs_are_ordered_by_name_up_to_the_threshold) {
  // 400 functions with long names that differ only after their first 40 bytes, in a scrambled
  // order, with costs in runs of equal values (1..8).
  const std::string prefix = "ns::a_long_common_prefix_of_more_than_forty_bytes::function_";
  std::string text = "events: Ir\nfl=(1) a.c\n";
  for (int i = 0; i < 400; ++i) {
    const int n = (i * 263) % 400;
    text += "fn=(" + std::to_string(i + 1) + ") " + prefix + std::to_string(n) + "\n";
    text += "1 " + std::to_string(1 + n % 8) + "\n";
  }
  auto full = load_text(text, pool_mode::full);
  auto spill = load_text(text, pool_mode::spill);
  EXPECT_GT(string_pool_access::spilled_bytes(spill->p.strings), 0u);

  annotate_options o;
  o.input_name = "x";
  o.auto_annotate = false;
  o.threshold = "100";
  const std::vector<std::string> all = table_rows(text_of(full->p, o));
  ASSERT_EQ(all.size(), 400u);
  // The full order: cost descending, then name ascending.
  auto cost = [](const std::string& row) {
    std::string digits;
    for (char c : row.substr(0, row.find('(')))
      if (c >= '0' && c <= '9') digits += c;
    return std::stoull(digits);
  };
  auto name = [](const std::string& row) { return row.substr(row.find("a.c:")); };
  for (std::size_t i = 1; i < all.size(); ++i) {
    const auto a = cost(all[i - 1]), b = cost(all[i]);
    ASSERT_TRUE(a > b || (a == b && name(all[i - 1]) < name(all[i]))) << all[i - 1] << "\n"
                                                                      << all[i];
  }
  // Any threshold shows a prefix of that order, whichever pool holds the names.
  for (const char* th : {"0", "1", "13", "37.5", "50", "62", "87.3", "99", "99.9", "100"}) {
    o.threshold = th;
    const std::string a = text_of(full->p, o);
    const std::vector<std::string> shown = table_rows(a);
    ASSERT_LE(shown.size(), all.size());
    EXPECT_TRUE(std::equal(shown.begin(), shown.end(), all.begin())) << "threshold " << th;
    EXPECT_EQ(a, text_of(spill->p, o)) << "threshold " << th;
    annotate_options two = o;  // read ahead: each run's names are taken before it is ordered
    two.threads = 2;
    EXPECT_EQ(a, text_of(spill->p, two)) << "threshold " << th << " threads 2";
  }
}

// The names read ahead come through a queue of at most 32 batches of 64 names or about 1 MB: a
// run of equal cost far longer than that (6,000 names of 300 bytes, all of one cost) is taken
// whole before it is put in name order, as the queue drains into the report (and the report
// reads batches itself while it waits).
TEST(annotate_spill, a_run_longer_than_the_read_ahead_queue) {
  std::string text = "events: Ir\nfl=(1) a.c\n";
  for (int i = 0; i < 6000; ++i) {
    const int n = (i * 2609) % 6000;
    text += "fn=(" + std::to_string(i + 1) + ") " + std::string(300, 'x') + std::to_string(n) +
            "\n1 " + (i < 5990 ? "7" : "9") + "\n";
  }
  auto full = load_text(text, pool_mode::full);
  auto spill = load_text(text, pool_mode::spill);
  EXPECT_GT(string_pool_access::spilled_bytes(spill->p.strings), std::size_t{1} << 20);
  annotate_options o;
  o.input_name = "x";
  o.auto_annotate = false;
  o.threshold = "100";
  const std::string want = text_of(full->p, o);
  EXPECT_EQ(table_rows(want).size(), 6000u);
  o.threads = 2;
  EXPECT_EQ(want, text_of(spill->p, o));
}

}  // namespace
}  // namespace calltree

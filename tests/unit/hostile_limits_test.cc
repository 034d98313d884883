// hostile_limits_test.cc — the memory guard (--max-memory, memory_limit.h), in-process.
//
// A profile that would take more than builder_options::max_memory stops being kept with one
// limit_exceeded error; what was read before stays, and the model stays consistent (each
// part's totals are the sum of its self rows). The resident-memory side (peak RSS of the
// calltree process) is measured in hostile_test.cc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "calltree/analysis/merge.h"
#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/load_any.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

// `functions` functions with `lines` distinct cost lines each, one part.
std::string many_rows(int functions, int lines, int events = 1) {
  std::string s = "events:";
  for (int e = 0; e < events; ++e) s += " e" + std::to_string(e);
  s += "\nfl=a.c\n";
  for (int f = 0; f < functions; ++f) {
    s += "fn=f" + std::to_string(f) + "\n";
    for (int l = 0; l < lines; ++l) s += std::to_string(l + 1) + " 1\n";
  }
  return s;
}

std::uint64_t sum_of_self_rows(const profile& p, part_id part, event_id e) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < p.self_rows.size(); ++i)
    if (p.self_rows[i].part == part) sum += p.self_costs.row(i)[e.index()];
  return sum;
}

struct built {
  built(const std::string& text, std::uint64_t max_memory) {
    builder_options bo;
    bo.max_memory = max_memory;
    reader_options ro;
    ro.max_name_bytes = 0;
    auto in = memory_input(text);
    profile_builder b(p, &diags, "test", bo);
    auto r = detail::read_profile(*in, p.strings, b, diags, ro, detail::any_input());
    EXPECT_TRUE(r.has_value());
    limit_hit = b.limit_hit();
  }
  profile p;
  diagnostic_collector diags;
  bool limit_hit = false;
};

TEST(hostile_limits, model_stops_growing_at_the_limit_and_stays_consistent) {
  const std::string text = many_rows(2000, 50);  // 100,000 rows
  built unlimited(text, 0);
  EXPECT_FALSE(unlimited.limit_hit);
  EXPECT_EQ(unlimited.p.self_rows.size(), 100000u);
  EXPECT_EQ(unlimited.diags.count(diag_code::limit_exceeded), 0u);

  built limited(text, 1u << 20);  // 1 MiB: room for some thousands of rows
  EXPECT_TRUE(limited.limit_hit);
  EXPECT_EQ(limited.diags.count(diag_code::limit_exceeded), 1u);
  EXPECT_GT(limited.p.self_rows.size(), 1000u);
  EXPECT_LT(limited.p.self_rows.size(), 100000u);
  ASSERT_EQ(limited.p.parts.size(), 1u);
  // Totals are what was kept, not what the file had.
  EXPECT_EQ(limited.p.parts[part_id{0}].totals[0],
            sum_of_self_rows(limited.p, part_id{0}, event_id{0}));
  EXPECT_EQ(limited.p.parts[part_id{0}].totals[0], limited.p.self_rows.size());
  // What was kept is exactly the first rows of the file.
  EXPECT_EQ(limited.p.function_name(limited.p.self_rows.front().function), "f0");
}

TEST(hostile_limits, parts_after_the_limit_are_dropped_whole) {
  std::string text = many_rows(500, 50) + "totals: 25000\n" + many_rows(10, 10);
  built limited(text, 256u << 10);
  EXPECT_TRUE(limited.limit_hit);
  EXPECT_EQ(limited.p.parts.size(), 1u);
  EXPECT_EQ(limited.diags.count(diag_code::limit_exceeded), 1u);
}

// A hostile events: line makes every cost row wide: 20,000 events x 8 bytes per row. The guard
// counts row width, so the build stops after a few rows instead of taking gigabytes.
TEST(hostile_limits, wide_rows_count_against_the_limit) {
  built limited(many_rows(1, 5000, 20000), 64u << 20);
  EXPECT_TRUE(limited.limit_hit);
  EXPECT_LT(limited.p.self_rows.size(), 64u * 1024 * 1024 / (20000 * 8));
  EXPECT_GT(limited.p.self_rows.size(), 100u);
}

TEST(hostile_limits, load_profile_marks_a_limited_read_incomplete) {
  const auto path = std::filesystem::temp_directory_path() / "calltree-hostile-limits.callgrind";
  std::ofstream(path) << many_rows(2000, 50);
  profile p;
  diagnostic_collector diags;
  builder_options bo;
  bo.max_memory = 1u << 20;
  auto r = detail::load_any_input(path.string(), p, diags, reader_options{}, bo);
  std::filesystem::remove(path);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->state, read_state::stopped);
  EXPECT_EQ(diags.count(diag_code::limit_exceeded), 1u);
}

// The options carry their limit: they start at the machine's, and nothing a process sets
// changes what a new one starts with.
TEST(hostile_limits, options_start_at_the_machines_limit) {
  const std::uint64_t machine = machine_memory_limit();
  EXPECT_GT(machine, 64u << 20);  // three quarters of any machine that runs the tests
  EXPECT_EQ(builder_options{}.max_memory, machine);
  EXPECT_EQ(reader_options{}.max_name_bytes, machine);
  EXPECT_EQ(merge_options{}.max_memory, machine);
}

}  // namespace
}  // namespace calltree

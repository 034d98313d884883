// malformed_test.cc — the malformed-input golden tests (format-semantics.md §5.2, M1–M22).
//
// Each tests/malformed/<case>.callgrind is read through the reader and the profile builder;
// every diagnostic (formatted as the CLI prints it), the read statistics and a short dump of
// what reached the model are compared with tests/malformed/<case>.expected. The dump is there
// to prove that nothing readable was lost: records before and after each bad line must still
// be in the profile. CALLTREE_UPDATE_GOLDEN=1 rewrites the expected files (review the diff by
// hand against §5.2 before committing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/load_any.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

fs::path malformed_dir() { return fs::path(CALLTREE_SOURCE_DIR) / "tests" / "malformed"; }

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(malformed_dir(), ec)) {
    if (e.path().extension() == ".callgrind") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class keep_all final : public diagnostic_sink {
 public:
  void report(diagnostic d) override { all.push_back(std::move(d)); }
  std::uint64_t count(severity s) const {
    std::uint64_t n = 0;
    for (const auto& d : all) n += d.severity == s;
    return n;
  }
  std::vector<diagnostic> all;
};

std::string costs_text(std::span<const std::uint64_t> costs) {
  std::string s;
  for (std::size_t i = 0; i < costs.size(); ++i) {
    if (i) s += ' ';
    s += std::to_string(costs[i]);
  }
  return s;
}

std::string function_text(const profile& p, function_id f) {
  std::string s(p.function_name(f));
  if (s.empty()) s = "<unknown>";
  s += " (" + std::string(p.file_name(p.functions[f].file)) + ")";
  return s;
}

// The text compared with <case>.expected.
std::string run_case(const std::string& name) {
  std::ostringstream out;
  profile p;
  keep_all diagnostics;
  reader_options options;
  options.display_name = name + ".callgrind";
  auto stats = detail::load_any_input((malformed_dir() / (name + ".callgrind")).string(), p,
                                      diagnostics, options);

  out << "== diagnostics\n";
  for (const auto& d : diagnostics.all) out << format_diagnostic(d, true) << "\n";
  if (!stats) {
    out << "== fatal\n" << stats.error().message << "\n";
    return out.str();
  }
  const read_stats& s = *stats;
  out << "== read\n"
      << "lines " << s.lines << ", skipped " << s.skipped_lines << ", parts " << s.parts
      << ", cost lines " << s.cost_lines << ", call lines " << s.call_lines << ", jump lines "
      << s.jump_lines << ", errors " << diagnostics.count(severity::error) << ", warnings "
      << diagnostics.count(severity::warning) << ", complete "
      << (detail::read_to_end(s) ? "yes" : "no") << "\n";

  out << "== profile\n";
  out << "events:";
  for (const auto& e : p.events) out << " " << e.name;
  out << "\n";
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const auto& part = p.parts[part_id{i}];
    out << "part " << i + 1 << ": totals " << costs_text(part.totals);
    if (part.totals_line) out << "; totals: line " << costs_text(*part.totals_line);
    if (part.summary) out << "; summary: line " << costs_text(*part.summary);
    out << "\n";
  }
  // Self cost per function, summed over rows, in function order.
  std::map<function_id, std::vector<std::uint64_t>> self;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    auto& sum = self[p.self_rows[r].function];
    sum.resize(p.events.size(), 0);
    add_saturating(std::span<std::uint64_t>(sum), p.self_costs.row(r));
  }
  for (function_id f : p.functions.ids()) {
    out << "function " << function_text(p, f) << ": self ";
    auto it = self.find(f);
    out << (it == self.end() ? std::string("-") : costs_text(it->second)) << "\n";
  }
  for (std::size_t c = 0; c < p.calls.size(); ++c) {
    const auto& call = p.calls[c];
    out << "call " << function_text(p, call.caller) << " -> " << function_text(p, call.callee)
        << ": count " << call.count << ", cost " << costs_text(p.call_costs.row(c)) << "\n";
  }
  for (const auto& j : p.jumps) {
    out << "jump in " << function_text(p, j.function) << " line " << j.source.line << " -> line "
        << j.target.line << ": " << (j.conditional ? "jcnd " : "jump ") << j.followed << "/"
        << j.executed << "\n";
  }
  return out.str();
}

class malformed : public ::testing::TestWithParam<std::string> {};

// The case's diagnostics and the records it kept readable, as its .expected file has them (the
// test's name is short: ctest prints it with each case's name).
TEST_P(malformed, matches_expected) {
  const std::string name = GetParam();
  const std::string actual = run_case(name);
  const fs::path expected_path = malformed_dir() / (name + ".expected");
  const char* update = std::getenv("CALLTREE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(expected_path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << expected_path;
  }
  ASSERT_TRUE(fs::exists(expected_path))
      << expected_path << " is missing; run with CALLTREE_UPDATE_GOLDEN=1 and review it";
  EXPECT_EQ(read_file(expected_path), actual) << "case " << name;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string n = param.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(cases, malformed, ::testing::ValuesIn(case_names()), test_name);

// Every row of §5.2 has at least one case, m01 … m22.
TEST(malformed_cases, cover_every_row_of_the_table) {
  std::set<int> rows;
  for (const auto& n : case_names()) {
    if (n.size() >= 3 && n[0] == 'm') rows.insert(std::atoi(n.substr(1, 2).c_str()));
  }
  for (int m = 1; m <= 22; ++m) EXPECT_TRUE(rows.count(m)) << "no case for M" << m;
}

}  // namespace
}  // namespace calltree

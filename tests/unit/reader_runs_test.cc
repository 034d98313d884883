// reader_options::sum_cost_runs: consecutive self-cost lines of one context arrive as one cost
// record. Per context the sums and the largest `given` are those of the lines one by one, and
// every other record, every diagnostic and the statistics are unchanged, on every corpus,
// golden and malformed file.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/reader.h"

using namespace calltree;
namespace fs = std::filesystem;

namespace {

struct collected : record_sink, diagnostic_sink {
  explicit collected(const string_pool& n) : names(n) {}
  const string_pool& names;
  std::map<std::string, std::vector<std::uint64_t>> sums;  // per part and context
  std::map<std::string, std::uint32_t> given;
  std::vector<std::string> others;  // calls, jumps, part ends, diagnostics, in order
  std::size_t cost_records = 0;
  std::uint32_t part = 0;

  std::string ctx(const context& c) const {
    return std::to_string(part) + "|" + std::string(names.view(c.object)) + "|" +
           std::string(names.view(c.file)) + "|" + std::string(names.view(c.source_file)) + "|" +
           std::string(names.view(c.function));
  }
  void on_part_begin(const part_header& h) override {
    part = h.index;
    others.push_back("part " + std::to_string(h.index));
  }
  void on_cost(const cost_record& r) override {
    ++cost_records;
    auto& s = sums[ctx(r.ctx)];
    if (s.size() < r.costs.size()) s.resize(r.costs.size(), 0);
    for (std::size_t k = 0; k < r.costs.size(); ++k) add_saturating(s[k], r.costs[k]);
    auto& g = given[ctx(r.ctx)];
    g = std::max(g, r.given);
  }
  void on_call(const call_record& r) override {
    std::string s = "call " + std::to_string(r.line) + ctx(r.ctx) + " " +
                    std::string(names.view(r.callee_function)) + " " + std::to_string(r.count) +
                    " " + std::to_string(r.site.line) + " " + std::to_string(r.target.instr);
    for (auto c : r.costs) s += " " + std::to_string(c);
    others.push_back(s);
  }
  void on_jump(const jump_record& r) override {
    others.push_back("jump " + std::to_string(r.line) + ctx(r.ctx) + " " +
                     std::to_string(r.executed) + "/" + std::to_string(r.followed));
  }
  void on_part_end(const part_end& e) override {
    std::string s = "end " + std::to_string(e.line);
    for (auto v : e.computed) s += " " + std::to_string(v);
    others.push_back(s);
  }
  void report(diagnostic d) override { others.push_back(format_diagnostic(d)); }
};

struct result_of {
  std::map<std::string, std::vector<std::uint64_t>> sums;
  std::map<std::string, std::uint32_t> given;
  std::vector<std::string> others;
  std::size_t cost_records = 0;
  std::string stats;
};

result_of read_file(const fs::path& f, bool runs) {
  auto in = open_input(f.string());
  EXPECT_TRUE(in) << f;
  string_pool names;
  collected c(names);
  reader_options opt;
  opt.sum_cost_runs = runs;
  auto st = read_callgrind(**in, names, c, c, opt);
  result_of r;
  r.sums = std::move(c.sums);
  r.given = std::move(c.given);
  r.others = std::move(c.others);
  r.cost_records = c.cost_records;
  if (st)
    r.stats = std::to_string(st->lines) + " " + std::to_string(st->skipped_lines) + " " +
              std::to_string(st->cost_lines) + " " + std::to_string(st->call_lines) + " " +
              std::to_string(st->jump_lines) + " " + std::to_string(st->errors) + " " +
              std::to_string(st->warnings);
  return r;
}

}  // namespace

TEST(ReaderRuns, SumsPerContextAndEverythingElseUnchanged) {
  const fs::path src = CALLTREE_SOURCE_DIR;
  std::vector<fs::path> files;
  for (const auto& dir :
       {fs::path(CALLTREE_CORPUS_DIR), src / "tests/golden", src / "tests/malformed"})
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto name = e.path().filename().string();
      if (name.ends_with(".callgrind") || name.ends_with(".callgrind.gz") ||
          name.ends_with(".cachegrind"))
        files.push_back(e.path());
    }
  ASSERT_GT(files.size(), 60u);
  bool fewer_somewhere = false;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const auto a = read_file(f, false), b = read_file(f, true);
    EXPECT_EQ(a.stats, b.stats);
    EXPECT_EQ(a.sums, b.sums);
    EXPECT_EQ(a.given, b.given);
    EXPECT_EQ(a.others, b.others);
    EXPECT_LE(b.cost_records, a.cost_records);
    fewer_somewhere |= b.cost_records * 2 < a.cost_records;
  }
  EXPECT_TRUE(fewer_somewhere) << "no file had runs to sum";
}

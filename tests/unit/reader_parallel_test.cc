// The parallel path of the reader (reader.cc, "The parallel path": chunks read ahead on
// speculation by other threads) gives what one thread gives: per context the same summed
// costs and largest `given`, the same calls, jumps, part ends and diagnostics in the same
// order, the same statistics and the same names in the same order, on every corpus, golden
// and malformed file, alone and concatenated, cut into chunks from a few bytes up (so that
// chunk starts fall everywhere, and speculations fail in every way a file allows).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
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
  std::map<std::string, std::vector<std::uint64_t>> sums;
  std::map<std::string, std::uint32_t> given;
  std::vector<std::string> others;
  std::uint32_t part = 0;

  std::string ctx(const context& c) const {
    return std::to_string(part) + "|" + std::string(names.view(c.object)) + "|" +
           std::string(names.view(c.file)) + "|" + std::string(names.view(c.source_file)) + "|" +
           std::string(names.view(c.function));
  }
  void on_part_begin(const part_header& h) override {
    part = h.index;
    others.push_back("part " + std::to_string(h.index) + " " + std::to_string(h.line));
  }
  void on_cost(const cost_record& r) override {
    auto& s = sums[ctx(r.ctx)];
    if (s.size() < r.costs.size()) s.resize(r.costs.size(), 0);
    for (std::size_t k = 0; k < r.costs.size(); ++k) add_saturating(s[k], r.costs[k]);
    auto& g = given[ctx(r.ctx)];
    g = std::max(g, r.given);
  }
  void on_call(const call_record& r) override {
    std::string s = "call " + std::to_string(r.line) + ctx(r.ctx) + " -> " +
                    std::string(names.view(r.callee_object)) + "|" +
                    std::string(names.view(r.callee_file)) + "|" +
                    std::string(names.view(r.callee_function)) + " n" + std::to_string(r.count) +
                    " @" + std::to_string(r.site.instr) + "," + std::to_string(r.site.line) +
                    " -> " + std::to_string(r.target.instr) + "," + std::to_string(r.target.line) +
                    " g" + std::to_string(r.given);
    for (auto c : r.costs) s += " " + std::to_string(c);
    others.push_back(s);
  }
  void on_jump(const jump_record& r) override {
    others.push_back("jump " + std::to_string(r.line) + ctx(r.ctx));
  }
  void on_part_end(const part_end& e) override {
    std::string s = "end " + std::to_string(e.line);
    for (auto v : e.computed) s += " " + std::to_string(v);
    others.push_back(s);
  }
  void report(diagnostic d) override { others.push_back(format_diagnostic(d)); }
};

struct reading {
  collected* c = nullptr;
  std::map<std::string, std::vector<std::uint64_t>> sums;
  std::map<std::string, std::uint32_t> given;
  std::vector<std::string> others, names;
  std::string stats;
  std::uint64_t speculated = 0;
};

reading read_text(const std::string& text, unsigned threads, std::size_t chunk) {
  auto in = memory_input(text);
  string_pool names;
  collected c(names);
  reader_options opt;
  opt.display_name = "t";
  opt.threads = threads;
  opt.chunk_bytes = chunk;
  opt.sum_cost_runs = true;
  opt.skip_jump_records = true;
  opt.speculate_every_chunk = true;
  auto st = read_callgrind(*in, names, c, c, opt);
  reading r;
  r.sums = std::move(c.sums);
  r.given = std::move(c.given);
  r.others = std::move(c.others);
  for (string_id i = 0; i < names.size(); ++i) r.names.emplace_back(names.view(i));
  if (st) {
    r.stats = std::to_string(st->lines) + " " + std::to_string(st->skipped_lines) + " " +
              std::to_string(st->bytes) + " " + std::to_string(st->parts) + " " +
              std::to_string(st->cost_lines) + " " + std::to_string(st->call_lines) + " " +
              std::to_string(st->jump_lines) + " " + std::to_string(st->errors) + " " +
              std::to_string(st->warnings) + " " + std::to_string(st->complete);
    r.speculated = st->speculated_chunks;
  }
  return r;
}

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(ReaderParallel, SameAsOneThreadOnEveryFileAndChunkSize) {
  const fs::path src = CALLTREE_SOURCE_DIR;
  std::vector<std::pair<std::string, std::string>> texts;  // name, bytes
  std::string all;
  for (const auto& dir :
       {fs::path(CALLTREE_CORPUS_DIR), src / "tests/golden", src / "tests/malformed"})
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto name = e.path().filename().string();
      if (!name.ends_with(".callgrind") && !name.ends_with(".cachegrind")) continue;
      texts.emplace_back(e.path().string(), slurp(e.path()));
      if (dir == fs::path(CALLTREE_CORPUS_DIR) && all.size() < (4u << 20))
        all += texts.back().second;
    }
  ASSERT_GT(texts.size(), 60u);
  texts.emplace_back("corpus files concatenated", all);
  std::uint64_t speculated = 0;
  for (const auto& [name, text] : texts) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{97}, std::size_t{4096}}) {
      SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk));
      const auto a = read_text(text, 1, chunk), b = read_text(text, 2, chunk);
      EXPECT_EQ(a.stats, b.stats);
      EXPECT_EQ(a.names, b.names);
      EXPECT_EQ(a.sums, b.sums);
      EXPECT_EQ(a.given, b.given);
      ASSERT_EQ(a.others.size(), b.others.size());
      for (std::size_t i = 0; i < a.others.size(); ++i) ASSERT_EQ(a.others[i], b.others[i]) << i;
      EXPECT_EQ(a.speculated, 0u);
      speculated += b.speculated;
    }
  }
  // The speculations must have been taken, not only tried (speculate_every_chunk makes the
  // number depend on the inputs only: 121,244 with the corpus of 2026-11-22).
  EXPECT_GT(speculated, 100000u);
}

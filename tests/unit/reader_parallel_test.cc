// The parallel path of the reader (reader.cc, "The parallel path": chunks read ahead on
// speculation by other threads) gives what one thread gives: per context the same summed
// costs and largest `given`, the same calls, jumps, part ends and diagnostics in the same
// order, the same statistics and the same names in the same order, on every corpus, golden
// and malformed file, alone and concatenated, cut into chunks from a few bytes up (so that
// chunk starts fall everywhere, and speculations fail in every way a file allows).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "context_sums.h"

using namespace calltree;

namespace {

test::summed_reading read_text(const std::string& text, unsigned threads, std::size_t chunk) {
  auto in = memory_input(text);
  reader_options opt;
  opt.display_name = "t";
  opt.threads = threads;
  opt.chunk_bytes = chunk;
  opt.sum_cost_runs = true;
  opt.skip_jump_records = true;
  opt.speculate_every_chunk = true;
  return test::read_summed(*in, opt);
}

std::string slurp(const std::filesystem::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(ReaderParallel, SameAsOneThreadOnEveryFileAndChunkSize) {
  std::vector<std::pair<std::string, std::string>> texts;  // name, bytes
  std::string all;
  const std::filesystem::path corpus = CALLTREE_CORPUS_DIR;
  for (const auto& f : test::every_profile(false)) {
    texts.emplace_back(f.string(), slurp(f));
    if (f.parent_path() == corpus && all.size() < (4u << 20)) all += texts.back().second;
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

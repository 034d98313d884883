// The chunk feeds (src/reader/chunk_feed.h): a stream is cut where a mapped file is, whatever
// the sizes of the blocks it comes in; where no function starts for long, it is cut after a
// line or anywhere; every byte is in a chunk, in order, and an error comes after them.
#include "reader/chunk_feed.h"

#include <gtest/gtest.h>

#include <future>
#include <string>
#include <vector>

#include "reader/in_memory.h"
#include "streamed_input.h"

using namespace calltree;

namespace {

std::vector<std::string> chunks_of(detail::chunk_feed& feed) {
  std::vector<std::string> out;
  for (std::size_t k = 0;; ++k) {
    const auto c = feed.get(k);
    if (c.bytes.empty()) break;
    out.emplace_back(c.bytes.begin(), c.bytes.end());
    feed.reached(k + 1);
  }
  return out;
}

// Function blocks of varying length, with "fn=" also where no function starts (in a name, after
// "c" in "cfn="), so a cut is looked for across every block edge.
std::string functions_text() {
  std::string t = "# callgrind format\nevents: Ir\n";
  for (int i = 0; i < 300; ++i) {
    t += "fl=(1) a.c\nfn=(" + std::to_string(i) + ") f" + std::string(i % 13, 'x') + "fn=\n";
    for (int j = 0; j < i % 5; ++j) t += std::to_string(j + 1) + " " + std::to_string(i) + "\n";
    if (i % 3 == 0) t += "cfn=(2)\ncalls=1 2\n3 4\n";
  }
  return t;
}

}  // namespace

TEST(ChunkFeed, StreamIsCutWhereTheMappedFileIs) {
  const std::string text = functions_text();
  for (std::size_t step : {std::size_t{40}, std::size_t{300}, std::size_t{4096}}) {
    auto mem = memory_input(text);
    ASSERT_EQ(detail::in_memory(*mem).size(), text.size());
    auto mapped = detail::mapped_chunks(detail::in_memory(*mem), step);
    const auto want = chunks_of(*mapped);
    ASSERT_GT(want.size(), text.size() / (step + 200));
    for (std::size_t k = 1; k < want.size(); ++k) ASSERT_EQ(want[k].rfind("fn=", 0), 0u);
    for (std::size_t block : {1, 3, 7, 64, 1000, 1 << 20}) {
      SCOPED_TRACE("step " + std::to_string(step) + ", blocks of " + std::to_string(block));
      test::streamed_input in(text, block, text.size());
      auto decoded = detail::decoded_chunks(in, step, 2);
      EXPECT_EQ(std::string(decoded->head().begin(), decoded->head().end()),
                text.substr(0, std::min<std::size_t>(block, 2048)));
      EXPECT_EQ(chunks_of(*decoded), want);
      EXPECT_FALSE(decoded->failure());
    }
  }
}

// A mapped file is cut as its chunks are asked for, by any thread and in any order (a worker
// asks for the farthest chunk of its ring first): the chunks are those of asking in order, and
// past the last there is none.
TEST(ChunkFeed, MappedChunksAskedForInAnyOrderAreTheSame) {
  const std::string text = functions_text();
  for (std::size_t step : {std::size_t{40}, std::size_t{300}, std::size_t{4096}}) {
    SCOPED_TRACE("step " + std::to_string(step));
    auto mem = memory_input(text);
    const auto want = chunks_of(*detail::mapped_chunks(detail::in_memory(*mem), step));
    auto feed = detail::mapped_chunks(detail::in_memory(*mem), step);
    EXPECT_TRUE(feed->get(want.size() + 3).bytes.empty());
    for (std::size_t k = want.size(); k-- > 0;) {
      const auto c = feed->get(k);
      EXPECT_EQ(std::string(c.bytes.begin(), c.bytes.end()), want[k]);
    }
    EXPECT_TRUE(feed->get(want.size()).bytes.empty());
  }
}

TEST(ChunkFeed, WhereNoFunctionStartsForLongAChunkEndsAfterALineOrAnywhere) {
  std::string text = "events: Ir\nfn=(1) f\n";
  for (int i = 0; i < 500; ++i) text += std::to_string(i) + " 1\n";
  text += std::string(3000, 'y') + "\nfn=(2) g\n1 1\n";
  test::streamed_input in(text, 5, text.size());
  auto feed = detail::decoded_chunks(in, 100, 3);
  const auto got = chunks_of(*feed);
  std::string joined;
  for (const auto& c : got) joined += c;
  EXPECT_EQ(joined, text);
  // Chunk 0 ends at the first function. Then, until the next one, a chunk is cut once it
  // reaches 16 steps (1600 bytes): after its last line (1: lines of at most 7 bytes; 2: the
  // rest of them, as the 3000-byte line follows), or in that line, which has no newline in 16
  // steps (3: 1600 bytes); 4 is the rest of that line, up to the function; 5 starts at it.
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], "events: Ir\n");
  EXPECT_EQ(got[1].rfind("fn=(1) f\n", 0), 0u);
  EXPECT_GE(got[1].size(), 1600u - 7);
  EXPECT_EQ(got[2].back(), '\n');
  EXPECT_EQ(got[3], std::string(1600, 'y'));
  EXPECT_EQ(got[4], std::string(1400, 'y') + "\n");
  EXPECT_EQ(got.back(), "fn=(2) g\n1 1\n");
}

TEST(ChunkFeed, AnErrorComesAfterEveryByteBeforeIt) {
  const std::string text = functions_text();
  for (std::size_t fail_at : {std::size_t{0}, std::size_t{5}, text.size() / 3}) {
    SCOPED_TRACE(fail_at);
    test::streamed_input in(text, 7, fail_at);
    auto feed = detail::decoded_chunks(in, 200, 2);
    std::string joined;
    for (const auto& c : chunks_of(*feed)) joined += c;
    EXPECT_EQ(joined, text.substr(0, fail_at));
    ASSERT_TRUE(feed->failure());
    EXPECT_EQ(feed->failure()->message, "stream ends early");
    EXPECT_TRUE(feed->truncated());
  }
}

TEST(ChunkFeed, CancelledFeedHandsOutNothingAndStops) {
  const std::string text = functions_text();
  test::streamed_input in(text, 64, text.size());
  auto feed = detail::decoded_chunks(in, 100, 2);
  EXPECT_FALSE(feed->get(1).bytes.empty());
  // The producer now waits for the reader, two chunks ahead of the one reached (0).
  feed->cancel();
  EXPECT_TRUE(feed->get(1).bytes.empty());
  EXPECT_TRUE(feed->get(40).bytes.empty());
}  // (the feed's destructor joins its thread: a hang here is a failure)

// ready(k): whether get(k) would return at once. The reader reads a decoded chunk on
// speculation only if it is ready (parallel.cc, run_chunked), so a speculating thread never
// waits on the decoder.
TEST(ChunkFeed, ReadyTellsWhetherAChunkIsDecodedYet) {
  const std::string text = functions_text();
  auto mem = memory_input(text);
  auto mapped = detail::mapped_chunks(detail::in_memory(*mem), 100);
  EXPECT_TRUE(mapped->ready(1));
  EXPECT_TRUE(mapped->ready(100000));  // (get() returns at once: an empty chunk)

  // The input holds back after its first 2000 bytes until the gate opens. Every chunk but the
  // first has at least a step's bytes (100), so chunk 25 starts past 2400: not decoded.
  std::promise<void> gate;
  const std::shared_future<void> open = gate.get_future().share();
  std::size_t given = 0;
  test::streamed_input in(
      text,
      [&] {
        if (given >= 2000) open.wait();
        given += 100;
        return std::size_t{100};
      },
      text.size());
  auto feed = detail::decoded_chunks(in, 100, 50);
  EXPECT_FALSE(feed->get(1).bytes.empty());
  EXPECT_TRUE(feed->ready(0));
  EXPECT_TRUE(feed->ready(1));
  EXPECT_FALSE(feed->ready(25));
  gate.set_value();
  std::string joined;
  for (const auto& c : chunks_of(*feed)) joined += c;
  EXPECT_EQ(joined, text);
  // The feed has ended: get() of any chunk returns at once.
  EXPECT_TRUE(feed->ready(25));
  EXPECT_TRUE(feed->ready(100000));
}

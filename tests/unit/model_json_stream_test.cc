// model_json_stream_test.cc — `export --to=json` written while the file is read
// (export/model_json_stream.h) writes the bytes export_model_json writes from the whole model,
// or says it could not: on every corpus, golden and malformed file, on one thread and two,
// with the window of the command and with windows too small to hold a function's two runs.
#include "export/model_json_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/builder_access.h"
#include "profile_files.h"
#include "reader/read_hooks.h"

namespace calltree::exporting {
namespace {

std::unique_ptr<input> opened(const std::string& path_or_text, bool text) {
  if (text) return memory_input(path_or_text);
  auto in = open_input(path_or_text);
  EXPECT_TRUE(in) << path_or_text;
  return in ? std::move(*in) : memory_input("");
}

// The document from the whole model.
std::string from_model(const std::string& source, bool text = false) {
  auto in = opened(source, text);
  profile p;
  diagnostic_collector diags;
  profile_builder b(p, &diags, "f");
  EXPECT_TRUE(detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input()));
  std::string bytes;
  const export_sink sink = [&bytes](std::string_view s) { bytes.append(s); };
  EXPECT_TRUE(export_model_json(p, "f", sink));
  return bytes;
}

// The document written while reading, or nullopt where the stream says it is not the model's.
// Read as the command reads (cost lines of chunks read ahead in runs, merged by place but
// with `merge` false); `chunk` (bytes): every chunk after the first read ahead, on two threads.
std::optional<std::string> streamed(const std::string& source, unsigned threads, std::size_t window,
                                    bool text = false, std::size_t chunk = 0, bool merge = true) {
  auto in = opened(source, text);
  std::string bytes;
  const export_sink sink = [&bytes](std::string_view s) { bytes.append(s); };
  model_json_stream stream("f", sink, threads, window);
  builder_options o;
  profile p;
  diagnostic_collector diags;
  profile_builder b(p, &diags, "f", o);
  builder_access::stream_self_rows(b, &stream);
  reader_options ro;
  ro.threads = threads;
  detail::read_hooks hooks;
  hooks.any_input = true;  // (every file of the corpus and the malformed ones)
  builder_access::streaming_sink reading(b);
  hooks.needs = reading.reader_needs();  // runs merged by place (stream_self_rows)
  if (!merge) hooks.needs->costs = read_needs::grain::runs_of_lines;
  hooks.chunk_bytes = chunk;
  hooks.speculate_every_chunk = chunk != 0;
  EXPECT_TRUE(detail::read_with_hooks(*in, p.strings, reading, diags, ro, hooks));
  builder_access::finish_stream(b);
  auto whole = stream.finish(p);
  EXPECT_TRUE(whole) << whole.error().message;
  if (!whole || !*whole) return std::nullopt;
  EXPECT_TRUE(p.self_rows.empty());  // (none kept)
  return bytes;
}

TEST(ModelJsonStream, TheModelsBytesOnEveryFile) {
  std::size_t files = 0, whole = 0, small_window_whole = 0, chunked_whole = 0;
  for (const auto& f : test::every_profile(true)) {
    const std::string want = from_model(f.string());
    for (unsigned threads : {1u, 2u}) {
      const auto got = streamed(f.string(), threads, model_json_stream::default_window_rows);
      // A file whose functions come back after more rows than the window falls back; the
      // corpus has none. So does a file of more than 8,192 runs mostly summed: Xdebug's
      // larger files (GivesUpWhereMostRunsAreCallsSummed).
      if (f.string().find("/corpus/") != std::string::npos &&
          f.filename().string().find("xdebug") == std::string::npos) {
        EXPECT_TRUE(got) << f;
      }
      if (got) {
        EXPECT_EQ(*got, want) << f << ", " << threads << " thread(s)";
        ++whole;
      }
    }
    // Chunks of a few hundred bytes, all but the first read ahead: their cost lines come in
    // runs (builder_access::streaming_sink::on_cost_run), a function's runs cut by chunks and
    // inlined files, merged by place in the chunk (model_json_stream::take_lines) or not.
    for (std::size_t chunk : {97u, 4096u}) {
      for (bool merge : {true, false}) {
        if (const auto got = streamed(f.string(), 2, model_json_stream::default_window_rows, false,
                                      chunk, merge)) {
          EXPECT_EQ(*got, want) << f << ", chunks of " << chunk << (merge ? ", merged" : "");
          ++chunked_whole;
        }
      }
    }
    // A window of a few rows: a function's second run mostly finds its first written; where
    // it does not, the bytes are still the model's.
    for (std::size_t window : {1u, 7u, 64u}) {
      if (const auto got = streamed(f.string(), 2, window)) {
        EXPECT_EQ(*got, want) << f << ", window " << window;
        ++small_window_whole;
      }
    }
    ++files;
  }
  EXPECT_GT(files, 60u);
  EXPECT_GT(whole, 2 * files - 10);
  EXPECT_GT(small_window_whole, files);
  EXPECT_GT(chunked_whole, 4 * files - 20);
}

// The tail (calls, jumps, names, parts) in pieces of a few rows on several threads: the bytes
// of one piece on one thread, on every file.
TEST(ModelJsonStream, TheTailInPiecesOnEveryFile) {
  std::size_t pieces_of_rows = 0, pieces_of_jumps = 0;
  for (const auto& f : test::every_profile(true)) {
    auto in = opened(f.string(), false);
    profile p;
    diagnostic_collector diags;
    profile_builder b(p, &diags, "f");
    ASSERT_TRUE(detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input()));
    auto tail = [&p](unsigned threads, std::size_t rows) {
      std::string bytes;
      const export_sink sink = [&bytes](std::string_view s) { bytes.append(s); };
      model_json_tail(p, sink, threads, {}, rows);
      return bytes;
    };
    const std::string want = tail(1, ~std::size_t{0} / 2);
    // (Pieces of 1 and 64 rows on three threads, of 7 on one, of 16384 on both: every size
    // of piece and both ways of writing them, 5 tails of each file where 10 were. Files over
    // 1 MB are cut in pieces of 64 and 16384 rows only: a piece's edges are written alike in
    // any file, and pieces of 1 and 7 rows of the 24 MB profile made the test take 140 s, 1.1 s
    // without them.)
    const std::pair<std::size_t, unsigned> cases[] = {
        {1, 3}, {7, 1}, {64, 3}, {16384, 1}, {16384, 3}};
    const bool large = std::filesystem::file_size(f) > 1000000;
    for (const auto& [rows, threads] : cases) {
      if (large && rows < 64) continue;
      const std::string got = tail(threads, rows);
      // (Compared whole, the first byte that differs shown: a diff of two long texts is slow.)
      const auto at = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
      EXPECT_TRUE(got == want) << f << ", pieces of " << rows << ", " << threads
                               << " threads: first differs at byte " << (at.first - got.begin());
    }
    if (p.calls.size() > 7 && p.functions.size() > 7) ++pieces_of_rows;
    if (p.jumps.size() > 7) ++pieces_of_jumps;
  }
  EXPECT_GT(pieces_of_rows, 10u);
  // (Most files with jumps are the corpus's large ones, which the sanitizers' run leaves out.)
  EXPECT_GE(pieces_of_jumps, test::some_profiles_left_out() ? 1u : 3u);
}

// A function in two blocks: the second block's row at a place of the first is summed into it,
// its other rows follow every row read before.
TEST(ModelJsonStream, ALaterRunSummedIntoTheWindow) {
  const std::string text = "events: Ir\nfl=a.c\nfn=f\n1 10\n2 20\nfn=g\n5 7\nfn=f\n2 1\n3 30\n";
  const std::string want = from_model(text, true);
  EXPECT_NE(want.find("[1,0,1,1,[10]],\n[1,0,1,2,[21]],\n[1,1,1,5,[7]],\n[1,0,1,3,[30]]]"),
            std::string::npos)
      << want;
  for (unsigned threads : {1u, 2u}) {
    EXPECT_EQ(streamed(text, threads, 3, true), want);
    // f's first run leaves the window (written) before its second comes: not the model's.
    EXPECT_EQ(streamed(text, threads, 2, true), std::nullopt);
  }
}

// Chunks merged by place where they were read (read_needs::grain::runs_merged_by_place): f's lines
// at one place in one chunk (after an inlined file, out of order) come summed, its runs of
// other source files appended as they are; f back in a later chunk is summed in by place.
TEST(ModelJsonStream, MergedChunksAndAFunctionBackInALaterOne) {
  const std::string text =
      "events: Ir\nfl=a.c\nfn=h\n1 1\n"
      "fn=f\n1 10\nfi=b.h\n7 1\nfe=a.c\n2 20\n1 5\nfi=b.h\n7 2\n9 1\n"
      "fn=g\n5 7\nfn=f\n2 1\nfi=b.h\n9 4\nfe=a.c\n3 30\n";
  const std::string want = from_model(text, true);
  EXPECT_NE(want.find("[1,1,1,1,[15]],\n[1,1,2,7,[3]],\n[1,1,1,2,[21]],\n[1,1,2,9,[5]],\n"
                      "[1,2,1,5,[7]],\n[1,1,1,3,[30]]]"),
            std::string::npos)
      << want;
  for (std::size_t chunk : {1u, 40u, 4096u})
    EXPECT_EQ(streamed(text, 2, 100, true, chunk), want) << "chunks of " << chunk;
}

// What else makes the stream give up: a sum beyond 2^64-1 across two runs (the model reports
// it), a later part with another event (every row so far is one cell short).
TEST(ModelJsonStream, GivesUpWhereTheRowsSoFarAreNotTheModels) {
  const std::string overflow = "events: Ir\nfn=f\n1 18446744073709551615\nfn=g\n1 1\nfn=f\n1 1\n";
  EXPECT_EQ(streamed(overflow, 2, 100, true), std::nullopt);
  const std::string more_events =
      "# callgrind format\nversion: 1\npart: 1\nevents: Ir\nfn=f\n1 10\n"
      "# callgrind format\nversion: 1\npart: 2\nevents: Ir Dr\nfn=g\n1 1 2\n";
  EXPECT_EQ(streamed(more_events, 2, 100, true), std::nullopt);
  // (The same events again: whole.)
  const std::string same_events =
      "# callgrind format\nversion: 1\npart: 1\nevents: Ir\nfn=f\n1 10\n"
      "# callgrind format\nversion: 1\npart: 2\nevents: Ir\nfn=f\n1 1\n";
  EXPECT_EQ(streamed(same_events, 2, 100, true), from_model(same_events, true));
}

// A run larger than the window and the ring: the ring grows for it.
TEST(ModelJsonStream, ARunLargerThanTheRing) {
  std::string text = "events: Ir\nfn=f\n";
  for (int i = 1; i <= 200000; ++i) text += std::to_string(i) + " 1\n";
  text += "fn=g\n1 1\nfn=f\n7 1\n";
  for (std::size_t window : {1000u, 1u << 18}) {
    const auto got = streamed(text, 2, window, true);
    if (window == 1000)
      EXPECT_EQ(got, std::nullopt);  // (f's first run was written)
    else
      EXPECT_EQ(got, from_model(text, true));
  }
}

// A block per call (Xdebug): once more than half of the first 8,192 runs were summed into
// earlier ones, the stream gives up (the model is small); one run fewer, or half of them
// summed, and it writes the model's bytes.
TEST(ModelJsonStream, GivesUpWhereMostRunsAreCallsSummed) {
  const auto calls = [](int runs, int functions) {
    std::string text = "events: Time_(10ns)\nfl=a.php\n";
    for (int i = 0; i < runs; ++i)
      text += "fn=f" + std::to_string(i % functions) + "\n" + std::to_string(i % 7 + 1) + " 3\n";
    return text;
  };
  const std::string summed = calls(8192, 100), fewer = calls(8191, 100), half = calls(8192, 4096);
  EXPECT_EQ(streamed(summed, 2, model_json_stream::default_window_rows, true), std::nullopt);
  EXPECT_EQ(streamed(fewer, 2, model_json_stream::default_window_rows, true),
            from_model(fewer, true));
  EXPECT_EQ(streamed(half, 2, model_json_stream::default_window_rows, true),
            from_model(half, true));
}

}  // namespace
}  // namespace calltree::exporting

// export_test.cc — the pieces of src/export/ that the consumer tests (tests/export/, with go
// tool pprof, speedscope, Graphviz, Chromium) cannot pin down alone: the protobuf wire bytes,
// the event units, saturation, and the format names.
#include "export/export.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "export/gzip_stream.h"
#include "export/ordered_chunks.h"
#include "export/protobuf.h"
#include "export/stacks.h"
#include "views/session.h"

namespace calltree::exporting {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(ProtoEncoder, VarintFieldsAsTheSpecificationsExample) {
  // protobuf.dev/programming-guides/encoding: field 1 = 150 is 08 96 01.
  proto_encoder e;
  e.varint_field(1, 150);
  EXPECT_EQ(e.bytes(), bytes({0x08, 0x96, 0x01}));
  e.clear();
  e.varint_field(2, 0);
  EXPECT_EQ(e.bytes(), bytes({0x10, 0x00}));
  e.clear();
  e.int64_field(1, -1);  // ten bytes, as int64 is encoded
  EXPECT_EQ(e.size(), 11u);
  EXPECT_EQ(static_cast<unsigned char>(e.bytes().back()), 0x01);
}

TEST(ProtoEncoder, LengthDelimitedAndNested) {
  proto_encoder e;
  e.bytes_field(2, "testing");  // 12 07 74 65 73 74 69 6e 67
  EXPECT_EQ(e.bytes(), bytes({0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}));
  proto_encoder inner, outer;
  inner.varint_field(1, 150);
  outer.message_field(3, inner);  // 1a 03 08 96 01
  EXPECT_EQ(outer.bytes(), bytes({0x1a, 0x03, 0x08, 0x96, 0x01}));
}

TEST(ProtoEncoder, PackedRepeated) {
  // field 4 = [3, 270, 86942]: 22 06 03 8e 02 9e a7 05
  proto_encoder e;
  const std::vector<std::uint64_t> v{3, 270, 86942};
  e.packed_field<std::uint64_t>(4, v);
  EXPECT_EQ(e.bytes(), bytes({0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05}));
  e.clear();
  e.packed_field<std::uint64_t>(4, std::vector<std::uint64_t>{});
  EXPECT_TRUE(e.bytes().empty());  // an empty packed field is not written
}

TEST(EventUnits, ProducersNames) {
  auto u = unit_of("Time_(10ns)");
  EXPECT_EQ(u.type, "Time");
  EXPECT_EQ(u.unit, "nanoseconds");
  EXPECT_EQ(u.scale, 10u);
  u = unit_of("Memory_(bytes)");
  EXPECT_EQ(u.type, "Memory");
  EXPECT_EQ(u.unit, "bytes");
  EXPECT_EQ(u.scale, 1u);
  u = unit_of("cpu(ms)");
  EXPECT_EQ(u.type, "cpu");
  EXPECT_EQ(u.unit, "milliseconds");
  u = unit_of("ns");
  EXPECT_EQ(u.type, "ns");
  EXPECT_EQ(u.unit, "nanoseconds");
  for (const char* count : {"Ir", "Dr", "Hits", "Ticks", "wall_time", "sysCount", "s", "b"}) {
    u = unit_of(count);
    EXPECT_EQ(u.type, count);
    EXPECT_EQ(u.unit, "count") << count;
    EXPECT_EQ(u.scale, 1u);
  }
  u = unit_of("Weird_(furlongs)");  // an unknown unit: a count of the whole name
  EXPECT_EQ(u.type, "Weird_(furlongs)");
  EXPECT_EQ(u.unit, "count");
}

TEST(EventUnits, ScaledSaturates) {
  EXPECT_EQ(scaled(7, 10), 70u);
  EXPECT_EQ(scaled(UINT64_MAX / 10 + 1, 10), UINT64_MAX);
  EXPECT_EQ(scaled(UINT64_MAX, 1), UINT64_MAX);
}

TEST(ExportFormats, NamesRoundTrip) {
  for (const char* n : {"pprof", "folded", "speedscope", "chrome", "dot", "flamegraph", "json"}) {
    auto f = parse_export_format(n);
    ASSERT_TRUE(f) << n;
    EXPECT_EQ(export_format_name(*f), n);
  }
  EXPECT_FALSE(parse_export_format("svg"));  // (the CLI draws svg/png from dot)
  EXPECT_FALSE(parse_export_format("PPROF"));
}

TEST(StackFrameName, LeavesOutTheContextTheParentShows) {
  EXPECT_EQ(stack_frame_name("f'g'h", "g'h"), "f");
  EXPECT_EQ(stack_frame_name("f'g'h", "g'h'k"), "f");      // the parent's own deeper context
  EXPECT_EQ(stack_frame_name("f'g", "g'2'h"), "f");        // (a caller is named without its level)
  EXPECT_EQ(stack_frame_name("f'g'h", "g"), "f'g'h");      // h is not in the stack
  EXPECT_EQ(stack_frame_name("f'g'h", "g'hx"), "f'g'h");   // up to a "'" only
  EXPECT_EQ(stack_frame_name("f'g'h", "x'g'h"), "f'g'h");  // the caller is the parent itself
  EXPECT_EQ(stack_frame_name("f'g'h", ""), "f'g'h");       // a root
  EXPECT_EQ(stack_frame_name("main", "x"), "main");
  EXPECT_EQ(stack_frame_name("'f", "f"), "'f");
}

TEST(StackFrameName, KeepsRecursionLevels) {
  EXPECT_EQ(stack_frame_name("f'2", "f"), "f'2");
  EXPECT_EQ(stack_frame_name("f'2'g'h", "g'h"), "f'2");
  EXPECT_EQ(stack_frame_name("cyc_b'2'cyc_a'cyc_c", "cyc_a'2'cyc_c'cyc_b"), "cyc_b'2");
  EXPECT_EQ(stack_frame_name("cyc_b'2'cyc_a'cyc_c", "cyc_a'3'cyc_b'cyc_c"), "cyc_b'2'cyc_a'cyc_c");
}

TEST(StackFrameName, QuotesThatAreNotContexts) {
  // pyprof2calltree: "<method 'encode' of 'str' objects>"
  const std::string_view m = "<method 'encode' of 'str' objects>";
  EXPECT_EQ(stack_frame_name(m, "encode"), m);
  EXPECT_EQ(stack_frame_name(m, "encode' of 'str"), m);
}

// gzip_stream's output, inflated (zlib's gzip mode reads one member only: the whole must be one).
std::string gunzip(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + 15), Z_OK);
  std::string out(1 << 16, '\0'), all;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  int r = Z_OK;
  while (r == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    r = inflate(&z, Z_NO_FLUSH);
    all.append(out.data(), out.size() - z.avail_out);
  }
  EXPECT_EQ(r, Z_STREAM_END);
  EXPECT_EQ(z.avail_in, 0u) << "bytes after the gzip member";
  inflateEnd(&z);
  return all;
}

// Both engines the build has (zlib always; ISA-L's igzip when found: the default then).
TEST(GzipStream, OneMemberWhateverTheThreadsAndBlocks) {
  std::string text;
  std::uint64_t x = 1;
  while (text.size() < 3 * gzip_stream::block_size + 12345) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    text += "function_" + std::to_string(x >> 52) + "'caller_" + std::to_string(x >> 58) + ";";
  }
  for (gzip_engine engine : {gzip_engine::zlib, gzip_engine::isal}) {
    if (!gzip_stream::has(engine)) continue;
    const char* name = engine == gzip_engine::zlib ? "zlib" : "isal";
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, gzip_stream::block_size,
                             gzip_stream::block_size + 1, text.size()}) {
      const std::string in = text.substr(0, size);
      std::string first;
      for (unsigned threads : {1u, 2u, 5u}) {
        std::string gz;
        export_sink sink = [&gz](std::string_view b) { gz.append(b); };
        {
          gzip_stream s(sink, threads, engine);
          for (std::size_t at = 0; at < in.size(); at += 100003)  // (pieces across the blocks)
            s.write(std::string_view(in).substr(at, 100003));
          ASSERT_TRUE(s.finish());
        }
        EXPECT_EQ(gunzip(gz), in) << name << ", " << size << " bytes, " << threads << " threads";
        if (threads == 1) {
          first = gz;
        } else {
          EXPECT_EQ(gz, first) << name << ": the bytes depend on the threads";
        }
      }
      if (size == text.size()) {
        EXPECT_LT(first.size(), in.size() / 3) << name;  // (compressed)
      }
    }
  }
}

// A small real profile's session (the tests that compare thread counts), and an export of it
// as one string, with the frames of the tree it drew.
const views::session* small_session() {
  static const std::unique_ptr<views::session> s = [] {
    views::load_options lo;
    lo.index_names = false;
    auto loaded = views::load_session(
        std::string(CALLTREE_CORPUS_DIR) + "/vg-gxx-small-default.cc1plus.callgrind", lo);
    return loaded ? std::move(*loaded) : nullptr;
  }();
  return s.get();
}

std::string exported(export_options o, unsigned threads, std::size_t* frames = nullptr) {
  const views::session* s = small_session();
  if (!s) {
    ADD_FAILURE() << "the corpus's vg-gxx-small-default.cc1plus.callgrind was not read";
    return {};
  }
  o.threads = threads;
  std::string bytes;
  export_sink sink = [&bytes](std::string_view b) { bytes.append(b); };
  auto r = export_profile(*s, o, sink);
  EXPECT_TRUE(r) << r.error().message;
  if (r && frames) *frames = r->frames;
  return bytes;
}

// The pprof export on several threads (the functions made beside the tree, the gzip blocks
// on their own) writes what one thread writes: a 3.7 MB proto of 4 blocks. (Run under
// ThreadSanitizer by make test-threads.)
TEST(PprofThreads, TheSameBytesOnOneAndFourThreads) {
  const std::string one = exported({}, 1), four = exported({}, 4);
  EXPECT_GT(gunzip(one).size(), 3 * gzip_stream::block_size);
  EXPECT_EQ(one, four);
}

// Chunks are taken in frame order, whole, once each, whatever the threads; the first
// separator of a list is left out once; what a chunk throws reaches the caller.
// (Pieces appended one by one, not s += "," + std::to_string(f): GCC 12 at -O2 warns, wrongly,
// -Wrestrict on a literal + std::string&& inlined into an append, GCC bug 105651.)
TEST(OrderedChunks, TakenInOrderWhateverTheThreads) {
  for (std::size_t frames : {std::size_t{0}, std::size_t{1}, frames_per_chunk, frames_per_chunk + 1,
                             7 * frames_per_chunk + 5}) {
    std::string expected;
    for (std::size_t f = 0; f < frames; ++f)
      if (f % 3) expected.append(",").append(std::to_string(f));
    for (unsigned threads : {1u, 2u, 8u}) {
      std::string got;
      bool started = false;
      std::size_t chunks = 0;
      format_in_order(
          frames, threads,
          [](std::size_t begin, std::size_t end, chunk_text& c) {
            EXPECT_TRUE(c.text.empty() && c.side.empty());  // (a spare one is emptied first)
            for (std::size_t f = begin; f < end; ++f)
              if (f % 3) c.text.append(",").append(std::to_string(f));
            c.side = std::to_string(begin);
          },
          [&](chunk_text& c) {
            EXPECT_EQ(c.side, std::to_string(chunks * frames_per_chunk));
            ++chunks;
            got += without_first_separator(c.text, started);
          });
      EXPECT_EQ(chunks, (frames + frames_per_chunk - 1) / frames_per_chunk);
      EXPECT_EQ(got, expected.empty() ? expected : expected.substr(1))
          << frames << " frames, " << threads << " threads";
    }
  }
  for (unsigned threads : {1u, 2u}) {
    std::size_t taken = 0;
    EXPECT_THROW(format_in_order(
                     10 * frames_per_chunk, threads,
                     [](std::size_t begin, std::size_t, chunk_text&) {
                       if (begin == 3 * frames_per_chunk) throw std::bad_alloc();
                     },
                     [&](chunk_text&) { ++taken; }),
                 std::bad_alloc);
    EXPECT_EQ(taken, 3u) << "the chunks before the one that threw, and none after";
  }
}

// Chunks of another size (the json export's tail: a piece a chunk): each [begin, end) of
// that many frames but the last, in order.
TEST(OrderedChunks, ChunksOfAnySize) {
  for (std::size_t per : {std::size_t{1}, std::size_t{3}, std::size_t{5000}})
    for (unsigned threads : {1u, 2u}) {
      std::string got;
      format_in_order(
          11, threads,
          [](std::size_t begin, std::size_t end, chunk_text& c) {
            c.text = std::to_string(begin) + "-" + std::to_string(end) + " ";
          },
          [&](chunk_text& c) { got += c.text; }, per);
      std::string want;
      for (std::size_t b = 0; b < 11; b += per)
        want += std::to_string(b) + "-" + std::to_string(std::min<std::size_t>(11, b + per)) + " ";
      EXPECT_EQ(got, want) << per << " a chunk, " << threads << " threads";
    }
}

// The text formats formatted in chunks on threads write what one thread writes. (Run under
// ThreadSanitizer by make test-threads.)
TEST(ChunkThreads, TheSameBytesOnOneAndFourThreads) {
  for (export_format format :
       {export_format::folded, export_format::speedscope, export_format::chrome}) {
    export_options o;
    o.format = format;
    o.events = {"Ir"};
    std::size_t frames = 0;
    const std::string one = exported(o, 1, &frames), four = exported(o, 4);
    EXPECT_GT(frames, 4 * frames_per_chunk) << export_format_name(format);
    EXPECT_GT(one.size(), 1000000u) << export_format_name(format);
    EXPECT_EQ(one, four) << export_format_name(format);
  }
}

}  // namespace
}  // namespace calltree::exporting

// input::read_into (include/calltree/input.h): the bytes, end and error next() gives, whatever
// the size of the room it is given, for plain input and for the decoders that write straight
// into it (each compressed in the test), truncated and corrupt streams too: a decoder that
// holds output back for want of room gives it before the error.
#include "calltree/input.h"

#include <bzlib.h>
#include <gtest/gtest.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <vector>

using namespace calltree;

namespace {

std::string some_text() {
  std::string t = "# callgrind format\nevents: Ir\n";
  for (int i = 0; i < 4000; ++i)
    t += "fn=(" + std::to_string(i) + ") f" + std::string(static_cast<std::size_t>(i % 29), 'x') +
         "\n" + std::to_string(i % 7 + 1) + " " + std::to_string(i * 31) + "\n";
  return t;
}

std::string zstd_of(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

std::string gzip_of(const std::string& s) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(s.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string xz_of(const std::string& s) {
  std::string out(lzma_stream_buffer_bound(s.size()), '\0');
  std::size_t pos = 0;
  lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr,
                          reinterpret_cast<const std::uint8_t*>(s.data()), s.size(),
                          reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  out.resize(pos);
  return out;
}

std::string bzip2_of(const std::string& s) {
  std::string out(s.size() + s.size() / 100 + 600, '\0');
  auto n = static_cast<unsigned>(out.size());
  BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(s.data()),
                           static_cast<unsigned>(s.size()), 1, 0, 0);
  out.resize(n);
  return out;
}

struct outcome {
  std::string bytes;
  std::string error;  // empty: none
};

outcome by_next(const std::string& raw) {
  outcome o;
  auto in = memory_input(raw);
  for (;;) {
    auto r = in->next();
    if (!r) {
      o.error = r.error().message;
      return o;
    }
    if (r->empty()) return o;
    o.bytes.append(r->data(), r->size());
  }
}

outcome by_read_into(const std::string& raw, std::size_t room) {
  outcome o;
  auto in = memory_input(raw);
  std::vector<char> buf(room);
  for (;;) {
    auto r = in->read_into(buf);
    if (!r) {
      o.error = r.error().message;
      return o;
    }
    if (*r == 0) return o;
    EXPECT_LE(*r, room);
    o.bytes.append(buf.data(), *r);
  }
}

}  // namespace

TEST(Input, ReadIntoGivesWhatNextGives) {
  const std::string text = some_text();
  struct item {
    std::string what;
    std::string raw;
    bool whole = true;
  };
  std::vector<item> inputs{{"plain", text}};
  for (const auto& [what, raw] :
       std::vector<std::pair<std::string, std::string>>{{"zstd", zstd_of(text)},
                                                        {"gzip", gzip_of(text)},
                                                        {"xz", xz_of(text)},
                                                        {"bzip2", bzip2_of(text)}}) {
    ASSERT_LT(raw.size(), text.size() / 2) << what;
    inputs.push_back({what, raw});
    inputs.push_back({what + ", truncated", raw.substr(0, raw.size() / 2), false});
    inputs.push_back({what + ", corrupt", raw.substr(0, 40) + std::string(200, 'x'), false});
  }
  for (const auto& i : inputs) {
    const outcome want = by_next(i.raw);
    if (i.whole) {
      EXPECT_TRUE(want.bytes == text) << i.what;
      EXPECT_EQ(want.error, "") << i.what;
    } else {
      EXPECT_NE(want.error, "") << i.what;
      EXPECT_LT(want.bytes.size(), text.size()) << i.what;
    }
    for (std::size_t room : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{65537},
                             std::size_t{1} << 21}) {
      const outcome got = by_read_into(i.raw, room);
      EXPECT_EQ(got.bytes.size(), want.bytes.size()) << i.what << ", room " << room;
      EXPECT_TRUE(got.bytes == want.bytes) << i.what << ", room " << room;
      EXPECT_EQ(got.error, want.error) << i.what << ", room " << room;
    }
  }
}

// A UTF-16 text with its byte-order mark (PowerShell's `>`) is given as the UTF-8 it stands
// for, the mark left out: both byte orders, a pair of surrogates (an emoji), a unit or pair cut
// by any room; an unpaired surrogate and an odd last byte are U+FFFD.
static std::string utf16_of(const std::u16string& s, bool big) {
  std::string out = big ? std::string("\xfe\xff") : std::string("\xff\xfe");
  for (char16_t u : s) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xff);
    out += big ? std::string{hi, lo} : std::string{lo, hi};
  }
  return out;
}

TEST(Input, Utf16IsReadAsUtf8) {
  std::u16string text = u"main;caf\u00e9 3\r\nmain;\U0001F600;g 2\r\n";
  std::string want = "main;caf\xc3\xa9 3\r\nmain;\xf0\x9f\x98\x80;g 2\r\n";
  for (int i = 0; i < 3000; ++i) {  // (more than a block of the decoder's)
    text += u"a;b\u4e2d " + std::u16string(1, static_cast<char16_t>(u'0' + i % 10)) + u"\n";
    want += "a;b\xe4\xb8\xad " + std::string(1, static_cast<char>('0' + i % 10)) + "\n";
  }
  for (bool big : {false, true}) {
    const std::string raw = utf16_of(text, big);
    EXPECT_EQ(memory_input(raw)->kind(), big ? compression::utf16be : compression::utf16le);
    const outcome whole = by_next(raw);
    EXPECT_EQ(whole.error, "");
    EXPECT_TRUE(whole.bytes == want) << big;
    for (std::size_t room : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                             std::size_t{4096}}) {
      const outcome got = by_read_into(raw, room);
      EXPECT_TRUE(got.bytes == want) << big << ", room " << room;
      EXPECT_EQ(got.error, "") << big << ", room " << room;
    }
  }
  // Unpaired surrogates, then an odd byte at the end.
  std::u16string bad = u"a";
  bad += static_cast<char16_t>(0xD800);
  bad += u"b";
  bad += static_cast<char16_t>(0xDC00);
  bad += static_cast<char16_t>(0xD83D);
  EXPECT_EQ(by_next(utf16_of(bad, false) + "x").bytes,
            "a\xef\xbf\xbd"
            "b\xef\xbf\xbd\xef\xbf\xbd");
}

// json_string_test.cc — append_json_string: escapes, UTF-8 checks, and the 8-byte fast scan
// agreeing with a byte-by-byte writer at every length and position.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "report/json.h"

namespace calltree {
namespace {

std::string as_json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

// The same rules one byte at a time (ASCII only: the tests' special bytes are ASCII or
// single bytes of 0x80 and above that are never valid UTF-8 alone).
std::string reference(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"')
      out += "\\\"";
    else if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c >= 0x80)
      out += "\xef\xbf\xbd";
    else
      out += static_cast<char>(c);
  }
  return out + "\"";
}

TEST(JsonString, Escapes) {
  EXPECT_EQ(as_json("main"), "\"main\"");
  EXPECT_EQ(as_json("a\"b\\c\nd\re\tf"), "\"a\\\"b\\\\c\\nd\\re\\tf\"");
  EXPECT_EQ(as_json(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(as_json(std::string("x\0y", 3)), "\"x\\u0000y\"");
}

TEST(JsonString, Utf8KeptOrReplaced) {
  EXPECT_EQ(as_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5\"");
  EXPECT_EQ(as_json("a\xff" "b"), "\"a\xef\xbf\xbd" "b\"");
  EXPECT_EQ(as_json("\xc3"), "\"\xef\xbf\xbd\"");              // cut short
  EXPECT_EQ(as_json("\xe0\x80\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  // overlong
  EXPECT_EQ(as_json("\xed\xa0\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  // surrogate
}

// Every special byte at every position of plain strings of 0 to 24 bytes: the 8-byte scan
// must stop at it wherever it falls in a word.
TEST(JsonString, EverySpecialByteAtEveryPosition) {
  std::string specials;
  for (int c = 0; c < 0x20; ++c) specials += static_cast<char>(c);
  specials += "\"\\\x7f\x80\xff";
  for (std::size_t len = 0; len <= 24; ++len) {
    const std::string plain(len, 'a');
    EXPECT_EQ(as_json(plain), reference(plain));
    for (std::size_t at = 0; at < len; ++at)
      for (char c : specials) {
        std::string s = plain;
        s[at] = c;
        ASSERT_EQ(as_json(s), reference(s)) << "len " << len << " at " << at << " byte "
                                           << static_cast<int>(static_cast<unsigned char>(c));
      }
  }
}

TEST(JsonString, RandomStringsAgreeWithTheByteByByteWriter) {
  std::mt19937 rng(26);
  const std::string alphabet = "abcXYZ019 _:'<>(),.~!\"\\\n\t\x01\x7f\x80\xfe";
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 40, ' ');
    for (char& c : s) c = rng() % 4 ? static_cast<char>('a' + rng() % 26)
                                    : alphabet[rng() % alphabet.size()];
    ASSERT_EQ(as_json(s), reference(s)) << s;
  }
}

}  // namespace
}  // namespace calltree

// fast_tokens.h — (internal) the token grammar of well-formed callgrind output, as scanners.
//
// What it is: the few forms that fill big profiles (decimal, 0x-hex, +N, -N, *, one space
// between tokens), read with no allocation, no overflow checks (at most 19 decimal or 16 hex
// digits cannot overflow) and no diagnostics: the scanners of the reader's fast paths.
// What it is not: the general grammar; whatever these refuse, the reader's general path reads
// and reports.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace calltree::detail {

// The fast paths' token grammar: what well-formed callgrind output is made of. Each scanner
// advances p past what it read and says false for anything else (the caller then leaves the
// line to the general path, which knows every other form and reports what is wrong).
namespace fast {

[[gnu::always_inline]] inline unsigned digit(char ch) {
  return static_cast<unsigned>(static_cast<unsigned char>(ch)) - 48u;
}

// 1 to 19 decimal digits (which cannot overflow).
[[gnu::always_inline]] inline bool decimal(const char*& p, const char* end, std::uint64_t& v) {
  const char* s = p;
  v = 0;
  for (unsigned d; p < end && (d = digit(*p)) < 10u; ++p) v = v * 10 + d;
  return p != s && p - s <= 19;
}

// 1 to 19 decimal digits, as decimal(), without a branch on each digit when 8 bytes can be
// read: a loop's exit is mispredicted whenever the count of digits differs from the last
// number's, about 20 cycles each time. The reader reads every cost, call count, jump count
// and `(id)` with it: their lengths change from one line to the next (a call's inclusive
// cost after self costs of one digit, ids of one to six digits). The 8 bytes at p are
// loaded at once, the digits found by a mask, and up to 7 of them turned into their value by
// three multiplications (8 or more digits, or fewer than 8 bytes left, go to the loop).
[[gnu::always_inline]] inline bool decimal_wide(const char*& p, const char* end, std::uint64_t& v) {
  if constexpr (std::endian::native != std::endian::little) return decimal(p, end, v);
  if (end - p < 8) return decimal(p, end, v);
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  const std::uint64_t d = x ^ 0x3030303030303030u;  // a digit's byte is its value, 0 to 9
  // The high bit of each byte that is no digit: its value, without the high bit, plus 0x76
  // reaches 0x80 from 10 up and never carries into the next byte.
  const std::uint64_t other =
      (((d & 0x7f7f7f7f7f7f7f7fu) + 0x7676767676767676u) | d) & 0x8080808080808080u;
  if (other == 0) return decimal(p, end, v);  // 8 digits or more
  const unsigned n = static_cast<unsigned>(__builtin_ctzll(other)) >> 3;
  if (n == 0) return false;
  // The n digits moved to the end of the word, as if led by zeros, then pairs, fours, eights.
  std::uint64_t w = d << (8 * (8 - n));
  w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffu;
  w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffu;
  v = (w * 10000 + (w >> 32)) & 0xffffffffu;
  p += n;
  return true;
}

// The value of each byte as a hex digit, 16 for anything else.
inline constexpr struct hex_table {
  unsigned char v[256];
  constexpr hex_table() : v() {
    for (unsigned i = 0; i < 256; ++i)
      v[i] = static_cast<unsigned char>(i - '0' < 10  ? i - '0'
                                        : i - 'a' < 6 ? i - 'a' + 10
                                        : i - 'A' < 6 ? i - 'A' + 10
                                                      : 16);
  }
  constexpr unsigned operator[](unsigned char c) const { return v[c]; }
} hex_digit;

// How a position token is written; its value is against the same column of the last line.
enum class tok : std::uint8_t { dec = 0, hex = 1, plus = 2, minus = 3, star = 4 };

// A position token as written: decimal, 0x-hex (1 to 16 digits), +N, -N or *.
[[gnu::always_inline]] inline bool position_lexeme(const char*& p, const char* end, tok& k,
                                                   std::uint64_t& v) {
  if (p == end) return false;
  const char c = *p;
  if (c == '*') {
    ++p;
    k = tok::star;
    v = 0;
    return true;
  }
  if (c == '0' && end - p > 2 && p[1] == 'x') {
    p += 2;
    const char* s = p;
    v = 0;
    // A table, not comparisons: hex digits of addresses are random, and a branch on "digit
    // or letter" was mispredicted about every other character.
    for (unsigned d; p < end && (d = hex_digit[static_cast<unsigned char>(*p)]) < 16u; ++p)
      v = (v << 4) | d;
    k = tok::hex;
    return p != s && p - s <= 16;
  }
  const bool plus = c == '+', minus = c == '-';
  if (plus || minus) ++p;
  k = plus ? tok::plus : minus ? tok::minus : tok::dec;
  return decimal(p, end, v);
}

// The value of a position token against `base`; false if it leaves 0..2^64-1.
[[gnu::always_inline]] inline bool relative_to(tok k, std::uint64_t v, std::uint64_t base,
                                               std::uint64_t& out) {
  switch (k) {
    case tok::star:
      out = base;
      return true;
    case tok::plus:
      return !__builtin_add_overflow(base, v, &out);
    case tok::minus:
      if (v > base) return false;
      out = base - v;
      return true;
    default:
      out = v;
      return true;
  }
}

// A position: decimal, 0x-hex (1 to 16 digits), +N, -N (not below 0) or *, against `base`.
[[gnu::always_inline]] inline bool position_token(const char*& p, const char* end,
                                                  std::uint64_t base, std::uint64_t& v) {
  tok k;
  std::uint64_t x;
  return position_lexeme(p, end, k, x) && relative_to(k, x, base, v);
}

// After a token: one space (consumed), or the line end (not consumed).
[[gnu::always_inline]] inline bool separator(const char*& p, const char* end) {
  if (p == end) return false;
  if (*p == ' ') {
    ++p;
    return true;
  }
  return *p == '\n';
}

[[gnu::always_inline]] inline bool at_line_end(const char* p, const char* end) {
  return p != end && *p == '\n';
}

}  // namespace fast

}  // namespace calltree::detail

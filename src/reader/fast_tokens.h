// fast_tokens.h — (internal) the token grammar of well-formed callgrind output, as scanners.
//
// What it is: the few forms that fill big profiles (decimal, 0x-hex, +N, -N, *, one space
// between tokens), read with no allocation, no overflow checks (at most 19 decimal or 16 hex
// digits cannot overflow) and no diagnostics: the scanners of the reader's fast paths.
// What it is not: the general grammar; whatever these refuse, the reader's general path reads
// and reports.
#pragma once

#include <cstdint>

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

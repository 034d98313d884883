// parse_floor.cc — the least a reading of a callgrind profile must do, as one tight loop: the
// floor under `calltree check`'s time on this machine, measured beside it by bench/compare.sh.
//
// What it is: for every body line, the work no reading can skip, with the reader's own token
// scanners (src/reader/fast_tokens.h) and the string pool's hash:
//   * a cost line: every position token resolved against the line before (+N, -N, *, decimal,
//     0x-hex), every cost turned into a number and summed;
//   * `calls=`, `jcnd=`, `jump=`: the counts and the target's first position (and the line
//     column's value then, for the check value: a line read wrong shows);
//   * `KEY=(id)`: the id looked up in a table; `KEY=(id) name`: the name hashed and stored.
// With --threads=2 the file is cut in two at a line that starts with "fn=" and each half is read
// on a thread of its own (the second half's positions start from 0: nothing is fixed up).
// With --simd (x86-64 with AVX-512BW, or AVX2: chosen at run time by the CPU's flags;
// --simd=avx2 or --simd=avx512 names one) the commonest lines of an instr-level profile, runs of
// `+D L C` (an instr delta, line 0 or *, one cost), are read 64 bytes at a time from SIMD masks
// instead of a token at a time (cost_window below); every other line as without it. The
// same counts, sums and check value as without it (tests/parse_floor.sh): it is the floor of a
// reading that takes the runs in bulk rather than a token at a time (docs/performance.md,
// "The parse floor").
// What it is not: a reader. No header, parts, diagnostics, records, sinks, name pool, bounds
// of a line's length or a number's size; a line it does not know it steps over (memchr); a
// malformed line may be read wrong. Its output is a count of what it read, so that nothing is
// optimized away; compare.sh times it from outside as it times calltree, the file mapped the
// same way. Where `wc -l` is the machine's limit for finding line ends, this is its limit for
// a parse of the lines, and calltree's seconds over its seconds are the price of
// everything a real reading adds (docs/performance.md).
//
// Usage: parse_floor [--threads=1|2] [--simd[=avx2|avx512]] FILE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define PARSE_FLOOR_SIMD 1
#endif
#include <string_view>
#include <thread>
#include <vector>

#include "calltree/string_pool.h"
#include "model/string_pool_access.h"
#include "reader/fast_tokens.h"

namespace {

namespace fast = calltree::detail::fast;

struct tally {
  std::uint64_t lines = 0, cost_lines = 0, cost_sum = 0, keys = 0, definitions = 0, check = 0;
};

// --simd: runs of `+D L C` lines 64 bytes at a time (cost_window, read_cost_window).
//
// Every byte of the 64 gets a bit in a 64-bit mask per question: is it a line end, a space, a
// digit, '+', '0', '*'. A line is three tokens, and a token's bytes follow from its first
// byte by one addition: with `tok` the mask of bytes that are neither space nor line end,
// tok + first carries through the token's bits and stops at the byte after it, so
// (tok + first) ^ tok is the token and that byte. The first tokens start at the line starts,
// the second after the spaces that end the first ones, the third after those: three additions
// find every token of every line at once. Whatever breaks the shape (another first byte, a
// token of other bytes, two spaces, a line of two tokens or four) is a "bad" bit, and the
// window ends at the start of the line of the first one. The values: a token's last digit
// weighs 1, the one before 10, then 100; those places are masks too, turned into a vector of
// byte weights, and the digits times their weights, summed (maddubs, madd, then across the
// vector), are the sum of every token's last three digits; longer tokens repeat that for the
// next three, times 1000.

// What one window took. Its lines are all `+D L C`: D and C of 1 to 15 decimal digits, L
// `0` or `*`, one space between, the line end right after C.
struct cost_window {
  std::uint64_t deltas = 0;  // the lines' instr deltas, summed
  std::uint64_t costs = 0;   // their costs, summed
  std::uint32_t lines = 0;   // lines taken (at least 1)
  std::uint32_t bytes = 0;   // bytes taken: the lines with their line ends
  bool line_zero = false;    // some line's L is 0: the line column is 0 after them
};

// The masks of one window's 64 bytes: a bit per byte, byte i at bit i.
struct window_masks {
  std::uint64_t nl, sp, dg, plus, star, zero;
};

// Which lines of a window are `+D L C` (the shape above): false if the first is not one (or
// the window has no line end). `take` the bytes of the lines taken, `costs` and `deltas` the
// digits of their C and D tokens, `line_zero` whether some taken line's L is 0. The same
// arithmetic on the masks whichever instructions made them.
[[gnu::always_inline]] inline bool window_shape(const window_masks& m, std::uint64_t& take,
                                                std::uint64_t& costs, std::uint64_t& deltas,
                                                bool& line_zero) {
  if (!m.nl) return false;
  const std::uint64_t whole = ~0ull >> __builtin_clzll(m.nl);  // up to the last line end
  const std::uint64_t tok = ~(m.sp | m.nl) & whole;
  const std::uint64_t first1 = ((m.nl << 1) | 1) & whole;  // line starts
  const std::uint64_t r1 = (tok + (first1 & tok)) ^ tok, t1 = r1 & tok, after1 = r1 & ~tok;
  const std::uint64_t first2 = (after1 & m.sp) << 1;
  const std::uint64_t r2 = (tok + (first2 & tok)) ^ tok, t2 = r2 & tok, after2 = r2 & ~tok;
  const std::uint64_t first3 = (after2 & m.sp) << 1;
  const std::uint64_t r3 = (tok + (first3 & tok)) ^ tok, t3 = r3 & tok, after3 = r3 & ~tok;
  const std::uint64_t bad =
      (first1 & ~(m.plus & tok)) | (first1 & ~(t1 >> 1)) | (t1 & ~first1 & ~m.dg)  // +digits
      | (first2 & ~tok) | (t2 & ~first2) | (first2 & ~(m.zero | m.star))           // 0 or *
      | (first3 & ~tok) | (t3 & ~m.dg)                                             // digits
      | ((after1 | after2) & m.nl) | (after3 & ~m.nl);  // three tokens, then the line end
  take = whole;
  if (bad) {
    // Up to the start of the line of the first bad byte.
    const std::uint64_t starts = first1 & (~0ull >> (63 - __builtin_ctzll(bad)));
    const auto cut = static_cast<unsigned>(63 - __builtin_clzll(starts));
    if (cut == 0) return false;
    take = (1ull << cut) - 1;
  }
  costs = t3 & take;
  deltas = t1 & ~first1 & take;
  line_zero = (first2 & m.zero & take) != 0;
  return true;
}

// The window's result from its shape and its digit sums.
[[gnu::always_inline]] inline void window_result(std::uint64_t nl, std::uint64_t take,
                                                 std::uint64_t costs, std::uint64_t deltas,
                                                 bool line_zero, cost_window& w) {
  const std::uint64_t ends = nl & take;
  w.deltas = deltas;
  w.costs = costs;
  w.lines = static_cast<std::uint32_t>(__builtin_popcountll(ends));
  w.bytes = 64 - static_cast<std::uint32_t>(__builtin_clzll(ends));
  w.line_zero = line_zero;
}

// The digits' place among a number's last three (1, 10, 100) for the numbers whose bytes are
// the set bits of `m` (runs of digits, one a number, each ending before a byte not in m); `m`
// left with the digits before those three, to weigh next (times 1000).
struct places {
  std::uint64_t ones, tens, hundreds;
};
[[gnu::always_inline]] inline places last_three_places(std::uint64_t& m) {
  const std::uint64_t ones = m & ~(m >> 1);
  const std::uint64_t tens = (ones >> 1) & m, hundreds = (tens >> 1) & m;
  m &= ~(ones | tens | hundreds);
  return {ones, tens, hundreds};
}

// The two paths: `--simd` takes AVX-512BW where the CPU has it, else AVX2 (the same 64-bit
// masks from two 32-byte halves; the weights' bytes from the masks by a shuffle); `--simd=avx2`
// and `--simd=avx512` choose one (tests/parse_floor.sh runs each the CPU has).
enum class simd_path { none, avx2, avx512 };

#ifdef PARSE_FLOOR_SIMD
// GCC 12 warns that the undefined vectors its AVX-512 intrinsics start from (the reduction's
// extracts) "may be used uninitialized" wherever it inlines them: a false alarm.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define FLOOR_AVX512 __attribute__((target("avx512f,avx512bw,bmi,lzcnt,popcnt")))
#define FLOOR_AVX2 __attribute__((target("avx2,bmi,lzcnt,popcnt")))

// LZCNT (CPUID 0x80000001, ECX bit 5), asked of the CPU itself: Clang 14's
// __builtin_cpu_supports does not know the name.
bool has_lzcnt() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(0x80000001u, &a, &b, &c, &d) != 0 && (c & (1u << 5)) != 0;
}

bool supported(simd_path p) {
  switch (p) {
    case simd_path::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("bmi") && has_lzcnt() && __builtin_cpu_supports("popcnt");
    case simd_path::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && has_lzcnt() &&
             __builtin_cpu_supports("popcnt");
    case simd_path::none:
      break;
  }
  return true;
}

// ---- AVX-512BW: one 64-byte vector, its compares masks already.

// The digits' weights (last_three_places) as int32 lanes, each the sum of four bytes' digit x
// weight.
[[gnu::always_inline]] FLOOR_AVX512 inline __m512i last_three(__m512i digits, std::uint64_t& m) {
  const places pl = last_three_places(m);
  __m512i w = _mm512_maskz_mov_epi8(pl.ones, _mm512_set1_epi8(1));
  w = _mm512_mask_mov_epi8(w, pl.tens, _mm512_set1_epi8(10));
  w = _mm512_mask_mov_epi8(w, pl.hundreds, _mm512_set1_epi8(100));
  // Pairs of digit x weight (at most 9*100 + 9*100: an int16), then fours (an int32).
  return _mm512_madd_epi16(_mm512_maddubs_epi16(digits, w), _mm512_set1_epi16(1));
}

// The sums of two sets of numbers (`a`, `b`: masks as for last_three) in one reduction: a's
// int32 lanes summed in pairs into the low halves of 64-bit lanes, b's into the high halves.
// False past 15 digits.
[[gnu::always_inline]] FLOOR_AVX512 inline bool digit_sums(__m512i digits, std::uint64_t a,
                                                           std::uint64_t b, std::uint64_t& sa,
                                                           std::uint64_t& sb) {
  sa = sb = 0;
  for (std::uint64_t scale = 1, group = 0; a | b; scale *= 1000, ++group) {
    if (group == 5) return false;
    const __m512i x = last_three(digits, a), y = last_three(digits, b);
    // (A half's sum over the vector is at most 64 bytes' 9*100: no carry into the other.)
    const __m512i lo = _mm512_add_epi32(x, _mm512_srli_epi64(x, 32));
    const __m512i hi = _mm512_add_epi32(y, _mm512_slli_epi64(y, 32));
    const __m512i both = _mm512_mask_blend_epi32(0xaaaa, lo, hi);
    const auto sum = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(both));
    sa += scale * (sum & 0xffffffffu);
    sb += scale * (sum >> 32);
  }
  return true;
}

// The lines of the 64 bytes at p (a line start; all 64 readable) up to the first that is not
// `+D L C`. False if the first is not one (or a run of more than 15 digits is among those that
// are: then the lines one by one read them); `w` is then unchanged.
FLOOR_AVX512 inline bool read_cost_window_avx512(const char* p, cost_window& w) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i digits = _mm512_sub_epi8(v, _mm512_set1_epi8('0'));
  const window_masks m{_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n')),
                       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' ')),
                       _mm512_cmplt_epu8_mask(digits, _mm512_set1_epi8(10)),
                       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('+')),
                       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('*')),
                       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('0'))};
  std::uint64_t take, cost_digits, delta_digits, costs, deltas;
  bool line_zero;
  if (!window_shape(m, take, cost_digits, delta_digits, line_zero)) return false;
  if (!digit_sums(digits, cost_digits, delta_digits, costs, deltas)) return false;
  window_result(m.nl, take, costs, deltas, line_zero, w);
  return true;
}

// ---- AVX2: two 32-byte halves, each compare's movemask a half of the 64-bit mask.

[[gnu::always_inline]] FLOOR_AVX2 inline std::uint64_t mask64(__m256i lo, __m256i hi) {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)) |
         (std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))} << 32);
}

[[gnu::always_inline]] FLOOR_AVX2 inline std::uint64_t eq64(__m256i lo, __m256i hi, char c) {
  const __m256i x = _mm256_set1_epi8(c);
  return mask64(_mm256_cmpeq_epi8(lo, x), _mm256_cmpeq_epi8(hi, x));
}

// 0xff in every byte whose bit of the 32-bit `m` is set, else 0.
[[gnu::always_inline]] FLOOR_AVX2 inline __m256i bytes_of(std::uint32_t m) {
  // Byte i takes the mask's byte i / 8 (the shuffle works within each 16-byte lane, and every
  // lane holds the broadcast mask), then tests its bit i % 8.
  const __m256i spread =
      _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(m)),
                          _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
                                           2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
  return _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
}

// The weights of 32 bytes: 1, 10, 100 where `ones`, `tens`, `hundreds` (32 bits each) say.
[[gnu::always_inline]] FLOOR_AVX2 inline __m256i weights(std::uint32_t ones, std::uint32_t tens,
                                                         std::uint32_t hundreds) {
  return _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(bytes_of(ones), _mm256_set1_epi8(1)),
                                         _mm256_and_si256(bytes_of(tens), _mm256_set1_epi8(10))),
                         _mm256_and_si256(bytes_of(hundreds), _mm256_set1_epi8(100)));
}

// As the AVX-512 digit_sums, with fewer masks made bytes (each costs a shuffle, an and and a
// compare here): one set of weights for the digits of both sets (their tokens are never
// adjacent, so a number's last digit is the same in a, b and a | b), and b's share taken by
// pairs: a pair of bytes holds digits of one set at most (the tokens of a and b are 3 bytes or
// more apart), so madd with 1 for every pair sums both, with 1 for the pairs of b sums b.
[[gnu::always_inline]] FLOOR_AVX2 inline bool digit_sums(__m256i lo, __m256i hi, std::uint64_t a,
                                                         std::uint64_t b, std::uint64_t& sa,
                                                         std::uint64_t& sb) {
  sa = sb = 0;
  const __m256i one = _mm256_set1_epi16(1);
  const std::uint64_t b_pairs = b | (b >> 1);  // bit 2i: byte 2i or 2i + 1 is in b
  const __m256i b_lo = _mm256_and_si256(bytes_of(static_cast<std::uint32_t>(b_pairs)), one);
  const __m256i b_hi = _mm256_and_si256(bytes_of(static_cast<std::uint32_t>(b_pairs >> 32)), one);
  std::uint64_t m = a | b;
  for (std::uint64_t scale = 1, group = 0; m; scale *= 1000, ++group) {
    if (group == 5) return false;
    const places pl = last_three_places(m);
    const __m256i p_lo = _mm256_maddubs_epi16(
        lo, weights(static_cast<std::uint32_t>(pl.ones), static_cast<std::uint32_t>(pl.tens),
                    static_cast<std::uint32_t>(pl.hundreds)));
    const __m256i p_hi =
        _mm256_maddubs_epi16(hi, weights(static_cast<std::uint32_t>(pl.ones >> 32),
                                         static_cast<std::uint32_t>(pl.tens >> 32),
                                         static_cast<std::uint32_t>(pl.hundreds >> 32)));
    const __m256i x = _mm256_add_epi32(_mm256_madd_epi16(p_lo, one), _mm256_madd_epi16(p_hi, one));
    const __m256i y =
        _mm256_add_epi32(_mm256_madd_epi16(p_lo, b_lo), _mm256_madd_epi16(p_hi, b_hi));
    // x's int32 lanes summed in pairs into the low halves of 64-bit lanes, y's into the high.
    const __m256i xs = _mm256_add_epi32(x, _mm256_srli_epi64(x, 32));
    const __m256i ys = _mm256_add_epi32(y, _mm256_slli_epi64(y, 32));
    const __m256i both = _mm256_blend_epi32(xs, ys, 0xaa);
    const __m128i s2 =
        _mm_add_epi64(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
    const auto sum = static_cast<std::uint64_t>(_mm_cvtsi128_si64(s2)) +
                     static_cast<std::uint64_t>(_mm_extract_epi64(s2, 1));
    const std::uint64_t all = sum & 0xffffffffu, of_b = sum >> 32;
    sa += scale * (all - of_b);
    sb += scale * of_b;
  }
  return true;
}

// As read_cost_window_avx512.
FLOOR_AVX2 inline bool read_cost_window_avx2(const char* p, cost_window& w) {
  const __m256i v_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
  const __m256i d_lo = _mm256_sub_epi8(v_lo, zero), d_hi = _mm256_sub_epi8(v_hi, zero);
  // A digit: its byte - '0' unsigned at most 9 (min with 9 is itself).
  const window_masks m{eq64(v_lo, v_hi, '\n'),
                       eq64(v_lo, v_hi, ' '),
                       mask64(_mm256_cmpeq_epi8(_mm256_min_epu8(d_lo, nine), d_lo),
                              _mm256_cmpeq_epi8(_mm256_min_epu8(d_hi, nine), d_hi)),
                       eq64(v_lo, v_hi, '+'),
                       eq64(v_lo, v_hi, '*'),
                       eq64(v_lo, v_hi, '0')};
  std::uint64_t take, cost_digits, delta_digits, costs, deltas;
  bool line_zero;
  if (!window_shape(m, take, cost_digits, delta_digits, line_zero)) return false;
  if (!digit_sums(d_lo, d_hi, cost_digits, delta_digits, costs, deltas)) return false;
  window_result(m.nl, take, costs, deltas, line_zero, w);
  return true;
}

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
bool supported(simd_path p) { return p == simd_path::none; }
bool read_cost_window_avx512(const char*, cost_window&) { return false; }
bool read_cost_window_avx2(const char*, cost_window&) { return false; }
#endif

// Lines [p, end): `end` is just after a newline (or the file's end).
template <simd_path simd>
[[gnu::always_inline]] inline tally read_lines(const char* p, const char* end) {
  tally t;
  std::vector<std::uint64_t> ids(std::size_t{1} << 20);  // (id) -> a name's hash
  std::uint64_t instr = 0, line = 0;
  auto skip_line = [&](const char* q) {
    const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
    return nl ? static_cast<const char*>(nl) + 1 : end;
  };
  while (p < end) {
    if constexpr (simd != simd_path::none) {
      if (*p == '+' && end - p >= 64) {
        // Windows of `+D L C` lines while they come (an instr that would go past 2^64-1 is
        // left to the lines one by one, which skip the line that does).
        const char* q = p;
        cost_window w;
        constexpr auto read_cost_window =
            simd == simd_path::avx512 ? read_cost_window_avx512 : read_cost_window_avx2;
        for (std::uint64_t i2; end - q >= 64 && read_cost_window(q, w) &&
                               !__builtin_add_overflow(instr, w.deltas, &i2);
             q += w.bytes) {
          instr = i2;
          if (w.line_zero) line = 0;
          t.cost_sum += w.costs;
          t.lines += w.lines;
          t.cost_lines += w.lines;
        }
        if (q != p) {
          p = q;
          continue;
        }
      }
    }
    ++t.lines;
    const char c = *p;
    if (fast::digit(c) < 10 || c == '+' || c == '-' || c == '*') {
      // Positions (as many as there are before the costs: two here, instr and line, or one),
      // then costs. Whatever does not scan is stepped over.
      const char* q = p;
      std::uint64_t i2 = instr, l2 = line, v = 0;
      bool ok = fast::position_token(q, end, i2, i2) && fast::separator(q, end);
      if (ok && q != end && *q != '\n')
        ok = fast::position_token(q, end, l2, l2) && fast::separator(q, end);
      while (ok && q != end && *q != '\n') {
        ok = fast::decimal_wide(q, end, v) && fast::separator(q, end);
        if (ok) t.cost_sum += v;
      }
      if (!ok || q == end) {
        p = skip_line(p);
        continue;
      }
      instr = i2;
      line = l2;
      ++t.cost_lines;
      p = q + 1;
      continue;
    }
    if (c == '\n') {
      ++p;
      continue;
    }
    const char* nl = skip_line(p);
    const std::string_view text(p, static_cast<std::size_t>(nl - p));
    std::uint64_t a = 0, b = 0;
    if (text.starts_with("calls=") || text.starts_with("jump=") || text.starts_with("jcnd=")) {
      const char* q = p + (c == 'c' ? 6 : 5);
      if (fast::decimal(q, nl, a) && q != nl && *q == '/') fast::decimal(++q, nl, b);
      if (q != nl && *q == ' ') {
        std::uint64_t target = instr;
        fast::position_token(++q, nl, target, target);
        t.check += a + b + target + line;
      }
      ++t.keys;
    } else if (const std::size_t open = text.find("=("); open != std::string_view::npos) {
      const char* q = p + open + 2;
      if (fast::decimal(q, nl, a) && q != nl && *q == ')') {
        ++q;
        std::uint64_t& slot = ids[a & (ids.size() - 1)];
        if (q + 1 < nl && *q == ' ') {  // a definition: the name to its line end
          const char* name_end = nl[-1] == '\n' ? nl - 1 : nl;
          slot = calltree::string_pool_access::digest_of(
                     std::string_view(q + 1, static_cast<std::size_t>(name_end - q - 1)))
                     .h;
          ++t.definitions;
        } else {
          t.check += slot;
        }
      }
      ++t.keys;
    }
    p = nl;
  }
  t.check += instr + line;
  return t;
}

// The loops, each compiled whole for its instructions (the windows inlined in it).
tally read_lines_scalar(const char* p, const char* end) {
  return read_lines<simd_path::none>(p, end);
}
#ifdef PARSE_FLOOR_SIMD
[[gnu::flatten]] FLOOR_AVX512 tally read_lines_avx512(const char* p, const char* end) {
  return read_lines<simd_path::avx512>(p, end);
}
[[gnu::flatten]] FLOOR_AVX2 tally read_lines_avx2(const char* p, const char* end) {
  return read_lines<simd_path::avx2>(p, end);
}
#else
tally read_lines_avx512(const char* p, const char* end) { return read_lines_scalar(p, end); }
tally read_lines_avx2(const char* p, const char* end) { return read_lines_scalar(p, end); }
#endif

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 1;
  const char* path = nullptr;
  bool usage = false;
  simd_path simd = simd_path::none;
  const char* asked = nullptr;  // the --simd flag as given
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--threads=1" || a == "--threads=2") {
      threads = static_cast<unsigned>(a.back() - '0');
    } else if (a == "--simd") {  // the widest this CPU has
      simd = supported(simd_path::avx512) ? simd_path::avx512 : simd_path::avx2;
      asked = argv[i];
    } else if (a == "--simd=avx2" || a == "--simd=avx512") {
      simd = a == "--simd=avx2" ? simd_path::avx2 : simd_path::avx512;
      asked = argv[i];
    } else if (!path && !a.starts_with("--")) {
      path = argv[i];
    } else {
      usage = true;
    }
  }
  if (usage || !path) {
    std::fprintf(stderr,
                 "usage: parse_floor [--threads=1|2] [--simd[=avx2|avx512]] FILE (a plain "
                 "profile)\n");
    return 2;
  }
  if (!supported(simd)) {
    std::fprintf(stderr, "parse_floor: %s needs x86-64 with %s, which this CPU lacks\n", asked,
                 simd == simd_path::avx512 ? "AVX-512BW" : "AVX2");
    return 3;
  }
  const auto read = simd == simd_path::avx512 ? read_lines_avx512
                    : simd == simd_path::avx2 ? read_lines_avx2
                                              : read_lines_scalar;
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::perror(path);
    return 2;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) return 0;
  // Mapped as calltree maps a plain file (input.cc): read in order.
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    std::perror(path);
    return 2;
  }
  ::madvise(map, size, MADV_SEQUENTIAL);
  const char* data = static_cast<const char*>(map);
  const char* end = data + size;
  // The body: from the first function on (the header is a few lines).
  const char* body = data;
  if (const char* fn = static_cast<const char*>(memmem(data, size, "\nfn=", 4))) body = fn + 1;
  std::vector<tally> part(threads);
  if (threads == 1) {
    part[0] = read(body, end);
  } else {
    // Half way, at the next function's first line.
    const char* cut = body + (end - body) / 2;
    const void* fn = memmem(cut, static_cast<std::size_t>(end - cut), "\nfn=", 4);
    cut = fn ? static_cast<const char*>(fn) + 1 : end;
    std::thread second([&] { part[1] = read(cut, end); });
    part[0] = read(body, cut);
    second.join();
  }
  tally sum;
  for (const tally& t : part) {
    sum.lines += t.lines;
    sum.cost_lines += t.cost_lines;
    sum.cost_sum += t.cost_sum;
    sum.keys += t.keys;
    sum.definitions += t.definitions;
    sum.check += t.check;
  }
  std::printf(
      "%s: %llu lines: %llu cost lines (costs sum to %llu), %llu key lines, %llu names "
      "(check %llx)\n",
      path, static_cast<unsigned long long>(sum.lines),
      static_cast<unsigned long long>(sum.cost_lines),
      static_cast<unsigned long long>(sum.cost_sum), static_cast<unsigned long long>(sum.keys),
      static_cast<unsigned long long>(sum.definitions), static_cast<unsigned long long>(sum.check));
  ::munmap(map, size);
  ::close(fd);
  return 0;
}

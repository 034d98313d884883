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
// With --simd (x86-64 with AVX-512BW) the commonest lines of an instr-level profile, runs of
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
// Usage: parse_floor [--threads=1|2] [--simd] FILE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
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

#ifdef PARSE_FLOOR_SIMD
// GCC 12 warns that the undefined vectors its AVX-512 intrinsics start from (the reduction's
// extracts) "may be used uninitialized" wherever it inlines them: a false alarm.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define FLOOR_AVX512 __attribute__((target("avx512f,avx512bw,bmi,lzcnt,popcnt")))

// The digits of the numbers whose bytes are the set bits of `m` (runs of digits, one a
// number, each ending before a byte not in m) weighed by their place among a number's last
// three: 1, 10, 100, as int32 lanes (each the sum of four bytes' digit x weight); `m` left with
// the digits before those three, to weigh next (times 1000).
[[gnu::always_inline]] FLOOR_AVX512 inline __m512i last_three(__m512i digits, std::uint64_t& m) {
  const std::uint64_t ones = m & ~(m >> 1);
  const std::uint64_t tens = (ones >> 1) & m, hundreds = (tens >> 1) & m;
  __m512i w = _mm512_maskz_mov_epi8(ones, _mm512_set1_epi8(1));
  w = _mm512_mask_mov_epi8(w, tens, _mm512_set1_epi8(10));
  w = _mm512_mask_mov_epi8(w, hundreds, _mm512_set1_epi8(100));
  m &= ~(ones | tens | hundreds);
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

// Whether this CPU has what read_cost_window needs (x86-64 with AVX-512BW).
bool cost_windows_supported() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  return yes;
}

// The lines of the 64 bytes at p (a line start; all 64 readable) up to the first that is not
// `+D L C`. False if the first is not one (or a run of more than 15 digits is among those that
// are: then the lines one by one read them); `w` is then unchanged.
FLOOR_AVX512 bool read_cost_window(const char* p, cost_window& w) {
  const __m512i v = _mm512_loadu_si512(p);
  const std::uint64_t nl = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
  if (!nl) return false;
  const std::uint64_t whole = ~0ull >> __builtin_clzll(nl);  // up to the last line end
  const std::uint64_t sp = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' '));
  const __m512i digits = _mm512_sub_epi8(v, _mm512_set1_epi8('0'));
  const std::uint64_t dg = _mm512_cmplt_epu8_mask(digits, _mm512_set1_epi8(10));
  const std::uint64_t plus = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('+'));
  const std::uint64_t star = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('*'));
  const std::uint64_t zero = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('0'));
  const std::uint64_t tok = ~(sp | nl) & whole;
  const std::uint64_t first1 = ((nl << 1) | 1) & whole;  // line starts
  const std::uint64_t r1 = (tok + (first1 & tok)) ^ tok, t1 = r1 & tok, after1 = r1 & ~tok;
  const std::uint64_t first2 = (after1 & sp) << 1;
  const std::uint64_t r2 = (tok + (first2 & tok)) ^ tok, t2 = r2 & tok, after2 = r2 & ~tok;
  const std::uint64_t first3 = (after2 & sp) << 1;
  const std::uint64_t r3 = (tok + (first3 & tok)) ^ tok, t3 = r3 & tok, after3 = r3 & ~tok;
  const std::uint64_t bad =
      (first1 & ~(plus & tok)) | (first1 & ~(t1 >> 1)) | (t1 & ~first1 & ~dg)  // +digits
      | (first2 & ~tok) | (t2 & ~first2) | (first2 & ~(zero | star))           // 0 or *
      | (first3 & ~tok) | (t3 & ~dg)                                           // digits
      | ((after1 | after2) & nl) | (after3 & ~nl);  // three tokens, then the line end
  std::uint64_t take = whole;
  if (bad) {
    // Up to the start of the line of the first bad byte.
    const std::uint64_t starts = first1 & (~0ull >> (63 - __builtin_ctzll(bad)));
    const auto cut = static_cast<unsigned>(63 - __builtin_clzll(starts));
    if (cut == 0) return false;
    take = (1ull << cut) - 1;
  }
  std::uint64_t costs, deltas;
  if (!digit_sums(digits, t3 & take, t1 & ~first1 & take, costs, deltas)) return false;
  const std::uint64_t ends = nl & take;
  w.deltas = deltas;
  w.costs = costs;
  w.lines = static_cast<std::uint32_t>(__builtin_popcountll(ends));
  w.bytes = 64 - static_cast<std::uint32_t>(__builtin_clzll(ends));
  w.line_zero = (first2 & zero & take) != 0;
  return true;
}

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
bool cost_windows_supported() { return false; }
bool read_cost_window(const char*, cost_window&) { return false; }
#endif

// Lines [p, end): `end` is just after a newline (or the file's end).
template <bool simd>
tally read_lines(const char* p, const char* end) {
  tally t;
  std::vector<std::uint64_t> ids(std::size_t{1} << 20);  // (id) -> a name's hash
  std::uint64_t instr = 0, line = 0;
  auto skip_line = [&](const char* q) {
    const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
    return nl ? static_cast<const char*>(nl) + 1 : end;
  };
  while (p < end) {
    if constexpr (simd) {
      if (*p == '+' && end - p >= 64) {
        // Windows of `+D L C` lines while they come (an instr that would go past 2^64-1 is
        // left to the lines one by one, which skip the line that does).
        const char* q = p;
        cost_window w;
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

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 1;
  const char* path = nullptr;
  bool usage = false, simd = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--threads=1" || a == "--threads=2")
      threads = static_cast<unsigned>(a.back() - '0');
    else if (a == "--simd")
      simd = true;
    else if (!path && !a.starts_with("--"))
      path = argv[i];
    else
      usage = true;
  }
  if (usage || !path) {
    std::fprintf(stderr, "usage: parse_floor [--threads=1|2] [--simd] FILE (a plain profile)\n");
    return 2;
  }
  if (simd && !cost_windows_supported()) {
    std::fprintf(stderr, "parse_floor: --simd needs x86-64 with AVX-512BW, which this CPU lacks\n");
    return 3;
  }
  const auto read = simd ? read_lines<true> : read_lines<false>;
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

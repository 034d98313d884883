// bench_scan.cc — the two innermost loops of any reader: finding line ends and parsing numbers.
//
// Each loop is measured in a few ways on the same real text, so the reader's choice can be
// checked against the alternatives and against the floor (counting newlines, what `wc -l` does).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "bench_data.h"

namespace {

using calltree::bench::bench_text;

// ---- line splitting -------------------------------------------------------------------------

void set_bytes(benchmark::State& state, std::size_t n) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// The floor: count '\n' without looking at lines.
void BM_lines_count(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) benchmark::DoNotOptimize(std::count(t.begin(), t.end(), '\n'));
  set_bytes(state, t.size());
}
BENCHMARK(BM_lines_count)->Unit(benchmark::kMillisecond);

// Byte by byte, building each line's view.
void BM_lines_bytewise(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    std::size_t sum = 0, start = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '\n') {
        std::string_view line(t.data() + start, i - start);
        sum += line.size();
        start = i + 1;
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_lines_bytewise)->Unit(benchmark::kMillisecond);

// memchr per line (glibc's SSE2/AVX2 memchr): what the reader does.
void BM_lines_memchr(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    std::size_t sum = 0;
    const char* p = t.data();
    const char* end = p + t.size();
    while (p < end) {
      const char* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (!nl) nl = end;
      std::string_view line(p, static_cast<std::size_t>(nl - p));
      sum += line.size();
      p = nl + 1;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_lines_memchr)->Unit(benchmark::kMillisecond);

// Lines are short (about 11 bytes in instr-level files): a short scan before memchr avoids the
// call overhead on most lines.
void BM_lines_short_then_memchr(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    std::size_t sum = 0;
    const char* p = t.data();
    const char* end = p + t.size();
    while (p < end) {
      const char* q = p;
      const char* lim = std::min(end, p + 16);
      while (q < lim && *q != '\n') ++q;
      if (q == lim && q < end) {
        q = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(end - q)));
        if (!q) q = end;
      }
      sum += static_cast<std::size_t>(q - p);
      p = q + 1;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_lines_short_then_memchr)->Unit(benchmark::kMillisecond);

// ---- number parsing -------------------------------------------------------------------------

// Every decimal token of the text's cost lines (the bulk of the numbers a reader parses).
const std::vector<std::string_view>& number_tokens() {
  static const std::vector<std::string_view> tokens = [] {
    std::vector<std::string_view> out;
    std::string_view t = bench_text();
    std::size_t i = 0;
    while (i < t.size()) {
      std::size_t nl = t.find('\n', i);
      if (nl == std::string_view::npos) nl = t.size();
      std::string_view line = t.substr(i, nl - i);
      i = nl + 1;
      if (line.empty()) continue;
      const bool digit = line[0] >= '0' && line[0] <= '9';
      if (!digit && line[0] != '+' && line[0] != '-' && line[0] != '*') continue;
      std::size_t k = 0;
      while (k < line.size()) {
        while (k < line.size() && line[k] == ' ') ++k;
        std::size_t s = k;
        while (k < line.size() && line[k] != ' ') ++k;
        std::string_view tok = line.substr(s, k - s);
        if (tok.empty()) continue;
        if (tok[0] == '+' || tok[0] == '-') tok.remove_prefix(1);
        if (!tok.empty() && tok.find_first_not_of("0123456789") == std::string_view::npos)
          out.push_back(tok);
      }
    }
    return out;
  }();
  return tokens;
}

void set_items(benchmark::State& state, std::size_t n) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// Digit by digit with overflow checks on every step (the straightforward way).
void BM_parse_checked_loop(benchmark::State& state) {
  const auto& toks = number_tokens();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (auto t : toks) {
      std::uint64_t v = 0;
      for (char c : t) {
        if (__builtin_mul_overflow(v, 10u, &v) ||
            __builtin_add_overflow(v, static_cast<unsigned>(c - '0'), &v))
          break;
      }
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_items(state, toks.size());
}
BENCHMARK(BM_parse_checked_loop)->Unit(benchmark::kMillisecond);

// std::from_chars (libstdc++).
void BM_parse_from_chars(benchmark::State& state) {
  const auto& toks = number_tokens();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (auto t : toks) {
      std::uint64_t v = 0;
      std::from_chars(t.data(), t.data() + t.size(), v);
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_items(state, toks.size());
}
BENCHMARK(BM_parse_from_chars)->Unit(benchmark::kMillisecond);

// Up to 19 digits cannot overflow: no checks in the loop, one length test per token.
void BM_parse_unchecked_short(benchmark::State& state) {
  const auto& toks = number_tokens();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (auto t : toks) {
      std::uint64_t v = 0;
      if (t.size() <= 19) {
        for (char c : t) v = v * 10 + static_cast<unsigned>(c - '0');
      } else {
        std::from_chars(t.data(), t.data() + t.size(), v);
      }
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_items(state, toks.size());
}
BENCHMARK(BM_parse_unchecked_short)->Unit(benchmark::kMillisecond);

// Tokenise and parse a cost line in one pass, stopping at the first non-digit (no separate
// token boundaries): the shape of a fused scanner.
void BM_parse_fused_scan(benchmark::State& state) {
  std::string_view t = bench_text();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    const char* p = t.data();
    const char* end = p + t.size();
    while (p < end) {
      const unsigned d = static_cast<unsigned char>(*p) - 48u;
      if (d < 10u) {
        std::uint64_t v = 0;
        while (p < end && static_cast<unsigned>(static_cast<unsigned char>(*p)) - 48u < 10u)
          v = v * 10 + (static_cast<unsigned>(static_cast<unsigned char>(*p++)) - 48u);
        sum += v;
      } else {
        ++p;
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_parse_fused_scan)->Unit(benchmark::kMillisecond);

}  // namespace

// bench_reader.cc — the reader and the builder on real text, from memory (no I/O).
//
//   BM_read_null_sink     the reader alone: lines, tokens, numbers, name tables, records
//   BM_read_checker_like  the reader with a sink that touches every record (as check does)
//   BM_read_and_build     reader + profile builder (what annotate and merge load)
//   BM_read_and_stream    reader + builder handing self rows on (export --to=json)
//   BM_build_only         the builder alone, fed records captured once
//   BM_read_xdebug        reader + builder on Xdebug's one-block-per-call shape
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_data.h"
#include "calltree/diagnostic.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/builder_access.h"

namespace {

using calltree::bench::bench_text;
using calltree::bench::view_input;

class null_diagnostics final : public calltree::diagnostic_sink {
 public:
  void report(calltree::diagnostic) override { ++count; }
  std::uint64_t count = 0;
};

class touching_sink final : public calltree::record_sink {
 public:
  void on_cost(const calltree::cost_record& r) override {
    sum += r.pos.instr + r.pos.line + r.ctx.function.index();
    for (auto c : r.costs) sum += c;
  }
  void on_call(const calltree::call_record& r) override {
    sum += r.count + r.callee_function.index();
  }
  void on_jump(const calltree::jump_record& r) override { sum += r.executed + r.followed; }
  std::uint64_t sum = 0;
};

void set_bytes(benchmark::State& state, std::size_t n) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void BM_read_null_sink(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    view_input in(t);
    calltree::string_pool names;
    calltree::record_sink sink;
    null_diagnostics diags;
    auto r = calltree::read_callgrind(in, names, sink, diags);
    benchmark::DoNotOptimize(r);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_read_null_sink)->Unit(benchmark::kMillisecond);

void BM_read_checker_like(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    view_input in(t);
    calltree::string_pool names;
    touching_sink sink;
    null_diagnostics diags;
    auto r = calltree::read_callgrind(in, names, sink, diags);
    benchmark::DoNotOptimize(sink.sum);
    benchmark::DoNotOptimize(r);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_read_checker_like)->Unit(benchmark::kMillisecond);

void read_and_build(benchmark::State& state, const std::string& t) {
  for (auto _ : state) {
    view_input in(t);
    calltree::profile p;
    null_diagnostics diags;
    calltree::profile_builder b(p, &diags, "bench");
    auto r = calltree::read_callgrind(in, p.strings, b, diags);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(p.self_rows.size());
  }
  set_bytes(state, t.size());
}

void BM_read_and_build(benchmark::State& state) { read_and_build(state, bench_text()); }
BENCHMARK(BM_read_and_build)->Unit(benchmark::kMillisecond);

// The self rows handed on run by run (builder_access::stream_self_rows), kept nowhere: what
// export --to=json's reading thread does but for the window.
struct counting_stream final : calltree::self_row_stream {
  void take(const calltree::profile&, std::span<const calltree::self_row> rows,
            const calltree::cost_matrix&) override {
    count += rows.size();
  }
  std::uint64_t count = 0;
};

void BM_read_and_stream(benchmark::State& state) {
  const std::string& t = bench_text();
  for (auto _ : state) {
    view_input in(t);
    calltree::profile p;
    null_diagnostics diags;
    counting_stream rows;
    calltree::builder_options o;
    calltree::profile_builder b(p, &diags, "bench", o);
    calltree::builder_access::stream_self_rows(b, &rows);
    calltree::builder_access::expect_input_bytes(b, t.size());
    calltree::builder_access::streaming_sink sink(b);
    auto r = calltree::read_callgrind(in, p.strings, sink, diags);
    calltree::builder_access::finish_stream(b);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(rows.count);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_read_and_stream)->Unit(benchmark::kMillisecond);

// Records captured once, with their costs in one flat vector, replayed into fresh builders.
struct captured final : calltree::record_sink {
  enum kind : std::uint8_t { k_begin, k_cost, k_call, k_jump, k_end };
  std::vector<std::pair<kind, std::size_t>> order;
  std::vector<calltree::part_header> headers;
  std::vector<calltree::part_end> ends;
  std::vector<calltree::cost_record> costs;
  std::vector<calltree::call_record> calls;
  std::vector<calltree::jump_record> jumps;
  std::vector<std::uint64_t> values;
  std::vector<std::pair<std::size_t, std::size_t>> cost_spans, call_spans;  // offset, size

  std::pair<std::size_t, std::size_t> keep(std::span<const std::uint64_t> v) {
    std::pair<std::size_t, std::size_t> s{values.size(), v.size()};
    values.insert(values.end(), v.begin(), v.end());
    return s;
  }
  void on_part_begin(const calltree::part_header& h) override {
    order.emplace_back(k_begin, headers.size());
    headers.push_back(h);
  }
  void on_cost(const calltree::cost_record& r) override {
    order.emplace_back(k_cost, costs.size());
    costs.push_back(r);
    cost_spans.push_back(keep(r.costs));
  }
  void on_call(const calltree::call_record& r) override {
    order.emplace_back(k_call, calls.size());
    calls.push_back(r);
    call_spans.push_back(keep(r.costs));
  }
  void on_jump(const calltree::jump_record& r) override {
    order.emplace_back(k_jump, jumps.size());
    jumps.push_back(r);
  }
  void on_part_end(const calltree::part_end& e) override {
    order.emplace_back(k_end, ends.size());
    ends.push_back(e);
  }
  // Points the cost spans into `values` (which no longer moves).
  void fix() {
    for (std::size_t i = 0; i < costs.size(); ++i)
      costs[i].costs = {values.data() + cost_spans[i].first, cost_spans[i].second};
    for (std::size_t i = 0; i < calls.size(); ++i)
      calls[i].costs = {values.data() + call_spans[i].first, call_spans[i].second};
  }
  void replay(calltree::record_sink& s) const {
    for (auto [k, i] : order) {
      switch (k) {
        case k_begin:
          s.on_part_begin(headers[i]);
          break;
        case k_cost:
          s.on_cost(costs[i]);
          break;
        case k_call:
          s.on_call(calls[i]);
          break;
        case k_jump:
          s.on_jump(jumps[i]);
          break;
        case k_end:
          s.on_part_end(ends[i]);
          break;
      }
    }
  }
};

void BM_build_only(benchmark::State& state) {
  const std::string& t = bench_text();
  // The builder interns nothing itself: the names are already in the captured pool, so each
  // fresh profile gets a copy of the pool's strings in the same order (same ids).
  calltree::string_pool names;
  captured cap;
  {
    view_input in(t);
    null_diagnostics diags;
    auto r = calltree::read_callgrind(in, names, cap, diags);
    benchmark::DoNotOptimize(r);
  }
  cap.fix();
  for (auto _ : state) {
    state.PauseTiming();
    calltree::profile p;
    for (std::size_t i = 1; i < names.size(); ++i)
      p.strings.intern(names.view(calltree::string_id{i}));
    state.ResumeTiming();
    null_diagnostics diags;
    calltree::profile_builder b(p, &diags, "bench");
    cap.replay(b);
    benchmark::DoNotOptimize(p.self_rows.size());
  }
  state.counters["records"] = static_cast<double>(cap.order.size());
  set_bytes(state, t.size());
}
BENCHMARK(BM_build_only)->Unit(benchmark::kMillisecond);

const std::string& xdebug_text() {
  static const std::string text = [] {
    std::string out;
    auto in = calltree::open_input(CALLTREE_CORPUS_DIR "/xdebug-includes.callgrind");
    if (!in) return out;
    for (;;) {
      auto b = (*in)->next();
      if (!b || b->empty()) break;
      out.append(b->data(), b->size());
    }
    return out;
  }();
  return text;
}

void BM_read_xdebug(benchmark::State& state) { read_and_build(state, xdebug_text()); }
BENCHMARK(BM_read_xdebug)->Unit(benchmark::kMillisecond);

}  // namespace

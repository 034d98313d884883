// bench_call_paths.cc — the flame-graph estimate (analysis/call_paths.h) on a real call graph.
//
//   BM_paths_prepare        path_estimator: calls summed per pair, cycles found (once per graph)
//   BM_paths_display/S      a display's tree at share 10^-S (exact_self off), from the roots
//   BM_paths_exact/S        an export's tree at share 10^-S, every self cost placed exactly
//   BM_paths_sandwich       the callers and the callees of the heaviest function, 10^-4
// The graph is the model's functions of CALLTREE_BENCH_FILE (the caller contexts of a
// --separate-callers file are functions of their own). Counters: frames, pruned calls.
#include <benchmark/benchmark.h>

#include <cmath>

#include "bench_data.h"
#include "calltree/analysis/call_paths.h"
#include "calltree/diagnostic.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"

namespace {

using namespace calltree;

const call_graph& bench_graph() {
  static const call_graph g = [] {
    profile p;
    diagnostic_collector diags;
    bench::view_input in(bench::bench_text());
    builder_options o;
    o.keep_positions = 0;
    profile_builder b(p, &diags, "bench", o);
    (void)read_callgrind(in, p.strings, b, diags);
    call_graph graph(p.functions.size(), p.events.size());
    for (std::size_t r = 0; r < p.self_rows.size(); ++r)
      add_saturating(graph.self.row(p.self_rows[r].function.index()), p.self_costs.row(r));
    for (std::size_t c = 0; c < p.calls.size(); ++c)
      graph.add_call(p.calls[c].caller.index(), p.calls[c].callee.index(), p.calls[c].count,
                     p.call_costs.row(c));
    return graph;
  }();
  return g;
}

const path_estimator& bench_estimator() {
  static const path_estimator e(bench_graph());
  return e;
}

void report(benchmark::State& state, const path_tree& t) {
  state.counters["frames"] = static_cast<double>(t.frames());
  state.counters["pruned"] = static_cast<double>(t.pruned);
}

void BM_paths_prepare(benchmark::State& state) {
  const auto& g = bench_graph();
  for (auto _ : state) benchmark::DoNotOptimize(path_estimator(g));
  state.counters["nodes"] = static_cast<double>(g.nodes);
  state.counters["calls"] = static_cast<double>(g.calls());
}
BENCHMARK(BM_paths_prepare)->Unit(benchmark::kMillisecond);

void tree_at(benchmark::State& state, bool exact) {
  path_options o;
  o.min_share = std::pow(10.0, -static_cast<double>(state.range(0)));
  o.exact_self = exact;
  path_tree t;
  for (auto _ : state) t = bench_estimator().estimate(o);
  report(state, t);
}
void BM_paths_display(benchmark::State& state) { tree_at(state, false); }
void BM_paths_exact(benchmark::State& state) { tree_at(state, true); }
BENCHMARK(BM_paths_display)->DenseRange(3, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_paths_exact)->DenseRange(4, 6)->Unit(benchmark::kMillisecond);

void BM_paths_sandwich(benchmark::State& state) {
  const auto& g = bench_graph();
  std::uint32_t heaviest = 0;
  for (std::uint32_t n = 0; n < g.nodes; ++n)
    if (g.self.row(n)[0] > g.self.row(heaviest)[0]) heaviest = n;
  path_options o;
  o.root = heaviest;
  o.min_share = 1e-4;
  o.exact_self = false;
  path_tree up, down;
  for (auto _ : state) {
    o.direction = path_direction::callers;
    up = bench_estimator().estimate(o);
    o.direction = path_direction::callees;
    down = bench_estimator().estimate(o);
  }
  state.counters["frames"] = static_cast<double>(up.frames() + down.frames());
}
BENCHMARK(BM_paths_sandwich)->Unit(benchmark::kMillisecond);

}  // namespace

// bench_asm.cc — what `annotate --asm` costs before objdump: the instruction rows it reads.
//
//   BM_asm_whole_model    the whole profile built with instruction positions and jumps (what
//                         an assembly view of any function would need without a filter)
//   BM_asm_read_functions read_functions: only the records of the functions a regex names
//                         (CALLTREE_BENCH_ASM_REGEX, POSIX extended; default
//                         "^llvm::SelectionDAG::Combine\(", the real profile's hottest
//                         function), as `annotate --asm=REGEX` reads the profile again
// Counters: rows kept, and the builder's memory (bytes of rows and costs).
#include <benchmark/benchmark.h>
#include <regex.h>

#include <cstdlib>
#include <string>

#include "bench_data.h"
#include "calltree/asm.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"

namespace {

using calltree::bench::bench_text;
using calltree::bench::view_input;

class null_diagnostics final : public calltree::diagnostic_sink {
 public:
  void report(calltree::diagnostic) override {}
};

std::string regex_text() {
  const char* e = std::getenv("CALLTREE_BENCH_ASM_REGEX");
  return e ? e : "^llvm::SelectionDAG::Combine\\(";
}

double row_bytes(const calltree::profile& p) {
  return static_cast<double>(
      p.self_rows.size() * sizeof(calltree::self_row) +
      p.calls.size() * sizeof(calltree::call_row) + p.jumps.size() * sizeof(calltree::jump_row) +
      (p.self_costs.rows() + p.call_costs.rows()) * p.self_costs.columns() * sizeof(std::uint64_t));
}

void BM_asm_whole_model(benchmark::State& state) {
  const std::string& t = bench_text();
  double rows = 0, bytes = 0;
  for (auto _ : state) {
    view_input in(t);
    calltree::profile p;
    null_diagnostics diags;
    calltree::profile_builder b(p, &diags, "bench");
    auto r = calltree::read_callgrind(in, p.strings, b, diags);
    benchmark::DoNotOptimize(r);
    rows = static_cast<double>(p.self_rows.size() + p.calls.size() + p.jumps.size());
    bytes = row_bytes(p);
  }
  state.counters["rows"] = rows;
  state.counters["row_bytes"] = bytes;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
}
BENCHMARK(BM_asm_whole_model)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_asm_read_functions(benchmark::State& state) {
  const std::string& t = bench_text();
  regex_t re;
  if (regcomp(&re, regex_text().c_str(), REG_EXTENDED | REG_NOSUB) != 0) {
    state.SkipWithError("bad CALLTREE_BENCH_ASM_REGEX");
    return;
  }
  double rows = 0, bytes = 0;
  for (auto _ : state) {
    view_input in(t);
    calltree::profile p;
    null_diagnostics diags;
    auto r = calltree::read_functions(
        in, p,
        [&](std::string_view n) {
          return regexec(&re, std::string(n).c_str(), 0, nullptr, 0) == 0;
        },
        diags);
    benchmark::DoNotOptimize(r);
    rows = static_cast<double>(p.self_rows.size() + p.calls.size() + p.jumps.size());
    bytes = row_bytes(p);
  }
  regfree(&re);
  state.counters["rows"] = rows;
  state.counters["row_bytes"] = bytes;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t.size()));
}
BENCHMARK(BM_asm_read_functions)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

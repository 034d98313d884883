// top_functions.cc — the 10 functions of a profile with the largest inclusive cost.
//
// Reads a Callgrind-format file (plain or compressed) into a profile, computes inclusive costs
// (recursion and cycles counted once) and prints the first event's top 10:
//
//   top_functions callgrind.out.1234
//
// docs/library.md walks through it.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "calltree/profile_builder.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: top_functions PROFILE\n");
    return 2;
  }
  calltree::profile p;
  calltree::diagnostic_collector diags;
  auto stats = calltree::load_profile(argv[1], p, diags);
  if (!stats) {  // the file could not be opened or read at all
    std::fprintf(stderr, "%s\n", stats.error().message.c_str());
    return 2;
  }
  for (const auto& d : diags.kept())  // problems are diagnostics; reading goes on after them
    if (d.severity == calltree::severity::error)
      std::fputs(calltree::format_diagnostic(d, false).c_str(), stderr);
  if (p.events.empty()) return 1;

  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  std::vector<calltree::function_id> order(p.functions.size());
  std::iota(order.begin(), order.end(), 0);
  auto cost = [&](calltree::function_id f) { return inc.inclusive.row(f)[0]; };
  std::sort(order.begin(), order.end(),
            [&](auto a, auto b) { return cost(a) != cost(b) ? cost(a) > cost(b) : a < b; });
  if (order.size() > 10) order.resize(10);

  const std::uint64_t total = p.total()[0];
  std::printf("%20s %7s  %s (inclusive %s)\n", p.events[0].name.c_str(), "%", "function",
              p.events[0].name.c_str());
  for (calltree::function_id f : order) {
    const double pct =
        total ? 100.0 * static_cast<double>(cost(f)) / static_cast<double>(total) : 0;
    std::printf("%20llu %6.2f%%  %.*s\n", static_cast<unsigned long long>(cost(f)), pct,
                static_cast<int>(p.function_name(f).size()), p.function_name(f).data());
  }
  return diags.errors() || !stats->complete() ? 1 : 0;
}

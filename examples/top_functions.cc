// top_functions.cc — the 10 functions of a profile with the largest inclusive cost.
//
// Reads a Callgrind-format file (plain or compressed) into a profile, computes inclusive costs
// (recursion and cycles counted once) and prints the first event's top 10:
//
//   top_functions callgrind.out.1234
//
// Exit status 0, or 1 if the file has errors or was not read whole, 2 if it holds no profile.
// library.md (share/doc/calltree/) walks through it.
#include <cstdio>
#include <string>

#include "calltree/analysis/callers.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/profile_builder.h"
#include "calltree/totals.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: top_functions PROFILE\n");
    return 2;
  }
  calltree::profile p;
  calltree::diagnostic_collector diags;
  auto stats = calltree::load_profile(argv[1], p, diags);
  if (!stats) {  // no such file, not readable, or no profile in it (the message names the file)
    std::fprintf(stderr, "%s\n", stats.error().message.c_str());
    return 2;
  }
  for (const auto& d : diags.kept())  // problems are diagnostics; reading goes on after them
    if (d.severity == calltree::severity::error)
      std::fputs(calltree::format_diagnostic(d, false).c_str(), stderr);

  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  const calltree::event_id first{0};  // ids are typed: function_id{i}, event_id{i}, ...
  const auto top = calltree::top_functions(inc, first, calltree::cost_kind::inclusive, 10);
  // Percentages are of the program total (calltree/totals.h): what the file states as its
  // total (summary:, totals:), else the sum of its self costs, as annotate and serve take it.
  const calltree::summed_totals totals = calltree::totals_of(p, first);
  const std::uint64_t total = totals.program;
  if (totals.differ())
    std::fprintf(stderr, "%s: %s\n", "top_functions",
                 calltree::total_difference(totals, p.events[first].name).c_str());
  std::printf("%20s %7s  %s (inclusive %s)\n", p.events[first].name.c_str(), "%", "function",
              p.events[first].name.c_str());
  std::string scratch;
  for (calltree::function_id f : top) {
    const std::uint64_t cost = inc.inclusive_of(f)[first.index()];
    const double pct = total ? 100.0 * static_cast<double>(cost) / static_cast<double>(total) : 0;
    const std::string_view name = p.strings.text(p.functions[f].name, scratch);
    std::printf("%20llu %6.2f%%  %.*s\n", static_cast<unsigned long long>(cost), pct,
                static_cast<int>(name.size()), name.data());
  }
  return diags.errors() || !stats->complete() ? 1 : 0;
}

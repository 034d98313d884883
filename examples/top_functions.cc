// top_functions.cc — the 10 functions of a profile with the largest inclusive cost.
//
// Reads a Callgrind-format file (plain or compressed) into a profile, computes inclusive costs
// (recursion and cycles counted once) and prints the first event's top 10:
//
//   top_functions callgrind.out.1234
//
// On a profile of differences (cg_diff's output) the costs are signed and the largest changes
// come first, as `calltree annotate` lists them.
//
// Exit status 0, or 1 if the file has errors or was not read whole, 2 if it holds no profile.
// library.md (share/doc/calltree/) walks through it.
#include <cstdint>
#include <cstdio>
#include <string>

#include <calltree/calltree.h>

namespace {

// A cost as text: in a profile of differences (p.signed_costs: cg_diff's output, `calltree diff
// -o`) a cost is a signed number held in the uint64_t, printed with its sign (-129).
std::string cost_text(const calltree::profile& p, std::uint64_t v) {
  return p.signed_costs ? std::to_string(calltree::as_signed(v)) : std::to_string(v);
}

// A share of the total, in percent: of a signed total in a profile of differences (as
// `calltree annotate` and cg_annotate give it: the sign of the change times the total's).
double percent(const calltree::profile& p, std::uint64_t v, std::uint64_t total) {
  if (total == 0) return 0;
  if (p.signed_costs)
    return 100.0 * static_cast<double>(calltree::as_signed(v)) /
           static_cast<double>(calltree::as_signed(total));
  return 100.0 * static_cast<double>(v) / static_cast<double>(total);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: top_functions PROFILE\n");
    return 2;
  }
  auto loaded = calltree::load(argv[1]);
  if (!loaded) {  // no such file, not readable, or no profile in it (the message names the file)
    std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;
  for (const auto& d : loaded->diagnostics.kept())  // problems are diagnostics; reading goes on after them
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
  for (calltree::function_id f : top) {
    const std::uint64_t cost = inc.inclusive_of(f)[first.index()];
    const std::string_view name = p.function_name(f);
    std::printf("%20s %6.2f%%  %.*s\n", cost_text(p, cost).c_str(), percent(p, cost, total),
                static_cast<int>(name.size()), name.data());
  }
  return loaded->ok() ? 0 : 1;
}

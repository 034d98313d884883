// callers.cc — a profile's 10 functions of highest inclusive cost, and who calls the first of
// them and what it calls; failing clearly on a file that is no profile or is not whole.
//
//   callers callgrind.out.1234
//
// Exit status: 0 the profile was read whole and without errors; 1 it was read, but with errors
// or not to its end (cut short, or reading stopped): what is printed is of the part read;
// 2 there is no profile to show (no such file, not readable, binary, empty, no `events:`).
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

std::string name_of(const calltree::profile& p, calltree::function_id f) {
  return std::string(p.function_name(f));
}

void print_calls(const calltree::profile& p, const char* title,
                 const std::vector<calltree::call_summary>& calls) {
  std::printf("%s:%s\n", title, calls.empty() ? " none" : "");
  for (const calltree::call_summary& c : calls)
    std::printf("%20s %12llu  %s%s\n", cost_text(p, c.inclusive[0]).c_str(),
                static_cast<unsigned long long>(c.count), name_of(p, c.function).c_str(),
                c.recursive ? " (recursive)" : "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: callers PROFILE\n");
    return 2;
  }
  auto loaded = calltree::load(argv[1]);
  if (!loaded) {  // no profile to show; the message names the file
    std::fprintf(stderr, "callers: error: %s [%s]\n", loaded.error().message.c_str(),
                 std::string(calltree::to_string(loaded.error().code)).c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;
  const calltree::diagnostic_collector& diags = loaded->diagnostics;
  for (const calltree::diagnostic& d : diags.kept())  // what is wrong in the file
    if (d.severity == calltree::severity::error)
      std::fputs(calltree::format_diagnostic(d, false).c_str(), stderr);
  const int status = loaded->ok() ? 0 : 1;
  if (diags.errors())
    std::fprintf(stderr, "callers: %s: %llu errors in the file\n", argv[1],
                 static_cast<unsigned long long>(diags.errors()));
  if (!loaded->stats.complete())
    std::fprintf(stderr, "callers: %s: %s: the costs below are of the part that was read\n",
                 argv[1],
                 loaded->stats.state == calltree::read_state::likely_truncated
                     ? "the file was likely cut short (truncated)"
                     : "reading stopped before the end");

  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  const calltree::event_id first{0};
  const std::string& event = p.events[first].name;
  // Percentages are of the program total (calltree/totals.h): what the file states as its
  // total (summary:, totals:), else the sum of its self costs, as annotate and serve take it.
  const calltree::summed_totals totals = calltree::totals_of(p, first);
  const std::uint64_t total = totals.program;
  if (totals.differ())
    std::fprintf(stderr, "%s: %s\n", "callers",
                 calltree::total_difference(totals, p.events[first].name).c_str());
  const auto top = calltree::top_functions(inc, first, calltree::cost_kind::inclusive, 10);
  std::printf("%s total %s; the %zu functions of highest inclusive %s:\n", event.c_str(),
              cost_text(p, total).c_str(), top.size(), event.c_str());
  for (calltree::function_id f : top) {
    const std::uint64_t cost = inc.inclusive_of(f)[first.index()];
    // (In a profile of differences, of the signed total, as annotate gives it.)
    const double pct = total == 0       ? 0
                       : p.signed_costs ? 100.0 * static_cast<double>(calltree::as_signed(cost)) /
                                              static_cast<double>(calltree::as_signed(total))
                                        : 100.0 * static_cast<double>(cost) / static_cast<double>(total);
    std::printf("%20s %6.2f%%  %s\n", cost_text(p, cost).c_str(), pct,
                name_of(p, f).c_str());
  }
  if (top.empty()) return status;

  const calltree::function_calls calls = calltree::calls_of(p, inc, top[0]);
  std::printf("\n%20s %12s  (calls of %s)\n", ("inclusive " + event).c_str(), "count",
              name_of(p, top[0]).c_str());
  print_calls(p, "callers", calls.callers);
  print_calls(p, "callees", calls.callees);
  return status;
}

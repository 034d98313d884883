// totals.cc — profile_totals (totals.h), as `calltree annotate` takes a part's total.
#include "totals.h"

#include <optional>

#include "calltree/cost_matrix.h"

namespace calltree::python {
namespace {

// A stated line that cannot be right is not taken: a value of 2^63 or more (a negative count
// wrapped to unsigned: callgrind's client-request bug), a 0 where the part has cost (a short
// summary: line, as cacheuse writes), a line of zeros.
bool plausible(const std::optional<std::vector<std::uint64_t>>& line, const part& pt) {
  if (!line) return false;
  bool nonzero = false;
  for (std::size_t e = 0; e < line->size(); ++e) {
    const std::uint64_t v = (*line)[e];
    if (v >= (std::uint64_t{1} << 63)) return false;
    if (v == 0 && e < pt.totals.size() && pt.totals[e] != 0) return false;
    nonzero = nonzero || v != 0;
  }
  return nonzero;
}

// Some value of `line` below the part's self costs.
bool below_self(const std::vector<std::uint64_t>& line, const part& pt) {
  for (std::size_t e = 0; e < line.size() && e < pt.totals.size(); ++e)
    if (line[e] < pt.totals[e]) return true;
  return false;
}

}  // namespace

std::vector<std::uint64_t> profile_totals(const profile& p) {
  std::vector<std::uint64_t> out(p.events.size(), 0);
  for (const part& pt : p.parts) {
    // The summary:, unless it is below the self costs where a totals: line is there (callgrind
    // dumps whose summary: misses the last dump's costs); else the totals: line; else the sum.
    const std::vector<std::uint64_t>* use = &pt.totals;
    if (plausible(pt.summary, pt) && !(plausible(pt.totals_line, pt) && below_self(*pt.summary, pt)))
      use = &*pt.summary;
    else if (plausible(pt.totals_line, pt))
      use = &*pt.totals_line;
    for (std::size_t e = 0; e < out.size() && e < use->size(); ++e) add_saturating(out[e], (*use)[e]);
  }
  return out;
}

}  // namespace calltree::python

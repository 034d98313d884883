// totals.cc — profile_totals (totals.h): the library's program totals (calltree/totals.h), the
// figure `calltree annotate`, `check --json`'s program_totals and serve's Total are of.
#include "totals.h"

#include "calltree/totals.h"

namespace calltree::python {

std::vector<std::uint64_t> profile_totals(const profile& p) {
  std::vector<std::uint64_t> out;
  out.reserve(p.events.size());
  for (std::size_t e = 0; e < p.events.size(); ++e) out.push_back(program_total(p, event_id{e}));
  return out;
}

}  // namespace calltree::python

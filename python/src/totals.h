// totals.h — the figure a profile's percentages are of, one per event: Profile.totals, the
// library's program total (calltree/totals.h): the file's stated summary:/totals:, else the sum
// of its self costs; the same figure as annotate's PROGRAM TOTALS and check --json's
// program_totals.
#pragma once

#include <cstdint>
#include <vector>

#include "calltree/profile.h"

namespace calltree::python {

// One total per event, in p.events order.
std::vector<std::uint64_t> profile_totals(const profile& p);

}  // namespace calltree::python

// totals.h — the figure a profile's percentages are of, one per event: Profile.totals.
//
// The stated-total rule (callgrind_annotate's, as `calltree annotate` applies it to PROGRAM
// TOTALS): a part's total is what the file states for it, its `summary:` line, else its
// `totals:` line, and the sum of its self costs only where it states neither (or states what
// cannot be right: totals.cc says which); the profile's total is the sum over its parts
// (saturating). A file may state more than its functions' costs add up to (Xdebug's does): the
// stated figure counts. The one place the bindings decide this, so the library's own call for
// it replaces this function.
#pragma once

#include <cstdint>
#include <vector>

#include "calltree/profile.h"

namespace calltree::python {

// One total per event, in p.events order.
std::vector<std::uint64_t> profile_totals(const profile& p);

}  // namespace calltree::python

// views/coverage.h — (internal) KCachegrind's All Callers and All Callees of a session's function.
//
// What it is: analysis/coverage.h on a session's keys: the tree of call paths from one function
// (or cycle) towards its callers or its callees, as views/flame.h estimates it for the sandwich
// and the caller and callee maps (sibling frames not merged), folded into one entry per key:
// the part of the selected function's cost on the paths through it, and its distance. What it
// is not: a second estimate, nor the list's window or order of display (server/).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "calltree/analysis/coverage.h"
#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"
#include "views/scope.h"

namespace calltree::views {

class session;

struct coverage_query : scope {  // (without detect_cycles, no cycle to select)
  std::string weight_event;      // empty: the first column
  path_direction direction = path_direction::callees;
  double min_share = 1e-4;  // of the selected function's cost (KCachegrind's 0.01 %)
  std::size_t max_frames = std::size_t{1} << 18;
};

struct coverage_view {
  column_set columns;
  std::shared_ptr<const part_costs> costs;
  std::size_t weight_column = 0;
  coverage_list list;  // nodes are keys
};

// An error for an id that is no function or cycle of the selected parts, or an unknown event.
result<coverage_view> coverage(const session& s, std::uint64_t id, const coverage_query& q);

}  // namespace calltree::views

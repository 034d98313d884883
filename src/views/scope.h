// views/scope.h — what a view is of, the selection every view query shares: the parts (threads
// of a --separate-threads run, dumps) summed, whether cycles are formed, the event columns and
// the query's own derived events.
//
// What it is: the base of the views' queries (list_query, detail_query, graph_query,
// flame_query, coverage_query), which the serve API's and the tui's pages fill once
// (server/api_common.cc: parse_common). What it is not: a view's own choices (an order, a
// depth, a share), which its query adds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace calltree::views {

struct scope {
  std::vector<std::uint32_t> parts;  // 0-based, sorted; empty: all
  bool detect_cycles = true;         // false: no cycles formed (part_costs.h)
  std::vector<std::string> events;   // columns shown; empty: every known event
  std::vector<std::string> derived;  // "NAME=FORMULA", the query's own derived events
};

}  // namespace calltree::views

// views/call_graph.h — (internal) the call graph around one function: KCachegrind's call graph.
//
// What it is: the functions that call the selected one (up to `up` levels) and that it calls
// (down to `down` levels), through calls whose inclusive cost is at least `min_share` of the
// program total of the weight event, to functions whose inclusive cost is at least
// `node_min_share` of it (KCachegrind's node and call thresholds), at most `max_nodes` of them (the
// heaviest calls first), with every call among them above the threshold; cycles marked. The browser
// lays it out (Graphviz's dot compiled to WebAssembly). For a cycle, its members are the centre.
// What it is not: a layout or DOT text.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"
#include "views/scope.h"
#include "views/stack_filter.h"

namespace calltree::views {

class session;

struct graph_query : scope {
  std::string weight_event;  // empty: the first column
  std::uint32_t up = 2, down = 2;
  double min_share = 0.005;
  // A function other than the centre is drawn when its inclusive cost (of the weight event) is
  // at least this share of the program total: the share the function list shows.
  double node_min_share = 0;
  std::size_t max_nodes = 150;
  // pprof's filters: the graph is then that of the filtered stacks (the program's flame graph
  // filtered, views/flame.h), as pprof draws one: a function's self and inclusive costs, and a
  // call's cost, are summed over the stacks kept; a call's count is the file's (0 for a call
  // that hide= or show= made, from a caller to a callee of a hidden function).
  stack_filter filter;
};

struct graph_node {
  std::uint32_t id = 0;  // a key
  int depth = 0;         // < 0: callers' side, > 0: callees' side, 0: the centre
  std::vector<std::uint64_t> self, inclusive;
};

struct graph_edge {
  std::uint32_t from = 0, to = 0;  // keys
  std::uint64_t count = 0;
  std::vector<std::uint64_t> cost;
};

struct graph_view {
  column_set columns;
  std::shared_ptr<const part_costs> costs;
  std::size_t weight_column = 0;
  std::vector<graph_node> nodes;  // the centre first
  std::vector<graph_edge> edges;
  bool truncated = false;                  // max_nodes stopped the walk
  std::uint64_t threshold = 0;             // the smallest cost of a call shown (weight event)
  std::uint64_t node_threshold = 0;        // the smallest inclusive cost of a function shown
  std::optional<filter_summary> filtered;  // with a filter: what it left out
};

// An error for an id that is no function or cycle, or an unknown event.
result<graph_view> call_graph_around(const session& s, std::uint64_t id, const graph_query& q);

// call_graph_around with q.filter (views/call_graph_filtered.cc): an error for a cycle's id.
result<graph_view> filtered_call_graph_around(const session& s, std::uint64_t id,
                                              const graph_query& q);

}  // namespace calltree::views

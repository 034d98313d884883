// views/call_graph.cc — the call graph around one function (see call_graph.h).
#include "views/call_graph.h"

#include <algorithm>
#include <unordered_map>

#include "views/session.h"

namespace calltree::views {

result<graph_view> call_graph_around(const session& s, std::uint64_t id, const graph_query& q) {
  if (id >= s.ids())
    return error{"no function or cycle has id " + std::to_string(id) + " (there are " +
                 std::to_string(s.ids()) + ")"};
  if (q.filter.any()) return filtered_call_graph_around(s, id, q);
  graph_view out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  auto weight_col = out.columns.weight_column(q.weight_event);
  if (!weight_col) return weight_col.error();
  out.weight_column = *weight_col;
  out.costs = s.costs_of(q.parts, q.detect_cycles);
  const part_costs& pc = *out.costs;
  const views::annotate_data& t = s.t;
  const std::size_t nk = s.keys();
  const std::size_t ncol = out.columns.size();
  const auto& columns = out.columns.columns;
  auto weight = [&](const std::uint64_t* row) -> std::uint64_t {
    return ncol ? columns[out.weight_column].value(row) : 0;
  };
  const std::uint64_t total = weight(pc.totals());
  out.threshold = static_cast<std::uint64_t>(static_cast<double>(total) * q.min_share);
  auto shown = [&](std::uint32_t ci) {
    return pc.call_present(ci) && weight(pc.call(ci)) >= out.threshold;
  };
  out.node_threshold = static_cast<std::uint64_t>(static_cast<double>(total) * q.node_min_share);
  auto heavy = [&](std::uint32_t k) {
    return q.node_min_share <= 0 || weight(pc.inclusive(k)) >= out.node_threshold;
  };

  std::unordered_map<std::uint32_t, std::size_t> index;  // key -> nodes
  auto add_node = [&](std::uint32_t k, int depth) {
    if (index.count(k)) return;
    index.emplace(k, out.nodes.size());
    graph_node n;
    n.id = k;
    n.depth = depth;
    out.nodes.push_back(std::move(n));
  };
  if (id < nk) {
    add_node(static_cast<std::uint32_t>(id), 0);
  } else if (id - nk < pc.cycles()) {
    for (std::uint32_t m : pc.members(id - nk)) add_node(m, 0);
  }
  // The walk, one level at a time on each side, the heaviest calls first.
  for (int side = 0; side < 2; ++side) {
    std::vector<std::uint32_t> frontier;
    for (const graph_node& n : out.nodes)
      if (n.depth == 0) frontier.push_back(n.id);
    const std::uint32_t levels = side == 0 ? q.up : q.down;
    for (std::uint32_t level = 1; level <= levels && !frontier.empty(); ++level) {
      std::vector<std::pair<std::uint64_t, std::uint32_t>> next;  // (cost, key)
      for (std::uint32_t k : frontier) {
        const auto& list = side == 0 ? t.callers_of[k] : t.callees_of[k];
        for (std::uint32_t ci : list) {
          if (!shown(ci)) continue;
          const std::uint32_t other = side == 0 ? t.calls[ci].caller : t.calls[ci].callee;
          if (!index.count(other) && heavy(other)) next.emplace_back(weight(pc.call(ci)), other);
        }
      }
      std::sort(next.begin(), next.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      frontier.clear();
      for (const auto& [w, k] : next) {
        if (index.count(k)) continue;
        if (out.nodes.size() >= q.max_nodes) {
          out.truncated = true;
          break;
        }
        add_node(k, side == 0 ? -static_cast<int>(level) : static_cast<int>(level));
        frontier.push_back(k);
      }
    }
  }
  for (graph_node& n : out.nodes) {
    n.self.resize(ncol);
    n.inclusive.resize(ncol);
    for (std::size_t c = 0; c < ncol; ++c) {
      n.self[c] = columns[c].value(pc.self(n.id));
      n.inclusive[c] = columns[c].value(pc.inclusive(n.id));
    }
  }
  // Every shown call between two nodes.
  for (const graph_node& n : out.nodes)
    for (std::uint32_t ci : t.callees_of[n.id]) {
      if (!shown(ci) || !index.count(t.calls[ci].callee)) continue;
      graph_edge e;
      e.from = n.id;
      e.to = t.calls[ci].callee;
      e.count = pc.count(ci);
      e.cost.resize(ncol);
      for (std::size_t c = 0; c < ncol; ++c) e.cost[c] = columns[c].value(pc.call(ci));
      out.edges.push_back(std::move(e));
    }
  return out;
}

}  // namespace calltree::views

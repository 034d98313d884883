// views/call_graph_filtered.cc — the call graph around one function, of the stacks pprof's
// filters kept (see call_graph.h): the functions and calls of the program's filtered flame
// graph, walked as call_graph_around walks the file's.
#include <algorithm>
#include <unordered_map>

#include "views/call_graph.h"
#include "views/flame.h"
#include "views/session.h"

namespace calltree::views {

result<graph_view> filtered_call_graph_around(const session& s, std::uint64_t id,
                                              const graph_query& q) {
  if (id >= s.keys()) return error{"the stack filters apply to a function's views, not a cycle's"};
  const auto centre = static_cast<std::uint32_t>(id);
  flame_query fq;
  fq.parts = q.parts;
  fq.events = q.events;
  fq.derived = q.derived;
  fq.weight_event = q.weight_event;
  fq.min_share = 0;  // (every frame of weight)
  fq.max_frames = exact_max_frames;
  fq.merge = false;
  fq.filter = q.filter;
  auto fl = flame(s, fq);
  if (!fl) return fl.error();
  graph_view out;
  out.columns = std::move(fl->columns);
  out.costs = std::move(fl->costs);
  out.weight_column = fl->weight_column;
  out.filtered = std::move(fl->filtered);
  const path_tree& t = fl->tree;
  const std::size_t ncol = out.columns.size();
  const auto& columns = out.columns.columns;

  // The functions and calls of the filtered stacks. A frame's total is its function's
  // inclusive cost, and its call's, once: where its function is on its path above (a recorded
  // stack's recursion, recorded_stacks.h; never in the estimate's tree), that outer frame's
  // total holds it already, as the importers count a recursive call (import/stacks.h).
  struct sums {
    std::vector<std::uint64_t> self, inclusive;
  };
  std::unordered_map<std::uint32_t, sums> fn;
  struct call {
    std::uint32_t from, to;
    std::vector<std::uint64_t> cost;
  };
  std::vector<call> calls;
  std::unordered_map<std::uint64_t, std::size_t> call_at;
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> callers_of, callees_of;
  std::vector<std::uint32_t> path;                        // the frames from the root to f
  std::unordered_map<std::uint32_t, std::uint32_t> open;  // per function: its frames on `path`
  for (std::size_t f = 0; f < t.frames(); ++f) {
    while (path.size() > t.depth[f]) {
      --open[t.node[path.back()]];
      path.pop_back();
    }
    const bool again = open[t.node[f]]++ > 0;
    path.push_back(static_cast<std::uint32_t>(f));
    sums& n = fn[t.node[f]];
    n.self.resize(ncol);
    n.inclusive.resize(ncol);
    add_saturating(std::span<std::uint64_t>(n.self), t.self.row(f));
    if (!again) add_saturating(std::span<std::uint64_t>(n.inclusive), t.total.row(f));
    if (t.parent[f] == path_tree::no_frame) continue;
    const std::uint32_t from = t.node[t.parent[f]], to = t.node[f];
    auto [it, added] = call_at.try_emplace((std::uint64_t{from} << 32) | to, calls.size());
    if (added) {
      calls.push_back({from, to, std::vector<std::uint64_t>(ncol)});
      callees_of[from].push_back(it->second);
      callers_of[to].push_back(it->second);
    }
    if (!again) add_saturating(std::span<std::uint64_t>(calls[it->second].cost), t.total.row(f));
  }
  // A call's count: the file's, summed over its rows of the parts chosen.
  const part_costs& pc = *out.costs;
  std::unordered_map<std::uint64_t, std::uint64_t> count;
  for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci)
    if (pc.call_present(ci))
      count[(std::uint64_t{s.t.calls[ci].caller} << 32) | s.t.calls[ci].callee] += pc.count(ci);

  auto weight = [&](const std::vector<std::uint64_t>& v) -> std::uint64_t {
    return ncol ? v[out.weight_column] : 0;
  };
  const std::uint64_t total = ncol ? columns[out.weight_column].value(pc.totals()) : 0;
  out.threshold = static_cast<std::uint64_t>(static_cast<double>(total) * q.min_share);
  auto shown = [&](std::size_t c) { return weight(calls[c].cost) >= out.threshold; };
  out.node_threshold = static_cast<std::uint64_t>(static_cast<double>(total) * q.node_min_share);
  auto heavy = [&](std::uint32_t k) {
    if (q.node_min_share <= 0) return true;
    auto it = fn.find(k);
    return it != fn.end() && weight(it->second.inclusive) >= out.node_threshold;
  };

  std::unordered_map<std::uint32_t, std::size_t> index;  // key -> nodes
  auto add_node = [&](std::uint32_t k, int depth) {
    index.emplace(k, out.nodes.size());
    graph_node n;
    n.id = k;
    n.depth = depth;
    out.nodes.push_back(std::move(n));
  };
  add_node(centre, 0);
  // The walk, one level at a time on each side, the heaviest calls first.
  static const std::vector<std::size_t> no_calls;
  auto list = [&](const auto& of, std::uint32_t k) -> const std::vector<std::size_t>& {
    auto it = of.find(k);
    return it == of.end() ? no_calls : it->second;
  };
  for (int side = 0; side < 2; ++side) {
    std::vector<std::uint32_t> frontier{centre};
    const std::uint32_t levels = side == 0 ? q.up : q.down;
    for (std::uint32_t level = 1; level <= levels && !frontier.empty(); ++level) {
      std::vector<std::pair<std::uint64_t, std::uint32_t>> next;  // (cost, key)
      for (std::uint32_t k : frontier)
        for (std::size_t c : list(side == 0 ? callers_of : callees_of, k)) {
          if (!shown(c)) continue;
          const std::uint32_t other = side == 0 ? calls[c].from : calls[c].to;
          if (!index.count(other) && heavy(other)) next.emplace_back(weight(calls[c].cost), other);
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
    auto it = fn.find(n.id);
    n.self = it == fn.end() ? std::vector<std::uint64_t>(ncol) : it->second.self;
    n.inclusive = it == fn.end() ? std::vector<std::uint64_t>(ncol) : it->second.inclusive;
  }
  // Every shown call between two nodes, in the order of their callers' nodes.
  for (const graph_node& n : out.nodes)
    for (std::size_t c : list(callees_of, n.id)) {
      if (!shown(c) || !index.count(calls[c].to)) continue;
      graph_edge e;
      e.from = calls[c].from;
      e.to = calls[c].to;
      auto k = count.find((std::uint64_t{e.from} << 32) | e.to);
      e.count = k == count.end() ? 0 : k->second;
      e.cost = calls[c].cost;
      out.edges.push_back(std::move(e));
    }
  return out;
}

}  // namespace calltree::views

// analysis/coverage.cc — All Callers and All Callees of a function (see coverage.h).
#include "calltree/analysis/coverage.h"

#include <algorithm>
#include <unordered_map>

namespace calltree {

coverage_list coverage_of_tree(const path_tree& tree, path_direction direction,
                               std::size_t weight_event) {
  coverage_list out;
  out.direction = direction;
  out.estimated = tree.estimated;
  out.pruned = tree.pruned;
  out.saturated = tree.saturated;
  const std::size_t events = tree.events;
  out.total.assign(events, 0);
  if (tree.frames() == 0) return out;
  // (One root: the selected function; a tree of several roots adds them all.)
  for (std::size_t f = 0; f < tree.frames(); ++f)
    if (tree.parent[f] == path_tree::no_frame)
      for (std::size_t e = 0; e < events; ++e) add_saturating(out.total[e], tree.total.row(f)[e]);

  // Preorder: `path` holds the frames from the root to the current one; `open` counts, per
  // node, its frames on that path (a frame of a node already open is inside one counted).
  std::vector<std::uint32_t> path;
  std::unordered_map<std::uint32_t, std::uint32_t> open;
  std::unordered_map<std::uint32_t, std::size_t> index;  // node -> entries
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t depth = tree.depth[f];
    while (path.size() > depth) {
      --open[tree.node[path.back()]];
      path.pop_back();
    }
    const std::uint32_t n = tree.node[f];
    const bool root = tree.parent[f] == path_tree::no_frame;
    if (!root && open[n] == 0) {
      auto [it, added] = index.try_emplace(n, out.entries.size());
      if (added) {
        coverage_entry c;
        c.node = n;
        c.cost.assign(events, 0);
        c.min_distance = depth;
        c.max_distance = depth;
        out.entries.push_back(std::move(c));
      }
      coverage_entry& c = out.entries[it->second];
      for (std::size_t e = 0; e < events; ++e) add_saturating(c.cost[e], tree.total.row(f)[e]);
      c.min_distance = std::min(c.min_distance, depth);
      c.max_distance = std::max(c.max_distance, depth);
      ++c.paths;
    }
    ++open[n];
    path.push_back(static_cast<std::uint32_t>(f));
  }
  const std::size_t w = weight_event < events ? weight_event : 0;
  std::sort(out.entries.begin(), out.entries.end(),
            [w, events](const coverage_entry& a, const coverage_entry& b) {
              const std::uint64_t x = events ? a.cost[w] : 0, y = events ? b.cost[w] : 0;
              if (x != y) return x > y;
              if (a.min_distance != b.min_distance) return a.min_distance < b.min_distance;
              return a.node < b.node;
            });
  return out;
}

coverage_list coverage_of(const path_estimator& estimator, std::uint32_t node,
                          path_direction direction, const coverage_options& options) {
  if (node >= estimator.nodes()) {
    coverage_list none;
    none.direction = direction;
    none.total.assign(estimator.events(), 0);
    return none;
  }
  path_options o;
  o.root = node;
  o.direction = direction;
  o.cycles = options.cycles;
  o.weight_event = options.weight_event;
  o.min_share = options.min_share;
  o.max_frames = options.max_frames;
  o.exact_self = false;  // (the shares of one function's cost: no program-wide placing)
  return coverage_of_tree(estimator.estimate(o), direction, options.weight_event);
}

coverage_list coverage_of_function(const profile& p, function_id f, path_direction direction,
                                   const coverage_options& options) {
  signed_costs_scope signed_sums(p.signed_costs);
  call_graph g(p.functions.size(), p.events.size());
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    add_saturating(g.self.row(p.self_rows[r].function.index()), p.self_costs.row(r));
  for (std::size_t c = 0; c < p.calls.size(); ++c)
    g.add_call(p.calls[c].caller.index(), p.calls[c].callee.index(), p.calls[c].count,
               p.call_costs.row(c));
  return coverage_of(path_estimator(g), f.index(), direction, options);
}

}  // namespace calltree

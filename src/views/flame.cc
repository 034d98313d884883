// views/flame.cc — call path trees of a session (see flame.h).
#include "views/flame.h"

#include <algorithm>

#include "views/session.h"

namespace calltree::views {

namespace {

// The columns' names and formulas: what a graph's costs depend on besides the parts.
std::string columns_key(const column_set& cols) {
  std::string key;
  for (const column& c : cols.columns) {
    key += c.name;
    key += '=';
    for (auto [e, f] : c.combination.terms)
      key += std::to_string(e.index()) + "*" + std::to_string(f) + ";";
    key += '|';
  }
  return key;
}

}  // namespace

result<flame_view> flame(const session& s, const flame_query& q) {
  flame_view out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  auto weight_col = out.columns.weight_column(q.weight_event);
  if (!weight_col) return weight_col.error();
  out.weight_column = *weight_col;
  if (q.root && *q.root >= s.ids()) return error{"a flame graph's root is a function or a cycle"};
  out.costs = s.costs_of(q.parts, q.detect_cycles);
  const part_costs& pc = *out.costs;
  // A cycle as the root: its members are one node (id keys() + N - 1, as the views number
  // cycles), whose self cost is theirs and whose calls are those that cross its border.
  std::uint32_t cycle = 0;  // N of <cycle N>; 0: none
  if (q.root && *q.root >= s.keys()) {
    cycle = static_cast<std::uint32_t>(*q.root - s.keys() + 1);
    if (cycle > pc.cycles())
      return error{"the selected parts have no cycle " + std::to_string(cycle)};
  }
  const std::size_t ncol = out.columns.size();
  if (ncol == 0) {
    out.tree.events = 0;
    return out;  // (no events: no tree)
  }

  std::string key = "flame|";
  for (std::uint32_t p : q.parts) key += std::to_string(p) + ",";
  key.append("|").append(columns_key(out.columns));  // (not "|" + ...: GCC 12 -Wrestrict)
  if (cycle) key.append("|cycle ").append(std::to_string(cycle));
  auto estimator = s.remembered<path_estimator>(key, [&] {
    const std::size_t nk = s.keys();
    const std::uint32_t cycle_node = cycle ? static_cast<std::uint32_t>(nk + cycle - 1) : 0;
    auto node_of = [&](std::uint32_t k) {
      return cycle && pc.cycle_of(k) == cycle ? cycle_node : k;
    };
    call_graph g(cycle ? cycle_node + 1 : nk, ncol);
    for (std::uint32_t k = 0; k < nk; ++k) {
      auto row = g.self.row(node_of(k));
      for (std::size_t c = 0; c < ncol; ++c)
        add_saturating(row[c], out.columns.columns[c].value(pc.self(k)));
    }
    std::vector<std::uint64_t> v(ncol);
    for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
      if (!pc.call_present(ci)) continue;
      const std::uint32_t from = node_of(s.t.calls[ci].caller), to = node_of(s.t.calls[ci].callee);
      if (cycle && from == cycle_node && to == cycle_node) continue;  // (within the cycle)
      for (std::size_t c = 0; c < ncol; ++c) v[c] = out.columns.columns[c].value(pc.call(ci));
      g.add_call(from, to, pc.count(ci), v);
    }
    return std::make_shared<const path_estimator>(g);
  });

  path_options o;
  o.root = q.root;
  o.direction = q.direction;
  o.weight_event = out.weight_column;
  o.min_share = q.min_share;
  o.max_frames = q.max_frames;
  const bool from_roots = !q.root && q.direction == path_direction::callees;
  o.exact_self = q.exact_self && from_roots;
  path_tree tree;
  if (q.filter.any()) {
    if (cycle) return error{"the stack filters apply to a function's views, not a cycle's"};
    auto name = [&s](std::uint32_t k) { return s.name(k); };
    std::shared_ptr<const filtered_tree> filtered;
    if (from_roots && q.exact_self) {
      // (An export's tree, of its own min_share and max_frames.)
      filtered = std::make_shared<const filtered_tree>(
          filter_paths(estimator->estimate(o), q.filter, name, out.weight_column));
    } else {
      o.exact_self = true;
      o.root.reset();
      o.direction = path_direction::callees;
      o.min_share = exact_min_share;
      o.max_frames = exact_max_frames;
      const std::string tree_key = key + "|exact|" + std::to_string(out.weight_column) + "|" +
                                   std::to_string(o.min_share) + "|" + std::to_string(o.max_frames);
      auto exact = s.remembered<path_tree>(
          tree_key, [&] { return std::make_shared<const path_tree>(estimator->estimate(o)); });
      filtered = s.remembered<filtered_tree>(tree_key + "|filter|" + q.filter.key, [&] {
        return std::make_shared<const filtered_tree>(
            filter_paths(*exact, q.filter, name, out.weight_column));
      });
    }
    out.filtered = filtered->summary;
    if (from_roots && q.exact_self)
      tree = filtered->tree;
    else if (from_roots)
      tree = cut_paths(filtered->tree, out.weight_column, q.min_share, q.max_frames);
    else
      tree = cut_paths(q.direction == path_direction::callees
                           ? callees_below(filtered->tree, *q.root, out.weight_column)
                           : callers_above(filtered->tree, *q.root, out.weight_column),
                       out.weight_column, q.min_share, q.max_frames);
  } else if (from_roots && !q.exact_self) {
    // The program's flame graph: the exports' exact tree (made once per parts, columns and
    // weight), cut for display, so that its roots sum to the total and its frames are the
    // exports' stacks with their totals.
    o.exact_self = true;
    o.min_share = std::min(q.min_share, exact_min_share);
    o.max_frames = std::max(q.max_frames, exact_max_frames);
    const std::string tree_key = key + "|exact|" + std::to_string(out.weight_column) + "|" +
                                 std::to_string(o.min_share) + "|" + std::to_string(o.max_frames);
    auto exact = s.remembered<path_tree>(
        tree_key, [&] { return std::make_shared<const path_tree>(estimator->estimate(o)); });
    tree = cut_paths(*exact, out.weight_column, q.min_share, q.max_frames);
  } else {
    tree = estimator->estimate(o);
  }
  if (q.merge) tree = merge_by_label(tree, s.label_of);
  out.tree = std::move(tree);
  return out;
}

}  // namespace calltree::views

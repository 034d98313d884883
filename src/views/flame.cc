// views/flame.cc — call path trees of a session (see flame.h).
#include "views/flame.h"

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
      key += std::to_string(e) + "*" + std::to_string(f) + ";";
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
  if (q.root && *q.root >= s.keys())
    return error{"a flame graph's root is a function (a cycle's members are functions)"};
  out.costs = s.costs_of(q.parts);
  const part_costs& pc = *out.costs;
  const std::size_t ncol = out.columns.size();
  if (ncol == 0) {
    out.tree.events = 0;
    return out;  // (no events: no tree)
  }

  std::string key = "flame|";
  for (std::uint32_t p : q.parts) key += std::to_string(p) + ",";
  key.append("|").append(columns_key(out.columns));  // (not "|" + ...: GCC 12 -Wrestrict)
  auto estimator = s.remembered<path_estimator>(key, [&] {
    const std::size_t nk = s.keys();
    call_graph g(nk, ncol);
    for (std::uint32_t k = 0; k < nk; ++k) {
      auto row = g.self.row(k);
      for (std::size_t c = 0; c < ncol; ++c) row[c] = out.columns.columns[c].value(pc.self(k));
    }
    std::vector<std::uint64_t> v(ncol);
    for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
      if (!pc.call_present(ci)) continue;
      for (std::size_t c = 0; c < ncol; ++c) v[c] = out.columns.columns[c].value(pc.call(ci));
      g.add_call(s.t.calls[ci].caller, s.t.calls[ci].callee, pc.count(ci), v);
    }
    return std::make_shared<const path_estimator>(g);
  });

  path_options o;
  o.root = q.root;
  o.direction = q.direction;
  o.weight_event = out.weight_column;
  o.min_share = q.min_share;
  o.max_frames = q.max_frames;
  o.exact_self = q.exact_self && !q.root && q.direction == path_direction::callees;
  path_tree tree = estimator->estimate(o);
  if (q.merge) tree = merge_by_label(tree, s.label_of);
  out.tree = std::move(tree);
  return out;
}

}  // namespace calltree::views

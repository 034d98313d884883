// inclusive_solve.h — (internal) the inclusive-cost solver's algorithm over any call graph.
//
// What it is: Tarjan's components and the per-part solve of calltree/analysis/inclusive.h (the
// semantics are written there), as templates over a graph the caller holds, so that a caller
// whose tables already are the graph (annotate's, one part) solves it without a copy.
// inclusive_solver is the owning graph everyone else uses. What it is not: another semantics.
//
// A Graph has:
//   std::size_t nodes(), events();
//   std::uint32_t parts();  (every entry's part is below it)
//   std::size_t selfs(); std::uint32_t self_part(i), self_node(i);
//   std::span<const std::uint64_t> self_costs(i);  (events() values)
//   std::size_t calls(); std::uint32_t call_part(i), call_from(i), call_to(i);
//   bool call_counted(i);  (count > 0)
//   std::span<const std::uint64_t> call_costs(i);
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "analysis/inclusive_solver.h"

namespace calltree::detail {

// Components of the graph of `edges` edges from(e) -> to(e), self-loops ignored; see
// strongly_connected_components in inclusive_solver.h.
template <class From, class To>
std::vector<std::uint32_t> components_of(std::size_t nodes, std::size_t edges, From from, To to,
                                         std::uint32_t* component_count) {
  // Adjacency in CSR form.
  std::vector<std::uint32_t> start(nodes + 1, 0);
  for (std::size_t e = 0; e < edges; ++e)
    if (from(e) != to(e)) ++start[from(e) + 1];
  for (std::size_t n = 0; n < nodes; ++n) start[n + 1] += start[n];
  std::vector<std::uint32_t> adj(start[nodes]);
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < edges; ++e)
      if (from(e) != to(e)) adj[fill[from(e)]++] = to(e);
  }

  constexpr std::uint32_t unvisited = 0xffffffffu;
  std::vector<std::uint32_t> index(nodes, unvisited), low(nodes, 0), comp(nodes, unvisited);
  std::vector<std::uint32_t> stack;  // Tarjan's stack
  std::vector<bool> on_stack(nodes, false);
  struct frame {
    std::uint32_t node, next_edge;
  };
  std::vector<frame> call_stack;  // the explicit DFS stack replacing recursion
  std::uint32_t counter = 0, components = 0;

  for (std::uint32_t root = 0; root < nodes; ++root) {
    if (index[root] != unvisited) continue;
    call_stack.push_back({root, start[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!call_stack.empty()) {
      frame& f = call_stack.back();
      std::uint32_t v = f.node;
      if (f.next_edge < start[v + 1]) {
        std::uint32_t w = adj[f.next_edge++];
        if (index[w] == unvisited) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          call_stack.push_back({w, start[w]});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      // v is finished.
      if (low[v] == index[v]) {
        std::uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          comp[w] = components;
        } while (w != v);
        ++components;
      }
      call_stack.pop_back();
      if (!call_stack.empty()) {
        std::uint32_t parent = call_stack.back().node;
        low[parent] = std::min(low[parent], low[v]);
      }
    }
  }
  if (component_count) *component_count = components;
  return comp;
}

struct inclusive_accumulator {
  std::size_t events;
  bool saturated = false;
  void add(std::span<std::uint64_t> a, std::span<const std::uint64_t> b) {
    for (std::size_t i = 0; i < events; ++i)
      if (!add_saturating(a[i], b[i])) saturated = true;
  }
};

inline cost_matrix zero_cost_matrix(std::size_t rows, std::size_t events) {
  cost_matrix m(events);
  m.reserve_rows(rows);
  for (std::size_t i = 0; i < rows; ++i) m.add_row();
  return m;
}

// The entries of each part: entry at(i) for i in [start[p], start[p + 1]). Entries are
// usually added part after part, and then need no list of their own.
struct entries_by_part {
  std::vector<std::uint32_t> start;  // parts + 1
  std::vector<std::uint32_t> order;  // empty: the entries are in part order already
  std::uint32_t at(std::uint32_t i) const { return order.empty() ? i : order[i]; }

  template <class PartOf>
  entries_by_part(std::size_t entries, PartOf part, std::uint32_t parts) : start(parts + 1, 0) {
    bool sorted = true;
    for (std::size_t i = 0; i < entries; ++i) {
      ++start[part(i) + 1];
      if (i && part(i) < part(i - 1)) sorted = false;
    }
    for (std::uint32_t p = 0; p < parts; ++p) start[p + 1] += start[p];
    if (sorted) return;
    order.resize(entries);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < entries; ++i)
      order[fill[part(i)]++] = static_cast<std::uint32_t>(i);
  }
};

template <class Graph>
inclusive_result solve_inclusive(const Graph& g, bool raw) {
  const std::size_t nodes = g.nodes(), events = g.events(), ncalls = g.calls();
  inclusive_result r;
  r.events = events;
  r.self = zero_cost_matrix(nodes, events);
  r.inclusive = zero_cost_matrix(nodes, events);
  r.cycle_of.assign(nodes, cycle_id{});
  inclusive_accumulator acc{events};

  for (std::size_t i = 0; i < g.selfs(); ++i) acc.add(r.self.row(g.self_node(i)), g.self_costs(i));

  if (raw) {
    // callgrind_annotate 3.19: calls=0 cost lines are self cost of the caller; a function
    // that is the callee of a counted call gets the sum of those calls; others self + calls.
    std::vector<bool> called(nodes, false);
    for (std::size_t i = 0; i < ncalls; ++i) {
      if (g.call_counted(i))
        called[g.call_to(i)] = true;
      else
        acc.add(r.self.row(g.call_from(i)), g.call_costs(i));
    }
    for (std::size_t n = 0; n < nodes; ++n)
      if (!called[n]) acc.add(r.inclusive.row(n), r.self.row(n));
    for (std::size_t i = 0; i < ncalls; ++i) {
      if (!g.call_counted(i)) continue;
      acc.add(r.inclusive.row(g.call_to(i)), g.call_costs(i));
      if (!called[g.call_from(i)]) acc.add(r.inclusive.row(g.call_from(i)), g.call_costs(i));
    }
    r.saturated = acc.saturated;
    return r;
  }

  // Components over the union graph.
  std::uint32_t ncomp = 0;
  const std::vector<std::uint32_t> comp = components_of(
      nodes, ncalls, [&](std::size_t e) { return g.call_from(e); },
      [&](std::size_t e) { return g.call_to(e); }, &ncomp);
  std::vector<std::uint32_t> comp_cycle;  // per component: 1 + its cycle's index, 0 = none
  std::vector<cycle_info> cycles;
  {
    std::vector<std::uint32_t> comp_size(ncomp, 0);
    for (std::size_t n = 0; n < nodes; ++n) ++comp_size[comp[n]];
    comp_cycle.assign(ncomp, 0);
    for (std::size_t n = 0; n < nodes; ++n) {
      const std::uint32_t c = comp[n];
      if (comp_size[c] < 2) continue;
      if (comp_cycle[c] == 0) {
        cycles.emplace_back();
        cycles.back().self.assign(events, 0);
        cycles.back().inclusive.assign(events, 0);
        comp_cycle[c] = static_cast<std::uint32_t>(cycles.size());
      }
      cycles[comp_cycle[c] - 1].members.push_back(static_cast<std::uint32_t>(n));
      acc.add(cycles[comp_cycle[c] - 1].self, r.self.row(n));
    }
  }
  auto cycle_of = [&](std::uint32_t n) { return comp_cycle[comp[n]]; };

  // Each part on its own. A node alone in its component that some call from another
  // component enters in this part ("has_in") takes those calls; any other node (a root of
  // the part, a cycle member) takes its self cost and its calls to other components, and so
  // does its cycle. So: mark the entered nodes, then add each entry where it counts.
  const std::uint32_t parts = g.parts();
  const entries_by_part selfs(
      g.selfs(), [&](std::size_t i) { return g.self_part(i); }, parts);
  const entries_by_part calls(
      ncalls, [&](std::size_t i) { return g.call_part(i); }, parts);
  std::vector<bool> has_in(nodes, false);
  std::vector<std::uint32_t> entered;
  for (std::uint32_t part = 0; part < parts; ++part) {
    for (std::uint32_t j = calls.start[part]; j < calls.start[part + 1]; ++j) {
      const std::uint32_t i = calls.at(j), to = g.call_to(i);
      if (comp[g.call_from(i)] == comp[to] || has_in[to]) continue;
      has_in[to] = true;
      entered.push_back(to);
    }
    auto takes_self_and_out = [&](std::uint32_t n) { return cycle_of(n) != 0 || !has_in[n]; };
    for (std::uint32_t j = selfs.start[part]; j < selfs.start[part + 1]; ++j) {
      const std::uint32_t i = selfs.at(j), n = g.self_node(i);
      if (!takes_self_and_out(n)) continue;
      acc.add(r.inclusive.row(n), g.self_costs(i));
      if (const std::uint32_t cy = cycle_of(n)) acc.add(cycles[cy - 1].inclusive, g.self_costs(i));
    }
    for (std::uint32_t j = calls.start[part]; j < calls.start[part + 1]; ++j) {
      const std::uint32_t i = calls.at(j), from = g.call_from(i), to = g.call_to(i);
      if (comp[from] == comp[to]) continue;  // self-call or a call inside a cycle
      if (cycle_of(to) == 0) acc.add(r.inclusive.row(to), g.call_costs(i));
      if (!takes_self_and_out(from)) continue;
      acc.add(r.inclusive.row(from), g.call_costs(i));
      if (const std::uint32_t cy = cycle_of(from))
        acc.add(cycles[cy - 1].inclusive, g.call_costs(i));
    }
    for (std::uint32_t n : entered) has_in[n] = false;
    entered.clear();
  }

  // Number cycles by decreasing inclusive cost of the first event (then by first member).
  std::vector<std::uint32_t> order(cycles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    std::uint64_t x = events ? cycles[a].inclusive[0] : 0;
    std::uint64_t y = events ? cycles[b].inclusive[0] : 0;
    if (x != y) return x > y;
    return cycles[a].members.front() < cycles[b].members.front();
  });
  r.cycles.reserve(cycles.size());
  for (std::uint32_t i : order) r.cycles.push_back(std::move(cycles[i]));
  for (std::size_t c = 0; c < r.cycles.size(); ++c)
    for (std::uint32_t n : r.cycles[c].members) r.cycle_of[n] = cycle_id{c + 1};
  r.saturated = acc.saturated;
  return r;
}

}  // namespace calltree::detail

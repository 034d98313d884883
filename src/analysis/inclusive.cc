// inclusive.cc — Tarjan SCC (iterative) and the inclusive-cost solver; semantics in the header.
#include "calltree/analysis/inclusive.h"

#include <algorithm>
#include <numeric>

namespace calltree {

std::vector<std::uint32_t> strongly_connected_components(std::size_t nodes,
                                                         std::span<const std::uint32_t> from,
                                                         std::span<const std::uint32_t> to,
                                                         std::uint32_t* component_count) {
  // Adjacency in CSR form.
  std::vector<std::uint32_t> start(nodes + 1, 0);
  for (std::size_t e = 0; e < from.size(); ++e)
    if (from[e] != to[e]) ++start[from[e] + 1];
  for (std::size_t n = 0; n < nodes; ++n) start[n + 1] += start[n];
  std::vector<std::uint32_t> adj(start[nodes]);
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < from.size(); ++e)
      if (from[e] != to[e]) adj[fill[from[e]]++] = to[e];
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

inclusive_solver::inclusive_solver(std::size_t nodes, std::size_t events)
    : nodes_(nodes), events_(events), self_costs_(events), call_costs_(events) {}

void inclusive_solver::add_self(std::uint32_t part, std::uint32_t node,
                                std::span<const std::uint64_t> costs) {
  selfs_.push_back({part, node, node, 0});
  auto row = self_costs_.row(self_costs_.add_row());
  std::copy_n(costs.begin(), std::min(costs.size(), row.size()), row.begin());
}

void inclusive_solver::add_call(std::uint32_t part, std::uint32_t caller, std::uint32_t callee,
                                std::uint64_t count, std::span<const std::uint64_t> costs) {
  calls_.push_back({part, caller, callee, count});
  auto row = call_costs_.row(call_costs_.add_row());
  std::copy_n(costs.begin(), std::min(costs.size(), row.size()), row.begin());
}

namespace {

struct accumulator {
  std::size_t events;
  bool saturated = false;
  void add(std::span<std::uint64_t> a, std::span<const std::uint64_t> b) {
    for (std::size_t i = 0; i < events; ++i)
      if (!add_saturating(a[i], b[i])) saturated = true;
  }
};

cost_matrix zero_matrix(std::size_t rows, std::size_t events) {
  cost_matrix m(events);
  m.reserve_rows(rows);
  for (std::size_t i = 0; i < rows; ++i) m.add_row();
  return m;
}

}  // namespace

inclusive_result inclusive_solver::solve(bool raw) const {
  inclusive_result r;
  r.events = events_;
  r.self = zero_matrix(nodes_, events_);
  r.inclusive = zero_matrix(nodes_, events_);
  r.cycle_of.assign(nodes_, 0);
  accumulator acc{events_};

  for (std::size_t i = 0; i < selfs_.size(); ++i)
    acc.add(r.self.row(selfs_[i].from), self_costs_.row(i));

  if (raw) {
    // callgrind_annotate 3.19: calls=0 cost lines are self cost of the caller; a function
    // that is the callee of a counted call gets the sum of those calls; others self + calls.
    std::vector<bool> called(nodes_, false);
    cost_matrix incoming = zero_matrix(nodes_, events_);
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      const entry& c = calls_[i];
      if (c.count == 0) {
        acc.add(r.self.row(c.from), call_costs_.row(i));
        continue;
      }
      called[c.to] = true;
      acc.add(incoming.row(c.to), call_costs_.row(i));
    }
    for (std::size_t n = 0; n < nodes_; ++n) {
      if (called[n]) {
        acc.add(r.inclusive.row(n), incoming.row(n));
      } else {
        acc.add(r.inclusive.row(n), r.self.row(n));
      }
    }
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      const entry& c = calls_[i];
      if (c.count != 0 && !called[c.from]) acc.add(r.inclusive.row(c.from), call_costs_.row(i));
    }
    r.saturated = acc.saturated;
    return r;
  }

  // Components over the union graph.
  std::vector<std::uint32_t> from(calls_.size()), to(calls_.size());
  for (std::size_t i = 0; i < calls_.size(); ++i) {
    from[i] = calls_[i].from;
    to[i] = calls_[i].to;
  }
  std::uint32_t ncomp = 0;
  std::vector<std::uint32_t> comp = strongly_connected_components(nodes_, from, to, &ncomp);
  std::vector<std::uint32_t> comp_size(ncomp, 0);
  for (std::size_t n = 0; n < nodes_; ++n) ++comp_size[comp[n]];
  // Cycle pseudo-nodes: components with more than one member.
  std::vector<std::uint32_t> comp_cycle(ncomp, 0);  // 1-based temporary cycle index
  std::vector<cycle_info> cycles;
  for (std::size_t n = 0; n < nodes_; ++n) {
    std::uint32_t c = comp[n];
    if (comp_size[c] < 2) continue;
    if (comp_cycle[c] == 0) {
      cycles.emplace_back();
      cycles.back().self.assign(events_, 0);
      cycles.back().inclusive.assign(events_, 0);
      comp_cycle[c] = static_cast<std::uint32_t>(cycles.size());
    }
    cycles[comp_cycle[c] - 1].members.push_back(static_cast<std::uint32_t>(n));
    acc.add(cycles[comp_cycle[c] - 1].self, r.self.row(n));
  }

  // Solve each part on its own; bucket entries by part.
  std::uint32_t max_part = 0;
  for (const auto& e : selfs_) max_part = std::max(max_part, e.part);
  for (const auto& e : calls_) max_part = std::max(max_part, e.part);
  std::vector<std::vector<std::uint32_t>> self_by_part(max_part + 1), call_by_part(max_part + 1);
  for (std::size_t i = 0; i < selfs_.size(); ++i)
    self_by_part[selfs_[i].part].push_back(static_cast<std::uint32_t>(i));
  for (std::size_t i = 0; i < calls_.size(); ++i)
    call_by_part[calls_[i].part].push_back(static_cast<std::uint32_t>(i));

  cost_matrix self_p = zero_matrix(nodes_, events_);
  cost_matrix in_p = zero_matrix(nodes_, events_);   // calls from other components
  cost_matrix out_p = zero_matrix(nodes_, events_);  // calls to other components
  std::vector<bool> has_in(nodes_, false);
  std::vector<std::uint32_t> touched;
  std::vector<bool> is_touched(nodes_, false);
  auto touch = [&](std::uint32_t n) {
    if (!is_touched[n]) {
      is_touched[n] = true;
      touched.push_back(n);
    }
  };

  for (std::uint32_t part = 0; part <= max_part; ++part) {
    if (self_by_part[part].empty() && call_by_part[part].empty()) continue;
    for (std::uint32_t i : self_by_part[part]) {
      touch(selfs_[i].from);
      acc.add(self_p.row(selfs_[i].from), self_costs_.row(i));
    }
    for (std::uint32_t i : call_by_part[part]) {
      const entry& c = calls_[i];
      if (comp[c.from] == comp[c.to]) continue;  // self-call or a call inside a cycle
      touch(c.from);
      touch(c.to);
      acc.add(out_p.row(c.from), call_costs_.row(i));
      acc.add(in_p.row(c.to), call_costs_.row(i));
      has_in[c.to] = true;
    }
    for (std::uint32_t n : touched) {
      std::uint32_t cy = comp_cycle[comp[n]];
      if (cy == 0 && has_in[n]) {
        acc.add(r.inclusive.row(n), in_p.row(n));
      } else {
        acc.add(r.inclusive.row(n), self_p.row(n));
        acc.add(r.inclusive.row(n), out_p.row(n));
      }
      if (cy != 0) {
        acc.add(cycles[cy - 1].inclusive, self_p.row(n));
        acc.add(cycles[cy - 1].inclusive, out_p.row(n));
      }
    }
    for (std::uint32_t n : touched) {
      for (auto* m : {&self_p, &in_p, &out_p}) std::fill(m->row(n).begin(), m->row(n).end(), 0);
      has_in[n] = false;
      is_touched[n] = false;
    }
    touched.clear();
  }

  // Number cycles by decreasing inclusive cost of the first event (then by first member).
  std::vector<std::uint32_t> order(cycles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    std::uint64_t x = events_ ? cycles[a].inclusive[0] : 0;
    std::uint64_t y = events_ ? cycles[b].inclusive[0] : 0;
    if (x != y) return x > y;
    return cycles[a].members.front() < cycles[b].members.front();
  });
  r.cycles.reserve(cycles.size());
  for (std::uint32_t i : order) r.cycles.push_back(std::move(cycles[i]));
  for (std::size_t c = 0; c < r.cycles.size(); ++c)
    for (std::uint32_t n : r.cycles[c].members) r.cycle_of[n] = static_cast<std::uint32_t>(c + 1);
  r.saturated = acc.saturated;
  return r;
}

inclusive_result compute_inclusive(const profile& p, const inclusive_options& options) {
  const std::size_t events = p.events.size();
  inclusive_solver s(p.functions.size(), events);
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const self_row& row = p.self_rows[i];
    if (options.part && row.part != *options.part) continue;
    s.add_self(row.part, row.function, p.self_costs.row(i));
  }
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const call_row& c = p.calls[i];
    if (options.part && c.part != *options.part) continue;
    s.add_call(c.part, c.caller, c.callee, c.count, p.call_costs.row(i));
  }
  return s.solve(options.raw);
}

}  // namespace calltree

// inclusive.cc — the owning call graph for the inclusive-cost solver (the algorithm is in
// inclusive_solve.h), and compute_inclusive over a profile; semantics in the header.
#include "calltree/analysis/inclusive.h"

#include <algorithm>

#include "analysis/inclusive_solver.h"
#include "inclusive_solve.h"

namespace calltree {

std::vector<std::uint32_t> strongly_connected_components(std::size_t nodes,
                                                         std::span<const std::uint32_t> from,
                                                         std::span<const std::uint32_t> to,
                                                         std::uint32_t* component_count) {
  return detail::components_of(
      nodes, from.size(), [&](std::size_t e) { return from[e]; },
      [&](std::size_t e) { return to[e]; }, component_count);
}

inclusive_solver::inclusive_solver(std::size_t nodes, std::size_t events)
    : nodes_(nodes), events_(events), self_costs_(events), call_costs_(events) {}

void inclusive_solver::reserve(std::size_t selfs, std::size_t calls) {
  self_part_.reserve(selfs);
  self_node_.reserve(selfs);
  self_costs_.reserve_rows(selfs);
  call_part_.reserve(calls);
  call_from_.reserve(calls);
  call_to_.reserve(calls);
  call_counted_.reserve(calls);
  call_costs_.reserve_rows(calls);
}

void inclusive_solver::add_self(std::uint32_t part, std::uint32_t node,
                                std::span<const std::uint64_t> costs) {
  self_part_.push_back(part);
  self_node_.push_back(node);
  auto row = self_costs_.row(self_costs_.add_row());
  std::copy_n(costs.begin(), std::min(costs.size(), row.size()), row.begin());
}

void inclusive_solver::add_call(std::uint32_t part, std::uint32_t caller, std::uint32_t callee,
                                std::uint64_t count, std::span<const std::uint64_t> costs) {
  call_part_.push_back(part);
  call_from_.push_back(caller);
  call_to_.push_back(callee);
  call_counted_.push_back(count != 0);
  auto row = call_costs_.row(call_costs_.add_row());
  std::copy_n(costs.begin(), std::min(costs.size(), row.size()), row.begin());
}

inclusive_result inclusive_solver::solve(bool raw) const {
  // The solver's arrays as inclusive_solve.h's graph.
  struct graph {
    const inclusive_solver& s;
    std::uint32_t parts_;
    std::size_t nodes() const { return s.nodes_; }
    std::size_t events() const { return s.events_; }
    std::uint32_t parts() const { return parts_; }
    std::size_t selfs() const { return s.self_node_.size(); }
    std::uint32_t self_part(std::size_t i) const { return s.self_part_[i]; }
    std::uint32_t self_node(std::size_t i) const { return s.self_node_[i]; }
    std::span<const std::uint64_t> self_costs(std::size_t i) const { return s.self_costs_.row(i); }
    std::size_t calls() const { return s.call_from_.size(); }
    std::uint32_t call_part(std::size_t i) const { return s.call_part_[i]; }
    std::uint32_t call_from(std::size_t i) const { return s.call_from_[i]; }
    std::uint32_t call_to(std::size_t i) const { return s.call_to_[i]; }
    bool call_counted(std::size_t i) const { return s.call_counted_[i]; }
    std::span<const std::uint64_t> call_costs(std::size_t i) const { return s.call_costs_.row(i); }
  };
  std::uint32_t parts = 0;
  for (std::uint32_t p : self_part_) parts = std::max(parts, p + 1);
  for (std::uint32_t p : call_part_) parts = std::max(parts, p + 1);
  return detail::solve_inclusive(graph{*this, parts}, raw);
}

inclusive_result compute_inclusive(const profile& p, const inclusive_options& options) {
  signed_costs_scope signed_sums(p.signed_costs);  // (whatever the thread's last reading left)
  const std::size_t events = p.events.size();
  inclusive_solver s(p.functions.size(), events);
  s.reserve(p.self_rows.size(), p.calls.size());
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const self_row& row = p.self_rows[i];
    if (options.part && row.part != *options.part) continue;
    s.add_self(row.part.index(), row.function.index(), p.self_costs.row(i));
  }
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const call_row& c = p.calls[i];
    if (options.part && c.part != *options.part) continue;
    s.add_call(c.part.index(), c.caller.index(), c.callee.index(), c.count, p.call_costs.row(i));
  }
  inclusive_result out = s.solve(options.raw);
  out.signed_costs = p.signed_costs;
  return out;
}

}  // namespace calltree

// inclusive_solver.h — (internal) the inclusive-cost computation of calltree/analysis/inclusive.h
// over any call graph: the library's own analyses (annotate's tables, diff, the call paths) key
// functions their own way and solve their graphs with it. Not installed: a user's program
// computes inclusive costs of a profile with compute_inclusive.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "calltree/cost_matrix.h"

namespace calltree {

// Collects a call graph, then solves it. Node ids are dense 0..nodes-1, chosen by the caller.
// Memory: about 8 bytes + one cost row per self entry and 13 bytes + one cost row per call
// while collecting (reserve() first to hold no more than that), and while solving the result's
// two matrices, one node table of each kind and the call graph's adjacency; no per-part copies.
class inclusive_solver {
 public:
  inclusive_solver(std::size_t nodes, std::size_t events);

  // Room for this many add_self() and add_call() (a hint: more may be added; room never
  // filled, as for the parts not selected, is address space, not resident memory).
  void reserve(std::size_t selfs, std::size_t calls);
  void add_self(std::uint32_t part, std::uint32_t node, std::span<const std::uint64_t> costs);
  void add_call(std::uint32_t part, std::uint32_t caller, std::uint32_t callee, std::uint64_t count,
                std::span<const std::uint64_t> costs);

  inclusive_result solve(bool raw = false) const;

  std::size_t nodes() const { return nodes_; }
  std::size_t events() const { return events_; }

 private:
  std::size_t nodes_, events_;
  // One array per field (the components take call_from_ and call_to_ as they are).
  std::vector<std::uint32_t> self_part_, self_node_;
  cost_matrix self_costs_;
  std::vector<std::uint32_t> call_part_, call_from_, call_to_;
  std::vector<bool> call_counted_;  // count > 0 (only raw summing tells these apart)
  cost_matrix call_costs_;
};

// Strongly connected components of a directed graph given as edge lists (self-loops ignored),
// iteratively. Returns the component index of each node; components are numbered in the
// order Tarjan completes them (a reverse topological order of the condensation).
std::vector<std::uint32_t> strongly_connected_components(
    std::size_t nodes, std::span<const std::uint32_t> from, std::span<const std::uint32_t> to,
    std::uint32_t* component_count = nullptr);

}  // namespace calltree

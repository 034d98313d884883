// views/part_costs.h — (internal) the costs of a session for a selection of its parts.
//
// What it is: the numbers every view reads — self and inclusive cost per key, the cost and
// count of each call, the cycles, the program totals — either the tables' own (every part
// summed: nothing copied) or, for some parts of a file of several, those parts' rows summed
// and their inclusive costs solved again (each part on its own, as annotate does; cycles are
// those of the selected parts' graph). Columns are the tables' recorded events
// (views/columns.h adds derived ones). What it is not: a copy of the tables' keys, names or
// call pairs, which stay the session's.
//
// Cycle detection (KCachegrind's switch; docs/serve.md): on, the default, the costs are
// annotate's, with the call graph's cycles formed (analysis/inclusive.h: a cycle member's
// inclusive cost is its self plus its calls leaving the cycle). Off, no cycle is formed: there
// are no cycles, and a function of one has, in each selected part, the inclusive cost of a
// function alone in inclusive.h's rules: the calls into it from other functions (its former
// cycle's members too: recursion as the file records it, which can exceed the total), or its
// self plus its calls out when nothing calls it there. Other functions' costs are the same.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/result.h"
#include "views/tables.h"

namespace calltree::views {

class session;

class part_costs {
 public:
  // Every part (the tables' own numbers).
  explicit part_costs(const session& s, bool detect_cycles = true);
  // The parts `parts` (0-based, sorted, each < the part count, not every part).
  part_costs(const session& s, const std::vector<std::uint32_t>& parts, bool detect_cycles = true);

  std::size_t columns() const { return nrec_; }
  const std::uint64_t* self(std::uint32_t k) const { return self_->values(k); }
  const std::uint64_t* inclusive(std::uint32_t k) const { return inclusive_->values(k); }
  const std::uint64_t* call(std::uint32_t ci) const { return call_cc_->values(ci); }
  std::uint64_t count(std::uint32_t ci) const;
  const std::uint64_t* totals() const { return totals_->values(0); }
  bool totals_calculated() const { return totals_calculated_; }
  // Whether key k has cost or calls in the selected parts.
  bool present(std::uint32_t k) const { return present_[k] != 0; }
  // Whether call ci was made in the selected parts.
  bool call_present(std::uint32_t ci) const { return call_present_.empty() || call_present_[ci]; }
  // 0: not in a cycle; else N of <cycle N>.
  std::uint32_t cycle_of(std::uint32_t k) const {
    return k < cycle_of_->size() ? (*cycle_of_)[k] : 0;
  }
  std::size_t cycles() const { return cycles_->size(); }
  const std::vector<std::uint32_t>& members(std::size_t c) const { return (*cycles_)[c]; }
  const std::uint64_t* cycle_inclusive(std::size_t c) const { return cycle_cc_->values(c); }
  // Self cost of cycle c's members summed (one row per cycle, recorded columns).
  const std::uint64_t* cycle_self(std::size_t c) const { return cycle_self_.data() + c * nrec_; }
  // Calls into key k from other keys, its cycle's members too (self-calls not counted); a
  // cycle's: calls into it from outside.
  std::uint64_t calls_in(std::uint32_t k) const { return calls_in_[k]; }
  std::uint64_t cycle_calls_in(std::size_t c) const { return cycle_calls_in_[c]; }
  const std::vector<std::uint32_t>& parts() const { return parts_; }

 private:
  void finish(const session& s);
  // Cycle detection off (see above): the members' inclusive costs again, no cycles.
  void drop_cycles(const session& s, const std::vector<char>& selected);
  std::size_t nrec_ = 0;
  std::vector<std::uint32_t> parts_;  // empty: all
  // Owned when some parts are selected; else the pointers go to the tables.
  cc_table own_self_, own_inclusive_, own_call_cc_, own_cycle_cc_, own_totals_;
  std::vector<std::uint64_t> own_count_;
  std::vector<std::uint32_t> own_cycle_of_;
  std::vector<std::vector<std::uint32_t>> own_cycles_;
  const cc_table *self_ = nullptr, *inclusive_ = nullptr, *call_cc_ = nullptr, *cycle_cc_ = nullptr,
                 *totals_ = nullptr;
  const std::vector<ann_call>* calls_ = nullptr;
  const std::vector<std::uint32_t>* cycle_of_ = nullptr;
  const std::vector<std::vector<std::uint32_t>>* cycles_ = nullptr;
  bool totals_calculated_ = false;
  std::vector<char> present_, call_present_;
  std::vector<std::uint64_t> cycle_self_;
  std::vector<std::uint64_t> calls_in_, cycle_calls_in_;
};

// Parses a `parts=` value: "all" (or empty), or part numbers "N[,M...]" (1-based, as
// `annotate --part`) into sorted 0-based numbers (empty: all; every part named: all).
result<std::vector<std::uint32_t>> parse_parts(std::string_view text, std::size_t part_count);

}  // namespace calltree::views

// analysis/negating_sink.h — (internal) records handed on with their costs negated.
//
// What it is: the sink that turns OLD into -OLD for `difference_inputs` (difference.h): every
// self cost, call cost, stated `summary:`/`totals:` and computed total is handed on as its
// two's-complement negation, so the profile builder's sums of -OLD and NEW are NEW - OLD
// (cost_matrix.h, "Signed costs"), and each part end says the costs are signed. Counts are
// not costs: a call of OLD is handed on with count 0 (its cost still counts), and OLD's jumps
// (counts only) are not handed on. What it is not: a sink of its own; it needs what the next
// one needs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "calltree/records.h"

namespace calltree::detail {

class negating_sink final : public record_sink {
 public:
  explicit negating_sink(record_sink& next) : next_(next) {}
  record_needs needs() const override { return next_.needs(); }
  void on_part_begin(const part_header& h) override {
    part_header c = h;
    if (c.summary) negate(*c.summary);
    next_.on_part_begin(c);
  }
  void on_cost(const cost_record& r) override {
    cost_record c = r;
    c.costs = negated(r.costs);
    next_.on_cost(c);
  }
  void on_call(const call_record& r) override {
    call_record c = r;
    c.costs = negated(r.costs);
    c.count = 0;
    next_.on_call(c);
  }
  void on_jump(const jump_record&) override {}
  void on_part_end(const part_end& e) override {
    part_end c = e;
    negate(c.computed);
    if (c.summary) negate(*c.summary);
    if (c.totals) negate(*c.totals);
    c.signed_costs = true;
    next_.on_part_end(c);
  }
  bool wants_no_more() const override { return next_.wants_no_more(); }

 private:
  static void negate(std::vector<std::uint64_t>& v) {
    for (auto& x : v) x = 0 - x;
  }
  std::span<const std::uint64_t> negated(std::span<const std::uint64_t> costs) {
    scratch_.assign(costs.begin(), costs.end());
    negate(scratch_);
    return scratch_;
  }
  record_sink& next_;
  std::vector<std::uint64_t> scratch_;
};

}  // namespace calltree::detail

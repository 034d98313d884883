// checker.h — the record sink behind `calltree check`: counts and totals without a model.
//
// What it is: a streaming summary of one input: parts, the union of event names, totals (the sum
// of all self costs, per event, over all parts: what a `totals:` line states), the stated
// `summary:` values beside them, distinct functions (object + file + name) and distinct call
// arcs (caller -> callee). Memory is the distinct functions and arcs, never the cost lines.
// Records may come summed (record_needs::sums_per_context): nothing here counts records; the
// lines of each kind are the reader's read_stats.
// What it is not: a validator by itself: the reader finds the problems and reports them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calltree/export.h"
#include "calltree/records.h"
#include "calltree/totals.h"

namespace calltree {

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct check_result {
  std::uint64_t parts = 0;
  std::vector<std::string> events;    // union over parts, in order of first appearance
  std::vector<std::uint64_t> totals;  // per event: sum of self costs over all parts (saturated)
  bool totals_saturated = false;
  // Per event: the sum of the parts' `summary:` values (a part without one counts with its
  // computed total); nullopt when no part states a summary.
  std::optional<std::vector<std::uint64_t>> summary;
  // Per event, by the rule of totals.h: the stated, summed and program totals (the figure
  // percentages are of), each part's summed over the parts.
  std::vector<summed_totals> program;
  std::uint64_t functions = 0;  // distinct (object, file, name)
  std::uint64_t calls = 0;      // distinct (caller, callee) arcs

  // Functions called for more than their own lines add up to (the note serve and export give,
  // `calls-above-lines` note): per part, in the part's first event, the calls into a function
  // from other functions against its self cost and its calls to other functions. A function
  // of a cycle is no such function (its calls in hold its recursion), so the arcs are given
  // with the candidates for the caller to find the cycles (none when there is no candidate).
  struct call_balance {
    std::uint32_t part = 0, function = 0;  // function: a number of `arcs`
    std::uint64_t line = 0;  // the line of its first record of its own (0: none, only called)
    std::string event;
    std::uint64_t called = 0, lines = 0;
  };
  std::vector<call_balance> calls_above_lines;
  std::vector<std::uint32_t> arc_from, arc_to;  // the distinct arcs, with candidates only
};

// Threads: one thread at a time (a sink); result() once reading is over. Lifetime: result() is a
// copy, independent of the checker.
class CALLTREE_API checker final : public record_sink {
 public:
  checker();
  ~checker() override;
  checker(const checker&) = delete;
  checker& operator=(const checker&) = delete;

  // Sets and sums, not lines: sums per context, jumps too.
  record_needs needs() const override {
    record_needs n;
    n.costs = record_needs::grain::sums_per_context;
    return n;
  }
  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;

  check_result result() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace calltree

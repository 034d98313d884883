// views/call_balance.cc — calls that cost more than their callee's lines (see call_balance.h).
#include "views/call_balance.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "views/session.h"

namespace calltree::views {

std::optional<std::string> calls_above_lines(const session& s) {
  const annotate_data& t = s.t;
  // (none for a file of differences, as check gives none: its sums are signed)
  if (t.recorded.empty() || t.keys() == 0 || s.p.signed_costs) return std::nullopt;
  // Per (part, key): calls in and own lines (self + calls out), in the first event, one part
  // at a time in a table per key (with several parts, each part's rows in turn; the keys it
  // touched are read and cleared). The sums of keys in cycles are made all the same and left
  // out when read. Of equal differences the most is the one called for more, then the one of
  // the first part, then the first key.
  struct sums {
    std::uint64_t in = 0, lines = 0;
  };
  std::vector<sums> of(t.keys());
  std::vector<std::uint32_t> touched;
  auto at = [&](std::uint32_t k) -> sums& {
    sums& x = of[k];
    if (x.in == 0 && x.lines == 0) touched.push_back(k);  // (a repeat of a zero sum is harmless)
    return x;
  };
  auto counted = [&](std::uint32_t k) { return k < t.cycle_of.size() && t.cycle_of[k] == 0; };
  std::size_t count = 0;
  std::uint64_t worst = 0, worst_in = 0, worst_lines = 0;
  std::uint32_t worst_key = 0;
  auto read_touched = [&] {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (std::uint32_t k : touched) {
      const sums x = std::exchange(of[k], sums{});
      if (x.in <= x.lines || !counted(k)) continue;
      ++count;
      if (x.in - x.lines > worst || (x.in - x.lines == worst && x.in > worst_in)) {
        worst = x.in - x.lines;
        worst_in = x.in;
        worst_lines = x.lines;
        worst_key = k;
      }
    }
    touched.clear();
  };
  auto add_call = [&](std::uint32_t ci, std::uint64_t v) {
    const ann_call& c = t.calls[ci];
    if (c.caller == c.callee) return;
    add_saturating(at(c.callee).in, v);
    add_saturating(at(c.caller).lines, v);
  };
  const bool one_part = t.part_self_part.empty() && t.part_call_part.empty();
  if (one_part) {
    for (std::uint32_t k = 0; k < t.keys(); ++k) add_saturating(at(k).lines, t.self.values(k)[0]);
    for (std::uint32_t ci = 0; ci < t.calls.size(); ++ci) add_call(ci, t.call_cc.values(ci)[0]);
    read_touched();
  } else {
    // Each part's rows, by part (a counting sort: the rows are nearly always in part order).
    auto by_part = [](const std::vector<std::uint32_t>& part_of, std::uint32_t parts) {
      std::vector<std::uint32_t> start(parts + 1, 0), order(part_of.size());
      for (std::uint32_t p : part_of) ++start[p + 1];
      for (std::uint32_t p = 0; p < parts; ++p) start[p + 1] += start[p];
      std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
      for (std::uint32_t i = 0; i < part_of.size(); ++i) order[fill[part_of[i]]++] = i;
      return std::pair(std::move(start), std::move(order));
    };
    std::uint32_t parts = 0;
    for (std::uint32_t p : t.part_self_part) parts = std::max(parts, p + 1);
    for (std::uint32_t p : t.part_call_part) parts = std::max(parts, p + 1);
    const auto [self_start, self_order] = by_part(t.part_self_part, parts);
    const auto [call_start, call_order] = by_part(t.part_call_part, parts);
    for (std::uint32_t pt = 0; pt < parts; ++pt) {
      for (std::uint32_t j = self_start[pt]; j < self_start[pt + 1]; ++j) {
        const std::uint32_t i = self_order[j];
        add_saturating(at(t.part_self_key[i]).lines, t.part_self.values(i)[0]);
      }
      for (std::uint32_t j = call_start[pt]; j < call_start[pt + 1]; ++j) {
        const std::uint32_t i = call_order[j];
        add_call(t.part_call_call[i], t.part_call_cc.values(i)[0]);
      }
      read_touched();
    }
  }
  if (!count) return std::nullopt;
  return "[calls-above-lines] " + std::to_string(count) +
         (count == 1 ? " function is called for more than its own lines add up to"
                     : " functions are called for more than their own lines add up to") +
         " (the most: " + std::string(s.name(worst_key)) + ", called for " +
         std::to_string(worst_in) + " " + t.recorded[0] + ", its lines " +
         std::to_string(worst_lines) +
         "); the views keep the file's numbers, and a flame graph leaves the difference as a "
         "gap in the caller's frame";
}

}  // namespace calltree::views

// views/call_balance.cc — calls that cost more than their callee's lines (see call_balance.h).
#include "views/call_balance.h"

#include <vector>

#include "model/row_index.h"
#include "views/session.h"

namespace calltree::views {

std::optional<std::string> calls_above_lines(const session& s) {
  const annotate_data& t = s.t;
  // (none for a file of differences, as check gives none: its sums are signed)
  if (t.recorded.empty() || t.keys() == 0 || s.p.signed_costs) return std::nullopt;
  // Per (part, key): calls in and own lines (self + calls out), in the first event; per key
  // alone with one part (a dense table), else rows found by (part, key) in order of first
  // appearance. The sums of keys in cycles are made all the same and left out when read.
  struct sums {
    std::uint64_t in = 0, lines = 0;
  };
  std::vector<sums> of;
  std::vector<std::uint64_t> row_key;  // per row with several parts: (part, key)
  detail::row_index rows;
  const bool one_part = t.part_self_part.empty() && t.part_call_part.empty();
  if (one_part) of.resize(t.keys());
  auto at = [&](std::uint32_t pt, std::uint32_t k) -> sums& {
    if (one_part) return of[k];
    const std::uint64_t key = (std::uint64_t{pt} << 32) | k;
    const std::uint64_t hash = detail::mix(0, key);
    std::size_t slot = 0;
    std::uint32_t r = rows.find(
        hash, [&](std::uint32_t i) { return row_key[i] == key; }, slot);
    if (r == detail::row_index::empty) {
      r = static_cast<std::uint32_t>(of.size());
      rows.insert(hash, r, slot);
      of.emplace_back();
      row_key.push_back(key);
    }
    return of[r];
  };
  auto counted = [&](std::uint32_t k) { return k < t.cycle_of.size() && t.cycle_of[k] == 0; };
  const std::size_t selfs = one_part ? t.keys() : t.part_self_part.size();
  for (std::size_t i = 0; i < selfs; ++i) {
    const std::uint32_t k = one_part ? static_cast<std::uint32_t>(i) : t.part_self_key[i];
    add_saturating(at(one_part ? 0 : t.part_self_part[i], k).lines,
                   (one_part ? t.self.values(k) : t.part_self.values(i))[0]);
  }
  const std::size_t calls = one_part ? t.calls.size() : t.part_call_part.size();
  for (std::size_t i = 0; i < calls; ++i) {
    const std::uint32_t ci = one_part ? static_cast<std::uint32_t>(i) : t.part_call_call[i];
    const ann_call& c = t.calls[ci];
    if (c.caller == c.callee) continue;
    const std::uint32_t pt = one_part ? 0 : t.part_call_part[i];
    const std::uint64_t v = (one_part ? t.call_cc.values(ci) : t.part_call_cc.values(i))[0];
    add_saturating(at(pt, c.callee).in, v);
    add_saturating(at(pt, c.caller).lines, v);
  }
  // (Of equal differences, the most is the one called for more; then the first.)
  std::size_t count = 0;
  std::uint64_t worst = 0, worst_in = 0, worst_lines = 0;
  std::uint32_t worst_key = 0;
  for (std::size_t r = 0; r < of.size(); ++r) {
    const sums& x = of[r];
    const auto k = one_part ? static_cast<std::uint32_t>(r)
                            : static_cast<std::uint32_t>(row_key[r] & 0xffffffffu);
    if (x.in <= x.lines || !counted(k)) continue;
    ++count;
    if (x.in - x.lines > worst || (x.in - x.lines == worst && x.in > worst_in)) {
      worst = x.in - x.lines;
      worst_in = x.in;
      worst_lines = x.lines;
      worst_key = k;
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

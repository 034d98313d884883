// views/call_balance.cc — calls that cost more than their callee's lines (see call_balance.h).
#include "views/call_balance.h"

#include <unordered_map>

#include "views/session.h"

namespace calltree::views {

std::optional<std::string> calls_above_lines(const session& s) {
  const annotate_data& t = s.t;
  // (none for a file of differences, as check gives none: its sums are signed)
  if (t.recorded.empty() || t.keys() == 0 || s.p.signed_costs) return std::nullopt;
  // Per (part, key): calls in and own lines (self + calls out), in the first event.
  struct sums {
    std::uint64_t in = 0, lines = 0;
  };
  std::unordered_map<std::uint64_t, sums> of;
  auto at = [&](std::uint32_t pt, std::uint32_t k) -> sums& {
    return of[(std::uint64_t{pt} << 32) | k];
  };
  auto counted = [&](std::uint32_t k) { return k < t.cycle_of.size() && t.cycle_of[k] == 0; };
  const bool one_part = t.part_self_part.empty() && t.part_call_part.empty();
  const std::size_t selfs = one_part ? t.keys() : t.part_self_part.size();
  for (std::size_t i = 0; i < selfs; ++i) {
    const std::uint32_t k = one_part ? static_cast<std::uint32_t>(i) : t.part_self_key[i];
    if (!counted(k)) continue;
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
    if (counted(c.callee)) add_saturating(at(pt, c.callee).in, v);
    if (counted(c.caller)) add_saturating(at(pt, c.caller).lines, v);
  }
  std::size_t count = 0;
  std::uint64_t worst = 0, worst_in = 0, worst_lines = 0;
  std::uint32_t worst_key = 0;
  for (const auto& [pk, x] : of) {
    if (x.in <= x.lines) continue;
    ++count;
    if (x.in - x.lines > worst) {
      worst = x.in - x.lines;
      worst_in = x.in;
      worst_lines = x.lines;
      worst_key = static_cast<std::uint32_t>(pk & 0xffffffffu);
    }
  }
  if (!count) return std::nullopt;
  return "[calls-above-lines] " + std::to_string(count) +
         (count == 1 ? " function is called for more than its own lines add up to"
                     : " functions are called for more than their own lines add up to") +
         " (the most: " +
         std::string(s.name(worst_key)) + ", called for " + std::to_string(worst_in) + " " +
         t.recorded[0] + ", its lines " + std::to_string(worst_lines) +
         "); the views keep the file's numbers, and a flame graph leaves the difference as a "
         "gap in the caller's frame";
}

}  // namespace calltree::views

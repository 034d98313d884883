// profile.cc — the profile's own functions (profile.h: an event by name, the totals) and
// self_row_stream's runs of lines. What it does not do: aggregate records (profile_builder.cc)
// or read a file (reader/load_profile.cc).
#include <string>
#include <vector>

#include "calltree/profile_builder.h"
#include "model/builder_access.h"

namespace calltree {

void self_row_stream::take_lines(const profile& p, const self_row& first,
                                 std::span<const cost_line> lines, const std::uint64_t* costs,
                                 std::size_t columns, std::uint64_t) {
  std::vector<self_row> rows(lines.size(), first);
  cost_matrix m;
  m.set_columns(p.events.size());
  m.add_rows(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    rows[i].pos = lines[i].pos;
    auto dst = m.row(i);
    for (std::size_t e = 0; e < columns && e < dst.size(); ++e) dst[e] = costs[i * columns + e];
  }
  take(p, rows, m);
}

std::optional<event_id> profile::find_event(std::string_view name) const {
  for (event_id i : events.ids())
    if (events[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::uint64_t> profile::total() const {
  std::vector<std::uint64_t> t(events.size(), 0);
  for (const auto& pt : parts)
    for (std::size_t i = 0; i < pt.totals.size() && i < t.size(); ++i)
      add_saturating(t[i], pt.totals[i]);
  return t;
}

}  // namespace calltree

// tui/diff_page.cc — the difference of two profiles as a page (tui/pages.h: diff_page).
#include <algorithm>
#include <memory>

#include "pages.h"
#include "report/diff.h"

namespace calltree::tui {
result<page> diff_page(const views::diff_source& src, const diff_state& state, std::size_t width) {
  if (src.compared.empty()) return error{"the two profiles record no event in common"};
  const std::string event = src.compared[std::min(state.event, src.compared.size() - 1)];
  views::diff_query q;
  q.events = {event};
  q.inclusive = state.inclusive;
  q.unchanged = false;
  q.limit = SIZE_MAX;
  if (!state.filter.empty()) {
    auto match = name_filter(state.filter);
    if (!match) return match.error();
    q.filter = state.filter;
    q.match = std::move(*match);
  }
  auto l = views::diff_functions(src, q);
  if (!l) return l.error();
  const std::uint64_t old_total = l->totals_old.empty() ? 0 : l->totals_old[0];
  const std::uint64_t new_total = l->totals_new.empty() ? 0 : l->totals_new[0];
  page p;
  p.title = "Difference: " + std::to_string(l->total_rows) + " functions changed, by " +
            (state.inclusive ? "inclusive" : "self") + " cost of " + event + "; total " +
            with_thousands(old_total) + " -> " + with_thousands(new_total) + " (" +
            signed_delta(old_total, new_total) + ", " + percent_text(old_total, new_total) + ")" +
            (state.filter.empty() ? "" : ", matching /" + state.filter + "/");
  std::size_t w = std::max<std::size_t>(with_thousands(std::max(old_total, new_total)).size(), 5);
  p.header = right("Old", w) + "  " + right("New", w) + "  " + right("Change", w + 1) + "  " +
             right("%", 9) + "  Function";
  for (const auto& row : l->rows) {
    const function_key& f = l->table->r.functions[function_diff_id{row.function}].key;
    const std::uint64_t o = state.inclusive ? row.inclusive_old[0] : row.self_old[0];
    const std::uint64_t n = state.inclusive ? row.inclusive_new[0] : row.self_new[0];
    line x;
    std::string name = f.name;
    if (!f.object.empty()) {
      const auto slash = f.object.rfind('/');
      name += " [" + (slash == std::string::npos ? f.object : f.object.substr(slash + 1)) + "]";
    }
    if (row.change == function_change::added) name += "  (new)";
    if (row.change == function_change::removed) name += "  (gone)";
    x.text = right(row.change == function_change::added ? "-" : with_thousands(o), w) + "  " +
             right(row.change == function_change::removed ? "-" : with_thousands(n), w) + "  " +
             right(signed_delta(o, n), w + 1) + "  " + right(percent_text(o, n), 9) + "  " + name;
    x.look = n > o ? tone::grew : n < o ? tone::shrank : tone::plain;
    if (row.new_id != views::no_key) {
      x.function = row.new_id;
    } else if (row.old_id != views::no_key) {
      x.function = row.old_id;
      x.old_side = true;
    }
    p.lines.push_back(std::move(x));
  }
  if (p.lines.empty()) p.note = state.filter.empty() ? "No function changed." : "No name matches.";
  for (auto& x : p.lines) x.text = fit(x.text, width);
  return p;
}

}  // namespace calltree::tui

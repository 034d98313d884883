// export/stacks.cc — the estimate's tree for the exports, or the file's recorded stacks (see
// stacks.h).
#include "export/stacks.h"

#include <algorithm>
#include <cctype>

#include "views/flame.h"
#include "views/session.h"

namespace calltree::exporting {

result<views::column_set> export_columns(const views::session& s, const export_options& o) {
  for (std::uint32_t p : o.parts)
    if (p >= s.p.parts.size())
      return error{"--part=" + std::to_string(p + 1) + " but the profile has " +
                   std::to_string(s.p.parts.size()) + " part(s)"};
  auto cols = views::resolve_columns(s, o.events, {});
  if (!cols) return cols.error();
  if (cols->size() == 0) return error{"the profile has no events"};
  return cols;
}

result<stacks> make_stacks(const views::session& s, const export_options& o) {
  auto cols = export_columns(s, o);
  if (!cols) return cols.error();
  views::flame_query q;
  q.parts = o.parts;
  q.events = o.events;
  q.min_share = o.min_share.value_or(views::exact_min_share);
  q.max_frames = o.max_frames.value_or(views::exact_max_frames);
  q.merge = false;
  q.exact_self = true;
  q.filter = o.filter;
  auto f = views::flame(s, q);
  if (!f) return f.error();
  stacks out;
  // A file's recorded stacks come whole (views::flame: exact_self takes the tree uncut): cut
  // only where asked (export.h).
  out.recorded = f->recorded;
  if (f->recorded && (o.min_share || o.max_frames))
    f->tree = cut_paths(f->tree, 0, o.min_share.value_or(0),
                        o.max_frames.value_or(views::exact_max_frames));
  // A file's summary: (or totals:) line may state more than its functions' costs (Xdebug's
  // does): the stacks hold the functions' costs, and say so.
  if (!f->costs->totals_calculated() && f->tree.events) {
    for (std::size_t c = 0; c < f->columns.size(); ++c) {
      const std::uint64_t stated = f->columns.columns[c].value(f->costs->totals());
      std::uint64_t sum = 0;
      for (std::size_t fr = 0; fr < f->tree.frames(); ++fr)
        if (f->tree.depth[fr] == 0) sum += f->tree.total.row(fr)[c];
      if (f->filtered) sum = f->filtered->total[c];  // (the stacks' total before the filter)
      if (stated != sum)
        f->columns.warnings.push_back("the file states a total of " + std::to_string(stated) + " " +
                                      f->columns.columns[c].name +
                                      " but its functions' costs sum to " + std::to_string(sum) +
                                      ": the export's total is their sum");
    }
  }
  out.columns = std::move(f->columns);
  out.costs = std::move(f->costs);
  out.tree = std::move(f->tree);
  out.filtered = std::move(f->filtered);
  out.renamed = std::move(f->renamed);
  return out;
}

std::string_view stacks::name(const views::session& s, std::uint32_t k) const {
  if (renamed.empty()) return s.name(k);
  auto it = std::lower_bound(renamed.begin(), renamed.end(), k,
                             [](const auto& a, std::uint32_t b) { return a.first < b; });
  return it != renamed.end() && it->first == k ? std::string_view(it->second) : s.name(k);
}

void note_filtered(export_report& report, const stacks& st) {
  if (!st.filtered) return;
  if (!report.filtered) report.filtered.emplace();
  views::filter_summary& r = *report.filtered;
  // (By event name: speedscope makes a tree per event, chrome and speedscope one per part.)
  for (std::size_t c = 0; c < st.columns.size() && c < st.filtered->total.size(); ++c) {
    const std::string& name = st.columns.columns[c].name;
    auto at = std::find(report.filtered_events.begin(), report.filtered_events.end(), name);
    const auto i = static_cast<std::size_t>(at - report.filtered_events.begin());
    if (at == report.filtered_events.end()) {
      report.filtered_events.push_back(name);
      r.total.push_back(0);
      r.dropped.push_back(0);
    }
    add_saturating(r.total[i], st.filtered->total[c]);
    add_saturating(r.dropped[i], st.filtered->dropped[c]);
  }
  r.focus_matched |= st.filtered->focus_matched;
  r.ignore_matched |= st.filtered->ignore_matched;
  r.hide_matched |= st.filtered->hide_matched;
  r.show_matched |= st.filtered->show_matched;
  r.focus_path_matched |= st.filtered->focus_path_matched;
}

std::vector<std::uint32_t> ancestors(const path_tree& tree, std::size_t f) {
  std::vector<std::uint32_t> up;
  for (auto a = tree.parent[f]; a != path_tree::no_frame; a = tree.parent[a]) up.push_back(a);
  return {up.rbegin(), up.rend()};
}

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// A unit word -> pprof's unit and the factor to it ("10ns": nanoseconds, 10).
bool unit_word(std::string_view w, std::string& unit, std::uint64_t& scale) {
  std::uint64_t n = 0;
  std::size_t i = 0;
  while (i < w.size() && w[i] >= '0' && w[i] <= '9' && n < 1000000) n = n * 10 + (w[i++] - '0');
  scale = i ? (n ? n : 1) : 1;
  w.remove_prefix(i);
  struct {
    std::string_view word, unit;
  } const words[] = {{"ns", "nanoseconds"},  {"nanoseconds", "nanoseconds"},
                     {"us", "microseconds"}, {"microseconds", "microseconds"},
                     {"ms", "milliseconds"}, {"milliseconds", "milliseconds"},
                     {"s", "seconds"},       {"seconds", "seconds"},
                     {"bytes", "bytes"},     {"b", "bytes"},
                     {"kb", "kilobytes"},    {"kilobytes", "kilobytes"}};
  for (const auto& x : words)
    if (iequals(w, x.word)) {
      unit = x.unit;
      return true;
    }
  return false;
}

}  // namespace

event_unit unit_of(std::string_view event) {
  event_unit u;
  u.type = std::string(event);
  u.unit = "count";
  // NAME(UNIT) or NAME_(UNIT): Xdebug's Time_(10ns), go pprof's cpu(ms).
  if (auto open = event.rfind('('); open != std::string_view::npos && event.back() == ')') {
    std::string unit;
    std::uint64_t scale = 1;
    if (unit_word(event.substr(open + 1, event.size() - open - 2), unit, scale)) {
      std::string_view type = event.substr(0, open);
      while (!type.empty() && type.back() == '_') type.remove_suffix(1);
      if (!type.empty()) u.type = std::string(type);
      u.unit = unit;
      u.scale = scale;
    }
    return u;
  }
  // A unit as the whole name: pyprof2calltree's `ns`, pprofile's `microseconds`.
  std::string unit;
  std::uint64_t scale = 1;
  if (unit_word(event, unit, scale) && scale == 1 && unit != "bytes" && event.size() > 1) {
    u.unit = unit;
  }
  return u;
}

std::uint64_t scaled(std::uint64_t n, std::uint64_t scale) {
  if (scale > 1 && n > UINT64_MAX / scale) return UINT64_MAX;
  return n * scale;
}

namespace {
// Where the caller context of a callgrind name begins: after the first "'", or after a
// recursion level right after the name ("f'2'g'h": level 2 of f, called from g, from h);
// npos when there is none.
std::size_t context_at(std::string_view name, std::size_t& level_at) {
  const auto tick = name.find('\'');
  level_at = std::string_view::npos;
  if (tick == std::string_view::npos || tick == 0) return std::string_view::npos;
  const auto next = name.find('\'', tick + 1);
  const std::string_view first = name.substr(tick + 1, next - tick - 1);
  if (!first.empty() && first.find_first_not_of("0123456789") == std::string_view::npos) {
    level_at = tick;
    return next == std::string_view::npos ? next : next + 1;
  }
  return tick + 1;
}
}  // namespace

std::string_view stack_frame_name(std::string_view name, std::string_view parent) {
  std::size_t level = 0, parent_level = 0;
  const std::size_t at = context_at(name, level);
  if (at == std::string_view::npos || parent.empty()) return name;
  const std::string_view context = name.substr(at);
  // The callers are named without their recursion levels: the parent's is left out of the
  // comparison ("cyc_b'2'cyc_a'cyc_c" under "cyc_a'2'cyc_c'cyc_b").
  context_at(parent, parent_level);
  std::string_view head = parent, tail;
  if (parent_level != std::string_view::npos) {
    const auto end = parent.find('\'', parent_level + 1);
    head = parent.substr(0, parent_level);
    tail = end == std::string_view::npos ? std::string_view() : parent.substr(end);
  }
  // Does head + tail start with `context`, up to a "'" or the end?
  bool implied;
  if (context.size() <= head.size()) {
    implied = head.starts_with(context) &&
              (context.size() == head.size() ? tail.empty() || tail[0] == '\''
                                             : head[context.size()] == '\'');
  } else {
    const std::string_view rest = context.substr(head.size());
    implied = context.starts_with(head) && tail.starts_with(rest) &&
              (tail.size() == rest.size() || tail[rest.size()] == '\'');
  }
  return implied ? name.substr(0, at - 1) : name;
}

}  // namespace calltree::exporting

// views/columns.cc — event columns of a query (see columns.h).
#include "views/columns.h"

#include <algorithm>

#include "views/session.h"

namespace calltree::views {

std::uint64_t column::value(const std::uint64_t* row) const {
  if (recorded) return row[index];
  return combination.evaluate(std::span<const std::uint64_t>(row, index));
}

std::size_t column_set::find(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == name) return i;
  return std::string_view::npos;
}

result<std::size_t> column_set::weight_column(std::string_view event) const {
  if (event.empty()) return std::size_t{0};
  const std::size_t c = find(event);
  if (c == std::string_view::npos)
    return error{"event '" + std::string(event) + "' is not one of the columns shown"};
  return c;
}

namespace {

std::string definition_name(std::string_view d) {
  std::string n(d.substr(0, d.find('=')));
  while (!n.empty() && (n.back() == ' ' || n.back() == '\t')) n.pop_back();
  while (!n.empty() && (n.front() == ' ' || n.front() == '\t')) n.erase(n.begin());
  return n;
}

}  // namespace

std::vector<std::string> known_events(const session& s, std::span<const std::string> derived) {
  std::vector<std::string> out = s.t.recorded;
  auto add = [&](const std::string& n) {
    if (!n.empty() && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const event_type& e : s.p.events)
    if (!e.recorded && !e.formula.empty()) add(e.name);
  for (const auto& d : s.options.event_definitions) add(definition_name(d));
  for (const auto& d : derived) add(definition_name(d));
  return out;
}

result<column_set> resolve_columns(const session& s, std::span<const std::string> names,
                                   std::span<const std::string> derived) {
  std::vector<std::string> wanted;
  if (names.empty())
    wanted = known_events(s, derived);
  else
    wanted.assign(names.begin(), names.end());
  std::vector<std::string> definitions = s.options.event_definitions;
  definitions.insert(definitions.end(), derived.begin(), derived.end());
  column_set out;
  const std::size_t nrec = s.columns.nrec;
  for (const auto& n : wanted) {
    column c;
    c.name = n;
    if (auto it = std::find(s.t.recorded.begin(), s.t.recorded.end(), n);
        it != s.t.recorded.end()) {
      c.recorded = true;
      c.index = static_cast<std::size_t>(it - s.t.recorded.begin());
    } else {
      auto r = resolve_events(s.p, std::span<const std::string>(&n, 1), definitions);
      if (!r) {
        // (resolve_events names the event already when the fault is in its formula)
        const std::string named = "event '" + n + "'";
        const std::string& m = r.error().message;
        return error{m.compare(0, named.size(), named) == 0 ? m : named + ": " + m};
      }
      for (auto& w : r->warnings) out.warnings.push_back(std::move(w));
      c.combination.name = n;
      // Profile event ids -> the tables' recorded columns.
      for (auto [id, f] : r->events.front().terms) {
        auto at = std::find(s.columns.rec_ids.begin(), s.columns.rec_ids.end(), id);
        if (at != s.columns.rec_ids.end())
          c.combination.terms.emplace_back(static_cast<event_id>(at - s.columns.rec_ids.begin()),
                                           f);
      }
      c.index = nrec;  // (the row's width for evaluate)
      for (const auto& d : definitions)
        if (definition_name(d) == n) c.formula = d.substr(d.find('=') + 1);
      if (c.formula.empty()) {
        for (const event_type& e : s.p.events)
          if (e.name == n) c.formula = e.formula;
        if (c.formula.empty()) c.formula = std::string(builtin_event_formula(n));
      }
      while (!c.formula.empty() && c.formula.front() == ' ') c.formula.erase(c.formula.begin());
    }
    for (const event_type& e : s.p.events)
      if (e.name == n) c.long_name = e.long_name;
    out.columns.push_back(std::move(c));
  }
  return out;
}

}  // namespace calltree::views

// derived_events.cc — formula parsing and resolution; the grammar is in the header.
#include "calltree/analysis/derived_events.h"

#include <algorithm>
#include <map>

namespace calltree {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return !is_space(c) && c != '+' && c != '-' && c != '*'; }

}  // namespace

result<std::vector<formula_term>> parse_event_formula(std::string_view text) {
  std::vector<formula_term> terms;
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
  };
  skip();
  if (i == text.size()) return error{"empty formula"};
  bool first = true;
  while (i < text.size()) {
    formula_term t;
    if (text[i] == '+' || text[i] == '-') {
      if (text[i] == '-') t.factor = -1;
      ++i;
      skip();
    } else if (!first) {
      return error{"expected '+' or '-' at column " + std::to_string(i + 1) + " of '" +
                   std::string(text) + "'"};
    }
    first = false;
    std::size_t digits = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i > digits) {
      std::int64_t f = 0;
      for (std::size_t k = digits; k < i; ++k) {
        if (f > (INT64_MAX - 9) / 10)
          return error{"factor too large in '" + std::string(text) + "'"};
        f = f * 10 + (text[k] - '0');
      }
      t.factor *= f;
      skip();
      if (i < text.size() && text[i] == '*') {
        ++i;
        skip();
      }
    }
    std::size_t name = i;
    while (i < text.size() && is_name_char(text[i])) ++i;
    if (i == name)
      return error{"expected an event name at column " + std::to_string(name + 1) + " of '" +
                   std::string(text) + "'"};
    t.name = std::string(text.substr(name, i - name));
    terms.push_back(std::move(t));
    skip();
  }
  return terms;
}

std::string_view builtin_event_formula(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> table[] = {
      {"L1m", "I1mr + D1mr + D1mw"},
      {"L2m", "I2mr + D2mr + D2mw"},
      {"LLm", "ILmr + DLmr + DLmw"},
      {"Bm", "Bim + Bcm"},
      {"CEst", "Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm"},
  };
  for (const auto& [n, f] : table)
    if (n == name) return f;
  return {};
}

__extension__ typedef __int128 int128;

std::uint64_t linear_event::evaluate(std::span<const std::uint64_t> costs) const {
  int128 v = 0;
  for (const auto& [e, f] : terms)
    if (e.index() < costs.size()) v += static_cast<int128>(costs[e.index()]) * f;
  if (v < 0) return 0;
  if (v > static_cast<int128>(UINT64_MAX)) return UINT64_MAX;
  return static_cast<std::uint64_t>(v);
}

std::vector<std::string> recorded_event_names(const profile& p) {
  std::vector<std::string> names;
  for (const auto& part : p.parts)
    for (const auto& e : part.header.events)
      if (std::find(names.begin(), names.end(), e) == names.end()) names.push_back(e);
  if (names.empty())
    for (const auto& e : p.events)
      if (e.recorded) names.push_back(e.name);
  return names;
}

namespace {

struct resolver {
  const profile& p;
  std::map<std::string, std::string, std::less<>> user;  // NAME -> formula
  std::map<std::string, std::vector<std::pair<event_id, std::int64_t>>, std::less<>> done;
  std::vector<std::string> in_progress;
  std::vector<std::string>& warnings;

  bool recorded(std::string_view name, event_id& id) const {
    const std::optional<event_id> e = p.find_event(name);
    if (!e || !p.events[*e].recorded) return false;
    id = *e;
    return true;
  }

  std::string_view formula_of(std::string_view name) const {
    const std::optional<event_id> id = p.find_event(name);
    if (id && !p.events[*id].formula.empty()) return p.events[*id].formula;
    if (auto it = user.find(name); it != user.end()) return it->second;
    return builtin_event_formula(name);
  }

  // Expands `name`; `top` names must exist, inner unknown names count as 0.
  result<std::vector<std::pair<event_id, std::int64_t>>> expand(std::string_view name, bool top) {
    event_id id;
    if (recorded(name, id)) return std::vector<std::pair<event_id, std::int64_t>>{{id, 1}};
    if (auto it = done.find(name); it != done.end()) return it->second;
    std::string_view f = formula_of(name);
    if (f.empty()) {
      if (top) return error{"event '" + std::string(name) + "' is neither recorded nor defined"};
      warnings.push_back("event '" + std::string(name) + "' is unknown; counted as 0");
      return std::vector<std::pair<event_id, std::int64_t>>{};
    }
    if (std::find(in_progress.begin(), in_progress.end(), name) != in_progress.end())
      return error{"event '" + std::string(name) + "' is defined in terms of itself"};
    auto terms = parse_event_formula(f);
    if (!terms) return error{"event '" + std::string(name) + "': " + terms.error().message};
    in_progress.emplace_back(name);
    std::vector<std::pair<event_id, std::int64_t>> out;
    for (const auto& t : *terms) {
      auto sub = expand(t.name, false);
      if (!sub) return sub.error();
      for (const auto& term : *sub) {
        const event_id e = term.first;
        auto it = std::find_if(out.begin(), out.end(), [e](auto& x) { return x.first == e; });
        if (it == out.end())
          out.emplace_back(e, term.second * t.factor);
        else
          it->second += term.second * t.factor;
      }
    }
    in_progress.pop_back();
    std::sort(out.begin(), out.end());
    done.emplace(std::string(name), out);
    return out;
  }
};

}  // namespace

result<event_resolution> resolve_events(const profile& p, std::span<const std::string> names,
                                        std::span<const std::string> extra_definitions) {
  event_resolution r;
  resolver rs{p, {}, {}, {}, r.warnings};
  for (const auto& d : extra_definitions) {
    auto eq = d.find('=');
    if (eq == std::string::npos) return error{"event definition '" + d + "' has no '='"};
    std::string n = d.substr(0, eq);
    while (!n.empty() && is_space(n.back())) n.pop_back();
    while (!n.empty() && is_space(n.front())) n.erase(n.begin());
    if (n.empty()) return error{"event definition '" + d + "' has no name"};
    rs.user[n] = d.substr(eq + 1);
  }
  for (const auto& n : names) {
    auto t = rs.expand(n, true);
    if (!t) return t.error();
    r.events.push_back({n, std::move(*t)});
  }
  return r;
}

}  // namespace calltree

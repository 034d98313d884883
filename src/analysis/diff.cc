// diff.cc — function-by-function difference of two profiles (see analysis/diff.h).
#include "calltree/analysis/diff.h"
#include "calltree/cost_matrix.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "calltree/analysis/inclusive.h"
#include "analysis/inclusive_solver.h"
#include "model/row_index.h"

namespace calltree {

std::string_view to_string(function_change c) {
  switch (c) {
    case function_change::unchanged:
      return "unchanged";
    case function_change::changed:
      return "changed";
    case function_change::added:
      return "added";
    case function_change::removed:
      return "removed";
  }
  return "?";
}

std::size_t diff_result::count(function_change c) const {
  return static_cast<std::size_t>(std::count_if(
      functions.begin(), functions.end(), [c](const function_diff& f) { return f.change == c; }));
}

std::optional<event_id> diff_result::find_event(std::string_view name) const {
  for (std::size_t i = 0; i < events.size(); ++i)
    if (events[i] == name) return event_id{i};
  return std::nullopt;
}

namespace {
// A cost's value: signed where the thread sums signed (profiles of differences, cost_matrix.h).
double value_of(std::uint64_t v, bool signed_costs) {
  return signed_costs ? static_cast<double>(as_signed(v)) : static_cast<double>(v);
}
}  // namespace

std::optional<double> percent_change(std::uint64_t old_value, std::uint64_t new_value) {
  if (old_value == 0) {
    if (new_value == 0) return 0.0;
    return std::nullopt;
  }
  const bool sgn = signed_costs_here();
  double o = value_of(old_value, sgn), n = value_of(new_value, sgn);
  return (n - o) * 100.0 / (o < 0 ? -o : o);  // (of a negative old value: its magnitude)
}

namespace {

// The matched functions of both sides, each (object, file, name) once, found by a hash of the
// three names (an index of row numbers: no joined copy of the names per key).
class key_table {
 public:
  std::uint32_t intern(std::string_view o, std::string_view f, std::string_view n) {
    const std::uint64_t h = detail::mix(detail::mix(detail::mix(0, hash_(o)), hash_(f)), hash_(n));
    std::size_t slot;
    std::uint32_t row = index_.find(
        h,
        [&](std::uint32_t i) {
          const function_key& k = keys_[i];
          return k.name == n && k.file == f && k.object == o;
        },
        slot);
    if (row != detail::row_index::empty) return row;
    row = static_cast<std::uint32_t>(keys_.size());
    keys_.push_back(function_key{std::string(o), std::string(f), std::string(n)});
    index_.insert(h, row, slot);
    return row;
  }
  const std::vector<function_key>& keys() const { return keys_; }

 private:
  std::hash<std::string_view> hash_;
  detail::row_index index_;
  std::vector<function_key> keys_;
};

// One side of the diff: the profile, its names as matched, and its event columns.
class side {
 public:
  side(const profile& p, const match_options& match, std::optional<part_id> part,
       const std::vector<part_id>& parts = {})
      : p_(p), names_(p.strings, match), part_(part) {
    if (!part_ && !parts.empty()) {
      some_.assign(p.parts.size(), 0);
      for (part_id n : parts)
        if (n.index() < some_.size()) some_[n.index()] = 1;
    }
  }

  const profile& prof() const { return p_; }
  bool selected(part_id part) const {
    if (part_) return *part_ == part;
    return some_.empty() || (part.index() < some_.size() && some_[part.index()]);
  }

  // The key index of function `f`, interned into `keys` on first use.
  std::uint32_t node(function_id f, key_table& keys) {
    if (node_of_.empty()) node_of_.assign(p_.functions.size(), unset);
    std::uint32_t& node = node_of_[f.index()];
    if (node == unset) {
      const function& fn = p_.functions[f];
      node = keys.intern(names_.object(p_.objects[fn.object].name),
                         names_.file(p_.files[fn.file].name), names_.function(fn.name));
    }
    return node;
  }
  std::string_view file_name(file_id f) { return names_.file(p_.files[f].name); }

 private:
  static constexpr std::uint32_t unset = 0xffffffffu;
  const profile& p_;
  name_rewriter names_;
  std::optional<part_id> part_;
  std::vector<char> some_;  // the parts selected by diff_options::parts; empty: all
  std::vector<std::uint32_t> node_of_;
};

// Copies the columns `cols` of `row` (profile event ids) into a vector in compared-event order.
std::vector<std::uint64_t> pick(std::span<const std::uint64_t> row,
                                const std::vector<event_id>& cols) {
  std::vector<std::uint64_t> v(cols.size(), 0);
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i].index() < row.size()) v[i] = row[cols[i].index()];
  return v;
}

bool recorded(const profile& p, std::string_view name) {
  for (const auto& e : p.events)
    if (e.recorded && e.name == name) return true;
  return false;
}

}  // namespace

result<diff_result> diff_profiles(const profile& old_profile, const profile& new_profile,
                                  const diff_options& options) {
  // Signed where either profile holds differences, whatever the thread's last reading left.
  signed_costs_scope sums(old_profile.signed_costs || new_profile.signed_costs);
  if (options.part) {
    const std::uint32_t n = options.part->index();
    if (n >= old_profile.parts.size() || n >= new_profile.parts.size())
      return error{"part " + std::to_string(n + 1) + " does not exist (the old profile has " +
                   std::to_string(old_profile.parts.size()) + " parts, the new one " +
                   std::to_string(new_profile.parts.size()) + ")"};
  }
  for (part_id id : options.part ? std::vector<part_id>{} : options.parts)
    if (const std::uint32_t n = id.index();
        n >= old_profile.parts.size() || n >= new_profile.parts.size())
      return error{"part " + std::to_string(n + 1) + " does not exist (the old profile has " +
                   std::to_string(old_profile.parts.size()) + " parts, the new one " +
                   std::to_string(new_profile.parts.size()) + ")"};
  diff_result r;
  r.parts_old = old_profile.parts.size();
  r.parts_new = new_profile.parts.size();

  // Events: recorded in both, in the old profile's order.
  std::vector<event_id> cols_old, cols_new;
  for (event_id e : old_profile.events.ids()) {
    const auto& ev = old_profile.events[e];
    if (!ev.recorded) continue;
    const std::optional<event_id> other = new_profile.find_event(ev.name);
    if (other && new_profile.events[*other].recorded) {
      r.events.push_back(ev.name);
      cols_old.push_back(e);
      cols_new.push_back(*other);
    } else {
      r.old_only_events.push_back(ev.name);
    }
  }
  for (const auto& ev : new_profile.events)
    if (ev.recorded && !recorded(old_profile, ev.name)) r.new_only_events.push_back(ev.name);

  // Program totals of the selected parts.
  auto totals = [&](const profile& p, const std::vector<event_id>& cols) {
    if (options.part) return pick(p.parts[*options.part].totals, cols);
    if (options.parts.empty()) return pick(p.total(), cols);
    std::vector<std::uint64_t> t(p.events.size(), 0);
    for (part_id n : options.parts)
      for (std::size_t i = 0; i < p.parts[n].totals.size() && i < t.size(); ++i) {
        add_saturating(t[i], p.parts[n].totals[i]);
      }
    return pick(t, cols);
  };
  r.total_old = totals(old_profile, cols_old);
  r.total_new = totals(new_profile, cols_new);

  // Keys of every function named by a selected row, on both sides.
  key_table keys;
  side sides[2] = {side(old_profile, options.match, options.part, options.parts),
                   side(new_profile, options.match, options.part, options.parts)};
  std::vector<std::uint8_t> present;  // bit 0: old, bit 1: new
  auto mark = [&](std::uint32_t node, int s) {
    if (present.size() <= node) present.resize(node + 1, 0);
    present[node] = static_cast<std::uint8_t>(present[node] | (1 << s));
  };
  for (int s = 0; s < 2; ++s) {
    side& sd = sides[s];
    const profile& p = sd.prof();
    for (const auto& row : p.self_rows)
      if (sd.selected(row.part)) mark(sd.node(row.function, keys), s);
    for (const auto& row : p.calls)
      if (sd.selected(row.part)) {
        mark(sd.node(row.caller, keys), s);
        mark(sd.node(row.callee, keys), s);
      }
  }
  const std::size_t nodes = keys.keys().size();
  present.resize(nodes, 0);

  // Self and inclusive costs per matched function.
  inclusive_result solved[2];
  for (int s = 0; s < 2; ++s) {
    side& sd = sides[s];
    const profile& p = sd.prof();
    inclusive_solver solver(nodes, p.events.size());
    solver.reserve(p.self_rows.size(), p.calls.size());
    for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
      const auto& row = p.self_rows[i];
      if (sd.selected(row.part))
        solver.add_self(row.part.index(), sd.node(row.function, keys), p.self_costs.row(i));
    }
    for (std::size_t i = 0; i < p.calls.size(); ++i) {
      const auto& row = p.calls[i];
      if (sd.selected(row.part))
        solver.add_call(row.part.index(), sd.node(row.caller, keys), sd.node(row.callee, keys),
                        row.count, p.call_costs.row(i));
    }
    solved[s] = solver.solve();
    r.saturated = r.saturated || solved[s].saturated;
  }

  r.functions.reserve(nodes);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    const bool in_old = present[n] & 1, in_new = present[n] & 2;
    if (!in_old && !in_new) continue;
    r.functions_old += in_old;
    r.functions_new += in_new;
    function_diff f;
    f.key = keys.keys()[n];
    f.self_old = pick(solved[0].self.row(n), cols_old);
    f.inclusive_old = pick(solved[0].inclusive.row(n), cols_old);
    f.self_new = pick(solved[1].self.row(n), cols_new);
    f.inclusive_new = pick(solved[1].inclusive.row(n), cols_new);
    if (!in_new)
      f.change = function_change::removed;
    else if (!in_old)
      f.change = function_change::added;
    else if (f.self_old != f.self_new || f.inclusive_old != f.inclusive_new)
      f.change = function_change::changed;
    r.functions.push_back(std::move(f));
  }
  return r;
}

namespace {

// |b - a|, of signed values where the thread sums signed (it fits: at most 2^64-1).
std::uint64_t abs_delta(std::uint64_t a, std::uint64_t b) {
  if (signed_costs_here())  // (the modular difference is exact: it is below 2^64)
    return as_signed(b) >= as_signed(a) ? b - a : a - b;
  return a > b ? a - b : b - a;
}

}  // namespace

diff_selection select_functions(const diff_result& r, const diff_ranking& ranking) {
  diff_selection sel;
  std::vector<std::size_t> sort_events;  // (their indexes)
  for (event_id e : ranking.sort_events) sort_events.push_back(e.index());
  if (sort_events.empty() && !r.events.empty()) sort_events.push_back(0);
  auto values = [&](const function_diff& f, std::size_t e) {
    return ranking.inclusive ? std::pair{f.inclusive_old[e], f.inclusive_new[e]}
                             : std::pair{f.self_old[e], f.self_new[e]};
  };
  std::vector<function_diff_id> candidates;
  for (function_diff_id i : r.functions.ids()) {
    const auto& f = r.functions[i];
    if (f.change == function_change::unchanged) continue;
    if (!sort_events.empty() && ranking.threshold_percent > 0) {
      const std::size_t e = sort_events.front();
      const std::uint64_t base = r.total_old[e] ? r.total_old[e] : r.total_new[e];
      auto [o, n] = values(f, e);
      if (static_cast<double>(abs_delta(o, n)) * 100.0 <
          ranking.threshold_percent * static_cast<double>(abs_delta(0, base))) {
        ++sel.below_threshold;
        continue;
      }
    }
    candidates.push_back(i);
  }
  std::sort(candidates.begin(), candidates.end(), [&](function_diff_id a, function_diff_id b) {
    const auto& fa = r.functions[a];
    const auto& fb = r.functions[b];
    for (std::size_t e : sort_events) {
      auto [ao, an] = values(fa, e);
      auto [bo, bn] = values(fb, e);
      const std::uint64_t da = abs_delta(ao, an), db = abs_delta(bo, bn);
      if (da != db) return da > db;
    }
    return std::tie(fa.key.name, fa.key.object, fa.key.file) <
           std::tie(fb.key.name, fb.key.object, fb.key.file);
  });
  if (ranking.limit && candidates.size() > ranking.limit) {
    sel.beyond_limit = candidates.size() - ranking.limit;
    candidates.resize(ranking.limit);
  }
  sel.listed = std::move(candidates);
  return sel;
}

std::vector<gate_failure> check_gate(const diff_result& r, const diff_selection& selection,
                                     const diff_ranking& ranking, const diff_gate& gate) {
  std::vector<gate_failure> out;
  const std::size_t e = gate.event.index();
  if (e >= r.events.size()) return out;
  auto fails = [&](std::uint64_t o, std::uint64_t n, std::optional<double>& pct) {
    if (signed_costs_here() ? as_signed(n) <= as_signed(o) : n <= o) return false;
    pct = percent_change(o, n);
    return !pct || *pct > gate.percent;
  };
  gate_failure total;
  total.event = gate.event;
  total.old_value = r.total_old[e];
  total.new_value = r.total_new[e];
  if (fails(total.old_value, total.new_value, total.percent)) out.push_back(total);
  if (gate.per_function) {
    for (function_diff_id i : selection.listed) {
      const auto& f = r.functions[i];
      gate_failure g;
      g.function = i;
      g.event = gate.event;
      g.old_value = ranking.inclusive ? f.inclusive_old[e] : f.self_old[e];
      g.new_value = ranking.inclusive ? f.inclusive_new[e] : f.self_new[e];
      if (fails(g.old_value, g.new_value, g.percent)) out.push_back(g);
    }
  }
  return out;
}

std::vector<function_detail> diff_function(const profile& old_profile, const profile& new_profile,
                                           const diff_result& r, std::string_view name,
                                           const diff_options& options) {
  signed_costs_scope sums(old_profile.signed_costs || new_profile.signed_costs);
  // The functions asked for, by key.
  std::vector<function_diff_id> wanted;
  for (function_diff_id i : r.functions.ids()) {
    const auto& k = r.functions[i].key;
    if (k.name == name ||
        (name.size() == k.file.size() + 1 + k.name.size() && name.starts_with(k.file) &&
         name[k.file.size()] == ':' && name.ends_with(k.name)))
      wanted.push_back(i);
  }
  std::vector<function_detail> out;
  if (wanted.empty()) return out;

  std::vector<event_id> cols[2];
  const profile* profs[2] = {&old_profile, &new_profile};
  for (const auto& ev : r.events)
    for (int s = 0; s < 2; ++s) cols[s].push_back(*profs[s]->find_event(ev));  // (in both)
  const std::size_t ne = r.events.size();

  // Keys of both sides in one table; the wanted functions are found by key.
  key_table keys;
  std::unordered_map<std::uint32_t, std::size_t> detail_of;  // node -> index into `out`
  for (function_diff_id w : wanted) {
    const auto& k = r.functions[w].key;
    detail_of.emplace(keys.intern(k.object, k.file, k.name), out.size());
    function_detail d;
    d.function = w;
    out.push_back(std::move(d));
  }
  side sides[2] = {side(old_profile, options.match, options.part),
                   side(new_profile, options.match, options.part)};

  // Positions: line numbers, unless no row of the function has one (--dump-line=no, or no
  // debug info) and the profiles have instruction addresses.
  std::vector<bool> has_line(out.size(), false);
  for (int s = 0; s < 2; ++s) {
    side& sd = sides[s];
    const profile& p = *profs[s];
    for (const auto& row : p.self_rows)
      if (row.pos.line && sd.selected(row.part))
        if (auto it = detail_of.find(sd.node(row.function, keys)); it != detail_of.end())
          has_line[it->second] = true;
    for (const auto& row : p.calls)
      if (row.site.line && sd.selected(row.part))
        if (auto it = detail_of.find(sd.node(row.caller, keys)); it != detail_of.end())
          has_line[it->second] = true;
  }
  const bool have_instr = (old_profile.positions | new_profile.positions) & pos_instr;
  for (std::size_t d = 0; d < out.size(); ++d) out[d].by_instr = have_instr && !has_line[d];

  using line_key = std::tuple<std::string, std::uint64_t>;
  using call_key = std::tuple<std::string, std::uint64_t, std::uint32_t>;
  std::vector<std::map<line_key, line_diff>> lines(out.size());
  std::vector<std::map<call_key, call_site_diff>> calls(out.size());

  auto add = [](std::vector<std::uint64_t>& into, std::span<const std::uint64_t> row,
                const std::vector<event_id>& c) {
    for (std::size_t e = 0; e < c.size(); ++e)
      if (c[e].index() < row.size()) add_saturating(into[e], row[c[e].index()]);
  };
  for (int s = 0; s < 2; ++s) {
    side& sd = sides[s];
    const profile& p = *profs[s];
    for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
      const auto& row = p.self_rows[i];
      if (!sd.selected(row.part)) continue;
      auto it = detail_of.find(sd.node(row.function, keys));
      if (it == detail_of.end()) continue;
      const std::uint64_t pos = out[it->second].by_instr ? row.pos.instr : row.pos.line;
      auto [ld, inserted] =
          lines[it->second].try_emplace(line_key{std::string(sd.file_name(row.source_file)), pos});
      if (inserted) {
        ld->second.file = sd.file_name(row.source_file);
        ld->second.pos = pos;
        ld->second.cost_old.assign(ne, 0);
        ld->second.cost_new.assign(ne, 0);
      }
      add(s == 0 ? ld->second.cost_old : ld->second.cost_new, p.self_costs.row(i), cols[s]);
    }
    for (std::size_t i = 0; i < p.calls.size(); ++i) {
      const auto& row = p.calls[i];
      if (!sd.selected(row.part)) continue;
      auto it = detail_of.find(sd.node(row.caller, keys));
      if (it == detail_of.end()) continue;
      const std::uint64_t pos = out[it->second].by_instr ? row.site.instr : row.site.line;
      const std::uint32_t callee = sd.node(row.callee, keys);
      auto [cd, inserted] = calls[it->second].try_emplace(
          call_key{std::string(sd.file_name(row.caller_source_file)), pos, callee});
      if (inserted) {
        cd->second.file = sd.file_name(row.caller_source_file);
        cd->second.pos = pos;
        cd->second.callee = keys.keys()[callee];
        cd->second.cost_old.assign(ne, 0);
        cd->second.cost_new.assign(ne, 0);
      }
      add_saturating(s == 0 ? cd->second.count_old : cd->second.count_new, row.count);
      add(s == 0 ? cd->second.cost_old : cd->second.cost_new, p.call_costs.row(i), cols[s]);
    }
  }
  for (std::size_t d = 0; d < out.size(); ++d) {
    for (auto& [k, v] : lines[d]) out[d].lines.push_back(std::move(v));
    for (auto& [k, v] : calls[d]) out[d].calls.push_back(std::move(v));
    // std::map ordered calls by callee key index; order by callee name for a stable output.
    std::stable_sort(
        out[d].calls.begin(), out[d].calls.end(),
        [](const call_site_diff& a, const call_site_diff& b) {
          return std::tie(a.file, a.pos, a.callee.name, a.callee.object, a.callee.file) <
                 std::tie(b.file, b.pos, b.callee.name, b.callee.object, b.callee.file);
        });
  }
  return out;
}

std::vector<std::string> similar_function_names(const diff_result& r, std::string_view fragment,
                                                std::size_t max) {
  std::vector<std::string> out;
  for (const auto& f : r.functions) {
    if (f.key.name.find(fragment) == std::string::npos) continue;
    if (std::find(out.begin(), out.end(), f.key.name) != out.end()) continue;
    out.push_back(f.key.name);
    if (out.size() >= max) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace calltree

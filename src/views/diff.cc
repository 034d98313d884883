// views/diff.cc — the difference of two sessions (see diff.h).
#include "views/diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "report/radix_sort.h"
#include "views/session.h"

namespace calltree::views {

namespace {

struct identity {
  std::string_view object, file, name;
  friend bool operator==(const identity&, const identity&) = default;
};
struct identity_hash {
  std::size_t operator()(const identity& i) const noexcept {
    const std::hash<std::string_view> h;
    return h(i.name) ^ (h(i.file) * 31) ^ (h(i.object) * 1009);
  }
};

identity identity_of(const session& s, std::uint32_t k) {
  return {s.object(k), s.file(k), s.t.function_name(k)};
}

// The change of a function in compared columns `n` (both sides' rows in the same columns).
function_change change_of(bool in_old, bool in_new, const diff_row& r) {
  if (!in_old) return function_change::added;
  if (!in_new) return function_change::removed;
  return r.self_old != r.self_new || r.inclusive_old != r.inclusive_new
             ? function_change::changed
             : function_change::unchanged;
}

// A sort key of `m` for a function's old and new cost: sorted ascending as unsigned numbers,
// the keys put the rows in the measure's order.
std::uint64_t measure_key(diff_measure m, std::uint64_t o, std::uint64_t n) {
  constexpr std::uint64_t half = std::uint64_t{1} << 63;
  switch (m) {
    case diff_measure::abs_delta:
      return n > o ? n - o : o - n;
    case diff_measure::delta:  // signed, shifted to stay in order as unsigned
      return n >= o ? half + std::min(n - o, half - 1) : half - std::min(o - n, half);
    case diff_measure::percent: {
      // Growth from nothing above every percentage; else the change relative to old, plus 1
      // (never below 0), whose double's bits are in the order of their values.
      const double p =
          o == 0 ? (n == 0 ? 1.0 : 1e308) : static_cast<double>(n) / static_cast<double>(o);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &p, sizeof bits);
      return bits;
    }
    case diff_measure::new_cost:
      return n;
    case diff_measure::old_cost:
      return o;
    case diff_measure::name:
      break;
  }
  return 0;
}

}  // namespace

key_match match_keys(const session& old_side, const session& new_side) {
  key_match m;
  m.old_of_new.assign(new_side.keys(), key_match::none);
  m.new_of_old.assign(old_side.keys(), key_match::none);
  std::unordered_map<identity, std::uint32_t, identity_hash> old_keys;
  old_keys.reserve(old_side.keys());
  for (std::uint32_t k = 0; k < old_side.keys(); ++k) old_keys.emplace(identity_of(old_side, k), k);
  for (std::uint32_t k = 0; k < new_side.keys(); ++k) {
    auto it = old_keys.find(identity_of(new_side, k));
    if (it == old_keys.end()) continue;
    m.old_of_new[k] = it->second;
    m.new_of_old[it->second] = k;
  }
  for (const auto& e : old_side.t.recorded) {
    const auto& nr = new_side.t.recorded;
    (std::find(nr.begin(), nr.end(), e) != nr.end() ? m.compared : m.old_only).push_back(e);
  }
  for (const auto& e : new_side.t.recorded)
    if (std::find(m.compared.begin(), m.compared.end(), e) == m.compared.end())
      m.new_only.push_back(e);
  return m;
}

diff_row diff_of_key(const session& old_side, const session& new_side, const key_match& m,
                     const part_costs& old_costs, const part_costs& new_costs,
                     const column_set& old_columns, const column_set& new_columns,
                     std::uint32_t key, bool old_side_key) {
  diff_row r;
  if (old_side_key) {
    r.old_id = key;
    r.new_id = key < m.new_of_old.size() ? m.new_of_old[key] : key_match::none;
  } else {
    r.new_id = key;
    r.old_id = key < m.old_of_new.size() ? m.old_of_new[key] : key_match::none;
  }
  const bool in_old = r.old_id != key_match::none && old_costs.present(r.old_id);
  const bool in_new = r.new_id != key_match::none && new_costs.present(r.new_id);
  const std::size_t ncol = new_columns.size();
  r.self_old.assign(ncol, 0);
  r.self_new.assign(ncol, 0);
  r.inclusive_old.assign(ncol, 0);
  r.inclusive_new.assign(ncol, 0);
  for (std::size_t c = 0; c < ncol; ++c) {
    if (in_old) {
      r.self_old[c] = old_columns.columns[c].value(old_costs.self(r.old_id));
      r.inclusive_old[c] = old_columns.columns[c].value(old_costs.inclusive(r.old_id));
    }
    if (in_new) {
      r.self_new[c] = new_columns.columns[c].value(new_costs.self(r.new_id));
      r.inclusive_new[c] = new_columns.columns[c].value(new_costs.inclusive(r.new_id));
    }
  }
  r.change = change_of(in_old, in_new, r);
  (void)old_side;
  (void)new_side;
  return r;
}

result<diff_list> diff_functions(const session& old_side, const session& new_side,
                                 const key_match& m, const diff_query& q) {
  diff_list out;
  std::vector<std::string> names = q.events.empty() ? m.compared : q.events;
  for (const auto& n : names) {
    const bool recorded_old = std::find(old_side.t.recorded.begin(), old_side.t.recorded.end(),
                                        n) != old_side.t.recorded.end();
    const bool recorded_new = std::find(new_side.t.recorded.begin(), new_side.t.recorded.end(),
                                        n) != new_side.t.recorded.end();
    if (recorded_old != recorded_new)
      return error{"event '" + n + "' is recorded in only one of the profiles"};
  }
  auto oc = resolve_columns(old_side, names, q.derived);
  if (!oc) return error{"old profile: " + oc.error().message};
  auto nc = resolve_columns(new_side, names, q.derived);
  if (!nc) return error{"new profile: " + nc.error().message};
  out.old_columns = std::move(*oc);
  out.columns = std::move(*nc);
  if (!q.sort_event.empty()) {
    out.sort_column = out.columns.find(q.sort_event);
    if (out.sort_column == std::string_view::npos)
      return error{"sort event '" + q.sort_event + "' is not one of the columns shown"};
  }
  out.old_costs = old_side.costs_of(q.parts);
  out.new_costs = new_side.costs_of(q.parts);
  const std::size_t ncol = out.columns.size();
  diff_measure measure = ncol == 0 ? diff_measure::name : q.measure;

  // The order of every row (a function of either side), made once per query and kept; the
  // rows of the window are made from it.
  struct entry {
    std::uint32_t key;
    bool old_side;
  };
  struct diff_order {
    std::vector<entry> rows;
    std::size_t counts[4] = {0, 0, 0, 0};
  };
  std::string cache_key = "diff|";
  for (std::uint32_t p : q.parts) cache_key += std::to_string(p) + ",";
  // (Appended piece by piece: a "lit" + std::string chain makes GCC 12 -O3 warn of an overlap
  // that cannot happen, -Wrestrict, GCC bug 105651.)
  for (const auto& n : names) cache_key.append("|").append(n);
  for (const auto& d : q.derived) cache_key.append("|").append(d);
  cache_key.append("|")
      .append(std::to_string(out.sort_column))
      .append(q.inclusive ? "|i|" : "|s|")
      .append(std::to_string(static_cast<int>(measure)))
      .append(q.descending ? "|d" : "|a")
      .append(q.unchanged ? "|u|" : "|c|")
      .append(q.filter);
  const part_costs& po = *out.old_costs;
  const part_costs& pn = *out.new_costs;
  const std::size_t sc = out.sort_column;
  auto order = new_side.remembered<diff_order>(cache_key, [&] {
    auto o = std::make_shared<diff_order>();
    std::vector<entry> rows;
    std::vector<std::uint64_t> keys;
    auto consider = [&](std::uint32_t k, bool old_key) {
      const std::uint32_t ok = old_key ? k : m.old_of_new[k];
      const std::uint32_t nk = old_key ? m.new_of_old[k] : k;
      const bool in_old = ok != key_match::none && po.present(ok);
      const bool in_new = nk != key_match::none && pn.present(nk);
      function_change change = !in_old   ? function_change::added
                               : !in_new ? function_change::removed
                                         : function_change::unchanged;
      if (change == function_change::unchanged)
        for (std::size_t c = 0; c < ncol; ++c)
          if (out.old_columns.columns[c].value(po.self(ok)) !=
                  out.columns.columns[c].value(pn.self(nk)) ||
              out.old_columns.columns[c].value(po.inclusive(ok)) !=
                  out.columns.columns[c].value(pn.inclusive(nk))) {
            change = function_change::changed;
            break;
          }
      ++o->counts[static_cast<int>(change)];
      if (!q.unchanged && change == function_change::unchanged) return;
      rows.push_back({k, old_key});
      if (measure == diff_measure::name) return;
      auto value = [&](const part_costs& pc, const column_set& cols, std::uint32_t key,
                       bool in) -> std::uint64_t {
        if (!in) return 0;
        return cols.columns[sc].value(q.inclusive ? pc.inclusive(key) : pc.self(key));
      };
      const std::uint64_t ov = value(po, out.old_columns, ok, in_old);
      const std::uint64_t nv = value(pn, out.columns, nk, in_new);
      keys.push_back(measure_key(measure, ov, nv));
    };
    for (std::uint32_t k = 0; k < new_side.keys(); ++k)
      if (pn.present(k) && (q.filter.empty() || !q.match || q.match(new_side.t.function_name(k))))
        consider(k, false);
    for (std::uint32_t k = 0; k < old_side.keys(); ++k) {
      if (!po.present(k)) continue;
      const std::uint32_t n = m.new_of_old[k];
      if (n != key_match::none && pn.present(n)) continue;  // (considered above)
      if (!q.filter.empty() && q.match && !q.match(old_side.t.function_name(k))) continue;
      consider(k, true);
    }
    if (measure == diff_measure::name) {
      auto name_of = [&](const entry& e) {
        return e.old_side ? old_side.t.function_name(e.key) : new_side.t.function_name(e.key);
      };
      std::stable_sort(rows.begin(), rows.end(), [&](const entry& a, const entry& b) {
        const int c = name_of(a).compare(name_of(b));
        return q.descending ? c > 0 : c < 0;
      });
      o->rows = std::move(rows);
      return std::shared_ptr<const diff_order>(o);
    }
    std::vector<detail::keyed_index> ranked(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      ranked[i] = {q.descending ? ~keys[i] : keys[i], static_cast<std::uint32_t>(i)};
    detail::radix_sort(ranked);
    o->rows.reserve(rows.size());
    for (const auto& r : ranked) o->rows.push_back(rows[r.index]);
    return std::shared_ptr<const diff_order>(o);
  });
  std::copy_n(order->counts, 4, out.counts);
  out.total_rows = order->rows.size();
  const std::size_t from = std::min(q.offset, order->rows.size());
  const std::size_t to = std::min(order->rows.size(), from + q.limit);
  for (std::size_t i = from; i < to; ++i)
    out.rows.push_back(diff_of_key(old_side, new_side, m, po, pn, out.old_columns, out.columns,
                                   order->rows[i].key, order->rows[i].old_side));
  return out;
}
}  // namespace calltree::views

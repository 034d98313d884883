// views/diff.cc — the difference of two sessions, as calltree diff makes it (see diff.h).
#include "views/diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "calltree/cost_matrix.h"
#include "calltree/diagnostic.h"
#include "calltree/profile_builder.h"
#include "model/radix_sort.h"
#include "reader/load_any.h"
#include "views/class_scope.h"
#include "views/function_list.h"

namespace calltree::views {

namespace {

struct name_pair {
  std::string_view a, b;
  friend bool operator==(const name_pair&, const name_pair&) = default;
};
struct name_triple {
  std::string_view a, b, c;
  friend bool operator==(const name_triple&, const name_triple&) = default;
};
struct name_triple_hash {
  std::size_t operator()(const name_triple& p) const noexcept {
    const std::hash<std::string_view> h;
    return (h(p.a) * 31 ^ h(p.b)) * 1009 ^ h(p.c);
  }
};
struct name_pair_hash {
  std::size_t operator()(const name_pair& p) const noexcept {
    const std::hash<std::string_view> h;
    return h(p.a) * 31 ^ h(p.b);
  }
};

// A session's keys (functions: object, display file, name) by all three, by (display file,
// name), by (object, name) and by name (the first key).
struct key_lookup {
  std::unordered_map<name_triple, std::uint32_t, name_triple_hash> by_function;
  std::unordered_map<name_pair, std::uint32_t, name_pair_hash> by_file, by_object;
  std::unordered_map<std::string_view, std::uint32_t> by_name;
  explicit key_lookup(const session& s) {
    by_file.reserve(s.keys());
    for (std::uint32_t k = 0; k < s.keys(); ++k) {
      const std::string_view n = s.t.function_name(k);
      by_function.emplace(name_triple{n, s.file(k), s.object(k)}, k);
      by_file.emplace(name_pair{s.file(k), n}, k);
      by_object.emplace(name_pair{s.object(k), n}, k);
      by_name.emplace(n, k);
    }
  }
  std::uint32_t find(std::string_view file, const function_key& f) const {
    if (auto it = by_function.find({f.name, file, f.object}); it != by_function.end())
      return it->second;
    if (auto it = by_file.find({file, f.name}); it != by_file.end()) return it->second;
    if (auto it = by_object.find({f.object, f.name}); it != by_object.end()) return it->second;
    if (auto it = by_name.find(f.name); it != by_name.end()) return it->second;
    return no_key;
  }
};

// Reads `path` as `calltree diff` reads it: sums of costs per function and call, no positions,
// no jumps.
std::optional<error> read_model(const session& s, profile& p, unsigned threads) {
  if (s.input_name == "-")
    return error{"standard input cannot be read a second time for calltree diff's functions"};
  diagnostic_collector diags(1);
  reader_options ro;
  ro.display_name = s.input_name;
  ro.threads = threads;
  ro.max_name_bytes = s.options.max_memory;
  builder_options bo;  // (no positions, no jumps: the builder asks for sums per context)
  bo.max_memory = s.options.max_memory;
  bo.keep_jumps = false;
  bo.keep_positions = 0;
  auto r = detail::load_any_input(s.input_name, p, diags, ro, bo);
  if (!r) return r.error();
  return std::nullopt;
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

std::vector<event_id> compared_ids(const profile& p, const std::vector<std::string>& names) {
  std::vector<event_id> ids;
  // (An event the profile does not have: an id past its columns, whose costs count as 0.)
  for (const auto& n : names) ids.push_back(p.find_event(n).value_or(event_id{UINT32_MAX}));
  return ids;
}

}  // namespace

result<std::unique_ptr<diff_source>> diff_source::load(const session& old_side,
                                                       const session& new_side, unsigned threads) {
  std::unique_ptr<diff_source> d(new diff_source(old_side, new_side));
  if (auto e = read_model(old_side, d->old_model_, threads)) return *e;
  if (auto e = read_model(new_side, d->new_model_, threads)) return *e;
  auto all = d->of_parts({});
  if (!all) return all.error();
  d->compared = (*all)->r.events;
  d->old_only = (*all)->r.old_only_events;
  d->new_only = (*all)->r.new_only_events;
  d->old_cols_ = compared_ids(d->old_model_, d->compared);
  d->new_cols_ = compared_ids(d->new_model_, d->compared);
  return d;
}

result<std::shared_ptr<const function_table>> diff_source::of_parts(
    const std::vector<std::uint32_t>& parts) const {
  {
    std::lock_guard lock(mutex_);
    for (const auto& [p, t] : recent_)
      if (p == parts) return t;
  }
  diff_options o;
  for (std::uint32_t n : parts) o.parts.push_back(part_id{n});
  auto r = diff_profiles(old_model_, new_model_, o);
  if (!r) return r.error();
  auto t = std::make_shared<function_table>();
  t->r = std::move(*r);
  const std::size_t nf = t->r.functions.size();
  const key_lookup old_keys(old_), new_keys(new_);
  t->old_key.assign(nf, no_key);
  t->new_key.assign(nf, no_key);
  t->display_file.resize(nf);
  t->of_old_key.assign(old_.keys(), no_key);
  t->of_new_key.assign(new_.keys(), no_key);
  std::unordered_map<std::string_view, std::uint32_t> old_by_name, new_by_name;
  for (std::uint32_t f = 0; f < nf; ++f) {
    const function_diff& fd = t->r.functions[function_diff_id{f}];
    // (The display file as the sessions strip the current directory.)
    t->display_file[f] = display_name(fd.key.file, new_.options.cwd);
    const bool in_old = fd.change != function_change::added;
    const bool in_new = fd.change != function_change::removed;
    if (in_old) {
      t->old_key[f] = old_keys.find(t->display_file[f], fd.key);
      old_by_name.emplace(fd.key.name, f);
    }
    if (in_new) {
      t->new_key[f] = new_keys.find(t->display_file[f], fd.key);
      new_by_name.emplace(fd.key.name, f);
    }
  }
  // Each key's function: the one tied to it, else (code inlined under another file) one of
  // its name on that side.
  auto tie_keys = [&](const session& s, std::vector<std::uint32_t>& of_key,
                      const std::vector<std::uint32_t>& key_of,
                      const std::unordered_map<std::string_view, std::uint32_t>& by_name) {
    for (std::uint32_t f = 0; f < nf; ++f)
      if (key_of[f] != no_key && of_key[key_of[f]] == no_key &&
          s.file(key_of[f]) == t->display_file[f])
        of_key[key_of[f]] = f;
    for (std::uint32_t k = 0; k < s.keys(); ++k)
      if (of_key[k] == no_key)
        if (auto it = by_name.find(s.t.function_name(k)); it != by_name.end())
          of_key[k] = it->second;
  };
  tie_keys(old_, t->of_old_key, t->old_key, old_by_name);
  tie_keys(new_, t->of_new_key, t->new_key, new_by_name);
  // Each model function's row here, for the groups' inclusive costs.
  std::unordered_map<name_triple, std::uint32_t, name_triple_hash> of_name;
  of_name.reserve(nf);
  for (std::uint32_t f = 0; f < nf; ++f) {
    const function_key& k = t->r.functions[function_diff_id{f}].key;
    of_name.emplace(name_triple{k.name, k.file, k.object}, f);
  }
  for (int side = 0; side < 2; ++side) {
    const profile& p = side ? new_model_ : old_model_;
    auto& of_model = side ? t->of_new_model : t->of_old_model;
    of_model.assign(p.functions.size(), UINT32_MAX);
    for (function_id i : p.functions.ids()) {
      const function& fn = p.functions[i];
      auto it =
          of_name.find(name_triple{p.strings.view(fn.name), p.strings.view(p.files[fn.file].name),
                                   p.strings.view(p.objects[fn.object].name)});
      if (it != of_name.end()) of_model[i.index()] = it->second;
    }
  }
  std::shared_ptr<const function_table> made = std::move(t);
  std::lock_guard lock(mutex_);
  recent_.insert(recent_.begin(), {parts, made});
  if (recent_.size() > 4) recent_.pop_back();
  return made;
}

std::vector<std::vector<std::uint64_t>> diff_source::group_inclusive(
    const function_table& t, const std::vector<std::uint32_t>& parts,
    const std::vector<std::uint32_t>& group_of, std::size_t groups, bool new_side) const {
  const profile& p = new_side ? new_model_ : old_model_;
  const std::vector<event_id>& cols = new_side ? new_cols_ : old_cols_;
  const std::vector<std::uint32_t>& of_model = new_side ? t.of_new_model : t.of_old_model;
  const std::size_t ne = cols.size();
  std::vector<std::vector<std::uint64_t>> out(groups, std::vector<std::uint64_t>(ne, 0));
  std::vector<char> selected;
  if (!parts.empty()) {
    selected.assign(p.parts.size(), 0);
    for (std::uint32_t n : parts)
      if (n < selected.size()) selected[n] = 1;
  }
  std::vector<char> called(t.r.functions.size(), 0);
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const auto& row = p.calls[i];
    const std::uint32_t part = row.part.index();
    if (!selected.empty() && (part >= selected.size() || !selected[part])) continue;
    const std::uint32_t from = of_model[row.caller.index()], to = of_model[row.callee.index()];
    if (from == UINT32_MAX || to == UINT32_MAX || from == to) continue;
    called[to] = 1;
    const std::uint32_t g = group_of[to];
    if (g == UINT32_MAX || group_of[from] == g) continue;
    const auto costs = p.call_costs.row(i);
    for (std::size_t e = 0; e < ne; ++e)
      if (cols[e].index() < costs.size()) add_saturating(out[g][e], costs[cols[e].index()]);
  }
  for (std::uint32_t f = 0; f < t.r.functions.size(); ++f)
    if (!called[f] && group_of[f] != UINT32_MAX) {
      const auto& incl = new_side ? t.r.functions[function_diff_id{f}].inclusive_new
                                  : t.r.functions[function_diff_id{f}].inclusive_old;
      for (std::size_t e = 0; e < ne; ++e) add_saturating(out[group_of[f]][e], incl[e]);
    }
  const auto& total = new_side ? t.r.total_new : t.r.total_old;
  for (auto& g : out)
    for (std::size_t e = 0; e < ne; ++e) g[e] = std::min(g[e], total[e]);
  return out;
}

namespace {

std::uint64_t column_value(const column& c, const std::vector<std::size_t>& event_of,
                           const std::vector<std::uint64_t>& row) {
  if (c.recorded) {
    const std::size_t e = c.index < event_of.size() ? event_of[c.index] : SIZE_MAX;
    return e < row.size() ? row[e] : 0;
  }
  thread_local std::vector<std::uint64_t> rec;
  rec.assign(event_of.size(), 0);
  for (std::size_t i = 0; i < event_of.size(); ++i)
    if (event_of[i] < row.size()) rec[i] = row[event_of[i]];
  return c.value(rec.data());
}

}  // namespace

std::uint64_t diff_columns::old_value(std::size_t c, const std::vector<std::uint64_t>& row) const {
  return column_value(old_columns.columns[c], old_event_of, row);
}
std::uint64_t diff_columns::new_value(std::size_t c, const std::vector<std::uint64_t>& row) const {
  return column_value(new_columns.columns[c], new_event_of, row);
}

result<diff_columns> resolve_diff_columns(const diff_source& src,
                                          const std::vector<std::string>& names_asked,
                                          const std::vector<std::string>& derived) {
  const session& os = src.old_side();
  const session& ns = src.new_side();
  std::vector<std::string> names = names_asked.empty() ? src.compared : names_asked;
  // (No names would be every event of each side: columns the other side does not have.)
  if (names.empty())
    return error{"the profiles have no event in common: there is nothing to compare"};
  for (const auto& n : names) {
    const bool recorded_old =
        std::find(os.t.recorded.begin(), os.t.recorded.end(), n) != os.t.recorded.end();
    const bool recorded_new =
        std::find(ns.t.recorded.begin(), ns.t.recorded.end(), n) != ns.t.recorded.end();
    if (recorded_old != recorded_new)
      return error{"event '" + n + "' is recorded in only one of the profiles"};
  }
  diff_columns out;
  auto oc = resolve_columns(os, names, derived);
  if (!oc) return error{"old profile: " + oc.error().message};
  auto nc = resolve_columns(ns, names, derived);
  if (!nc) return error{"new profile: " + nc.error().message};
  out.old_columns = std::move(*oc);
  out.new_columns = std::move(*nc);
  auto event_of = [&](const session& s) {
    std::vector<std::size_t> v(s.t.recorded.size(), SIZE_MAX);
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t e = 0; e < src.compared.size(); ++e)
        if (src.compared[e] == s.t.recorded[i]) v[i] = e;
    return v;
  };
  out.old_event_of = event_of(os);
  out.new_event_of = event_of(ns);
  return out;
}

std::string_view diff_group_name(const function_table& t, std::uint32_t f, grouping g) {
  const function_key& k = t.r.functions[function_diff_id{f}].key;
  switch (g) {
    case grouping::object:
      return k.object.empty() ? std::string_view("(unknown object)") : std::string_view(k.object);
    case grouping::file:
      return t.display_file[f].empty() ? std::string_view("(unknown file)")
                                       : std::string_view(t.display_file[f]);
    case grouping::klass: {
      const std::string_view c = class_scope(k.name);
      return c.empty() ? std::string_view("(global)") : c;
    }
    case grouping::none:
      break;
  }
  return {};
}

diff_row diff_of_function(const function_table& t, const diff_columns& cols, std::uint32_t f) {
  const function_diff& fd = t.r.functions[function_diff_id{f}];
  diff_row r;
  r.function = f;
  r.change = fd.change;
  r.old_id = fd.change != function_change::added ? t.old_key[f] : no_key;
  r.new_id = fd.change != function_change::removed ? t.new_key[f] : no_key;
  const std::size_t n = cols.size();
  r.self_old.resize(n);
  r.self_new.resize(n);
  r.inclusive_old.resize(n);
  r.inclusive_new.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    r.self_old[c] = cols.old_value(c, fd.self_old);
    r.self_new[c] = cols.new_value(c, fd.self_new);
    r.inclusive_old[c] = cols.old_value(c, fd.inclusive_old);
    r.inclusive_new[c] = cols.new_value(c, fd.inclusive_new);
  }
  return r;
}

function_change shown_change(const function_table& t, const diff_columns& cols, std::uint32_t f,
                             bool inclusive) {
  const function_diff& fd = t.r.functions[function_diff_id{f}];
  if (fd.change == function_change::added || fd.change == function_change::removed)
    return fd.change;
  const auto& o = inclusive ? fd.inclusive_old : fd.self_old;
  const auto& n = inclusive ? fd.inclusive_new : fd.self_new;
  for (std::size_t c = 0; c < cols.size(); ++c)
    if (cols.old_value(c, o) != cols.new_value(c, n)) return function_change::changed;
  return function_change::unchanged;
}

result<diff_list> diff_functions(const diff_source& src, const diff_query& q) {
  diff_list out;
  auto cols = resolve_diff_columns(src, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  const diff_columns& dc = out.columns;
  if (!q.sort_event.empty()) {
    out.sort_column = dc.new_columns.find(q.sort_event);
    if (out.sort_column == std::string_view::npos)
      return error{"sort event '" + q.sort_event + "' is not one of the columns shown"};
  }
  auto table = src.of_parts(q.parts);
  if (!table) return table.error();
  out.table = *table;
  const function_table& t = **table;
  const std::size_t ncol = dc.size();
  for (std::size_t c = 0; c < ncol; ++c) {
    out.totals_old.push_back(dc.old_value(c, t.r.total_old));
    out.totals_new.push_back(dc.new_value(c, t.r.total_new));
  }
  const diff_measure measure = ncol == 0 ? diff_measure::name : q.measure;

  // The order of every row, made once per query and kept; the rows of a window are made from
  // it.
  struct diff_order {
    std::vector<std::uint32_t> rows;  // functions
    std::size_t counts[4] = {0, 0, 0, 0};
    std::vector<diff_group> groups;
  };
  std::string cache_key = "fdiff|";
  for (std::uint32_t p : q.parts) cache_key += std::to_string(p) + ",";
  // (Appended piece by piece: a "lit" + std::string chain makes GCC 12 -O3 warn of an overlap
  // that cannot happen, -Wrestrict, GCC bug 105651.)
  for (const auto& n : dc.new_columns.columns) cache_key.append("|").append(n.name);
  for (const auto& d : q.derived) cache_key.append("|").append(d);
  cache_key.append("|")
      .append(std::to_string(out.sort_column))
      .append(q.inclusive ? "|i|" : "|s|")
      .append(std::to_string(static_cast<int>(measure)))
      .append(q.descending ? "|d" : "|a")
      .append(q.unchanged ? "|u|" : "|c|")
      .append(std::to_string(static_cast<int>(q.group)))
      .append(q.only_group ? "|1" : "|0")
      .append(q.in_group)
      .append("|")
      .append(q.filter);
  const std::size_t sc = out.sort_column;
  auto order = src.new_side().remembered<diff_order>(cache_key, [&] {
    auto o = std::make_shared<diff_order>();
    std::vector<std::uint32_t> rows;
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> group_of;  // per function, with a grouping
    std::unordered_map<std::string_view, std::uint32_t> group_index;
    if (q.group != grouping::none) group_of.assign(t.r.functions.size(), UINT32_MAX);
    for (std::uint32_t f = 0; f < t.r.functions.size(); ++f) {
      const function_diff& fd = t.r.functions[function_diff_id{f}];
      if (!q.filter.empty() && q.match && !q.match(fd.key.name)) continue;
      if (q.group != grouping::none) {
        const std::string_view g = diff_group_name(t, f, q.group);
        auto [it, fresh] = group_index.emplace(g, static_cast<std::uint32_t>(o->groups.size()));
        if (fresh) {
          diff_group dg;
          dg.name = std::string(g);
          dg.self_old.assign(ncol, 0);
          dg.self_new.assign(ncol, 0);
          o->groups.push_back(std::move(dg));
        }
        group_of[f] = it->second;
        diff_group& dg = o->groups[it->second];
        ++dg.functions;
        for (std::size_t c = 0; c < ncol; ++c) {
          add_saturating(dg.self_old[c], dc.old_value(c, fd.self_old));
          add_saturating(dg.self_new[c], dc.new_value(c, fd.self_new));
        }
        if (q.only_group && g != q.in_group) continue;
      }
      // (changed: a cost the list shows differs, diff_query::inclusive's in its columns)
      const function_change change = shown_change(t, dc, f, q.inclusive);
      ++o->counts[static_cast<int>(change)];
      if (!q.unchanged && change == function_change::unchanged) continue;
      rows.push_back(f);
      if (measure == diff_measure::name) continue;
      const std::uint64_t ov = dc.old_value(sc, q.inclusive ? fd.inclusive_old : fd.self_old);
      const std::uint64_t nv = dc.new_value(sc, q.inclusive ? fd.inclusive_new : fd.self_new);
      keys.push_back(measure_key(measure, ov, nv));
    }
    if (q.group != grouping::none) {
      // The groups' inclusive costs (KCachegrind's, as the single list's), then their order by
      // the rows' measure.
      for (int side = 0; side < 2; ++side) {
        const auto incl = src.group_inclusive(t, q.parts, group_of, o->groups.size(), side == 1);
        for (std::size_t g = 0; g < o->groups.size(); ++g) {
          auto& v = side ? o->groups[g].inclusive_new : o->groups[g].inclusive_old;
          v.resize(ncol);
          for (std::size_t c = 0; c < ncol; ++c)
            v[c] = side ? dc.new_value(c, incl[g]) : dc.old_value(c, incl[g]);
        }
      }
      auto group_key = [&](const diff_group& g) {
        if (ncol == 0) return std::uint64_t{0};
        return q.inclusive ? measure_key(measure, g.inclusive_old[sc], g.inclusive_new[sc])
                           : measure_key(measure, g.self_old[sc], g.self_new[sc]);
      };
      std::stable_sort(o->groups.begin(), o->groups.end(),
                       [&](const diff_group& a, const diff_group& b) {
                         if (measure != diff_measure::name) {
                           const std::uint64_t x = group_key(a), y = group_key(b);
                           if (x != y) return q.descending ? x > y : x < y;
                           return a.name < b.name;
                         }
                         return q.descending ? a.name > b.name : a.name < b.name;
                       });
    }
    if (measure == diff_measure::name) {
      std::stable_sort(rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) {
        const int c = t.r.functions[function_diff_id{a}].key.name.compare(
            t.r.functions[function_diff_id{b}].key.name);
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
  if (q.group != grouping::none) {
    out.grouped = true;
    out.total_groups = order->groups.size();
    out.groups.assign(order->groups.begin(),
                      order->groups.begin() + static_cast<std::ptrdiff_t>(
                                                  std::min(q.group_limit, order->groups.size())));
  }
  const std::size_t from = std::min(q.offset, order->rows.size());
  const std::size_t to = std::min(order->rows.size(), from + q.limit);
  for (std::size_t i = from; i < to; ++i) {
    out.rows.push_back(diff_of_function(t, dc, order->rows[i]));
    out.rows.back().change = shown_change(t, dc, order->rows[i], q.inclusive);
  }
  return out;
}

}  // namespace calltree::views

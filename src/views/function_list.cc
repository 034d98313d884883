// views/function_list.cc — the flat profile (see function_list.h).
#include "views/function_list.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

#include "model/radix_sort.h"
#include "model/string_pool_access.h"
#include "views/flame.h"
#include "views/session.h"

namespace calltree::views {

namespace {

// What a query's order is made of, remembered by its key.
struct list_order {
  std::vector<std::uint32_t> ids;  // the rows, sorted
  std::vector<group_row> groups;
};

const char* by_text(sort_by b) {
  switch (b) {
    case sort_by::self:
      return "self";
    case sort_by::inclusive:
      return "inclusive";
    case sort_by::calls:
      return "calls";
    case sort_by::name:
      return "name";
  }
  return "";
}

// Which keys' names a filter matches, one byte a key: made once per filter text and kept
// (list_functions' orders of one filter share it: sorting a filtered list again matches no
// name again).
struct name_matches {
  std::vector<char> of_key;
  bool key(std::uint32_t k) const { return of_key[k] != 0; }
};

std::shared_ptr<const name_matches> matches_of(const session& s, const list_query& q) {
  return s.remembered<name_matches>(
      "match|" + q.filter, [&]() -> std::shared_ptr<const name_matches> {
        auto m = std::make_shared<name_matches>();
        const std::size_t nk = s.keys();
        m->of_key.assign(nk, 0);
        auto match_range = [&](std::size_t from, std::size_t to) {
          for (std::size_t k = from; k < to; ++k)
            m->of_key[k] = q.match(s.name(static_cast<std::uint32_t>(k))) ? 1 : 0;
        };
        // Half the names on a second thread (1.1 M names take a regex a second on one core)
        // where the names are in memory (a spilling pool reads them back into a cache of its
        // own, one thread at a time) and a thread can be had.
        const std::size_t half = nk / 2;
        std::thread second;
        if (nk >= 4096 && string_pool_access::mode(*s.t.names) != pool_mode::spill) {
          try {
            second = std::thread(match_range, half, nk);
          } catch (const std::system_error&) {
          }
        }
        match_range(0, second.joinable() ? half : nk);
        if (second.joinable()) second.join();
        return m;
      });
}

}  // namespace

std::string_view group_name(const session& s, grouping g, std::uint32_t k) {
  switch (g) {
    case grouping::object: {
      const std::string_view o = s.object(k);
      return o.empty() ? std::string_view("(unknown object)") : o;
    }
    case grouping::file: {
      const std::string_view f = s.file(k);
      return f.empty() ? std::string_view("(unknown file)") : f;
    }
    case grouping::klass: {
      const std::string_view c = s.scopes()[k];
      return c.empty() ? std::string_view("(global)") : c;
    }
    case grouping::none:
      break;
  }
  return {};
}

void warm_up(const session& s, const std::atomic<bool>* stop) {
  signed_costs_scope sums(s.p.signed_costs);  // (on a thread of its own)
  auto stopped = [&] { return stop && stop->load(std::memory_order_relaxed); };
  s.costs_of({});
  // The page's first list (every function by the first event's self cost): remembered, so
  // the first view's request is a window of it.
  auto first_list = list_functions(s, list_query{});
  // The flame graph next (every part's estimator): the slowest view of all (1-2 s of a core on
  // the real 260 MB profile), and the one a user opens first after the list.
  if (stopped()) return;
  [[maybe_unused]] auto prepared = flame(s, flame_query{});
  // The orders a click on a column asks next, each remembered as the first one (1.28 M
  // functions: ~50 ms of a core and 5 MB apiece): inclusive and self cost of the first
  // warm_columns events, then calls.
  if (first_list) {
    const std::size_t n = std::min(first_list->columns.size(), warm_columns);
    for (std::size_t c = 0; c < n; ++c)
      for (sort_by by : {sort_by::inclusive, sort_by::self}) {
        if (stopped()) return;
        if (c == 0 && by == sort_by::self) continue;  // (the first list)
        list_query q;
        q.sort_event = first_list->columns.columns[c].name;
        q.by = by;
        [[maybe_unused]] auto order = list_functions(s, q);
      }
    if (stopped()) return;
    list_query q;
    q.by = sort_by::calls;
    [[maybe_unused]] auto order = list_functions(s, q);
  }
  // The source-line tables, when the load left them for later (load_options::defer_lines) and
  // they are not read by chunks: the function view and the Source tab wait for them.
  if (stopped()) return;
  if (!s.lines_by_chunks()) s.lines();
  if (stopped()) return;
  s.name_order();
  for (grouping g : {grouping::file, grouping::object}) {
    if (stopped()) return;
    s.groups(g);
  }
  if (stopped()) return;
  {
    list_query q;  // (grouped by object, the page's first grouping)
    q.group = grouping::object;
    [[maybe_unused]] auto grouped = list_functions(s, q);
  }
  // (Last: the C++ scopes of every name, the slowest of the groups, for a grouping the page
  // offers last.)
  if (stopped()) return;
  s.groups(grouping::klass);
}

result<function_list> list_functions(const session& s, const list_query& q) {
  function_list out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  out.costs = s.costs_of(q.parts, q.detect_cycles);
  const part_costs& pc = *out.costs;
  sort_by by = q.by;
  if (!q.sort_event.empty()) {
    out.sort_column = out.columns.find(q.sort_event);
    if (out.sort_column == std::string_view::npos)
      return error{"sort event '" + q.sort_event + "' is not one of the columns shown"};
  }
  if (out.columns.size() == 0 && (by == sort_by::self || by == sort_by::inclusive))
    by = sort_by::name;  // (a file with no events)
  const std::size_t nk = s.keys();
  if (q.transforms.transforms()) {
    std::string mkey = "list merge|";
    for (std::uint32_t p : q.parts) mkey += std::to_string(p) + ",";
    mkey.append(q.detect_cycles ? "|" : "|n|").append(q.transforms.key);
    out.merge =
        s.remembered<list_merge>(mkey, [&] { return merge_list_rows(s, pc, q.transforms); });
  }
  const list_merge* mg = out.merge.get();

  std::string key = "list|";
  for (std::uint32_t p : q.parts) key += std::to_string(p) + ",";
  // (Appended piece by piece: a "lit" + std::string chain makes GCC 12 -O3 warn of an overlap
  // that cannot happen, -Wrestrict, GCC bug 105651.)
  key.append("|").append(by_text(by)).append(q.descending ? "|desc|" : "|asc|");
  for (const auto& d : q.derived) key += d + "\x1f";
  key += "|";
  // A column by what its values are: its name and its recorded column or formula.
  auto append_column = [&](const column& c) {
    key.append(c.name).append("\x1f");
    if (c.recorded)
      key.append(std::to_string(c.index));
    else
      key.append("=").append(c.formula);
    key.append("\x1f");
  };
  if (q.group == grouping::none) {
    // Ungrouped, the order is of the sort column's values alone, whichever other columns are
    // shown: the page's list (`events=Ir&sort=Ir`) is the one warm_up made of every event.
    if (out.sort_column < out.columns.size()) append_column(out.columns.columns[out.sort_column]);
  } else {
    // (A group's row has every column shown: the page's `events=Ir` shares the order of every
    // event where Ir is the only one.)
    for (const column& c : out.columns.columns) append_column(c);
    key.append("|").append(std::to_string(out.sort_column));
  }
  key.append("|")
      .append(std::to_string(static_cast<int>(q.group)))
      .append("|")
      .append(q.in_group ? "1" : "0")
      .append(q.in_group ? *q.in_group : std::string())
      .append("|")
      .append(q.cycles ? "c" : "")
      .append(q.detect_cycles ? "" : "n")
      .append("|")
      .append(q.filter);
  if (mg) key.append("|transforms|").append(q.transforms.key);

  const column_set& columns = out.columns;
  const std::size_t sc = out.sort_column;
  // A row of several functions, or of another name, by the transforms (list_transforms.h).
  auto merged_row = [&](std::uint32_t id) -> const list_merge::row* {
    if (!mg || id >= nk || mg->row_of[id] != id) return nullptr;
    const std::uint32_t at = mg->merged_index[id];
    return at == list_merge::unmerged ? nullptr : &mg->rows[at];
  };
  auto key_self = [&](std::uint32_t k, std::size_t c) {
    return columns.columns[c].value(pc.self(k));
  };
  auto self_of = [&](std::uint32_t id, std::size_t c) -> std::uint64_t {
    if (const list_merge::row* m = merged_row(id)) return columns.columns[c].value(m->self.data());
    return id < nk ? key_self(id, c) : columns.columns[c].value(pc.cycle_self(id - nk));
  };
  auto inclusive_of = [&](std::uint32_t id, std::size_t c) -> std::uint64_t {
    if (const list_merge::row* m = merged_row(id))
      return columns.columns[c].value(m->inclusive.data());
    return id < nk ? columns.columns[c].value(pc.inclusive(id))
                   : columns.columns[c].value(pc.cycle_inclusive(id - nk));
  };
  auto calls_of = [&](std::uint32_t id) -> std::uint64_t {
    if (const list_merge::row* m = merged_row(id)) return m->calls;
    return id < nk ? pc.calls_in(id) : pc.cycle_calls_in(id - nk);
  };
  auto name_of = [&](std::uint32_t id) -> std::string_view {
    const list_merge::row* m = merged_row(id);
    return m ? std::string_view(m->name) : s.name(id);
  };

  auto order = s.remembered<list_order>(key, [&]() -> std::shared_ptr<const list_order> {
    auto o = std::make_shared<list_order>();
    std::shared_ptr<const name_matches> matched;
    if (!q.filter.empty() && q.match) matched = matches_of(s, q);
    std::vector<std::uint32_t> rows;
    for (std::uint32_t k = 0; k < nk; ++k) {
      if (!pc.present(k) || (mg && mg->row_of[k] != k)) continue;  // (in another's row)
      const list_merge::row* m = merged_row(k);
      if (!matched || (m ? q.match(m->name) : matched->key(k))) rows.push_back(k);
    }
    if (q.cycles && q.group == grouping::none)
      for (std::size_t c = 0; c < pc.cycles(); ++c) {
        const auto id = static_cast<std::uint32_t>(nk + c);
        if (!matched || q.match(s.name(id))) rows.push_back(id);
      }
    // Groups, over the filtered rows.
    if (q.group != grouping::none) {
      const group_index& gi = s.groups(q.group);
      std::vector<std::uint32_t> slot(gi.names.size(), UINT32_MAX);  // group -> o->groups
      std::vector<std::uint32_t> group_of(nk, UINT32_MAX);
      const std::size_t ncol = columns.size();
      std::vector<std::vector<std::uint64_t>> incl_rec;  // per group, recorded columns
      const std::size_t nrec = pc.columns();
      // (The functions of the rows: with transforms, those merged into them too.)
      std::vector<std::uint32_t> merged_keys;
      if (mg) {
        std::vector<char> kept(nk, 0);
        for (std::uint32_t k : rows) kept[k] = 1;
        for (std::uint32_t k = 0; k < nk; ++k)
          if (pc.present(k) && kept[mg->row_of[k]]) merged_keys.push_back(k);
      }
      const std::vector<std::uint32_t>& keys = mg ? merged_keys : rows;
      for (std::uint32_t k : keys) {
        std::uint32_t& at = slot[gi.of[k]];
        if (at == UINT32_MAX) {
          at = static_cast<std::uint32_t>(o->groups.size());
          group_row gr;
          gr.name = std::string(gi.names[gi.of[k]]);
          gr.self.assign(ncol, 0);
          gr.inclusive.assign(ncol, 0);
          o->groups.push_back(std::move(gr));
          incl_rec.emplace_back(nrec, 0);
        }
        group_of[k] = at;
        group_row& gr = o->groups[at];
        ++gr.functions;
        for (std::size_t c = 0; c < ncol; ++c) add_saturating(gr.self[c], key_self(k, c));
      }
      // Inclusive cost of a group: the calls into it from outside it, and the inclusive cost
      // of its functions nobody calls (KCachegrind's: an upper bound where the group is
      // entered again below itself).
      std::vector<char> called(nk, 0);
      for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
        if (!pc.call_present(ci)) continue;
        const ann_call& c = s.t.calls[ci];
        if (c.caller == c.callee) continue;
        called[c.callee] = 1;
        const std::uint32_t g = group_of[c.callee];
        if (g == UINT32_MAX || group_of[c.caller] == g) continue;
        for (std::size_t e = 0; e < nrec; ++e) add_saturating(incl_rec[g][e], pc.call(ci)[e]);
      }
      for (std::uint32_t k : keys)
        if (!called[k] && group_of[k] != UINT32_MAX)
          for (std::size_t e = 0; e < nrec; ++e)
            add_saturating(incl_rec[group_of[k]][e], pc.inclusive(k)[e]);
      // (At most the program total: a group's roots may share callees.)
      for (std::size_t g = 0; g < o->groups.size(); ++g)
        for (std::size_t e = 0; e < nrec; ++e)
          incl_rec[g][e] = std::min(incl_rec[g][e], pc.totals()[e]);
      for (std::size_t g = 0; g < o->groups.size(); ++g)
        for (std::size_t c = 0; c < ncol; ++c)
          o->groups[g].inclusive[c] = columns.columns[c].value(incl_rec[g].data());
      auto group_value = [&](const group_row& g) {
        if (ncol == 0) return std::uint64_t{0};
        return by == sort_by::inclusive ? g.inclusive[sc] : g.self[sc];
      };
      std::sort(o->groups.begin(), o->groups.end(), [&](const group_row& a, const group_row& b) {
        if (by != sort_by::name) {
          const std::uint64_t x = group_value(a), y = group_value(b);
          if (x != y) return q.descending ? x > y : x < y;
          return a.name < b.name;
        }
        return q.descending ? a.name > b.name : a.name < b.name;
      });
      if (q.in_group) {
        std::erase_if(
            rows, [&](std::uint32_t k) { return k >= nk || gi.names[gi.of[k]] != *q.in_group; });
      }
    }
    // The order: by value (ties by key, the order of the file), or by name (the session's
    // name order, made once).
    if (by == sort_by::name && mg) {
      // (Rows named otherwise than their key: by the names shown, then file, then id.)
      o->ids = rows;
      std::sort(o->ids.begin(), o->ids.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (const int c = name_of(a).compare(name_of(b)); c != 0) return c < 0;
        if (a < nk && b < nk)
          if (const int c = s.file(a).compare(s.file(b)); c != 0) return c < 0;
        return a < b;
      });
      if (q.descending) std::reverse(o->ids.begin(), o->ids.end());
      return o;
    }
    if (by == sort_by::name) {
      const std::vector<std::uint32_t>& names = s.name_order();
      std::vector<char> in(s.ids(), 0);
      for (std::uint32_t id : rows) in[id] = 1;
      o->ids.reserve(rows.size());
      for (std::uint32_t id : names)
        if (in[id]) o->ids.push_back(id);
      if (q.descending) std::reverse(o->ids.begin(), o->ids.end());
      return o;
    }
    // (Rows are in id order: the radix sort keeps it among equal values.)
    if (!std::is_sorted(rows.begin(), rows.end())) std::sort(rows.begin(), rows.end());
    std::vector<detail::keyed_index> ranked(rows.size());
    // A profile of differences (signed, cost_matrix.h) is ranked by the size of each change.
    const bool by_magnitude = by != sort_by::calls && signed_costs_here();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::uint32_t id = rows[i];
      std::uint64_t v = by == sort_by::self        ? self_of(id, sc)
                        : by == sort_by::inclusive ? inclusive_of(id, sc)
                                                   : calls_of(id);
      if (by_magnitude && as_signed(v) < 0) v = 0 - v;
      ranked[i] = {q.descending ? ~v : v, id};
    }
    detail::radix_sort(ranked);
    o->ids.reserve(rows.size());
    for (const detail::keyed_index& k : ranked) o->ids.push_back(k.index);
    return o;
  });

  out.total_rows = order->ids.size();
  if (q.locate) {
    const std::uint32_t want = mg && *q.locate < nk ? mg->row_of[*q.locate] : *q.locate;
    const auto at = std::find(order->ids.begin(), order->ids.end(), want);
    if (at != order->ids.end()) out.located = static_cast<std::size_t>(at - order->ids.begin());
  }
  out.total_groups = order->groups.size();
  out.groups.assign(order->groups.begin(),
                    order->groups.begin() +
                        static_cast<std::ptrdiff_t>(std::min(q.group_limit, order->groups.size())));
  const std::size_t from = std::min(q.offset, order->ids.size());
  const std::size_t to = std::min(order->ids.size(), from + q.limit);
  const std::size_t ncol = columns.size();
  for (std::size_t i = from; i < to; ++i) {
    const std::uint32_t id = order->ids[i];
    list_row r;
    r.id = id;
    r.self.resize(ncol);
    r.inclusive.resize(ncol);
    for (std::size_t c = 0; c < ncol; ++c) {
      r.self[c] = self_of(id, c);
      r.inclusive[c] = inclusive_of(id, c);
    }
    r.calls = calls_of(id);
    r.cycle = id < nk ? pc.cycle_of(id) : static_cast<std::uint32_t>(id - nk + 1);
    r.merged = merged_row(id);
    if (r.merged && r.merged->functions() > 1) r.cycle = 0;  // (of several functions)
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace calltree::views

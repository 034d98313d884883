// views/list_transforms.cc — the function list's rows merged by the transforms (see
// list_transforms.h).
#include "views/list_transforms.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "views/session.h"
#include "views/stack_transform.h"

namespace calltree::views {

namespace {

constexpr std::uint32_t unmerged = list_merge::unmerged;

// The walks that look for a row entered again below itself: at most this many calls followed
// in all (a few tens of milliseconds), the heaviest rows first; the rows left are not known
// to be exact.
constexpr std::uint64_t walk_budget = std::uint64_t{16} << 20;

// `name` without its recursion level, or nothing when it has none. callgrind writes a level
// after the function's name and before its callers' context (--separate-recs with
// --separate-callers): "f'2" is "f", "quicksort'2'main'(below main)" is
// "quicksort'main'(below main)", the same function in the same context one level up.
std::optional<std::string> without_level(std::string_view name) {
  auto digits_from = [&](std::size_t at) {
    std::size_t end = at;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    return end;
  };
  const std::size_t tick = name.find('\'');
  if (tick != std::string_view::npos && tick > 0) {
    const std::size_t end = digits_from(tick + 1);
    if (end > tick + 1 && (end == name.size() || name[end] == '\''))
      return std::string(name.substr(0, tick)) + std::string(name.substr(end));
  }
  // (A name with a tick of its own before its level.)
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end == name.size() || end < 2 || name[end - 1] != '\'') return std::nullopt;
  return std::string(name.substr(0, end - 1));
}

bool any_match(const std::vector<const name_match*>& m, std::string_view s) {
  for (const name_match* x : m)
    if ((*x)(s)) return true;
  return false;
}

}  // namespace

std::shared_ptr<const list_merge> merge_list_rows(const session& s, const part_costs& pc,
                                                  const stack_filter& f) {
  auto out = std::make_shared<list_merge>();
  const std::size_t nk = s.keys();
  out->row_of.resize(nk);
  std::iota(out->row_of.begin(), out->row_of.end(), 0u);
  out->merged_index.assign(nk, unmerged);

  // The transforms, the fields' and the steps' alike (the list merges rows whatever the order).
  bool clones = f.merge_clones;
  std::vector<const name_match*> objects, recursion, direct;
  if (f.collapse_object) objects.push_back(&f.collapse_object);
  if (f.collapse_recursion) recursion.push_back(&f.collapse_recursion);
  if (f.collapse_direct_recursion) direct.push_back(&f.collapse_direct_recursion);
  for (const path_transform& step : f.steps) {
    switch (step.what) {
      case path_transform::kind::merge_clones:
        clones = true;
        break;
      case path_transform::kind::collapse_object:
        objects.push_back(&step.match);
        break;
      case path_transform::kind::collapse_recursion:
        recursion.push_back(&step.match);
        break;
      case path_transform::kind::collapse_direct_recursion:
        direct.push_back(&step.match);
        break;
      case path_transform::kind::focus_path:
        break;
    }
  }
  out->focus_path = f.focuses_path();
  if (!clones && objects.empty() && recursion.empty() && direct.empty()) return out;

  // Which row each key is in, and the rows named otherwise than their key.
  std::unordered_map<std::uint32_t, std::string> row_name;
  std::vector<char> in_object(nk, 0);
  if (!objects.empty()) {
    std::unordered_map<std::string_view, bool> matches;
    std::unordered_map<std::string_view, std::uint32_t> first;
    for (std::uint32_t k = 0; k < nk; ++k) {
      if (!pc.present(k)) continue;
      const std::string_view ob = s.object(k);
      auto [m, fresh] = matches.try_emplace(ob, false);
      if (fresh) m->second = any_match(objects, ob);
      if (!m->second) continue;
      auto [at, added] = first.try_emplace(ob, k);
      if (added) row_name.emplace(k, std::string(ob));
      out->row_of[k] = at->second;
      in_object[k] = 1;
    }
  }
  // Keys of another name: a clone's, a recursion level's (each with the name it becomes).
  struct renamed_key {
    std::uint32_t key;
    std::string name;
    bool direct_only;  // a level that is f's row only if f's levels alone call it
  };
  std::vector<renamed_key> renamed;
  if (clones || !recursion.empty() || !direct.empty()) {
    for (std::uint32_t k = 0; k < nk; ++k) {
      if (!pc.present(k) || in_object[k]) continue;
      const std::string_view own = s.name(k);
      std::optional<std::string> name;
      if (clones)
        if (std::string m = without_clones(own); m != own) name = std::move(m);
      const std::string_view now = name ? std::string_view(*name) : own;
      bool direct_only = false;
      if (std::optional<std::string> up = without_level(now)) {
        const std::string_view id = recursion_identity(now);
        if (any_match(recursion, id)) {
          name = std::move(up);
        } else if (any_match(direct, id)) {
          name = std::move(up);
          direct_only = true;
        }
      }
      if (name) renamed.push_back({k, std::move(*name), direct_only});
    }
  }
  if (!renamed.empty()) {
    // A level merged by collapse direct recursion only when every call into it is from its
    // function's own levels.
    std::vector<std::uint32_t> direct_at(nk, unmerged);
    for (std::uint32_t i = 0; i < renamed.size(); ++i)
      if (renamed[i].direct_only) direct_at[renamed[i].key] = i;
    std::vector<char> from_others(renamed.size(), 0);
    for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
      const ann_call& c = s.t.calls[ci];
      if (!pc.call_present(ci) || c.caller == c.callee || direct_at[c.callee] == unmerged) continue;
      const renamed_key& r = renamed[direct_at[c.callee]];
      const std::string caller =
          clones ? without_clones(s.name(c.caller)) : std::string(s.name(c.caller));
      if (recursion_identity(caller) != recursion_identity(r.name))
        from_others[direct_at[c.callee]] = 1;
    }
    std::erase_if(renamed, [&](const renamed_key& r) {
      return r.direct_only && from_others[direct_at[r.key]];
    });
  }
  if (!renamed.empty()) {
    // The key each name becomes: that name's key of the same object and file, else the first
    // key renamed so (named by the name).
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> wanted;  // name -> renamed
    for (std::uint32_t i = 0; i < renamed.size(); ++i) wanted[renamed[i].name].push_back(i);
    std::vector<std::uint32_t> target(renamed.size(), unmerged);
    for (std::uint32_t k = 0; k < nk; ++k) {
      if (!pc.present(k) || in_object[k]) continue;
      auto it = wanted.find(s.name(k));
      if (it == wanted.end()) continue;
      for (std::uint32_t i : it->second) {
        const std::uint32_t r = renamed[i].key;
        if (r != k && s.object(r) == s.object(k) && s.file(r) == s.file(k)) target[i] = k;
      }
    }
    for (auto& [name, list] : wanted) {
      // (renamed keys of one name with no key of it: the first of each object and file)
      for (std::uint32_t i : list) {
        if (target[i] != unmerged) continue;
        const std::uint32_t r = renamed[i].key;
        target[i] = r;
        row_name.emplace(r, renamed[i].name);
        for (std::uint32_t j : list)
          if (j != i && target[j] == unmerged && s.object(renamed[j].key) == s.object(r) &&
              s.file(renamed[j].key) == s.file(r))
            target[j] = r;
      }
    }
    for (std::uint32_t i = 0; i < renamed.size(); ++i) out->row_of[renamed[i].key] = target[i];
  }

  // The merged rows: keys with others in them, or named otherwise.
  auto index_of = [&](std::uint32_t row) {
    std::uint32_t& at = out->merged_index[row];
    if (at == unmerged) {
      at = static_cast<std::uint32_t>(out->rows.size());
      list_merge::row& r = out->rows.emplace_back();
      r.key = row;
      auto n = row_name.find(row);
      r.name = n == row_name.end() ? std::string(s.name(row)) : n->second;
      r.members.push_back(row);
    }
    return at;
  };
  for (std::uint32_t k = 0; k < nk; ++k) {
    const std::uint32_t row = out->row_of[k];
    if (row == k && !row_name.count(k)) continue;
    const std::uint32_t at = index_of(row);
    if (row != k) {
      out->merged_index[k] = at;
      out->rows[at].members.push_back(k);
    }
  }

  // Their costs: a group's (function_list.cc), or one function's own when it is alone. A
  // merged row's inclusive cost: the calls into it from outside it, and what each of its
  // functions' own lines (self cost and calls out) cost beyond all the calls into it (the cost
  // that ran there with no call recorded into it: all of it for a function no one calls), as
  // the flame graph's roots take it (docs/estimate.md). A function called for more than its
  // lines add up to leaves the row's cost unsure: not exact.
  const std::size_t nrec = pc.columns();
  for (std::size_t i = 0; i < out->rows.size(); ++i) {
    list_merge::row& r = out->rows[i];
    r.self.assign(nrec, 0);
    r.inclusive.assign(nrec, 0);
    for (std::uint32_t m : r.members)
      for (std::size_t e = 0; e < nrec; ++e) add_saturating(r.self[e], pc.self(m)[e]);
    if (r.functions() == 1) {
      std::copy_n(pc.inclusive(r.key), nrec, r.inclusive.begin());
      r.calls = pc.calls_in(r.key);
      r.exact = true;
    }
  }
  // Per function of a merged row: its lines, and the calls into it (recorded columns).
  auto in_merged = [&](std::uint32_t k) {
    const std::uint32_t g = out->merged_index[k];
    return g != unmerged && out->rows[g].functions() > 1;
  };
  std::unordered_map<std::uint32_t,
                     std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>>
      lines_in;  // key -> (lines, calls in)
  for (const list_merge::row& r : out->rows)
    if (r.functions() > 1)
      for (std::uint32_t m : r.members) {
        auto& [lines, in] = lines_in[m];
        lines.assign(pc.self(m), pc.self(m) + nrec);
        in.assign(nrec, 0);
      }
  for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
    if (!pc.call_present(ci)) continue;
    const ann_call& c = s.t.calls[ci];
    if (c.caller == c.callee) continue;
    if (in_merged(c.caller))
      for (std::size_t e = 0; e < nrec; ++e)
        add_saturating(lines_in[c.caller].first[e], pc.call(ci)[e]);
    if (!in_merged(c.callee)) continue;
    for (std::size_t e = 0; e < nrec; ++e)
      add_saturating(lines_in[c.callee].second[e], pc.call(ci)[e]);
    const std::uint32_t g = out->merged_index[c.callee];
    if (out->merged_index[c.caller] == g) continue;
    list_merge::row& r = out->rows[g];
    for (std::size_t e = 0; e < nrec; ++e) add_saturating(r.inclusive[e], pc.call(ci)[e]);
    r.calls += pc.count(ci);
  }
  // (A profile of differences, signed costs: compared as signed numbers, and no cap at its
  // total, a sum of gains and losses.)
  const bool differences = signed_costs_here();
  auto above = [&](std::uint64_t a, std::uint64_t b) {
    return differences ? as_signed(a) > as_signed(b) : a > b;
  };
  std::vector<std::uint32_t> order;  // the rows of several functions, heaviest first
  for (std::uint32_t i = 0; i < out->rows.size(); ++i) {
    list_merge::row& r = out->rows[i];
    if (r.functions() == 1) continue;
    bool sure = true;
    for (std::uint32_t m : r.members) {
      const auto& [lines, in] = lines_in[m];
      for (std::size_t e = 0; e < nrec; ++e) {
        if (above(lines[e], in[e])) add_saturating(r.inclusive[e], lines[e] - in[e]);
        if (above(in[e], lines[e])) sure = false;  // (called for more than its lines)
      }
    }
    // At most its functions' own inclusive costs summed (a cycle's member's: its cycle's, once
    // a cycle), nor the program total: the calls into a row of recursion levels each carry the
    // levels below them again (`ring_a'2` called from `ring_d'2` ten times, ten nested costs),
    // and functions no one calls may share callees. Each function's own inclusive cost holds
    // every stack it is on, so their sum holds every stack the row is on.
    if (!differences) {
      std::vector<std::uint64_t> bound(nrec, 0);
      std::vector<std::uint32_t> cycles_counted;
      for (std::uint32_t m : r.members) {
        const std::uint32_t c = pc.cycle_of(m);
        const std::uint64_t* own = pc.inclusive(m);
        if (c != 0 && c - 1 < pc.cycles()) {
          if (std::find(cycles_counted.begin(), cycles_counted.end(), c) != cycles_counted.end())
            continue;
          cycles_counted.push_back(c);
          own = pc.cycle_inclusive(c - 1);
        }
        for (std::size_t e = 0; e < nrec; ++e) add_saturating(bound[e], own[e]);
      }
      for (std::size_t e = 0; e < nrec; ++e) {
        const std::uint64_t cap = std::min(bound[e], pc.totals()[e]);
        if (r.inclusive[e] > cap) {
          r.inclusive[e] = cap;
          sure = false;
        }
      }
    }
    r.exact = sure;
    if (r.exact) order.push_back(i);
  }
  if (order.empty()) return out;

  // Whether a row is entered again below itself: from its functions' callees outside it,
  // through functions outside it, is one of its functions reached?
  index_lists callees;  // per key
  {
    std::vector<std::uint32_t> caller, callee;
    for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
      const ann_call& c = s.t.calls[ci];
      if (!pc.call_present(ci) || c.caller == c.callee) continue;
      caller.push_back(c.caller);
      callee.push_back(c.callee);
    }
    callees.build(nk, caller, callee);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::uint64_t x = nrec ? out->rows[a].inclusive[0] : 0;
    const std::uint64_t y = nrec ? out->rows[b].inclusive[0] : 0;
    return x != y ? x > y : a < b;
  });
  std::vector<std::uint32_t> seen(nk, unmerged), todo;
  std::uint64_t work = 0;
  for (std::uint32_t i : order) {
    list_merge::row& r = out->rows[i];
    if (work > walk_budget) {
      r.exact = false;
      continue;
    }
    todo.clear();
    bool again = false;
    auto visit = [&](std::uint32_t y) {
      ++work;
      if (out->merged_index[y] == i) return;
      if (seen[y] != i) {
        seen[y] = i;
        todo.push_back(y);
      }
    };
    for (std::uint32_t m : r.members)
      for (std::uint32_t y : callees[m]) visit(y);
    while (!todo.empty() && !again && work <= walk_budget) {
      const std::uint32_t x = todo.back();
      todo.pop_back();
      for (std::uint32_t y : callees[x]) {
        if (out->merged_index[y] == i) {
          again = true;
          break;
        }
        visit(y);
      }
    }
    r.exact = !again && todo.empty();
  }
  return out;
}

}  // namespace calltree::views

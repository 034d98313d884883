// views/function_detail.cc — one function with its callers and callees (function_detail.h).
#include "views/function_detail.h"

#include <algorithm>
#include <tuple>

#include "analysis/call_summer.h"
#include "calltree/analysis/callers.h"
#include "views/session.h"

namespace calltree::views {

result<function_detail> describe_function(const session& s, std::uint64_t id,
                                          const detail_query& q) {
  if (id >= s.ids())
    return error{"no function or cycle has id " + std::to_string(id) + " (there are " +
                 std::to_string(s.ids()) + ")"};
  function_detail out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  std::size_t sc = 0;
  if (!q.sort_event.empty()) {
    sc = out.columns.find(q.sort_event);
    if (sc == std::string_view::npos)
      return error{"sort event '" + q.sort_event + "' is not one of the columns shown"};
  }
  out.costs = s.costs_of(q.parts, q.detect_cycles);
  const part_costs& pc = *out.costs;
  const std::size_t nk = s.keys();
  const std::size_t ncol = out.columns.size();
  const auto& columns = out.columns.columns;
  auto values = [&](const std::uint64_t* row) {
    std::vector<std::uint64_t> v(ncol);
    for (std::size_t c = 0; c < ncol; ++c) v[c] = columns[c].value(row);
    return v;
  };
  out.id = static_cast<std::uint32_t>(id);
  const views::annotate_data& t = s.t;

  // The calls in and out, summed per other key (a cycle's members' calls across its border)
  // as analysis/callers.h sums a function's.
  call_summer in(pc.columns()), out_calls(pc.columns());
  auto add = [&](call_summer& m, std::uint32_t other, std::uint32_t ci) {
    if (pc.call_present(ci)) m.add(other, ci, pc.count(ci), {pc.call(ci), pc.columns()});
  };
  if (id < nk) {
    const auto k = static_cast<std::uint32_t>(id);
    out.present = pc.present(k);
    out.self = values(pc.self(k));
    out.inclusive = values(pc.inclusive(k));
    out.calls = pc.calls_in(k);
    out.cycle = pc.cycle_of(k);
    for (std::uint32_t ci : t.callers_of[k]) add(in, t.calls[ci].caller, ci);
    for (std::uint32_t ci : t.callees_of[k]) add(out_calls, t.calls[ci].callee, ci);
    out.same_name = s.same_name(k);
    out.file = t.key_file[k];
    out.file_found = out.file < t.file_found.size() && t.file_found[out.file];
    // (Its lines: of the source-line tables, t's own, or read from its chunks or by a second
    // reading when first asked for.)
    // (When they cannot be read, the file having changed since, the view has no lines; the
    // Source tab says why.)
    auto lines = s.lines_of_function(k);
    static const annotate_data none;
    const annotate_data& lt = lines ? *lines->t : none;
    if (lines) std::tie(out.first_line, out.last_line) = lines->own_lines(k);
    auto sp = std::lower_bound(lt.key_spans.begin(), lt.key_spans.end(), k,
                               [](const ann_span& a, std::uint32_t key) { return a.key < key; });
    for (; sp != lt.key_spans.end() && sp->key == k; ++sp)
      out.inlined.push_back({sp->file, sp->first, sp->last,
                             sp->cost < lt.key_span_cc.rows()
                                 ? values(lt.key_span_cc.values(sp->cost))
                                 : std::vector<std::uint64_t>(ncol)});
    // (its own file's: its self cost over every part, less what lies in the other files)
    out.own_self = values(t.self.values(k));
    for (const auto& span : out.inlined)
      for (std::size_t c = 0; c < ncol; ++c)
        out.own_self[c] -= std::min(out.own_self[c], span.self[c]);
  } else {
    const std::size_t c = id - nk;
    out.is_cycle = true;
    out.cycle = static_cast<std::uint32_t>(c + 1);
    if (c >= pc.cycles()) {
      // (A cycle of every part that the selected parts do not have.)
      out.present = false;
      out.self.assign(ncol, 0);
      out.inclusive.assign(ncol, 0);
    } else {
      out.self = values(pc.cycle_self(c));
      out.inclusive = values(pc.cycle_inclusive(c));
      out.calls = pc.cycle_calls_in(c);
      out.members = pc.members(c);
      for (std::uint32_t m : out.members) {
        for (std::uint32_t ci : t.callers_of[m])
          if (pc.cycle_of(t.calls[ci].caller) != out.cycle) add(in, t.calls[ci].caller, ci);
        for (std::uint32_t ci : t.callees_of[m])
          if (pc.cycle_of(t.calls[ci].callee) != out.cycle) add(out_calls, t.calls[ci].callee, ci);
      }
    }
  }
  auto finish = [&](call_summer& m, std::vector<call_row>& list, std::size_t& total) {
    for (const call_summary& c : m.take()) {
      const std::uint32_t other = c.function.index();
      call_row r;
      r.id = other;
      r.count = c.count;
      r.cost = values(c.inclusive.data());
      r.call = c.first_call;
      r.recursive =
          !out.is_cycle && (other == id || (out.cycle && pc.cycle_of(other) == out.cycle));
      list.push_back(std::move(r));
    }
    total = list.size();
    std::sort(list.begin(), list.end(), [&](const call_row& a, const call_row& b) {
      const std::uint64_t x = ncol ? a.cost[sc] : 0, y = ncol ? b.cost[sc] : 0;
      if (x != y) return x > y;
      if (a.count != b.count) return a.count > b.count;
      return a.id < b.id;
    });
    if (list.size() > q.limit) list.resize(q.limit);
  };
  finish(in, out.callers, out.callers_total);
  finish(out_calls, out.callees, out.callees_total);
  // A cycle's members, the heaviest first.
  out.members_total = out.members.size();
  if (!out.members.empty()) {
    auto incl = [&](std::uint32_t m) { return ncol ? columns[sc].value(pc.inclusive(m)) : 0; };
    std::sort(out.members.begin(), out.members.end(), [&](std::uint32_t a, std::uint32_t b) {
      const std::uint64_t x = incl(a), y = incl(b);
      return x != y ? x > y : a < b;
    });
    if (out.members.size() > q.limit) out.members.resize(q.limit);
  }
  return out;
}

}  // namespace calltree::views

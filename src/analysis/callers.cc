// analysis/callers.cc — callers and callees, the top functions, names (analysis/callers.h).
#include "calltree/analysis/callers.h"

#include <algorithm>

#include "analysis/call_summer.h"

namespace calltree {

void call_summer::add(std::uint32_t other, std::uint32_t call, std::uint64_t count,
                      std::span<const std::uint64_t> costs) {
  auto [it, fresh] = sums_.try_emplace(other);
  call_summary& s = it->second;
  if (fresh) {
    s.function = function_id{other};
    s.first_call = call;
    s.inclusive.assign(events_, 0);
  }
  add_saturating(s.count, count);
  for (std::size_t e = 0; e < events_ && e < costs.size(); ++e)
    add_saturating(s.inclusive[e], costs[e]);
}

std::vector<call_summary> call_summer::take() {
  std::vector<call_summary> out;
  out.reserve(sums_.size());
  for (auto& [other, s] : sums_) out.push_back(std::move(s));
  sums_.clear();
  return out;
}

function_calls calls_of(const profile& p, const inclusive_result& inc, function_id f,
                        const calls_options& options) {
  signed_costs_scope signed_sums(p.signed_costs);
  function_calls out;
  if (!p.functions.contains(f)) return out;
  const std::size_t events = p.events.size();
  call_summer in(events), to(events);
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const call_row& c = p.calls[i];
    if (options.part && c.part != *options.part) continue;
    const auto ci = static_cast<std::uint32_t>(i);
    if (c.callee == f) in.add(c.caller.index(), ci, c.count, p.call_costs.row(i));
    if (c.caller == f) to.add(c.callee.index(), ci, c.count, p.call_costs.row(i));
  }
  auto cycle = [&](function_id g) { return inc.cycle_of_function(g).index(); };
  const std::size_t sc = options.sort_event.index();
  auto finish = [&](call_summer& sums) {
    std::vector<call_summary> list = sums.take();
    for (call_summary& s : list)
      s.recursive = s.function == f || (cycle(f) != 0 && cycle(s.function) == cycle(f));
    std::sort(list.begin(), list.end(), [&](const call_summary& a, const call_summary& b) {
      const std::uint64_t x = sc < events ? cost_magnitude(a.inclusive[sc], p.signed_costs) : 0;
      const std::uint64_t y = sc < events ? cost_magnitude(b.inclusive[sc], p.signed_costs) : 0;
      if (x != y) return x > y;
      if (a.count != b.count) return a.count > b.count;
      return a.function < b.function;
    });
    return list;
  };
  out.callers = finish(in);
  out.callees = finish(to);
  return out;
}

id_vector<function_id, std::uint64_t> call_counts(const profile& p, std::optional<part_id> part) {
  id_vector<function_id, std::uint64_t> out(p.functions.size(), 0);
  for (const call_row& c : p.calls) {
    if ((part && c.part != *part) || c.caller == c.callee || !out.contains(c.callee)) continue;
    add_saturating(out[c.callee], c.count);
  }
  return out;
}

std::vector<function_id> top_functions(const inclusive_result& inc, event_id event, cost_kind kind,
                                       std::size_t n) {
  std::vector<function_id> out;
  const cost_matrix& m = kind == cost_kind::self ? inc.self : inc.inclusive;
  const std::size_t e = event.index();
  if (e >= inc.events || e >= m.columns()) return out;
  auto cost = [&](function_id f) { return cost_magnitude(m.row(f.index())[e], inc.signed_costs); };
  for (std::size_t i = 0; i < m.rows(); ++i)
    if (cost(function_id{i}) != 0) out.push_back(function_id{i});
  auto higher = [&](function_id a, function_id b) {
    return cost(a) != cost(b) ? cost(a) > cost(b) : a < b;
  };
  if (out.size() > n) {
    std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), out.end(), higher);
    out.resize(n);
  } else {
    std::sort(out.begin(), out.end(), higher);
  }
  return out;
}

std::vector<function_id> find_functions(const profile& p, std::string_view name) {
  std::vector<function_id> out;
  std::string scratch;
  for (function_id f : p.functions.ids())
    if (p.strings.text(p.functions[f].name, scratch) == name) out.push_back(f);
  return out;
}

std::optional<function_id> find_function(const profile& p, std::string_view name) {
  std::string scratch;
  for (function_id f : p.functions.ids())
    if (p.strings.text(p.functions[f].name, scratch) == name) return f;
  return std::nullopt;
}

}  // namespace calltree

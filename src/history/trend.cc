// trend.cc — each function's cost across runs and its change points (see history/trend.h).
#include "history/trend.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace calltree::history {

namespace {

std::string key_of(const function_costs& f) {
  std::string k;
  k.reserve(f.object.size() + f.file.size() + f.name.size() + 2);
  k += f.object;
  k += '\0';
  k += f.file;
  k += '\0';
  k += f.name;
  return k;
}

std::optional<std::size_t> index_of(const std::vector<std::string>& v, std::string_view s) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return i;
  return std::nullopt;
}

change_options options_for(const trend_options& o, detector how) {
  change_options c;
  c.threshold_percent = o.threshold_percent;
  c.how = how;
  c.window = o.window;
  return c;
}

}  // namespace

std::optional<std::size_t> trend_result::find_event(std::string_view name) const {
  return index_of(events, name);
}

std::vector<std::size_t> trend_result::find_function(std::string_view name) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const auto& f = functions[i];
    if (f.name == name ||
        (name.size() == f.file.size() + 1 + f.name.size() && name.starts_with(f.file) &&
         name[f.file.size()] == ':' && name.ends_with(f.name)))
      out.push_back(i);
  }
  return out;
}

result<trend_result> compute_trend(const std::vector<loaded_run>& runs,
                                   const trend_options& options) {
  std::vector<const loaded_run*> p;
  p.reserve(runs.size());
  for (const auto& x : runs) p.push_back(&x);
  return compute_trend(p, options);
}

result<trend_result> compute_trend(const std::vector<const loaded_run*>& runs,
                                   const trend_options& options) {
  trend_result r;
  const loaded_run* first = nullptr;
  for (const loaded_run* x : runs)
    if (x->problem.empty()) {
      first = x;
      break;
    }
  if (!first) return error{"no run holds a profile that could be read"};
  r.events = options.events;
  if (r.events.empty()) {
    if (first->costs.events.empty()) return error{first->file.path + ": has no event"};
    r.events.push_back(first->costs.events.front());
  }
  // The runs that have every event, and where each event is in each.
  std::vector<const loaded_run*> used;
  std::vector<std::vector<std::size_t>> columns;
  for (const loaded_run* x : runs) {
    if (!x->problem.empty()) continue;
    std::vector<std::size_t> cols;
    std::string missing;
    for (const auto& e : r.events) {
      auto i = index_of(x->costs.events, e);
      if (i)
        cols.push_back(*i);
      else
        missing += (missing.empty() ? "" : ", ") + e;
    }
    if (!missing.empty()) {
      r.left_out.push_back(x->file.path + ": has no event " + missing);
      continue;
    }
    used.push_back(x);
    columns.push_back(std::move(cols));
  }
  if (used.empty()) {
    std::string names;
    for (const auto& e : r.events) names += (names.empty() ? "" : ", ") + e;
    return error{"no run has the event" + std::string(r.events.size() > 1 ? "s " : " ") + names};
  }
  const std::size_t n = used.size(), ne = r.events.size();
  for (const auto& e : r.events) {
    (void)e;
    r.detectors.push_back(options.how ? *options.how : detector::exact);
  }
  if (!options.how) {
    // (The long names are not kept by the index: the event's name decides, or the writer, a
    // sampling or timing profiler, of any run.)
    bool timed_writer = false;
    for (const loaded_run* x : used) timed_writer = timed_writer || timed_creator(x->costs.creator);
    for (std::size_t e = 0; e < ne; ++e)
      r.detectors[e] =
          timed_writer || timed_event(r.events[e]) ? detector::robust : detector::exact;
  }

  // Functions across runs, and their series.
  std::unordered_map<std::string, std::size_t> ids;
  for (std::size_t i = 0; i < n; ++i) {
    trend_run t;
    t.file = used[i]->file.path;
    t.mtime_ns = used[i]->file.mtime_ns;
    for (std::size_t c : columns[i]) t.total.push_back(used[i]->costs.total[c]);
    r.runs.push_back(std::move(t));
    for (const auto& f : used[i]->costs.functions) {
      auto [it, added] = ids.try_emplace(key_of(f), r.functions.size());
      if (added) {
        r.functions.push_back({f.object, f.file, f.name});
        r.self.resize(r.self.size() + ne * n, 0);
        r.inclusive.resize(r.inclusive.size() + ne * n, 0);
      }
      const std::size_t fi = it->second;
      for (std::size_t e = 0; e < ne; ++e) {
        const std::size_t at = (fi * ne + e) * n + i;
        // (A run names each function once: its identity is the key.)
        r.self[at] = f.self[columns[i][e]];
        r.inclusive[at] = f.inclusive[columns[i][e]];
      }
    }
  }

  // Change points: the program total, then every function's self and inclusive cost.
  std::vector<double> series(n);
  for (std::size_t e = 0; e < ne; ++e) {
    const change_options co = options_for(options, r.detectors[e]);
    std::vector<double> totals(n);
    for (std::size_t i = 0; i < n; ++i) totals[i] = static_cast<double>(r.runs[i].total[e]);
    for (const auto& cp : find_change_points(totals, co))
      r.changes.push_back(
          {std::nullopt, cp.run, e, true, cp.before, cp.after, step_percent(cp.before, cp.after)});
    for (std::size_t f = 0; f < r.functions.size(); ++f) {
      if (options.match && !options.match(r.functions[f].name)) continue;
      for (bool incl : {false, true}) {
        const auto& v = incl ? r.inclusive : r.self;
        const std::size_t base = (f * ne + e) * n;
        bool any = false;
        for (std::size_t i = 0; i < n; ++i) {
          series[i] = static_cast<double>(v[base + i]);
          any = any || v[base + i] != 0;
        }
        if (!any) continue;
        for (const auto& cp : find_change_points(series, co)) {
          const double share = options.min_share_percent / 100.0 * totals[cp.run];
          if (std::max(cp.before, cp.after) < share) continue;
          r.changes.push_back(
              {f, cp.run, e, incl, cp.before, cp.after, step_percent(cp.before, cp.after)});
        }
      }
    }
  }
  std::stable_sort(
      r.changes.begin(), r.changes.end(), [&](const trend_change& a, const trend_change& b) {
        if (a.event != b.event) return a.event < b.event;
        if (a.function.has_value() != b.function.has_value()) return !a.function.has_value();
        const double da = std::fabs(a.after - a.before), db = std::fabs(b.after - b.before);
        if (da != db) return da > db;
        // (One step shows in every caller's inclusive cost by the same amount:
        // the function whose own cost stepped most, relatively, first.)
        const double pa = a.percent ? std::fabs(*a.percent) : HUGE_VAL,
                     pb = b.percent ? std::fabs(*b.percent) : HUGE_VAL;
        if (pa != pb) return pa > pb;
        if (a.inclusive != b.inclusive) return !a.inclusive;
        if (a.run != b.run) return a.run < b.run;
        if (a.function && b.function && *a.function != *b.function)
          return r.functions[*a.function].name < r.functions[*b.function].name;
        return a.inclusive < b.inclusive;
      });
  return r;
}

std::vector<trend_gate_failure> check_trend_gate(const trend_result& r, const trend_gate& gate,
                                                 const trend_options& options) {
  std::vector<trend_gate_failure> out;
  const std::size_t n = r.runs.size(), e = gate.event;
  if (n < 2 || e >= r.events.size()) return out;
  const change_options co = options_for(options, r.detectors[e]);
  auto check = [&](std::optional<std::size_t> f, bool incl, const std::vector<double>& s) {
    auto step = last_step(s, co);
    if (!step || step->after <= step->before) return;
    if (f && std::max(step->before, step->after) <
                 options.min_share_percent / 100.0 * static_cast<double>(r.runs[n - 1].total[e]))
      return;
    auto p = step_percent(step->before, step->after);
    if (!p || *p > gate.percent) out.push_back({f, incl, step->before, step->after, p});
  };
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<double>(r.runs[i].total[e]);
  check(std::nullopt, true, s);
  if (!gate.per_function) return out;
  for (std::size_t f = 0; f < r.functions.size(); ++f) {
    if (options.match && !options.match(r.functions[f].name)) continue;
    for (bool incl : {false, true}) {
      for (std::size_t i = 0; i < n; ++i)
        s[i] = static_cast<double>(incl ? r.inclusive_of(f, e, i) : r.self_of(f, e, i));
      check(f, incl, s);
    }
  }
  return out;
}

}  // namespace calltree::history

// diff.cc — diff_tables (diff.h).
#include "diff.h"

#include <cmath>
#include <limits>

#include "calltree/analysis/diff.h"
#include "convert.h"
#include "errors.h"

namespace calltree::python {
namespace {

// new - old: an int64 where every difference fits (always, unless a cost is above 2^63),
// else Python ints; exact either way.
py::object delta_column(const std::vector<cost>& o, const std::vector<cost>& n) {
  constexpr auto max = static_cast<cost>(std::numeric_limits<std::int64_t>::max());
  bool fits = true;
  for (std::size_t i = 0; i < o.size() && fits; ++i)
    fits = n[i] >= o[i] ? n[i] - o[i] <= max : o[i] - n[i] <= max;
  if (fits) {
    std::vector<std::int64_t> d(o.size());
    for (std::size_t i = 0; i < o.size(); ++i)
      d[i] = n[i] >= o[i] ? static_cast<std::int64_t>(n[i] - o[i])
                          : -static_cast<std::int64_t>(o[i] - n[i]);
    return column(std::move(d));
  }
  py::list d;
  for (std::size_t i = 0; i < o.size(); ++i) d.append(py::int_(n[i]) - py::int_(o[i]));
  return d;
}

// As the JSON's "percent": rounded to 4 decimals, NaN for growth from 0 (its null).
double percent(cost o, cost n) {
  const auto p = percent_change(o, n);
  if (!p) return std::numeric_limits<double>::quiet_NaN();
  const double v = std::round(*p * 10000.0) / 10000.0;
  return v == 0 ? 0.0 : v;
}

py::dict cost_dict(cost o, cost n) {
  py::dict d;
  d["old"] = py::int_(o);
  d["new"] = py::int_(n);
  d["delta"] = py::int_(n) - py::int_(o);
  const double p = percent(o, n);
  d["percent"] = std::isnan(p) ? py::object(py::none()) : py::object(py::float_(p));
  return d;
}

diff_options options_of(const diff_request& r) {
  diff_options o;
  for (const std::string& s : r.mod_filename) {
    auto sub = parse_substitution(s);
    if (!sub) raise_argument_error("mod_filename: " + sub.error().message);
    o.match.file_rewrites.push_back(std::move(*sub));
  }
  for (const std::string& s : r.mod_funcname) {
    auto sub = parse_substitution(s);
    if (!sub) raise_argument_error("mod_funcname: " + sub.error().message);
    o.match.function_rewrites.push_back(std::move(*sub));
  }
  o.match.ignore_object = r.ignore_object;
  o.match.strip_recursion = r.strip_recursion;
  if (r.part) {
    if (*r.part == 0) raise_argument_error("part is 1-based: part=1 is the first");
    o.part = calltree::part_id{*r.part - 1};
  }
  return o;
}

}  // namespace

py::tuple diff_tables(const profile_handle& old_profile, const profile_handle& new_profile,
                      const diff_request& request) {
  const diff_options options = options_of(request);
  std::optional<result<diff_result>> made;
  {
    py::gil_scoped_release no_gil;
    made.emplace(diff_profiles(old_profile.model(), new_profile.model(), options));
  }
  if (!*made) raise_error(made->error());
  const diff_result& r = **made;

  diff_ranking ranking;
  for (const std::string& name : request.sort) {
    auto e = r.find_event(name);
    if (!e) raise_argument_error("sort: no compared event " + name);
    ranking.sort_events.push_back(*e);
  }
  ranking.inclusive = request.inclusive;
  ranking.threshold_percent = request.threshold;
  ranking.limit = request.limit;
  const diff_selection selection = select_functions(r, ranking);

  py::dict columns;
  py::list name, file, object, change;
  for (function_diff_id i : selection.listed) {
    const function_diff& f = r.functions[i];
    name.append(text(f.key.name));
    file.append(text(f.key.file));
    object.append(text(f.key.object));
    change.append(py::str(std::string(to_string(f.change))));
  }
  columns["name"] = name;
  columns["file"] = file;
  columns["object"] = object;
  columns["change"] = change;
  for (std::size_t e = 0; e < r.events.size(); ++e) {
    for (const bool incl : {false, true}) {
      std::vector<cost> o, n;
      std::vector<double> pct;
      for (function_diff_id i : selection.listed) {
        const function_diff& f = r.functions[i];
        o.push_back((incl ? f.inclusive_old : f.self_old)[e]);
        n.push_back((incl ? f.inclusive_new : f.self_new)[e]);
        pct.push_back(percent(o.back(), n.back()));
      }
      const std::string prefix = std::string(incl ? "inclusive:" : "self:") + r.events[e] + ":";
      py::object delta = delta_column(o, n);
      columns[text(prefix + "old")] = column(std::move(o));
      columns[text(prefix + "new")] = column(std::move(n));
      columns[text(prefix + "delta")] = delta;
      columns[text(prefix + "percent")] = column(std::move(pct));
    }
  }

  py::dict info;
  auto names = [](const std::vector<std::string>& v) {
    py::list l;
    for (const std::string& s : v) l.append(text(s));
    return l;
  };
  info["events"] = names(r.events);
  info["old_only_events"] = names(r.old_only_events);
  info["new_only_events"] = names(r.new_only_events);
  py::dict totals;
  for (std::size_t e = 0; e < r.events.size(); ++e)
    totals[text(r.events[e])] = cost_dict(r.total_old[e], r.total_new[e]);
  info["totals"] = totals;
  py::dict counts;
  counts["changed"] = r.count(function_change::changed);
  counts["unchanged"] = r.count(function_change::unchanged);
  counts["added"] = r.count(function_change::added);
  counts["removed"] = r.count(function_change::removed);
  counts["listed"] = selection.listed.size();
  counts["below_threshold"] = selection.below_threshold;
  counts["beyond_limit"] = selection.beyond_limit;
  info["counts"] = counts;
  info["saturated"] = r.saturated;
  return py::make_tuple(columns, info);
}

}  // namespace calltree::python

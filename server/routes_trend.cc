// server/routes_trend.cc — GET /api/v1/trend of `calltree serve DIR`: the program total and
// one function's cost across the folder's runs, oldest first, and their change points
// (history/trend.h; docs/serve.md, "Trend").
//
// Parameters: function= (a name, or file:name; none: the program total), event= (default: the
// first event of the oldest run), order=time|name, threshold=PCT. A name several functions
// share (in other files or objects) is their sum. Each point is a profile of the folder (its
// id, for /api/v1/f/ID/ and /api/v1/d/OLD/NEW/); files that hold no profile are not points.
#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "api_impl.h"
#include "folder.h"
#include "history/run_order.h"
#include "history/trend.h"
#include "history/trend_report.h"
#include "run_store.h"

namespace calltree::server::detail {

response route_trend(const request& r, folder& f) {
  auto store = f.store();
  if (!store) return error_response(404, "no_trend", "this server keeps no runs for a trend");
  history::run_order order = history::run_order::time;
  if (auto o = param(r, "order")) {
    if (*o == "name")
      order = history::run_order::name;
    else if (*o != "time")
      return error_response(400, "bad_order", "order takes time or name");
  }
  history::trend_options options;
  if (auto t = param(r, "threshold")) {
    double pct = -1;
    const std::string text(*t);
    char* end = nullptr;
    if (!text.empty()) pct = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) pct = -1;
    if (!(pct > 0 && pct <= 1000))
      return error_response(400, "bad_threshold", "threshold takes a percentage above 0");
    options.threshold_percent = pct;
  }
  std::string function;
  if (auto fn = param(r, "function")) function = std::string(*fn);
  if (auto e = param(r, "event"); e && !e->empty()) options.events.push_back(std::string(*e));

  // The folder's files, oldest first, and their runs.
  const std::vector<folder_entry> entries = f.entries();
  std::vector<history::run_file> files;
  std::unordered_map<std::string, std::pair<std::uint64_t, std::string>> id_of;  // id, name
  for (const auto& e : entries) {
    files.push_back({e.path, e.size, e.mtime_ns});
    id_of.emplace(e.path, std::make_pair(e.id, e.name));
  }
  history::order_runs(files, order);
  const auto kept = store->runs(files);
  std::vector<const history::loaded_run*> runs;
  std::uint64_t skipped = 0;
  std::vector<std::string> problems;
  for (const auto& k : kept) {
    if (k->problem.empty()) {
      runs.push_back(k.get());
    } else if (k->no_profile) {
      ++skipped;
    } else {
      problems.push_back(k->problem);
    }
  }
  if (runs.empty())
    return error_response(404, "no_runs",
                          "no file of the folder holds a profile that could be read");
  // The events a run offers (for the page's picker): the oldest run's.
  const std::vector<std::string>& offered = runs.front()->costs.events;
  if (!options.events.empty() &&
      std::find(offered.begin(), offered.end(), options.events.front()) == offered.end()) {
    bool anywhere = false;
    for (const auto* x : runs)
      anywhere = anywhere || std::find(x->costs.events.begin(), x->costs.events.end(),
                                       options.events.front()) != x->costs.events.end();
    if (!anywhere)
      return error_response(400, "bad_event", "no run has the event " + options.events.front());
  }
  auto computed = history::compute_trend(runs, options);
  if (!computed) return error_response(400, "no_trend", computed.error().message);
  const history::trend_result& t = *computed;
  std::vector<std::size_t> fns;
  if (!function.empty()) {
    fns = t.find_function(function);
    if (fns.empty())
      return error_response(404, "no_function", "no function named '" + function + "' in any run");
  }

  json_writer j;
  begin_envelope(j);
  j.key("event").value(t.events.front());
  j.key("events").begin_array();
  for (const auto& e : offered) j.value(e);
  j.end_array();
  j.key("detector").value(t.detectors.front() == history::detector::exact ? "exact" : "robust");
  j.key("order").value(order == history::run_order::time ? "time" : "name");
  j.key("threshold_percent").value(options.threshold_percent);
  j.key("function");
  function.empty() ? j.null() : j.value(function);
  j.key("matched").begin_array();
  for (std::size_t i : fns) {
    j.begin_object();
    j.key("name").value(t.functions[i].name);
    j.key("file").value(t.functions[i].file);
    j.key("object").value(t.functions[i].object);
    j.end_object();
  }
  j.end_array();
  j.key("points").begin_array();
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    std::uint64_t self = 0, incl = 0;
    if (fns.empty()) {
      self = incl = t.runs[i].total[0];
    } else {
      for (std::size_t fi : fns) {
        self += t.self_of(fi, 0, i);
        incl += t.inclusive_of(fi, 0, i);
      }
    }
    j.begin_object();
    auto id = id_of.find(t.runs[i].file);
    // (Every run is a file of the listing: its id and its name below DIR.)
    j.key("id").value(id == id_of.end() ? std::uint64_t{0} : id->second.first);
    j.key("file").value(id == id_of.end() ? t.runs[i].file : id->second.second);
    j.key("time").value(history::time_iso(t.runs[i].mtime_ns));
    j.key("mtime_ms").value(static_cast<std::int64_t>(t.runs[i].mtime_ns / 1000000));
    j.key("self");
    cost(j, self);
    j.key("inclusive");
    cost(j, incl);
    j.key("total");
    cost(j, t.runs[i].total[0]);
    j.end_object();
  }
  j.end_array();
  // The changes of the function asked for (or of the program total), and the biggest of all
  // (the page lists them to pick a function from).
  j.key("changes").begin_array();
  for (const auto& c : t.changes) {
    const bool mine =
        fns.empty() ? !c.function
                    : c.function && std::find(fns.begin(), fns.end(), *c.function) != fns.end();
    if (mine) history::write_change_json(j, t, c);
  }
  j.end_array();
  j.key("top").begin_array();
  std::size_t listed = 0;
  for (const auto& c : t.changes) {
    if (!c.function) continue;
    if (++listed > 50) break;
    history::write_change_json(j, t, c);
  }
  j.end_array();
  j.key("skipped").value(skipped);
  j.key("problems").begin_array();
  for (const auto& p : problems) j.value(p);
  for (const auto& l : t.left_out) j.value(l);
  j.end_array();
  j.key("index").value(store->index_note());
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

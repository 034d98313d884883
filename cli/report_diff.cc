// report_diff.cc — `calltree report --html OLD NEW -o diff.html` (report_diff.h).
//
// The answers are the serve API's in diff mode (server/api.h with two sessions, asked
// in-process), keyed by route as the page asks them (web/src/api.ts, reportAnswer; a route of
// OLD's side ends in "?side=old"): the profile; the matched function list, cut to the functions
// whose inclusive cost of the report's event is at least the threshold of the total in OLD or
// in NEW, each row with its groups; the groups of the three groupings; each listed function's
// detail (callers, callees), call graph and callers' and callees' flame graphs on each side it
// is in, and the source files they name; the program's flame graph (NEW's, coloured by
// change). Byte budgets as the single report's (report_budget.h). The gate is calltree diff's
// check_gate on the functions serve lists (api::diff_table). Written to a temporary file,
// renamed when complete.

#include "report_diff.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "api.h"
#include "args.h"
#include "calltree/analysis/diff.h"
#include "command.h"
#include "diagnostics_output.h"
#include "memory_option.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "report/diff.h"
#include "report_ask.h"
#include "report_budget.h"
#include "report_page.h"
#include "views/diff.h"
#include "views/session.h"

namespace calltree::cli {
namespace {

// Reads one side; nullptr after saying why on stderr (`status` the exit status then).
std::shared_ptr<const views::session> load_side(const std::string& path, views::load_options lo,
                                                int& status, bool& faulty) {
  progress_line progress(path);
  lo.progress = [&progress](const read_progress& p) { progress.update(p); };
  auto loaded = views::load_session(path, lo);
  progress.finish();
  status = exit_findings;
  if (!loaded) {
    std::fprintf(stderr, "calltree report: %s\n", loaded.error().message.c_str());
    return nullptr;
  }
  const views::session& s = **loaded;
  if (changed_while_read(s.diagnostics, detail::read_to_end(s.stats), path, s.input_size)) {
    print_input_changed(path);
    return nullptr;
  }
  // As calltree diff: half a profile would diff as a fall in every function after the cut.
  if (!detail::read_to_end(s.stats)) {
    std::fprintf(stderr, "calltree report: %s could not be read to its end; no report\n",
                 path.c_str());
    return nullptr;
  }
  if (s.errors) {
    faulty = true;
    std::fprintf(stderr,
                 "calltree report: %s: %llu errors (listed in the page; 'calltree check' shows "
                 "them)\n",
                 path.c_str(), static_cast<unsigned long long>(s.errors));
  }
  return std::move(*loaded);
}

// The gate's verdict as calltree diff's text says it ("Gate: fail above 5% growth of Ir
// (program total)", then "FAILED: PROGRAM TOTALS: Ir 1,000 -> 1,100 (+10.00%)"; a pass
// says "passed" with the same figures), and as its JSON ("gate").
nlohmann::json verdict(const diff_result& r, const diff_gate& g,
                       const std::vector<gate_failure>& failures) {
  char pct[64];
  std::snprintf(pct, sizeof pct, "%g", g.percent);
  const std::size_t e = g.event.index();
  const std::uint64_t o = r.total_old[e], n = r.total_new[e];
  const bool passed = failures.empty();
  const std::string line = std::string(passed ? "passed" : "FAILED") +
                           ": PROGRAM TOTALS: " + r.events[e] + ' ' + with_thousands(o) + " -> " +
                           with_thousands(n) + " (" + percent_text(o, n) + ")";
  nlohmann::json j = {{"percent", g.percent},
                      {"event", r.events[e]},
                      {"passed", passed},
                      {"old", o},
                      {"new", n},
                      {"change", percent_text(o, n)},
                      {"heading", std::string("Gate: fail above ") + pct + "% growth of " +
                                      r.events[e] + " (program total)"},
                      {"line", line}};
  auto p = percent_change(o, n);
  j["percent_change"] = p ? nlohmann::json(*p) : nlohmann::json(nullptr);
  return j;
}

}  // namespace

int write_diff_report(const diff_report_args& d) {
  for (const auto* p : {&d.old_path, &d.new_path})
    if (*p == "-")
      return usage_error("report",
                         "a diff reads OLD and NEW twice: '-' (standard input) cannot be one of "
                         "them (save it to a file)");
  views::load_options lo;
  lo.max_memory = memory_limit();
  lo.include_dirs = d.include;
  lo.source_roots = d.source_roots;
  lo.cwd = current_dir();
  int status = exit_ok;
  bool faulty = false;  // an input with errors: the page, and exit 1 (as calltree diff)
  auto old_side = load_side(d.old_path, lo, status, faulty);
  if (!old_side) return status;
  auto new_side = load_side(d.new_path, lo, status, faulty);
  if (!new_side) return status;

  server::api_options ao;
  ao.token = std::string(32, '0');
  ao.serve_sources = !d.no_source;
  const server::api api(ao, old_side, new_side);
  // One answer of the API, asked in-process (report_ask.h).
  const report_asker asker(api, ao.token);
  auto ask_raw = [&asker](const std::string& target, std::string& body) {
    return asker.raw(target, body);
  };
  auto ask = [&asker](const std::string& target, nlohmann::json& j) {
    return asker.json(target, j);
  };
  const auto table = api.diff_table();
  if (!table) {  // (the files could not be read again: the API says why)
    std::string body;
    ask_raw("/api/v1/functions?limit=0", body);
    return exit_findings;
  }
  const diff_result& r = table->r;
  if (r.events.empty()) {
    std::fprintf(stderr, "calltree report: the two profiles have no event in common\n");
    return exit_usage;
  }
  // (as calltree diff warns)
  if (!r.old_only_events.empty() || !r.new_only_events.empty()) {
    std::string msg;
    for (const auto& e : r.old_only_events) msg += " " + e + " (only in old)";
    for (const auto& e : r.new_only_events) msg += " " + e + " (only in new)";
    std::fprintf(stderr, "calltree report: warning: events not compared:%s\n", msg.c_str());
  }
  if (r.saturated)
    std::fprintf(stderr, "calltree report: warning: some costs exceed 2^64-1 and are saturated\n");
  auto compared = [&](const std::string& name, const char* flag) -> std::optional<event_id> {
    if (auto e = r.find_event(name)) return e;
    std::string all;
    for (const auto& x : r.events) all += (all.empty() ? "" : " ") + x;
    usage_error("report", std::string(flag) + ": event '" + name +
                              "' is not compared (compared: " + all + ")");
    return std::nullopt;
  };
  std::string event = r.events[0];
  if (d.event) {
    if (!compared(*d.event, "--event")) return exit_usage;
    event = *d.event;
  }
  std::optional<diff_gate> gate;
  std::vector<gate_failure> failures;
  if (d.gate_percent) {
    gate.emplace();
    gate->percent = *d.gate_percent;
    if (!d.gate_event.empty()) {
      auto e = compared(d.gate_event, "--fail-above");
      if (!e) return exit_usage;
      gate->event = *e;
    }
    failures = check_gate(r, diff_selection{}, diff_ranking{}, *gate);
  }

  nlohmann::json profile;
  if (!ask("/api/v1/profile", profile)) return exit_usage;
  const std::string sort = "&sort=" + event;
  auto number = [](const nlohmann::json& v) {
    if (v.is_null()) return 0.0;
    return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>();
  };

  // The rows held: those whose inclusive cost is at least the threshold of the total on one
  // side, found by the list ordered by NEW's and then by OLD's inclusive cost; kept in the
  // order of calltree diff's functions (the order ties keep in serve's sorts).
  std::map<std::uint32_t, nlohmann::json> held;  // by function of the table
  nlohmann::json totals, counts, events;
  std::size_t total_rows = 0;
  auto function_of = [&](const nlohmann::json& row) {
    return row["id"].is_number() ? table->of_new_key[row["id"].get<std::uint32_t>()]
                                 : table->of_old_key[row["old_id"].get<std::uint32_t>()];
  };
  for (const char* side : {"new", "old"}) {
    for (std::size_t offset = 0;; offset += 5000) {
      nlohmann::json page;
      if (!ask(std::string("/api/v1/functions?by=inclusive&measure=") + side +
                   "&limit=5000&offset=" + std::to_string(offset) + sort,
               page))
        return exit_usage;
      totals = page["totals"];
      counts = page["counts"];
      events = page["events"];
      total_rows = page["total_rows"].get<std::size_t>();
      const double total = number(totals[event][side]);
      bool below = false;
      for (auto& row : page["rows"]) {
        if (number(row["inclusive"][event][side]) < d.threshold * total ||
            held.size() >= max_functions) {
          below = true;
          break;
        }
        const auto f = function_of(row);
        if (f != views::no_key) held.emplace(f, std::move(row));
      }
      if (below || page["rows"].size() < 5000) break;
    }
  }

  // Each row's groups (indices into group_names), as the single report's.
  nlohmann::json group_names = nlohmann::json::array();
  std::map<std::string, std::size_t, std::less<>> group_index;
  auto name_index = [&](std::string_view name) {
    auto it = group_index.find(name);
    if (it != group_index.end()) return it->second;
    group_names.push_back(std::string(name));
    return group_index.emplace(std::string(name), group_names.size() - 1).first->second;
  };
  nlohmann::json rows = nlohmann::json::array();
  for (auto& [f, row] : held) {
    nlohmann::json g = nlohmann::json::array();
    for (auto kind : {views::grouping::object, views::grouping::file, views::grouping::klass})
      g.push_back(name_index(views::diff_group_name(*table, f, kind)));
    row["g"] = std::move(g);
    rows.push_back(std::move(row));
  }
  nlohmann::json data = nlohmann::json::object();
  for (const char* kind : {"object", "file", "class"}) {
    nlohmann::json g;
    if (!ask(std::string("/api/v1/functions?limit=0&group_limit=5000&group=") + kind + sort, g))
      return exit_usage;
    data["groups"][kind] = {{"groups", std::move(g["groups"])},
                            {"total_groups", g["total_groups"]}};
  }

  // Each listed function's views on each side it is in, heaviest (on either side) first.
  std::vector<std::pair<double, const nlohmann::json*>> by_weight;
  for (const auto& row : rows)
    by_weight.emplace_back(
        std::max(number(row["inclusive"][event]["new"]), number(row["inclusive"][event]["old"])),
        &row);
  std::stable_sort(by_weight.begin(), by_weight.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::map<std::string, std::string> raw;
  budget graphs{max_graphs, max_graph}, flames{max_flames, max_flame};
  std::set<std::uint64_t> files[2];  // of each side: new, old
  for (const auto& [weight, row] : by_weight) {
    for (int old = 0; old < 2; ++old) {
      const nlohmann::json& idv = (*row)[old ? "old_id" : "id"];
      if (!idv.is_number()) continue;
      const std::string id = std::to_string(idv.get<std::uint64_t>());
      const std::string side = old ? "&side=old" : "";
      const std::string key_side = old ? "?side=old" : "";
      std::string detail;
      if (!ask_raw("/api/v1/function/" + id + "?limit=100" + sort + side, detail))
        return exit_usage;
      const auto dj = nlohmann::json::parse(detail, nullptr, false);
      if (!dj.is_discarded() && dj["source"].is_object()) {
        if (dj["source"]["file_id"].is_number())
          files[old].insert(dj["source"]["file_id"].get<std::uint64_t>());
        for (const auto& in : dj["source"]["inlined"])
          if (in["file_id"].is_number()) files[old].insert(in["file_id"].get<std::uint64_t>());
      }
      raw["function/" + id + key_side] = std::move(detail);
      if (graphs.full()) {
        ++graphs.left_out;
      } else {
        std::string g;
        if (!ask_raw("/api/v1/graph/" + id + "?up=" + std::to_string(graph_depth) +
                         "&down=" + std::to_string(graph_depth) + "&min=" + graph_min + sort + side,
                     g))
          return exit_usage;
        if (graphs.take(g.size())) raw["graph/" + id + key_side] = std::move(g);
      }
      if (flames.full()) {
        ++flames.left_out;
        continue;
      }
      std::string up, down;
      const std::string flame = "/api/v1/flame?root=" + id + "&min=" + flame_min +
                                "&max_frames=" + std::to_string(flame_frames) + sort + side;
      if (!ask_raw(flame + "&direction=callers", up) ||
          !ask_raw(flame + "&direction=callees", down))
        return exit_usage;
      if (flames.take(up.size() + down.size())) {
        raw["flame/" + id + "/callers" + key_side] = std::move(up);
        raw["flame/" + id + "/callees" + key_side] = std::move(down);
      }
    }
  }
  budget sources{max_sources, max_source};
  for (int old = 0; old < 2; ++old) {
    for (std::uint64_t f : files[old]) {
      const std::string target =
          "/api/v1/source/" + std::to_string(f) + "?sort=" + event + (old ? "&side=old" : "");
      server::response res =
          api.handle_target("GET", target, "localhost:0", "Bearer " + ao.token, std::string());
      if (res.status != 200 || !sources.take(res.body.size())) continue;
      raw["source/" + std::to_string(f) + (old ? "?side=old" : "")] = std::move(res.body);
    }
  }
  const std::string program_flame =
      "/api/v1/flame?max_frames=5000&min=" + std::to_string(std::max(d.threshold, 0.0005)) + sort +
      "&side=new";
  if (!ask_raw(program_flame, raw["flame"])) return exit_usage;

  // The counts of every function as the list shows them, per Cost and event (changed: that
  // cost of that event differs; the page's Cost and Event pick one).
  nlohmann::json counts_by = nlohmann::json::object();
  for (const char* by : {"self", "inclusive"})
    for (const auto& e : r.events) {
      nlohmann::json page;
      if (!ask(std::string("/api/v1/functions?limit=0&by=") + by + "&events=" + e + "&sort=" + e,
               page))
        return exit_usage;
      counts_by[by][e] = page["counts"];
    }
  const std::size_t shown = rows.size();
  data["functions"] = {{"rows", std::move(rows)},
                       {"totals", std::move(totals)},
                       {"events", std::move(events)},
                       {"counts", std::move(counts)},
                       {"counts_by", std::move(counts_by)}};
  data["group_names"] = std::move(group_names);
  const budget no_parts{0, 0};
  profile["report"] = {
      {"threshold", d.threshold},
      {"event", event},
      {"functions", total_rows},
      {"shown", shown},
      {"sources_left_out", sources.left_out},
      {"sources", sources.said()},
      {"graphs", graphs.said()},
      {"graph", {{"up", graph_depth}, {"down", graph_depth}, {"min", std::stod(graph_min)}}},
      {"flames", flames.said()},
      {"flame", {{"min", std::stod(flame_min)}, {"max_frames", flame_frames}}},
      {"parts", no_parts.said()},
      {"parts_shown", nlohmann::json::array()},
      {"part_details", 0},
      {"part_details_left_out", 0},
      {"gate", gate ? verdict(r, *gate, failures) : nlohmann::json(nullptr)}};
  data["profile"] = std::move(profile);

  std::string err;
  const auto size = write_report(data.dump(), raw, d.out_path, err);
  if (!size) {
    std::fprintf(stderr, "calltree report: %s\n", err.c_str());
    return exit_usage;
  }
  std::fprintf(stderr, "calltree report: wrote %s (%zu bytes; %zu of %zu functions)\n",
               d.out_path.c_str(), *size, shown, total_rows);
  if (gate && !failures.empty()) {
    const gate_failure& f = failures.front();
    std::fprintf(stderr, "calltree report: program total: %s grew %s (%s -> %s), above %g%%\n",
                 r.events[f.event.index()].c_str(), percent_text(f.old_value, f.new_value).c_str(),
                 with_thousands(f.old_value).c_str(), with_thousands(f.new_value).c_str(),
                 gate->percent);
    return exit_findings;
  }
  return faulty ? exit_findings : exit_ok;
}

}  // namespace calltree::cli

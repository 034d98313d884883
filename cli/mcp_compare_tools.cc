// mcp_compare_tools.cc — the tools of more than one profile: diff (two profiles, as `calltree
// serve OLD NEW` lists them, matched as `calltree diff` matches functions) and trend (a folder
// of runs, serve DIR's Trend view: history/trend.h's change points). docs/mcp.md.
#include <cstdio>

#include "mcp_profiles.h"
#include "mcp_tools.h"

namespace calltree::cli::mcp {

namespace {

json change_of(const json& c) {
  return {{"old", cost_of(c["old"])},
          {"new", cost_of(c["new"])},
          {"delta", cost_of(c["delta"])},
          {"percent", c["percent"]}};
}

std::string change_text(const json& c) {
  std::string out = grouped(c["old"]) + " -> " + grouped(c["new"]) + " (";
  const std::int64_t d = signed_cost(c["delta"]);
  out += d > 0 ? "+" : "";  // (appended, not "+" + string: GCC 12's -O3 -Wrestrict misreads that)
  out += grouped(d);
  if (c["percent"].is_number()) {
    const double p = c["percent"].get<double>();
    out += ", " + std::string(p > 0 ? "+" : "") + percent_text(p);
  }
  return out + ")";
}

}  // namespace

tool_answer run_diff(tool_context& c, const json& arguments_json) {
  arguments args("diff", arguments_json);
  const std::string old_path = args.path();
  const std::string new_path = args.path("new_path");
  const auto event = args.text("event");
  const std::string by = args.choice("by", {"self", "inclusive"}, "self");
  const auto filter = args.text("filter");
  const std::uint64_t n = args.count("n", 20, 1, 500);
  args.done();
  const served& s = c.profiles.diff(old_path, new_path);
  // The event: the one asked for, else the first of those both profiles have.
  std::string e;
  if (event) {
    e = *event;
  } else {
    const json head = s.ask("/api/v1/functions?limit=0");
    if (head["events"].empty())
      throw tool_failure("the two profiles have no event in common: nothing to compare");
    e = head["events"][0];
  }
  query q;
  // (Functions whose cost did not change are counted, not listed.)
  q.add("by", by).add("measure", "abs_delta").add("unchanged", "no");
  q.add("events", e).add("sort", e).add("limit", n);
  if (filter) q.add("filter", *filter);
  const json list = s.ask("/api/v1/functions?" + q.str());

  tool_answer a;
  json rows = json::array();
  for (const json& r : list["rows"])
    rows.push_back({{"name", r["name"]},
                    {"file", r["file"]},
                    {"object", r["object"]},
                    {"change", r["change"]},
                    {"self", change_of(r["self"][e])},
                    {"inclusive", change_of(r["inclusive"][e])}});
  const std::uint64_t matched = list["total_rows"];
  const json total = change_of(list["totals"][e]);
  a.structured = {{"path", old_path},
                  {"new_path", new_path},
                  {"event", e},
                  {"by", by},
                  {"total", total},
                  {"counts", list["counts"]},
                  {"matched", matched},
                  {"left_out", matched - rows.size()},
                  {"functions", rows},
                  {"events_only_in_old", list["old_only_events"]},
                  {"events_only_in_new", list["new_only_events"]}};
  const json& counts = list["counts"];
  std::string& t = a.text;
  t = e + " total: " + change_text(total) + ". Functions: " + counts["changed"].dump() +
      " changed, " + counts["added"].dump() + " added, " + counts["removed"].dump() + " removed, " +
      counts["unchanged"].dump() + " unchanged.";
  t += "\nBiggest changes of " + by + " cost" + (filter ? " matching /" + *filter + "/" : "") + ":";
  if (rows.empty()) t += by == "self" ? " none (by inclusive may list some)" : " none";
  std::size_t i = 0;
  for (const json& r : rows)
    t += "\n" + std::to_string(++i) + ". " + r["name"].get<std::string>() + " [" +
         r["change"].get<std::string>() + "] " + change_text(r[by]);
  if (matched > rows.size())
    t += "\n(" + grouped(static_cast<std::int64_t>(matched - rows.size())) +
         " more: raise n, or narrow with filter)";
  return a;
}

tool_answer run_trend(tool_context& c, const json& arguments_json) {
  arguments args("trend", arguments_json);
  const std::string dir = args.path();
  const auto event = args.text("event");
  const auto function = args.text("function");
  const auto threshold = args.number("threshold", 0, 1000);
  const std::string order = args.choice("order", {"time", "name"}, "time");
  const bool recursive = args.flag("recursive", false);
  const std::uint64_t n = args.count("n", 10, 1, 50);
  args.done();
  query q;
  q.add("order", order);
  if (event) q.add("event", *event);
  if (function) q.add("function", *function);
  if (threshold) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.6g", *threshold);
    q.add("threshold", pct);
  }
  const json t = c.profiles.trend(dir, recursive, q.str());

  constexpr std::size_t max_points = 100;
  const json& all = t["points"];
  json points = json::array();
  const std::size_t skip = all.size() > max_points ? all.size() - max_points : 0;
  for (std::size_t i = skip; i < all.size(); ++i) {
    const json& p = all[i];
    points.push_back({{"run", i},
                      {"file", p["file"]},
                      {"time", p["time"]},
                      {"self", cost_of(p["self"])},
                      {"inclusive", cost_of(p["inclusive"])},
                      {"total", cost_of(p["total"])}});
  }
  json top = json::array();
  for (const json& x : t["top"])
    if (top.size() < n) top.push_back(x);
  tool_answer a;
  a.structured = {{"path", dir},
                  {"event", t["event"]},
                  {"events", t["events"]},
                  {"function", t["function"]},
                  {"detector", t["detector"]},
                  {"threshold_percent", t["threshold_percent"]},
                  {"runs", all.size()},
                  {"points", points},
                  {"points_left_out", skip},
                  {"changes", t["changes"]},
                  {"top", top},
                  {"top_left_out", t["top"].size() - top.size()},
                  {"skipped", t["skipped"]},
                  {"problems", t["problems"]}};

  auto change_line = [](const json& ch) {
    std::string line = "run " + ch["run"].dump() + " (" + ch["run_file"].get<std::string>() +
                       "): " + grouped(ch["before"]) + " -> " + grouped(ch["after"]);
    if (ch["delta_percent"].is_number()) {
      const double p = ch["delta_percent"].get<double>();
      line += " (" + std::string(p > 0 ? "+" : "") + percent_text(p) + ")";
    }
    return line;
  };
  std::string& text = a.text;
  const std::string what = function ? "'" + *function + "'" : std::string("the program's total");
  text = dir + ": " + std::to_string(all.size()) + " runs, " + t["event"].get<std::string>() +
         " of " + what + " from " + (all.empty() ? "?" : grouped(all.front()["inclusive"])) +
         " to " + (all.empty() ? "?" : grouped(all.back()["inclusive"])) + ".";
  text += "\nChange points of " + what + ":";
  if (t["changes"].empty()) text += " none (no step above the threshold)";
  for (const json& ch : t["changes"]) text += "\n  " + change_line(ch);
  if (!top.empty()) text += "\nBiggest changes of functions:";
  for (const json& ch : top)
    text += "\n  " + ch["function"].get<std::string>() + ": " + change_line(ch);
  if (!t["problems"].empty())
    text += "\nProblems: " + std::to_string(t["problems"].size()) +
            " runs left out (problems lists them)";
  return a;
}

}  // namespace calltree::cli::mcp

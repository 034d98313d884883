// mcp_profile_tools.cc — the tools of one profile: summary, top_functions and function
// (docs/mcp.md). Each asks serve's API of the profile (mcp_profiles.h) and keeps what an agent
// acts on: one event's figures (the `event` argument, else the profile's first), shares of the
// program's total, lists cut at `n` with a count of what was left out.
#include <algorithm>

#include "mcp_lookup.h"
#include "mcp_profiles.h"
#include "mcp_tools.h"

namespace calltree::cli::mcp {

namespace {

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return grouped(static_cast<std::int64_t>(n)) + " " + std::string(n == 1 ? one : many);
}

// "file:line:col: severity: message [code]" of a diagnostic of /api/v1/profile.
std::string diagnostic_text(const json& d) {
  std::string where = d.value("file", "");
  if (d.value("line", 0) > 0) where += ":" + std::to_string(d.value("line", 0));
  if (d.value("column", 0) > 0) where += ":" + std::to_string(d.value("column", 0));
  return where + ": " + d.value("severity", "") + ": " + d.value("message", "") + " [" +
         d.value("code", "") + "]";
}

// The rows of a function list, one line each, for a tool's text.
std::string function_lines(const json& rows) {
  std::string out;
  std::size_t i = 0;
  for (const json& r : rows) {
    // (appended piece by piece: "\n" + string makes GCC 12's -O3 -Wrestrict misread it)
    out.append("\n").append(std::to_string(++i)).append(". ").append(r["name"].get<std::string>());
    out.append("  self ").append(grouped(r["self"])).append(" (");
    out.append(percent_text(r["self_percent"])).append("), inclusive ");
    out.append(grouped(r["inclusive"])).append(" (");
    out.append(percent_text(r["inclusive_percent"])).append(")");
    if (!r["file"].get<std::string>().empty()) out += "  " + r["file"].get<std::string>();
  }
  return out;
}

}  // namespace

tool_answer summarize_profile(const std::string& path, const json& profile) {
  const json& input = profile["inputs"].back();
  tool_answer a;
  json& out = a.structured;
  out["path"] = path;
  out["creator"] = input.value("creator", "");
  out["command"] = input.value("command", "");
  json events = json::array();
  for (const json& e : profile["events"]) {
    json entry = {{"name", e["name"]},
                  {"long_name", e.value("long_name", "")},
                  {"total", cost_of(profile["totals"][e["name"].get<std::string>()])}};
    if (!e["formula"].is_null()) entry["formula"] = e["formula"];
    events.push_back(std::move(entry));
  }
  out["events"] = events;
  out["functions"] = profile["functions"];
  out["cycles"] = profile["cycles"];
  std::uint64_t found = 0;
  for (const json& f : profile["files"]) found += f.value("found", false) ? 1 : 0;
  out["source_files"] = profile["files"].size();
  out["source_files_found"] = found;
  // Parts: threads, dumps, processes (each with its totals), listed when there are several.
  const json& parts = input["parts"];
  constexpr std::size_t max_parts = 16;
  json list = json::array();
  if (parts.size() > 1)
    for (std::size_t i = 0; i < parts.size() && i < max_parts; ++i) {
      const json& p = parts[i];
      json totals = json::object();
      for (const auto& [event, value] : p["totals"].items()) totals[event] = cost_of(value);
      list.push_back({{"index", p["index"]},
                      {"pid", p["pid"]},
                      {"thread", p["thread"]},
                      {"part", p["part"]},
                      {"totals", totals}});
    }
  out["parts"] = {{"count", parts.size()},
                  {"list", list},
                  {"left_out", parts.size() > 1 ? parts.size() - list.size() : 0}};
  out["complete"] = input.value("complete", true);
  const json& d = input["diagnostics"];
  json diagnostics = json::array(), messages = json::array(), by_code = json::array();
  for (const json& x : d["shown"]) {
    if (diagnostics.size() == 20) break;
    diagnostics.push_back(diagnostic_text(x));
  }
  for (const json& w : input["warnings"]) messages.push_back(w);
  for (const json& w : profile["event_warnings"]) messages.push_back(w);
  for (const json& c : d["by_code"])
    by_code.push_back({{"code", c["code"]}, {"severity", c["severity"]}, {"count", c["count"]}});
  out["problems"] = {{"errors", d["errors"]}, {"warnings", d["warnings"]},  {"notes", d["notes"]},
                     {"by_code", by_code},    {"diagnostics", diagnostics}, {"messages", messages}};

  std::string& t = a.text;
  t = path + ": ";
  if (!out["creator"].get<std::string>().empty()) t += out["creator"].get<std::string>() + " ";
  t += "profile";
  if (!out["command"].get<std::string>().empty())
    t += " of `" + out["command"].get<std::string>() + "`";
  t += ", " + plural(parts.size(), "part", "parts") + ".\nEvents:";
  for (const json& e : events)
    t += " " + e["name"].get<std::string>() +
         (e["long_name"].get<std::string>().empty() ||
                  e["long_name"].get<std::string>() == e["name"].get<std::string>()
              ? ""
              : " (" + e["long_name"].get<std::string>() + ")") +
         " = " + grouped(e["total"]) + ";";
  t.back() = '.';
  t += "\n" + plural(out["functions"].get<std::uint64_t>(), "function", "functions") + ", " +
       plural(out["cycles"].get<std::uint64_t>(), "cycle", "cycles") + ", " +
       plural(out["source_files"].get<std::uint64_t>(), "source file", "source files") + " (" +
       std::to_string(found) + " found here).";
  const std::uint64_t errors = d["errors"], warnings = d["warnings"];
  if (errors == 0 && warnings == 0 && out["complete"].get<bool>()) {
    t += "\nNo problems reading it.";
  } else {
    t += "\nProblems reading it: " + plural(errors, "error", "errors") + ", " +
         plural(warnings, "warning", "warnings") +
         (out["complete"].get<bool>() ? "" : "; not read to its end") + ".";
    for (std::size_t i = 0; i < diagnostics.size() && i < 5; ++i)
      t += "\n  " + diagnostics[i].get<std::string>();
  }
  if (!messages.empty()) t += "\nNotes:";
  for (const json& m : messages) t += "\n  " + m.get<std::string>();
  return a;
}

tool_answer run_summary(tool_context& c, const json& arguments_json) {
  arguments args("summary", arguments_json);
  const std::string path = args.path();
  args.done();
  const served& s = c.profiles.single(path);
  return summarize_profile(path, s.ask("/api/v1/profile"));
}

tool_answer run_top_functions(tool_context& c, const json& arguments_json) {
  arguments args("top_functions", arguments_json);
  const std::string path = args.path();
  const std::string by = args.choice("by", {"self", "inclusive"}, "self");
  const auto event = args.text("event");
  const auto filter = args.text("filter");
  const std::uint64_t n = args.count("n", 20, 1, 500);
  args.done();
  const served& s = c.profiles.single(path);
  query q;
  q.add("by", by).add("limit", n).add("cycles", "no");
  if (event) q.add("sort", *event).add("events", *event);
  if (filter) q.add("filter", *filter);
  const json list = s.ask("/api/v1/functions?" + q.str());
  const std::string e = list["sort"]["event"];
  const json total = cost_of(list["totals"][e]);

  tool_answer a;
  json rows = json::array();
  for (const json& r : list["rows"]) {
    rows.push_back({{"name", r["name"]},
                    {"file", r["file"]},
                    {"object", r["object"]},
                    {"self", cost_of(r["self"][e])},
                    {"inclusive", cost_of(r["inclusive"][e])},
                    {"self_percent", percent_of(r["self"][e], total)},
                    {"inclusive_percent", percent_of(r["inclusive"][e], total)},
                    {"calls", r["calls"]},
                    {"cycle", r["cycle"]}});
  }
  const std::uint64_t matched = list["total_rows"];
  a.structured = {{"path", path},     {"event", e},         {"by", by},
                  {"total", total},   {"matched", matched}, {"left_out", matched - rows.size()},
                  {"functions", rows}};
  a.text = "Top " + std::to_string(rows.size()) + " of " +
           plural(matched, "function", "functions") +
           (filter ? " matching /" + *filter + "/" : "") + " by " + by + " " + e +
           " (program total " + grouped(total) + "):" + function_lines(rows);
  if (matched > rows.size())
    a.text += "\n(" + grouped(static_cast<std::int64_t>(matched - rows.size())) +
              " more: raise n, or narrow with filter)";
  return a;
}

namespace {

// The calls of a /function answer's "callers" or "callees", for one event: each call's cost
// as a share of the program's total (percent) and of the function's inclusive cost
// (function_percent: "who calls it most?", "where does its time go?"). A recursive function's
// calls can pass through it more than once: their shares of it can sum past 100.
json call_rows(const json& calls, const std::string& e, const json& total, const json& inclusive) {
  json out = json::array();
  for (const json& c : calls)
    out.push_back({{"name", c["name"]},
                   {"file", c["file"]},
                   {"count", c["count"]},
                   {"cost", cost_of(c["cost"][e])},
                   {"percent", percent_of(c["cost"][e], total)},
                   {"function_percent", percent_of(c["cost"][e], inclusive)},
                   {"recursive", c["recursive"]}});
  return out;
}

std::string call_lines(std::string_view title, const json& rows, std::uint64_t left_out) {
  std::string out = "\n" + std::string(title) + ":";
  if (rows.empty()) out += " none";
  for (const json& r : rows)
    out += "\n  " + r["name"].get<std::string>() + "  " +
           plural(r["count"].get<std::uint64_t>(), "call", "calls") + ", " + grouped(r["cost"]) +
           " (" + percent_text(r["function_percent"]) + " of its inclusive, " +
           percent_text(r["percent"]) + " of the total)" +
           (r["recursive"].get<bool>() ? " recursive" : "");
  if (left_out) out += "\n  (" + grouped(static_cast<std::int64_t>(left_out)) + " more)";
  return out;
}

}  // namespace

tool_answer run_function(tool_context& c, const json& arguments_json) {
  arguments args("function", arguments_json);
  const std::string path = args.path();
  const auto name = args.text("name");
  if (!name) throw bad_arguments("function: argument 'name' is required (a function's name)");
  const auto file = args.text("file");
  const std::string event = args.text_or("event", "");
  const std::uint64_t n = args.count("n", 15, 1, 200);
  const std::uint64_t line_count = args.count("lines", 10, 0, 100);
  const std::uint64_t instruction_count = args.count("instructions", 10, 0, 100);
  args.done();
  const served& s = c.profiles.single(path);
  const found_function f = find_function(s, path, *name, file, event);
  query q;
  q.add("limit", n);
  if (!event.empty()) q.add("sort", event).add("events", event);
  const json d = s.ask("/api/v1/function/" + std::to_string(f.id) + "?" + q.str());
  const std::string e = event.empty() ? d["events"][0].get<std::string>() : event;
  const json total = cost_of(d["totals"][e]);

  tool_answer a;
  json& out = a.structured;
  out = {{"path", path},
         {"name", d["name"]},
         {"file", d["file"]},
         {"object", d["object"]},
         {"kind", d["kind"]},
         {"event", e},
         {"total", total},
         {"self", cost_of(d["self"][e])},
         {"inclusive", cost_of(d["inclusive"][e])},
         {"self_percent", percent_of(d["self"][e], total)},
         {"inclusive_percent", percent_of(d["inclusive"][e], total)},
         {"calls", d["calls"]},
         {"cycle", d["cycle"]}};
  const json inclusive = cost_of(d["inclusive"][e]);
  out["callers"] = call_rows(d["callers"], e, total, inclusive);
  out["callers_left_out"] = d["callers_total"].get<std::uint64_t>() - d["callers"].size();
  out["callees"] = call_rows(d["callees"], e, total, inclusive);
  out["callees_left_out"] = d["callees_total"].get<std::uint64_t>() - d["callees"].size();
  // Its hottest lines: the lines from its first to its last in its own file, by self cost.
  out["lines"] = nullptr;
  const json& src = d["source"];
  if (line_count > 0 && src.is_object() && src["first_line"].get<std::uint64_t>() > 0) {
    const std::uint64_t first = src["first_line"], last = src["last_line"];
    query sq;
    sq.add("max_calls", 0);
    if (!event.empty()) sq.add("sort", event).add("events", event);
    const json v = s.ask("/api/v1/source/" + std::to_string(src["file_id"].get<std::uint64_t>()) +
                         "?" + sq.str());
    std::vector<const json*> in_range;
    for (const json& l : v["lines"]) {
      const std::uint64_t n_line = l["line"];
      if (n_line >= first && n_line <= last && signed_cost(l["self"][e]) != 0)
        in_range.push_back(&l);
    }
    std::stable_sort(in_range.begin(), in_range.end(), [&e](const json* x, const json* y) {
      return signed_cost((*x)["self"][e]) > signed_cost((*y)["self"][e]);
    });
    if (in_range.size() > line_count) in_range.resize(line_count);
    json hottest = json::array();
    const json& text = v["text"];
    for (const json* l : in_range) {
      json row = {{"line", (*l)["line"]},
                  {"self", cost_of((*l)["self"][e])},
                  {"percent", percent_of((*l)["self"][e], total)}};
      const std::uint64_t at = (*l)["line"];
      if (at >= 1 && at <= text.size())
        row["text"] = text[at - 1].get<std::string>().substr(0, 300);
      hottest.push_back(std::move(row));
    }
    out["lines"] = {{"file", d["file"]},
                    {"first_line", first},
                    {"last_line", last},
                    {"text_found", !v["missing"].get<bool>()},
                    {"hottest", hottest}};
  }
  // Why a field is null: an agent asks for what is missing, or knows that it cannot be had.
  json why_null = json::object();
  if (out["lines"].is_null())
    why_null["lines"] =
        line_count == 0 ? "lines=0 was asked"
        : d["kind"] == "cycle"
            ? "a cycle has no source lines of its own: ask for one of its functions"
            : "the profile has no source lines for it: its code was built without line "
              "information (no -g, a distribution's binary), or its profiler records none; "
              "instructions gives its machine code's costs where the profile has them";
  std::string why_no_code;
  out["instructions"] = d["kind"] == "cycle" ? json(nullptr)
                                             : hottest_instructions(s, f.id, e, total,
                                                                    instruction_count, why_no_code);
  if (d["kind"] == "cycle")
    why_no_code = "a cycle has no machine code of its own: ask for one of its functions";
  if (out["instructions"].is_null()) why_null["instructions"] = why_no_code;
  if (out["cycle"].is_null()) why_null["cycle"] = "it is in no cycle of recursion";
  out["why_null"] = why_null;
  out["same_name"] = f.others;

  std::string& t = a.text;
  t = out["name"].get<std::string>();
  if (!out["file"].get<std::string>().empty()) t += " (" + out["file"].get<std::string>() + ")";
  t += ": " + e + " self " + grouped(out["self"]) + " (" + percent_text(out["self_percent"]) +
       "), inclusive " + grouped(out["inclusive"]) + " (" + percent_text(out["inclusive_percent"]) +
       ") of " + grouped(total) + "; called " +
       plural(out["calls"].get<std::uint64_t>(), "time", "times") +
       (out["cycle"].is_null() ? "" : "; in <cycle " + out["cycle"].dump() + ">") + ".";
  t += call_lines("Callers", out["callers"], out["callers_left_out"]);
  t += call_lines("Callees", out["callees"], out["callees_left_out"]);
  if (out["lines"].is_object()) {
    t += "\nHottest lines (" + out["lines"]["first_line"].dump() + "-" +
         out["lines"]["last_line"].dump() + "):";
    for (const json& l : out["lines"]["hottest"])
      t += "\n  " + l["line"].dump() + ": " + grouped(l["self"]) + " (" +
           percent_text(l["percent"]) + ")" +
           (l.contains("text") ? "  " + l["text"].get<std::string>() : "");
  }
  if (out["instructions"].is_object()) {
    t += "\nHottest instructions (" + out["instructions"]["object"].get<std::string>() + "):";
    for (const json& x : out["instructions"]["hottest"])
      t += "\n  " + x["address"].get<std::string>() + ": " + grouped(x["self"]) + " (" +
           percent_text(x["percent"]) + ")  " + x["code"].get<std::string>();
  }
  for (const auto& [field, why] : why_null.items())
    if (field != "cycle") t += "\nNo " + field + ": " + why.get<std::string>() + ".";
  if (!f.others.empty())
    t += "\n(" + plural(f.others.size(), "other function has", "other functions have") +
         " this name: pass file to pick one)";
  return a;
}

}  // namespace calltree::cli::mcp

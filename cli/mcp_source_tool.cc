// mcp_source_tool.cc — the source tool of `calltree mcp`: a file's annotated lines, as serve's
// Source tab shows them (GET /api/v1/source/ID), cut to what an agent reads.
//
// Which lines. With `name`, the function's lines in its own file (first to last, the range
// serve's function view gives) and `context` lines either side. With `file` alone, every line
// of the file that has a cost or makes a call, with `context` lines around each, the runs of
// lines joined where they touch (as callgrind_annotate shows a file). Either way at most
// `max_lines` lines are listed, in order, and `left_out` counts the rest of the range. A line's
// `self` is its cost summed over every function whose code is on it (inlined code too), the
// figure of `calltree annotate`'s source listing; `calls` are the calls made from it.
#include <algorithm>
#include <map>

#include "mcp_lookup.h"
#include "mcp_profiles.h"
#include "mcp_tools.h"

namespace calltree::cli::mcp {

tool_answer run_source(tool_context& c, const json& arguments_json) {
  arguments args("source", arguments_json);
  const std::string path = args.path();
  const auto name = args.text("name");
  const auto file = args.text("file");
  const std::string event = args.text_or("event", "");
  const std::uint64_t context = args.count("context", 3, 0, 50);
  const std::uint64_t max_lines = args.count("max_lines", 200, 1, 2000);
  args.done();
  if (!name && !file)
    throw bad_arguments(
        "source: give 'name' (a function: its lines) or 'file' (a source file: "
        "its costly lines), or both");
  const served& s = c.profiles.single(path);

  std::uint64_t file_id = 0, first = 0, last = 0;
  std::optional<std::string> function;
  if (name) {
    const found_function f = find_function(s, path, *name, file, event);
    const json d = s.ask("/api/v1/function/" + std::to_string(f.id) + "?limit=0");
    if (d["source"].is_null())
      throw tool_failure("'" + *name +
                         "' is a cycle of functions, which has no source: ask "
                         "for one of its members (the function tool lists them as callees)");
    file_id = d["source"]["file_id"];
    first = d["source"]["first_line"];
    last = d["source"]["last_line"];
    function = d["name"].get<std::string>();
    if (first == 0)
      throw tool_failure("the profile has no line numbers for '" + *function +
                         "' (compiled without -g, or recorded without line positions)");
  } else {
    file_id = find_file(s, *file);
  }
  query q;
  q.add("max_calls", 10);
  if (!event.empty()) q.add("sort", event).add("events", event);
  const json v = s.ask("/api/v1/source/" + std::to_string(file_id) + "?" + q.str());
  const std::string e = v["event"].is_string() ? v["event"].get<std::string>() : event;
  if (v["no_file"].get<bool>())
    throw tool_failure("'" + v["name"].get<std::string>() +
                       "' names no source file (code without debug information): the "
                       "function tool shows its costs and calls");
  // (The program's total, as the function list gives it: the percentages are of it.)
  query tq;
  tq.add("limit", 0).add("events", e);
  const json total = cost_of(s.ask("/api/v1/functions?" + tq.str())["totals"][e]);
  // (A line's calls name the function making them: two functions can share a line.)
  const views::session& session = *s.sessions.front();
  auto caller_name = [&session](const json& id) {
    const std::uint64_t k = id.get<std::uint64_t>();
    return k < session.ids() ? std::string(session.name(static_cast<std::uint32_t>(k)))
                             : std::string();
  };
  std::map<std::uint64_t, const json*> costed;
  for (const json& l : v["lines"]) costed[l["line"].get<std::uint64_t>()] = &l;
  const json& text = v["text"];

  // The ranges of lines shown, in order, joined where they touch.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  auto add_range = [&ranges](std::uint64_t from, std::uint64_t to) {
    if (!ranges.empty() && from <= ranges.back().second + 1)
      ranges.back().second = std::max(ranges.back().second, to);
    else
      ranges.emplace_back(from, to);
  };
  if (function) {
    add_range(first > context ? first - context : 1, last + context);
  } else {
    for (const auto& [line, l] : costed) {
      if (line == 0) continue;
      add_range(line > context ? line - context : 1, line + context);
    }
  }
  // (past the end of the text, when there is one)
  if (!text.empty())
    for (auto& r : ranges) r.second = std::min<std::uint64_t>(r.second, text.size());

  json lines = json::array();
  std::uint64_t in_ranges = 0;
  for (const auto& [from, to] : ranges) {
    if (from > to) continue;
    in_ranges += to - from + 1;
    for (std::uint64_t n = from; n <= to && lines.size() < max_lines; ++n) {
      json row = {{"line", n}, {"self", 0}, {"percent", 0.0}};
      if (n >= 1 && n <= text.size()) row["text"] = text[n - 1];
      if (auto it = costed.find(n); it != costed.end()) {
        const json& l = *it->second;
        row["self"] = cost_of(l["self"][e]);
        row["percent"] = percent_of(l["self"][e], total);
        if (l.contains("calls")) {
          json calls = json::array();
          for (const json& call : l["calls"])
            calls.push_back({{"callee", call["callee"]["name"]},
                             {"caller", caller_name(call["caller"])},
                             {"count", call["count"]},
                             {"cost", cost_of(call["cost"][e])}});
          row["calls"] = calls;
        }
      }
      lines.push_back(std::move(row));
    }
  }

  tool_answer a;
  a.structured = {{"path", path},
                  {"file", v["name"]},
                  {"text_found", !v["missing"].get<bool>()},
                  {"message", v["message"]},
                  {"read_from", v["path"]},
                  {"function", function ? json(*function) : json(nullptr)},
                  {"first_line", function ? json(first) : json(nullptr)},
                  {"last_line", function ? json(last) : json(nullptr)},
                  {"event", e},
                  {"total", total},
                  {"lines", lines},
                  {"left_out", in_ranges - lines.size()}};
  std::string& t = a.text;
  t = v["name"].get<std::string>();
  if (function)
    t += ", " + *function + " (lines " + std::to_string(first) + "-" + std::to_string(last) + ")";
  t += ", " + e + " self per line, % of " + grouped(total) + ":";
  if (v["missing"].get<bool>()) t += "\n(no text: " + v["message"].get<std::string>() + ")";
  std::uint64_t previous = 0;
  for (const json& l : lines) {
    const std::uint64_t n = l["line"];
    if (previous && n != previous + 1) t += "\n  ...";
    previous = n;
    const bool has_cost = signed_cost(l["self"]) != 0;
    std::string figure = has_cost ? grouped(l["self"]) + " " + percent_text(l["percent"]) : ".";
    t += "\n" + std::to_string(n) + ": " + figure + " | " +
         (l.contains("text") ? l["text"].get<std::string>() : "");
    if (l.contains("calls"))
      for (const json& call : l["calls"])
        t += "\n      " + call["caller"].get<std::string>() + " -> " +
             call["callee"].get<std::string>() + " (" + grouped(call["count"]) +
             (call["count"] == 1 ? " call, " : " calls, ") + grouped(call["cost"]) + ")";
  }
  const std::uint64_t left = a.structured["left_out"];
  if (left) t += "\n(" + grouped(static_cast<std::int64_t>(left)) + " more lines: raise max_lines)";
  return a;
}

}  // namespace calltree::cli::mcp

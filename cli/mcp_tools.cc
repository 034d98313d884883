// mcp_tools.cc — the table of `calltree mcp`'s tools (names, descriptions, input and output
// schemas: what tools/list says), the reading of a call's arguments, and the formatting the
// tools share. The tools' bodies are in mcp_profile_tools.cc, mcp_compare_tools.cc and
// mcp_record.cc. docs/mcp.md describes each tool; its answers are what the schemas say.
#include "mcp_tools.h"

#include <cmath>
#include <cstdio>

namespace calltree::cli::mcp {

namespace {

// (Schemas are JSON Schema 2020-12 texts, parsed when tools/list is asked.)
constexpr std::string_view path_only = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The profile's file: callgrind.out.*, a cachegrind file, pprof, perf script text, pstats, .cpuprofile or folded stacks (compressed too). Relative to the folder the server was started in."}
  },
  "required": ["path"],
  "additionalProperties": false
})";

constexpr std::string_view summary_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "creator": {"type": "string", "description": "The profiler that wrote it (creator:)."},
    "command": {"type": "string", "description": "The command profiled (cmd:)."},
    "events": {"type": "array", "description": "What was counted, with the program's total of each.",
      "items": {"type": "object", "properties": {"name": {"type": "string"}, "long_name": {"type": "string"}, "total": {"type": "integer"}}, "required": ["name", "total"]}},
    "functions": {"type": "integer"},
    "cycles": {"type": "integer", "description": "Cycles of recursion (functions calling each other in a loop)."},
    "source_files": {"type": "integer"},
    "source_files_found": {"type": "integer", "description": "Source files found on this machine (the source tool shows their text)."},
    "parts": {"type": "object", "properties": {"count": {"type": "integer"}, "list": {"type": "array"}, "left_out": {"type": "integer"}}, "required": ["count"]},
    "complete": {"type": "boolean", "description": "false: the file was not read to its end (cut short?)."},
    "problems": {"type": "object", "properties": {
      "errors": {"type": "integer"}, "warnings": {"type": "integer"}, "notes": {"type": "integer"},
      "by_code": {"type": "array"}, "diagnostics": {"type": "array", "items": {"type": "string"}}, "messages": {"type": "array", "items": {"type": "string"}}},
      "required": ["errors", "warnings"]}
  },
  "required": ["path", "events", "functions", "parts", "complete", "problems"]
})";

constexpr std::string_view top_in = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The profile's file."},
    "by": {"type": "string", "enum": ["self", "inclusive"], "description": "self: cost in the function's own code (default); inclusive: with everything it calls."},
    "event": {"type": "string", "description": "The event to rank by (default: the profile's first, e.g. Ir). summary lists them."},
    "filter": {"type": "string", "description": "Only functions whose name matches this regular expression (RE2, anywhere in the name; (?i) for any case)."},
    "n": {"type": "integer", "minimum": 1, "maximum": 500, "description": "How many functions (default 20)."}
  },
  "required": ["path"],
  "additionalProperties": false
})";

constexpr std::string_view top_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "event": {"type": "string"},
    "by": {"type": "string"},
    "total": {"type": "integer", "description": "The program's total of the event: the percentages are of it."},
    "matched": {"type": "integer", "description": "Functions that match the filter (all of them without one)."},
    "left_out": {"type": "integer", "description": "Matched functions not listed (past n)."},
    "functions": {"type": "array", "items": {"type": "object", "properties": {
      "name": {"type": "string"}, "file": {"type": "string"}, "object": {"type": "string"},
      "self": {"type": "integer"}, "inclusive": {"type": "integer"},
      "self_percent": {"type": "number"}, "inclusive_percent": {"type": "number"},
      "calls": {"type": "integer"}, "cycle": {"type": ["integer", "null"]}},
      "required": ["name", "file", "self", "inclusive"]}}
  },
  "required": ["path", "event", "by", "total", "matched", "left_out", "functions"]
})";

constexpr std::string_view function_in = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The profile's file."},
    "name": {"type": "string", "description": "The function's name as top_functions lists it (e.g. main, std::vector<int>::push_back(int const&)); a C++ name without its parameters also matches."},
    "file": {"type": "string", "description": "Its source file, when several functions have the name (static functions)."},
    "event": {"type": "string", "description": "The event (default: the profile's first)."},
    "n": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Callers and callees listed, the costliest first (default 15)."},
    "lines": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Hottest source lines listed (default 10)."},
    "instructions": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Hottest machine instructions listed (default 10): for code without line information, all there is below the function."}
  },
  "required": ["path", "name"],
  "additionalProperties": false
})";

constexpr std::string_view calls_schema =
    R"({"type": "array", "items": {"type": "object", "properties": {
      "name": {"type": "string"}, "file": {"type": "string"}, "count": {"type": "integer", "description": "Calls made."},
      "cost": {"type": "integer", "description": "Inclusive cost of those calls."}, "percent": {"type": "number", "description": "Of the program's total."},
      "function_percent": {"type": "number", "description": "Of the function's inclusive cost: who calls it most, where its time goes."}, "recursive": {"type": "boolean"}},
      "required": ["name", "count", "cost"]}})";

constexpr std::string_view function_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"}, "name": {"type": "string"}, "file": {"type": "string"}, "object": {"type": "string"},
    "kind": {"type": "string", "enum": ["function", "cycle"]},
    "event": {"type": "string"}, "total": {"type": "integer"},
    "self": {"type": "integer"}, "inclusive": {"type": "integer"},
    "self_percent": {"type": "number"}, "inclusive_percent": {"type": "number"},
    "calls": {"type": "integer", "description": "Calls into it."},
    "cycle": {"type": ["integer", "null"]},
    "callers": CALLS, "callers_left_out": {"type": "integer"},
    "callees": CALLS, "callees_left_out": {"type": "integer"},
    "lines": {"type": ["object", "null"], "description": "Its source lines (first to last line in its file) with the highest self cost.", "properties": {
      "file": {"type": "string"}, "first_line": {"type": "integer"}, "last_line": {"type": "integer"},
      "text_found": {"type": "boolean"},
      "hottest": {"type": "array", "items": {"type": "object", "properties": {"line": {"type": "integer"}, "self": {"type": "integer"}, "percent": {"type": "number"}, "text": {"type": "string"}}, "required": ["line", "self"]}}}},
    "instructions": {"type": ["object", "null"], "description": "Its machine instructions with the highest self cost (objdump's text of the object the profile names).", "properties": {
      "object": {"type": "string"}, "costly": {"type": "integer", "description": "Its instructions with a cost."},
      "note": {"type": "string"},
      "hottest": {"type": "array", "items": {"type": "object", "properties": {"address": {"type": "string"}, "code": {"type": "string"}, "self": {"type": "integer"}, "percent": {"type": "number"}, "file": {"type": "string"}, "line": {"type": "integer"}, "calls": {"type": "string"}}, "required": ["address", "code", "self"]}}}},
    "why_null": {"type": "object", "description": "Why each null field (lines, instructions, cycle) is null.", "additionalProperties": {"type": "string"}},
    "same_name": {"type": "array", "description": "Other functions of this name (in other files or objects).", "items": {"type": "object"}}
  },
  "required": ["path", "name", "event", "total", "self", "inclusive", "callers", "callees", "why_null"]
})";

constexpr std::string_view source_in = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The profile's file."},
    "name": {"type": "string", "description": "A function: its lines, with context around them."},
    "file": {"type": "string", "description": "A source file as the profile names it (with name: which of several functions of that name; alone: the file's lines that have a cost, with context)."},
    "event": {"type": "string", "description": "The event (default: the profile's first)."},
    "context": {"type": "integer", "minimum": 0, "maximum": 50, "description": "Lines shown around the function or each costly line (default 3)."},
    "max_lines": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "At most this many lines (default 200); the answer says how many were left out."}
  },
  "required": ["path"],
  "additionalProperties": false
})";

constexpr std::string_view source_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"}, "file": {"type": "string"},
    "text_found": {"type": "boolean"}, "message": {"type": ["string", "null"]},
    "read_from": {"type": ["string", "null"]},
    "function": {"type": ["string", "null"]},
    "first_line": {"type": ["integer", "null"]}, "last_line": {"type": ["integer", "null"]},
    "event": {"type": "string"}, "total": {"type": "integer"},
    "lines": {"type": "array", "items": {"type": "object", "properties": {
      "line": {"type": "integer"}, "self": {"type": "integer"}, "percent": {"type": "number"},
      "text": {"type": "string"},
      "calls": {"type": "array", "items": {"type": "object", "properties": {"callee": {"type": "string"}, "caller": {"type": "string", "description": "The function making the call."}, "count": {"type": "integer"}, "cost": {"type": "integer"}}}}},
      "required": ["line", "self"]}},
    "left_out": {"type": "integer", "description": "Lines of the range not listed (past max_lines)."}
  },
  "required": ["path", "file", "event", "total", "lines", "left_out"]
})";

constexpr std::string_view diff_in = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The old profile (before)."},
    "new_path": {"type": "string", "description": "The new profile (after)."},
    "event": {"type": "string", "description": "The event (default: the first of both)."},
    "by": {"type": "string", "enum": ["self", "inclusive"], "description": "Rank by the change of self (default) or inclusive cost."},
    "filter": {"type": "string", "description": "Only functions whose name matches this regular expression (RE2)."},
    "n": {"type": "integer", "minimum": 1, "maximum": 500, "description": "How many functions, the biggest changes first (default 20)."}
  },
  "required": ["path", "new_path"],
  "additionalProperties": false
})";

constexpr std::string_view change_schema =
    R"({"type": "object", "properties": {"old": {"type": "integer"}, "new": {"type": "integer"}, "delta": {"type": "integer"}, "percent": {"type": ["number", "null"]}}, "required": ["old", "new", "delta"]})";

constexpr std::string_view diff_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"}, "new_path": {"type": "string"},
    "event": {"type": "string"}, "by": {"type": "string"},
    "total": CHANGE,
    "counts": {"type": "object", "properties": {"changed": {"type": "integer"}, "unchanged": {"type": "integer"}, "added": {"type": "integer"}, "removed": {"type": "integer"}}},
    "matched": {"type": "integer"}, "left_out": {"type": "integer"},
    "functions": {"type": "array", "items": {"type": "object", "properties": {
      "name": {"type": "string"}, "file": {"type": "string"}, "object": {"type": "string"},
      "change": {"type": "string", "enum": ["changed", "unchanged", "added", "removed"]},
      "self": CHANGE, "inclusive": CHANGE}, "required": ["name", "change", "self", "inclusive"]}},
    "events_only_in_old": {"type": "array", "items": {"type": "string"}},
    "events_only_in_new": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["path", "new_path", "event", "total", "counts", "matched", "left_out", "functions"]
})";

constexpr std::string_view trend_in = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "A folder of profiles of the same program, one per run (a benchmark's history)."},
    "event": {"type": "string", "description": "The event (default: the first of the oldest run)."},
    "function": {"type": "string", "description": "Follow this function (a name, or file:name) instead of the program's total."},
    "threshold": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "description": "The least step that is a change, in % of the cost before it (default 1)."},
    "order": {"type": "string", "enum": ["time", "name"], "description": "Runs oldest first by modification time (default), or by name in natural order (run9 before run10)."},
    "recursive": {"type": "boolean", "description": "Also the profiles in the folder's folders."},
    "n": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many of the biggest changes of functions (default 10)."}
  },
  "required": ["path"],
  "additionalProperties": false
})";

constexpr std::string_view change_point = R"({"type": "object", "properties": {
      "function": {"type": ["string", "null"]}, "file": {"type": ["string", "null"]},
      "run": {"type": "integer"}, "run_file": {"type": "string"}, "kind": {"type": "string"},
      "before": {"type": "integer"}, "after": {"type": "integer"}, "delta_percent": {"type": ["number", "null"]}},
      "required": ["run", "run_file", "before", "after"]})";

constexpr std::string_view trend_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"}, "event": {"type": "string"}, "events": {"type": "array", "items": {"type": "string"}},
    "function": {"type": ["string", "null"]}, "detector": {"type": "string"}, "threshold_percent": {"type": "number"},
    "runs": {"type": "integer"},
    "points": {"type": "array", "items": {"type": "object", "properties": {"run": {"type": "integer"}, "file": {"type": "string"}, "time": {"type": "string"}, "self": {"type": "integer"}, "inclusive": {"type": "integer"}, "total": {"type": "integer"}}}},
    "points_left_out": {"type": "integer"},
    "changes": {"type": "array", "description": "Change points of the total (or of the function asked for).", "items": POINT},
    "top": {"type": "array", "description": "The biggest changes of any function.", "items": POINT},
    "top_left_out": {"type": "integer"},
    "skipped": {"type": "integer"}, "problems": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["path", "event", "runs", "points", "changes", "top"]
})";

constexpr std::string_view record_in = R"({
  "type": "object",
  "properties": {
    "command": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The program and its arguments, e.g. [\"./build/bench\", \"--quick\"]. Runs under valgrind --tool=callgrind (20-100 times slower than alone); php, python3 and node under their own profilers (Xdebug, cProfile, --cpu-prof), as calltree record runs them."},
    "profiler": {"type": "string", "enum": ["callgrind", "xdebug", "cprofile", "node"], "description": "The profiler (default: told by the program, as above)."},
    "children": {"type": "boolean", "description": "callgrind: follow the programs it starts (a script, a wrapper, a pyenv shim); each process is a part of the one profile (default false)."},
    "cwd": {"type": "string", "description": "The folder it runs in (default: the server's)."},
    "path": {"type": "string", "description": "The profile to write, in a folder that exists (default: callgrind.out.mcp.PID in cwd; mcp.PID.pstats or mcp.PID.cpuprofile for cProfile and node)."},
    "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 3600, "description": "Stop it after this long (default 300)."}
  },
  "required": ["command"],
  "additionalProperties": false
})";

constexpr std::string_view record_out = R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The profile written: pass it to the other tools."},
    "profiler": {"type": "string"},
    "exit_status": {"type": ["integer", "null"]}, "signal": {"type": ["integer", "null"]},
    "timed_out": {"type": "boolean"},
    "output": {"type": "string", "description": "The end of what the program and valgrind printed."},
    "summary": {"type": "object"}
  },
  "required": ["path", "exit_status", "timed_out", "output", "summary"]
})";

std::string with(std::string_view schema, std::string_view mark, std::string_view part) {
  std::string s(schema);
  for (std::size_t at; (at = s.find(mark)) != std::string::npos;) s.replace(at, mark.size(), part);
  return s;
}

}  // namespace

const std::vector<tool>& tools() {
  static const std::string function_schema = with(function_out, "CALLS", calls_schema);
  static const std::string diff_schema = with(diff_out, "CHANGE", change_schema);
  static const std::string trend_schema = with(trend_out, "POINT", change_point);
  static const std::vector<tool> table = {
      {"summary", "Profile summary",
       "What a profile holds: the profiler and command, the events counted with the program's "
       "total of each, functions, parts (threads, dumps) and any problems reading it "
       "(file:line:col diagnostics). Call it first on a profile.",
       path_only, summary_out, false, run_summary},
      {"top_functions", "Costliest functions",
       "The functions of highest cost, by self cost (their own code) or inclusive cost (with "
       "what they call), for one event, optionally only those whose name matches a regex. "
       "Each with its share of the program's total, its calls and its source file.",
       top_in, top_out, false, run_top_functions},
      {"function", "One function",
       "One function by name: its self and inclusive cost, calls, its callers and callees "
       "(count and inclusive cost of the calls, the costliest first, each with its share of "
       "the program's total and of the function's inclusive cost), its hottest source lines "
       "and its hottest machine instructions; why_null says why a field is null. An unknown "
       "name answers the closest names.",
       function_in, function_schema, false, run_function},
      {"source", "Annotated source",
       "A source file's lines with their self cost and the calls made on them: a function's "
       "lines with context around them (name), or the costly lines of a file (file). The text "
       "is read from the machine the server runs on.",
       source_in, source_out, false, run_source},
      {"diff", "Compare two profiles",
       "The change from one profile (path, before) to another (new_path, after): the "
       "program's total and the functions whose cost changed most, added or removed, as "
       "`calltree diff` matches them.",
       diff_in, diff_schema, false, run_diff},
      {"trend", "Trend of a folder of runs",
       "Profiles of many runs of a program in one folder (a benchmark's history): the "
       "program's total (or one function's) in each run, the change points (the run where a "
       "cost stepped up or down) and the biggest changes of any function.",
       trend_in, trend_schema, false, run_trend},
      {"record", "Profile a program",
       "Runs a program under its profiler as `calltree record` does (valgrind --tool=callgrind, "
       "much slower than alone; Xdebug for php, cProfile for python3, V8's for node) and "
       "answers the profile written and its summary; then use the other tools on its path.",
       record_in, record_out, true, run_record},
  };
  return table;
}

arguments::arguments(std::string_view tool, const json& args) : tool_(tool), args_(args) {}

const json* arguments::find(std::string_view name) const {
  asked_.emplace_back(name);
  const auto it = args_.find(std::string(name));
  if (it == args_.end() || it->is_null()) return nullptr;
  return &*it;
}

void arguments::wrong(std::string_view name, std::string_view takes) const {
  throw bad_arguments(tool_ + ": argument '" + std::string(name) + "' " + std::string(takes));
}

std::string arguments::path(std::string_view name) const {
  const json* v = find(name);
  if (!v) wrong(name, "is required: the path of a profile (a folder for trend)");
  if (!v->is_string() || v->get<std::string>().empty())
    wrong(name, "takes a path (a non-empty string)");
  const std::string p = v->get<std::string>();
  if (p == "-") wrong(name, "takes a file: standard input is the protocol's");
  return p;
}

std::optional<std::string> arguments::text(std::string_view name) const {
  const json* v = find(name);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrong(name, "takes a string");
  return v->get<std::string>();
}

std::uint64_t arguments::count(std::string_view name, std::uint64_t fallback, std::uint64_t min,
                               std::uint64_t max) const {
  const json* v = find(name);
  if (!v) return fallback;
  // (A client may send 20.0 for 20.)
  if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() &&
      v->get<double>() >= static_cast<double>(min) && v->get<double>() <= static_cast<double>(max))
    return static_cast<std::uint64_t>(v->get<double>());
  if (!v->is_number_integer() || v->get<std::int64_t>() < 0 ||
      static_cast<std::uint64_t>(v->get<std::int64_t>()) < min ||
      static_cast<std::uint64_t>(v->get<std::int64_t>()) > max)
    wrong(name, "takes a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  return v->get<std::uint64_t>();
}

std::optional<double> arguments::number(std::string_view name, double min, double max) const {
  const json* v = find(name);
  if (!v) return std::nullopt;
  if (!v->is_number() || !(v->get<double>() > min) || v->get<double>() > max) {
    char range[64];
    std::snprintf(range, sizeof range, "takes a number above %g, at most %g", min, max);
    wrong(name, range);
  }
  return v->get<double>();
}

std::string arguments::choice(std::string_view name,
                              std::initializer_list<std::string_view> allowed,
                              std::string_view fallback) const {
  const json* v = find(name);
  if (!v) return std::string(fallback);
  std::string options;
  for (auto a : allowed) options += (options.empty() ? "" : " or ") + std::string(a);
  if (!v->is_string()) wrong(name, "takes " + options);
  const std::string s = v->get<std::string>();
  for (auto a : allowed)
    if (s == a) return s;
  wrong(name, "takes " + options + ", not '" + s.substr(0, 100) + "'");
}

bool arguments::flag(std::string_view name, bool fallback) const {
  const json* v = find(name);
  if (!v) return fallback;
  if (!v->is_boolean()) wrong(name, "takes true or false");
  return v->get<bool>();
}

std::vector<std::string> arguments::strings(std::string_view name) const {
  const json* v = find(name);
  if (!v) return {};
  std::vector<std::string> out;
  if (!v->is_array()) wrong(name, "takes an array of strings");
  for (const json& s : *v) {
    if (!s.is_string()) wrong(name, "takes an array of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

void arguments::done() const {
  for (const auto& [key, value] : args_.items()) {
    if (std::find(asked_.begin(), asked_.end(), key) != asked_.end()) continue;
    std::string known;
    for (const auto& a : asked_) known += (known.empty() ? "" : ", ") + a;
    throw bad_arguments(tool_ + ": no argument '" + key.substr(0, 100) + "' (it takes " + known +
                        ")");
  }
}

json cost_of(const json& v) {
  if (v.is_number_integer()) return v;
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    try {
      if (!s.empty() && s[0] == '-') return json(std::stoll(s));
      return json(static_cast<std::uint64_t>(std::stoull(s)));
    } catch (const std::exception&) {
    }
  }
  return json(0);
}

std::int64_t signed_cost(const json& v) {
  const json c = cost_of(v);
  return c.is_number_unsigned() ? static_cast<std::int64_t>(c.get<std::uint64_t>())
                                : c.get<std::int64_t>();
}

std::string grouped(std::int64_t v) {
  std::string digits =
      std::to_string(v < 0 ? -static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string grouped(const json& cost) {
  const json c = cost_of(cost);
  if (c.is_number_unsigned()) {
    const std::uint64_t u = c.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::to_string(u);
    return grouped(static_cast<std::int64_t>(u));
  }
  return grouped(c.get<std::int64_t>());
}

double percent_of(const json& part, const json& whole) {
  const double w = static_cast<double>(signed_cost(whole));
  if (w == 0) return 0;
  return std::round(static_cast<double>(signed_cost(part)) * 10000 / w) / 100;
}

query& query::add(std::string_view key, std::string_view value) {
  static constexpr char hex[] = "0123456789ABCDEF";
  if (!s_.empty()) s_ += '&';
  s_ += key;
  s_ += '=';
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      s_ += ch;
    } else {
      s_ += '%';
      s_ += hex[c >> 4];
      s_ += hex[c & 15];
    }
  }
  return *this;
}

std::string percent_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", p);
  return buf;
}

}  // namespace calltree::cli::mcp

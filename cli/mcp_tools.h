// mcp_tools.h — the tools of `calltree mcp` (docs/mcp.md): their table, and what each shares.
//
// A tool takes the `arguments` object of a tools/call and gives a tool_answer: structured
// content (matching the tool's outputSchema) and a short text saying the same to a reader. Two
// ways to fail, as the MCP specification tells them apart:
//   bad_arguments — the call itself is wrong (a missing or mistyped argument, one the tool does
//                   not take): a JSON-RPC error -32602, the call never ran;
//   tool_failure  — the call was right but the tool could not do it (no such file, a file that
//                   holds no profile, no function of that name, an event the profile lacks):
//                   a result with isError, its text what to do next.
// Every number a tool gives comes from serve's JSON API asked in-process (mcp_profiles.h), so
// it is the figure `calltree serve` shows and `calltree annotate` prints.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace calltree::cli::mcp {

class profile_cache;

using json = nlohmann::json;

struct bad_arguments : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct tool_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct tool_answer {
  json structured = json::object();
  std::string text;
};

// What `calltree mcp` was started with, for the tools.
struct tool_settings {
  bool allow_record = false;
  std::string valgrind = "valgrind";  // --valgrind
};

struct tool_context {
  profile_cache& profiles;
  const tool_settings& settings;
};

struct tool {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  std::string_view input_schema;   // JSON Schema text
  std::string_view output_schema;  // JSON Schema text
  bool runs_programs = false;      // listed and callable only with --allow-record
  tool_answer (*run)(tool_context&, const json& arguments);
};

// Every tool, in the order tools/list gives them.
const std::vector<tool>& tools();

// The arguments of one call, read against what the tool takes: each getter throws
// bad_arguments naming the argument and what it takes; done() throws for an argument no
// getter asked for (a misspelt name would otherwise be ignored in silence).
class arguments {
 public:
  arguments(std::string_view tool, const json& args);
  std::string path(std::string_view name = "path") const;  // a file or folder, not "-"
  std::optional<std::string> text(std::string_view name) const;
  std::string text_or(std::string_view name, std::string fallback) const {
    return text(name).value_or(std::move(fallback));
  }
  // A whole number from `min` to `max` (the schema's minimum and maximum), else `fallback`.
  std::uint64_t count(std::string_view name, std::uint64_t fallback, std::uint64_t min,
                      std::uint64_t max) const;
  std::optional<double> number(std::string_view name, double min, double max) const;
  std::string choice(std::string_view name, std::initializer_list<std::string_view> allowed,
                     std::string_view fallback) const;
  bool flag(std::string_view name, bool fallback) const;
  std::vector<std::string> strings(std::string_view name) const;  // an array of strings
  void done() const;

 private:
  const json* find(std::string_view name) const;
  [[noreturn]] void wrong(std::string_view name, std::string_view takes) const;
  std::string tool_;
  const json& args_;
  mutable std::vector<std::string> asked_;
};

// The tools' bodies (mcp_profile_tools.cc, mcp_compare_tools.cc, mcp_record.cc).
tool_answer run_summary(tool_context&, const json&);
tool_answer run_top_functions(tool_context&, const json&);
tool_answer run_function(tool_context&, const json&);
tool_answer run_source(tool_context&, const json&);
tool_answer run_diff(tool_context&, const json&);
tool_answer run_trend(tool_context&, const json&);
tool_answer run_record(tool_context&, const json&);

struct served;
// The function tool's `instructions`: the `count` costliest instructions of function `id` in
// `event` (mcp_instructions.cc), or null with `why_null` saying why there are none.
json hottest_instructions(const served& s, std::uint64_t id, const std::string& event,
                          const json& total, std::uint64_t count, std::string& why_null);

// A summary's structured content and text of an API /profile answer (summary and record).
tool_answer summarize_profile(const std::string& path, const json& profile);

// A cost of an API answer (an integer, or a string of digits past 2^53) as a JSON integer.
json cost_of(const json& v);
std::int64_t signed_cost(const json& v);
// 362861224 -> "362,861,224"; negative numbers keep their sign.
std::string grouped(std::int64_t v);
std::string grouped(const json& cost);
// `part` of `whole` in percent, rounded to 2 decimals (0 when whole is 0).
double percent_of(const json& part, const json& whole);
std::string percent_text(double p);  // "12.34%"

// A query string of serve's API: "a=1&b=x%2By", each value percent-encoded.
class query {
 public:
  query& add(std::string_view key, std::string_view value);
  query& add(std::string_view key, std::uint64_t value) { return add(key, std::to_string(value)); }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

}  // namespace calltree::cli::mcp

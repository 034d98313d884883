// server/api_impl.h — (internal to server/) the pieces the API's routes share.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api.h"
#include "calltree/asm.h"
#include "report/json.h"
#include "views/columns.h"
#include "views/diff.h"
#include "views/part_costs.h"
#include "views/scope.h"
#include "views/session.h"
#include "views/stack_filter.h"

namespace calltree::server::detail {

// A request that cannot be answered: its status, a stable code and a message for people.
struct failure {
  int status = 400;
  std::string code, message;
};

response error_response(int status, std::string_view code, std::string_view message);
inline response error_response(const failure& f) {
  return error_response(f.status, f.code, f.message);
}
response json_response(std::string body);

// The last value of parameter `name`, or nullopt.
std::optional<std::string_view> param(const request& r, std::string_view name);
// Every value of `name`, in order.
std::vector<std::string> params(const request& r, std::string_view name);

// A decimal number of at most `max`: nullopt for anything else (sign, blanks, overflow).
std::optional<std::uint64_t> parse_uint(std::string_view text, std::uint64_t max);
// The window of a list answer: offset= (any 64-bit number; one past the rows is an empty
// window) and limit= (at most max_limit: a larger one is capped, and the answer says so).
inline constexpr std::uint64_t max_limit = 5000;
struct list_window {
  std::uint64_t offset = 0, limit = 100;
  bool capped = false;  // limit= asked for more than max_limit
};
std::optional<failure> parse_window(const request& r, list_window& w);
// "offset", "limit" (the limit applied), "max_limit" and "limit_capped" of an answer.
void window_fields(json_writer& j, const list_window& w);
// A fraction from 0 to 1 ("0.005", "0", "1e-3"): nullopt for anything else.
std::optional<double> parse_fraction(std::string_view text);

// A cost: a JSON integer below 2^53 (exact in every JSON reader), else a string of digits;
// in a file of differences (the request sums signed, cost_matrix.h) a negative one likewise.
void cost(json_writer& j, std::uint64_t v);
// {"Ir": 123, ...} of one row of values per column.
void costs(json_writer& j, const views::column_set& columns, const std::vector<std::uint64_t>& v);
// {"Ir": 123, ...} of a recorded row (the tables' columns) through the columns.
void costs_of_row(json_writer& j, const views::column_set& columns, const std::uint64_t* row);
// The envelope's first fields: {"schema":"calltree-serve","version":1,
void begin_envelope(json_writer& j);

// The query parameters every view takes: parts=, events=, derived= (repeatable), sort=.
// parts=, events=, derived= and detect_cycles=yes|no (KCachegrind's cycle detection switch):
// the view's scope; event= or sort=: the column it is ordered by.
struct common_query : views::scope {
  std::string sort_event;
};
std::optional<failure> parse_common(const request& r, const views::session& s, common_query& q);

// group= (none, object, file, class) and in_group= (a group's name; needs group=), as the
// function list and the diff list take them (`in_group` untouched when not given).
std::optional<failure> parse_group(const request& r, views::grouping& group,
                                   std::optional<std::string>& in_group);

// A function id from a path segment ("123"): the id, or a failure (400 for no number, 404
// for no such function).
std::optional<failure> parse_id(std::string_view segment, const views::session& s,
                                std::uint32_t& id);

// In diff mode, what a flame graph's functions carry: the old and new cost of the function of
// calltree diff each frame's key belongs to (views/diff.h).
struct flame_delta {
  bool frames_of_old = false;  // the frames are the old side's keys
  std::shared_ptr<const views::function_table> table;
  views::diff_columns columns;
  // "diff": {"change": ..., "self": {E: {old, new, delta, percent}}, "inclusive": {...}}
  void write(json_writer& j, std::uint32_t key) const;
};
// Makes the flame_delta of a request, or a failure.
std::optional<failure> make_flame_delta(const request& r, const views::diff_source& src,
                                        bool frames_of_old, std::optional<flame_delta>& out);
// {"old": o, "new": n, "delta": n - o, "percent": ...} of one cost.
void change_object(json_writer& j, std::uint64_t o, std::uint64_t n);

// A regex from a client (filter=): RE2 (linear time, no recursion), bounded in size and memory.
std::optional<failure> compile_filter(std::string_view text, std::shared_ptr<const RE2>& out);

// The stack filters and call-tree transforms of a request (focus=, ignore=, hide=, show=,
// merge_clones=, collapse_*=, focus_path=, transform=...): 400 bad_regex for a bad one.
std::optional<failure> parse_stack_filter(const request& r, views::stack_filter& out);

// The routes (routes_*.cc). `s` is the session a route reads (in diff mode, the side asked
// for); `diff` is the other session in diff mode (the old one), else nullptr.
response route_profile(const request& r, const views::session& s, const views::session* old);
response route_functions(const request& r, const views::session& s);
response route_function(const request& r, const views::session& s, std::string_view id);

response route_graph(const request& r, const views::session& s, std::string_view id);
response route_flame(const request& r, const views::session& s, const flame_delta* delta);
response route_coverage(const request& r, const views::session& s, std::string_view id);
response route_source(const request& r, const views::session& s, std::string_view file,
                      bool serve_text);
class asm_cache;
response route_asm(const request& r, const views::session& s, std::string_view id,
                   asm_cache& cache);
// What a machine-code route writes of each view of the function: asm/ID its asm_json, cfg/ID
// its control-flow graph, into the answer's array `field` (with_ir: the events asked for get
// Ir too, when the profile has it, to count executions).
struct machine_code_writer {
  const char* field;
  bool with_ir;
  std::function<std::string(const asm_view&)> write;
};
// The answer of a machine-code route for function `id`: the profile read again for its name,
// its code disassembled (routes_asm.cc: the checks, the kept answers, the slots).
response route_machine_code(const request& r, const views::session& s, std::string_view id,
                            asm_cache& cache, const machine_code_writer& w);
response route_cfg(const request& r, const views::session& s, std::string_view id,
                   asm_cache& cache);
response route_diff_functions(const request& r, const views::diff_source& src);
response route_folder(const request& r, folder& f);
response route_trend(const request& r, folder& f);

// Writes a function's identity fields: "id", "kind", "name", "file", "file_id", "object";
// `name` non-empty: the name shown instead of its own (a node a transform renamed).
void function_fields(json_writer& j, const views::session& s, std::uint32_t id,
                     std::string_view name = {});

}  // namespace calltree::server::detail

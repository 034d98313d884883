// server/api_impl.h — (internal to server/) the pieces the API's routes share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api.h"
#include "calltree/report/json.h"
#include "views/columns.h"
#include "views/session.h"

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
// A fraction from 0 to 1 ("0.005", "0", "1e-3"): nullopt for anything else.
std::optional<double> parse_fraction(std::string_view text);

// A cost: a JSON integer below 2^53 (exact in every JSON reader), else a string of digits.
void cost(json_writer& j, std::uint64_t v);
// {"Ir": 123, ...} of one row of values per column.
void costs(json_writer& j, const views::column_set& columns, const std::vector<std::uint64_t>& v);
// {"Ir": 123, ...} of a recorded row (the tables' columns) through the columns.
void costs_of_row(json_writer& j, const views::column_set& columns, const std::uint64_t* row);
// The envelope's first fields: {"schema":"calltree-serve","version":1,
void begin_envelope(json_writer& j);

// The query parameters every view takes: parts=, events=, derived= (repeatable), sort=.
struct common_query {
  std::vector<std::uint32_t> parts;
  std::vector<std::string> events, derived;
  std::string sort_event;
};
std::optional<failure> parse_common(const request& r, const views::session& s, common_query& q);

// A function id from a path segment ("123"): the id, or a failure (400 for no number, 404
// for no such function).
std::optional<failure> parse_id(std::string_view segment, const views::session& s,
                                std::uint32_t& id);

// The routes (routes_*.cc). `s` is the session a route reads (in diff mode, the side asked
// for); `diff` is the other session in diff mode (the old one), else nullptr.
response route_profile(const request& r, const views::session& s, const views::session* old);
response route_functions(const request& r, const views::session& s);
response route_function(const request& r, const views::session& s, std::string_view id);

// Writes a function's identity fields: "id", "kind", "name", "file", "file_id", "object".
void function_fields(json_writer& j, const views::session& s, std::uint32_t id);

}  // namespace calltree::server::detail

// json_value.h — a JSON document read into values, for the importers of JSON formats.
//
// What it is: RFC 8259 JSON parsed into a tree of values (null, bool, number, string, array,
// object; an object's members in file order), with the line and column of the first mistake.
// Numbers keep their text's integer exactly when it is one (V8's ids and microseconds are
// integers up to 2^53 and beyond). What it is not: a writer, or fast for very large documents
// (a .cpuprofile of 100 MB takes about 1 GB here).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace calltree::detail::json {

struct member;

struct value {
  enum class kind : std::uint8_t { null, boolean, number, string, array, object };
  kind type = kind::null;
  bool boolean = false;
  double number = 0;
  std::optional<std::int64_t> integer;  // the number, when its text is an integer that fits
  std::string text;                     // a string's (decoded)
  std::vector<value> items;             // an array's
  std::vector<member> members;          // an object's, in order

  // The member named `key`, or null.
  const value* find(std::string_view key) const;
  bool is_array() const { return type == kind::array; }
  bool is_object() const { return type == kind::object; }
  bool is_number() const { return type == kind::number; }
  bool is_string() const { return type == kind::string; }
};

// An object's member. (A struct, not a std::pair: a pair of an incomplete `value` may not be
// named inside `value`.)
struct member {
  std::string key;
  value v;
};

struct parse_error {
  std::uint64_t line = 0;
  std::uint32_t column = 0;
  std::string message;
};

// The document, or where and why it is not one. Nesting deeper than 512 is an error.
std::variant<value, parse_error> parse(std::string_view text);

}  // namespace calltree::detail::json

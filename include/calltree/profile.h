// profile.h — the profile model: what a Callgrind file says, aggregated and typed.
//
// What it is: tables with typed ids. Objects, files and functions (a function's identity is
// its object + the file of the `fl=` in force + its name: never the name alone); event types
// with long names and formulas; parts, kept apart; self-cost rows (part, function, source file,
// position), call rows (part, caller, call site, callee, count, inclusive cost) and jump rows,
// each summed over repeated lines; costs in flat 64-bit matrices, one column per profile event.
// What it is not: an analysis. Inclusive costs, cycles, callers/callees, diffs are computed by
// free functions in analysis/ from a `const profile&`; the model holds no scratch fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/export.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree {

using object_id = std::uint32_t;
using file_id = std::uint32_t;
using function_id = std::uint32_t;
using event_id = std::uint32_t;
using part_id = std::uint32_t;

struct object {
  string_id name = string_pool::empty;
};
struct file {
  string_id name = string_pool::empty;
};
struct function {
  object_id object = 0;
  file_id file = 0;  // the file of the fl= in force where the function was named
  string_id name = string_pool::empty;
};

// An event type of the profile: the union of all parts' `events:` plus `event:` definitions.
struct event_type {
  std::string name;
  std::string long_name;  // from event: NAME : long name
  std::string formula;    // from event: NAME = formula (a derived event)
  bool recorded = false;  // named in some part's events: (else only defined by a formula)
};

struct part {
  part_header header;                                     // as read (events: names in part order)
  std::vector<event_id> events;                           // part event index -> profile event id
  std::optional<std::vector<std::uint64_t>> summary;      // profile event order; as stated
  std::optional<std::vector<std::uint64_t>> totals_line;  // profile event order; as stated
  std::vector<std::uint64_t> totals;  // profile event order; sum of this part's self costs
};

struct self_row {
  part_id part = 0;
  function_id function = 0;
  file_id source_file = 0;  // fi=/fe= file for inlined code, else the function's file
  position pos;
};

// (Fields ordered so the row takes 80 bytes, not 88: a big profile has hundreds of thousands.)
struct call_row {
  part_id part = 0;
  function_id caller = 0;
  file_id caller_source_file = 0;  // the file of the call site (fi=/fe= or fl=)
  function_id callee = 0;
  position site;
  position target;
  std::uint64_t count = 0;
  bool has_target = false;
};

struct jump_row {
  part_id part = 0;
  function_id function = 0;
  file_id source_file = 0;
  position source;
  bool conditional = false;
  std::uint64_t executed = 0;
  std::uint64_t followed = 0;
  file_id target_file = 0;
  function_id target_function = 0;
  position target;
};

struct profile {
  string_pool strings;
  std::vector<object> objects;  // object 0 is the empty ("unknown") object
  std::vector<file> files;      // file 0 is the empty ("unknown") file
  std::vector<function> functions;
  std::vector<event_type> events;
  std::vector<part> parts;
  std::uint8_t positions = 0;  // union of the parts' position_kind bits

  std::vector<self_row> self_rows;
  cost_matrix self_costs;  // one row per self_row
  std::vector<call_row> calls;
  cost_matrix call_costs;  // one row per call_row (inclusive cost of those calls)
  std::vector<jump_row> jumps;

  // The names, whole (string_pool::view of a pool in full mode, the only one this API makes).
  // Valid as long as the profile's pool.
  std::string_view object_name(object_id o) const { return strings.view(objects[o].name); }
  std::string_view file_name(file_id f) const { return strings.view(files[f].name); }
  std::string_view function_name(function_id f) const { return strings.view(functions[f].name); }
  // The event id of `name`, or -1 cast to event_id.
  CALLTREE_API event_id find_event(std::string_view name) const;
  // Sum of all parts' computed totals (saturating), profile event order.
  CALLTREE_API std::vector<std::uint64_t> total() const;
};

}  // namespace calltree

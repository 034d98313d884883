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
#include "calltree/id.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree {

// Each table's own id type (id.h): they do not convert into each other nor to or from
// integers; `function_id{i}` makes one from an index, `f.index()` gives it back, and
// `p.functions.ids()` walks every id of a table.
using object_id = strong_id<struct object_tag>;
using file_id = strong_id<struct file_tag>;
using function_id = strong_id<struct function_tag>;
using event_id = strong_id<struct event_tag>;
using part_id = strong_id<struct part_tag>;

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct object {
  string_id name = string_pool::empty;
};
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct file {
  string_id name = string_pool::empty;
};
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct function {
  object_id object;
  file_id file;  // the file of the fl= in force where the function was named
  string_id name = string_pool::empty;
};

// An event type of the profile: the union of all parts' `events:` plus `event:` definitions.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct event_type {
  std::string name;
  std::string long_name;  // from event: NAME : long name
  std::string formula;    // from event: NAME = formula (a derived event)
  bool recorded = false;  // named in some part's events: (else only defined by a formula)
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct part {
  part_header header;                                     // as read (events: names in part order)
  std::vector<event_id> events;                           // part event index -> profile event id
  std::optional<std::vector<std::uint64_t>> summary;      // profile event order; as stated
  std::optional<std::vector<std::uint64_t>> totals_line;  // profile event order; as stated
  std::vector<std::uint64_t> totals;  // profile event order; sum of this part's self costs
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct self_row {
  part_id part;
  function_id function;
  file_id source_file;  // fi=/fe= file for inlined code, else the function's file
  position pos;
};

// (Fields ordered so the row takes 80 bytes, not 88: a big profile has hundreds of thousands.)
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct call_row {
  part_id part;
  function_id caller;
  file_id caller_source_file;  // the file of the call site (fi=/fe= or fl=)
  function_id callee;
  position site;
  position target;
  std::uint64_t count = 0;
  bool has_target = false;
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct jump_row {
  part_id part;
  function_id function;
  file_id source_file;
  position source;
  bool conditional = false;
  std::uint64_t executed = 0;
  std::uint64_t followed = 0;
  file_id target_file;
  function_id target_function;
  position target;
};

// Threads: a const profile may be read by any number of threads at once (it has no lazy state and
// no caches); changing it needs it to itself. Lifetime: names (function_name(), ...) are views into
// `strings`, valid as long as the profile (moving it keeps them valid).
struct profile {
  string_pool strings;
  id_vector<object_id, object> objects;  // object 0 is the empty ("unknown") object
  id_vector<file_id, file> files;        // file 0 is the empty ("unknown") file
  id_vector<function_id, function> functions;
  id_vector<event_id, event_type> events;
  id_vector<part_id, part> parts;
  std::uint8_t positions = 0;  // union of the parts' position_kind bits
  // A profile of differences: some cost was negative (cost_matrix.h, "Signed costs"); every
  // cost is then a signed number held as its bit pattern (as_signed).
  bool signed_costs = false;

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
  // The event named `name` (Ir, Dr, ...), if the profile has it.
  CALLTREE_API std::optional<event_id> find_event(std::string_view name) const;
  // Sum of all parts' computed totals (saturating), profile event order.
  CALLTREE_API std::vector<std::uint64_t> total() const;
};

}  // namespace calltree

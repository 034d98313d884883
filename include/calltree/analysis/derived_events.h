// analysis/derived_events.h — events computed from others by `event:` formulas.
//
// What it is: the parser of the format's derived-event formulas (`event: CEst = Ir + 10 Bm`,
// KCachegrind's "inherited" event types) and their resolution into linear combinations of the
// recorded events, so any cost vector (a self row, a call, a sum of either) can be extended
// with derived columns. What it is not: part of the reader or the model; the model keeps the
// formula text as written (event_type::formula) and stores no derived values.
//
// Grammar (KCachegrind's, in libcore/eventtype.cpp): terms separated by `+` or `-`, each term
// an optional non-negative integer factor, an optional `*`, and an event name made of letters,
// digits and `_`: `Ir + 10 Bm`, `2*Dr - Dw`, `L1m`. Names may be other derived events (resolved
// recursively, order-independent; a cycle of definitions is an error). A name that is neither
// recorded nor defined in the file is looked up in KCachegrind's built-in table (L1m, L2m, LLm,
// Bm, CEst, ...; see `builtin_event_formula`) and otherwise counts as 0 with a warning.
// Values are computed in signed 128-bit arithmetic and clamped to [0, 2^64-1].
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/export.h"
#include "calltree/profile.h"
#include "calltree/result.h"

namespace calltree {

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct formula_term {
  std::int64_t factor = 1;  // negative for "- term"
  std::string name;
};

// Parses `Ir + 10 Bm - Dw`; an error for text that is no formula.
CALLTREE_API result<std::vector<formula_term>> parse_event_formula(std::string_view text);

// KCachegrind's built-in formula for a well-known derived event name, or empty.
CALLTREE_API std::string_view builtin_event_formula(std::string_view name);

// A resolved derived event: value = sum(factor * cost[event]) over recorded profile events.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct CALLTREE_API linear_event {
  std::string name;
  std::vector<std::pair<event_id, std::int64_t>> terms;  // recorded event ids, merged
  std::uint64_t evaluate(std::span<const std::uint64_t> costs) const;
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct event_resolution {
  std::vector<linear_event> events;   // in the order asked for
  std::vector<std::string> warnings;  // unknown names taken as 0, ...
};

// Resolves each name of `names` against `p`: a recorded event is itself; a derived one (from
// the file's `event:` lines, then `extra_definitions` "NAME = formula" given by the user, then
// the built-in table) is expanded. Fails for a name that is none of these, a malformed formula
// or a cycle of definitions.
CALLTREE_API result<event_resolution> resolve_events(
    const profile& p, std::span<const std::string> names,
    std::span<const std::string> extra_definitions = {});

// Names of the recorded events in first-seen order over the parts' `events:` lines.
CALLTREE_API std::vector<std::string> recorded_event_names(const profile& p);

}  // namespace calltree

// views/columns.h — (internal) the event columns a view shows: recorded and derived.
//
// What it is: the events of a query (`events=A,B`, `derived=NAME=FORMULA`) resolved against a
// session: a recorded event is a column of the tables; a derived one (the file's `event:`
// formulas, `--event` definitions, the query's own, KCachegrind's built-in names) is a linear
// combination of recorded columns, computed from each row as it is shown (derived_events.h).
// What it is not: a store of derived values.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/derived_events.h"
#include "calltree/result.h"

namespace calltree::views {

class session;

struct column {
  std::string name;
  std::string long_name;
  std::string formula;  // empty for a recorded event
  bool recorded = false;
  std::size_t index = 0;     // recorded: the tables' column
  linear_event combination;  // derived: terms over the tables' recorded columns
  std::uint64_t value(const std::uint64_t* row) const;
};

struct column_set {
  std::vector<column> columns;
  std::vector<std::string> warnings;  // unknown names in a formula taken as 0, ...
  // The index of `name`, or npos.
  std::size_t find(std::string_view name) const;
  // The column a view weighs by: `event`'s (0 when empty), or an error when it is not shown.
  result<std::size_t> weight_column(std::string_view event) const;
  std::size_t size() const { return columns.size(); }
};

// Every event a session knows: its recorded events (first-seen order), then the derived events
// the file defines, then --event definitions, then `derived` ("NAME=FORMULA", a query's).
std::vector<std::string> known_events(const session& s, std::span<const std::string> derived);

// The columns `names` (empty: every known event), with the query's `derived` definitions. An
// error for a name that is neither recorded nor derivable, or a bad formula.
result<column_set> resolve_columns(const session& s, std::span<const std::string> names,
                                   std::span<const std::string> derived);

}  // namespace calltree::views

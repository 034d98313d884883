// views/diff.h — (internal) the difference of two sessions, function by function, as
// `calltree diff` makes it.
//
// What it is: `serve OLD NEW`'s function list: `calltree diff`'s functions and numbers
// (analysis/diff.h, diff_profiles: a function is (object, file, name) with `file` its fl=
// file, so code inlined from other files counts in the function that inlined it, and the
// inclusive costs are solved on the graph of those functions), with old and new self and
// inclusive cost per column (recorded events of both profiles, and derived events both can
// compute), the change (added, removed, changed, unchanged), sorted by the size of the change
// (or the new or old cost, the percent, the name), filtered, cut to a window; and optionally
// grouped (by object, source file, C++ class or namespace: the old and new cost of a group is
// its functions' summed). A session keeps annotate's tables, which key code by its fi= file
// and have no fl= file per key, so each profile is read a second time into a model, as
// `calltree diff` reads it (no positions, no jumps), and kept for the answers of other parts.
//
// Each function is tied to a key of each side (its `file:name` key of annotate's tables, or
// else a key of its name), so a row opens that side's views; and each key to the function
// whose change colours its flame frames. What it is not: `calltree diff`'s rewrites
// (--mod-funcname, --strip-recursion) nor its text.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/diff.h"
#include "calltree/profile.h"
#include "calltree/result.h"
#include "views/columns.h"
#include "views/session.h"

namespace calltree::views {

inline constexpr std::uint32_t no_key = UINT32_MAX;

// calltree diff's answer for one selection of parts, and its ties to the sessions' keys.
struct function_table {
  diff_result r;
  std::vector<std::uint32_t> old_key, new_key;  // per function: its key on each side, or no_key
  std::vector<std::uint32_t> of_old_key, of_new_key;  // per key of each side: its function
  std::vector<std::string> display_file;  // per function: its file as the sessions show it
  // Per function of each model: its function here (UINT32_MAX: not in the selected parts).
  std::vector<std::uint32_t> of_old_model, of_new_model;
};

// The two profiles as calltree diff reads them, for the sessions `old_side` and `new_side`.
class diff_source {
 public:
  // Reads the sessions' inputs again. An error when one cannot be read again (standard input)
  // or no longer reads completely.
  static result<std::unique_ptr<diff_source>> load(const session& old_side, const session& new_side,
                                                   unsigned threads);
  // calltree diff's functions for `parts` (0-based, sorted; empty: all), made once and kept
  // (the last few selections). Thread-safe.
  result<std::shared_ptr<const function_table>> of_parts(
      const std::vector<std::uint32_t>& parts) const;

  // Per group of `group_of` (per function of t: its group, or UINT32_MAX), per compared event:
  // the inclusive cost of each group on the old (new) side, KCachegrind's: the calls into it
  // from outside it, plus the inclusive cost of its functions no other function calls, at most
  // the program total.
  std::vector<std::vector<std::uint64_t>> group_inclusive(
      const function_table& t, const std::vector<std::uint32_t>& parts,
      const std::vector<std::uint32_t>& group_of, std::size_t groups, bool new_side) const;

  const session& old_side() const { return old_; }
  const session& new_side() const { return new_; }
  std::vector<std::string> compared, old_only, new_only;  // recorded events

 private:
  diff_source(const session& o, const session& n) : old_(o), new_(n) {}
  const session& old_;
  const session& new_;
  profile old_model_, new_model_;
  std::vector<event_id> old_cols_, new_cols_;  // each model's event of each compared event
  mutable std::mutex mutex_;
  mutable std::vector<std::pair<std::vector<std::uint32_t>, std::shared_ptr<const function_table>>>
      recent_;
};

// The columns of a diff query on one side, evaluated from calltree diff's vectors.
struct diff_columns {
  column_set old_columns, new_columns;  // the same names, resolved on each side
  // Per side: per recorded column of that session, its index in diff_result::events (or
  // SIZE_MAX when not compared).
  std::vector<std::size_t> old_event_of, new_event_of;
  std::size_t size() const { return new_columns.size(); }
  // The value of column c of one side's row of compared-event values.
  std::uint64_t old_value(std::size_t c, const std::vector<std::uint64_t>& row) const;
  std::uint64_t new_value(std::size_t c, const std::vector<std::uint64_t>& row) const;
};

// Resolves `names` (empty: the compared events) with `derived` on both sides; an error for an
// event recorded in one profile only, or unknown.
result<diff_columns> resolve_diff_columns(const diff_source& src,
                                          const std::vector<std::string>& names,
                                          const std::vector<std::string>& derived);

enum class diff_measure : std::uint8_t { abs_delta, delta, percent, new_cost, old_cost, name };

struct diff_query {
  std::vector<std::uint32_t> parts;          // of both
  std::vector<std::string> events, derived;  // events empty: the compared events
  std::string sort_event;
  bool inclusive = false;  // measure inclusive cost instead of self
  diff_measure measure = diff_measure::abs_delta;
  bool descending = true;
  bool unchanged = true;  // list unchanged functions too
  std::string filter;
  std::function<bool(std::string_view)> match;
  grouping group = grouping::none;  // answer groups too
  std::string in_group;             // only the rows of this group (with group)
  bool only_group = false;          // in_group was given
  std::size_t offset = 0, limit = 100;
  std::size_t group_limit = 1000;
};

struct diff_row {
  std::uint32_t function = 0;  // into function_table::r.functions
  std::uint32_t new_id = no_key, old_id = no_key;
  function_change change = function_change::unchanged;
  std::vector<std::uint64_t> self_old, self_new, inclusive_old, inclusive_new;  // per column
};

struct diff_group {
  std::string name;
  std::size_t functions = 0;
  std::vector<std::uint64_t> self_old, self_new, inclusive_old, inclusive_new;  // per column
};

struct diff_list {
  diff_columns columns;
  std::shared_ptr<const function_table> table;
  std::vector<std::uint64_t> totals_old, totals_new;  // per column
  std::size_t sort_column = 0;
  std::size_t total_rows = 0;
  std::size_t counts[4] = {0, 0, 0, 0};  // per shown_change(), after the filter
  std::vector<diff_row> rows;
  bool grouped = false;
  std::size_t total_groups = 0;
  std::vector<diff_group> groups;  // with a grouping: in the order of the rows' measure
};

result<diff_list> diff_functions(const diff_source& src, const diff_query& q);

// The row of function f of a table in columns `cols`.
diff_row diff_of_function(const function_table& t, const diff_columns& cols, std::uint32_t f);

// Function f's change as a list of `cols` shows it: added or removed as calltree diff says;
// else changed when its self cost (its inclusive cost with `inclusive`) differs in one of the
// columns, unchanged when those are the same (whatever the costs the list does not show).
function_change shown_change(const function_table& t, const diff_columns& cols, std::uint32_t f,
                             bool inclusive);

// The group of function f of a table (by object, its file as the sessions show it, or the C++
// scope of its name) for a grouping other than none.
std::string_view diff_group_name(const function_table& t, std::uint32_t f, grouping g);

}  // namespace calltree::views

// views/diff.h — (internal) the difference of two sessions, function by function.
//
// What it is: `serve OLD NEW`'s function list: every function of either profile, matched by
// `calltree diff`'s identity (object, file, name; analysis/diff.h) applied to annotate's keys
// (so code inlined under an fi= file is a row of its own, as in every view), with old and new
// self and inclusive cost per compared event, the change (added, removed, changed,
// unchanged), sorted by the size of the change (or the new or old cost, the percent, the name),
// filtered, cut to a window. Compared events are those recorded in both profiles (in the old
// one's order), and derived events both can compute. What it is not: `calltree diff`'s
// rewrites (--mod-funcname, --strip-recursion: a later addition) nor its text.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/diff.h"
#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"

namespace calltree::views {

class session;

// The keys of two sessions matched, made once.
struct key_match {
  static constexpr std::uint32_t none = UINT32_MAX;
  std::vector<std::uint32_t> old_of_new, new_of_old;  // the other side's key, or none
  std::vector<std::string> compared;                  // events recorded in both
  std::vector<std::string> old_only, new_only;
};
key_match match_keys(const session& old_side, const session& new_side);

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
  std::size_t offset = 0, limit = 100;
};

struct diff_row {
  std::uint32_t new_id = key_match::none, old_id = key_match::none;
  function_change change = function_change::unchanged;
  std::vector<std::uint64_t> self_old, self_new, inclusive_old, inclusive_new;  // per column
};

struct diff_list {
  column_set columns;  // resolved on the new side (the old side's are the same names)
  std::shared_ptr<const part_costs> old_costs, new_costs;
  column_set old_columns;
  std::size_t sort_column = 0;
  std::size_t total_rows = 0;
  std::size_t counts[4] = {0, 0, 0, 0};  // per function_change, after the filter
  std::vector<diff_row> rows;
};

result<diff_list> diff_functions(const session& old_side, const session& new_side,
                                 const key_match& m, const diff_query& q);

// One row of the difference for a key of `side` (the new one unless `old_side_key`).
diff_row diff_of_key(const session& old_side, const session& new_side, const key_match& m,
                     const part_costs& old_costs, const part_costs& new_costs,
                     const column_set& old_columns, const column_set& new_columns,
                     std::uint32_t key, bool old_side_key);

}  // namespace calltree::views

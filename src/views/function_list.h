// views/function_list.h — (internal) the flat profile: KCachegrind's function list.
//
// What it is: every function (annotate's "file:name" keys) and every cycle (`<cycle N>`, a row
// of its own as KCachegrind shows it) of the selected parts, with self and inclusive cost per
// event column and the calls into it; sorted by any column (or by name), filtered by a
// predicate on names (the server's regex), optionally grouped by object, source file or C++
// class/namespace, and cut to one window (the client virtualizes 300 k rows and asks for the
// rows it shows). The order of a query is made once and remembered, so the next window is a
// copy of `limit` rows. What it is not: JSON (server/).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/result.h"
#include "views/columns.h"
#include "views/list_transforms.h"
#include "views/part_costs.h"
#include "views/scope.h"
#include "views/session.h"

namespace calltree::views {

class session;

enum class sort_by : std::uint8_t { self, inclusive, calls, name };

struct list_query : scope {
  std::string sort_event;  // a column's name; empty: the first column
  sort_by by = sort_by::self;
  bool descending = true;  // (by name: ascending unless asked)
  // Rows whose name `match` says yes to (a cycle's name is "<cycle N>"); `filter` is its
  // text, the key the order is remembered by. Empty `filter`: every row.
  std::string filter;
  std::function<bool(std::string_view)> match;
  grouping group = grouping::none;
  std::optional<std::string> in_group;  // only the rows of this group
  bool cycles = true;                   // cycles as rows of their own
  std::size_t offset = 0, limit = 100;
  // A key (or cycle id) whose row's index in the order the answer says (`located`): where a
  // page that selected it elsewhere (a caller followed) scrolls its list to.
  std::optional<std::uint32_t> locate;
  std::size_t group_limit = 1000;  // at most this many groups (the heaviest first)
  // The call-tree transforms whose merges the rows follow (list_transforms.h: clones, objects,
  // recursion levels merged; a focus on a call path not applied); its name filters unread.
  stack_filter transforms;
};

struct list_row {
  std::uint32_t id = 0;                        // key, or keys() + N - 1 for <cycle N>
  std::vector<std::uint64_t> self, inclusive;  // per column
  std::uint64_t calls = 0;                     // calls into it from other functions
  std::uint32_t cycle = 0;                     // <cycle N> it belongs to (a cycle row: its own)
  // With transforms: the row of several functions (or of another name) it is, else null.
  const list_merge::row* merged = nullptr;
};

struct group_row {
  std::string name;
  std::vector<std::uint64_t> self, inclusive;
  std::size_t functions = 0;
};

struct function_list {
  column_set columns;
  std::shared_ptr<const part_costs> costs;
  std::size_t sort_column = 0;
  std::size_t total_rows = 0;  // after filter and in_group
  // (with `locate`) the index of its row among the total_rows (with transforms, of the row
  // it is merged into); none when no row is it (filtered out, another group, a bad id).
  std::optional<std::size_t> located;
  std::vector<list_row> rows;     // [offset, offset + limit)
  std::vector<group_row> groups;  // (group != none) the first group_limit groups, sorted
  std::size_t total_groups = 0;
  std::shared_ptr<const list_merge> merge;  // with transforms: the rows' merges
};

// An error for an unknown event or a sort event that is no column.
result<function_list> list_functions(const session& s, const list_query& q);

// Makes what the first queries of a page need and the session keeps (the costs of every part,
// the first list and the orders by the other columns, the name order, the groups and the list
// grouped by object, the flame graph's estimator), so a view asked for later does not wait
// for them. Returns early, between two of those, once `stop` is set.
void warm_up(const session& s, const std::atomic<bool>* stop = nullptr);

// How many event columns warm_up orders the list by (self and inclusive each).
inline constexpr std::size_t warm_columns = 4;

// The name of key k's group (object, display file, or class or namespace: class_scope.h).
std::string_view group_name(const session& s, grouping g, std::uint32_t k);

}  // namespace calltree::views

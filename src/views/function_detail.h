// views/function_detail.h — (internal) one function with its callers and callees.
//
// What it is: what KCachegrind's caller and callee panes show for the selected function: its
// self and inclusive cost, the calls into it (per caller key, count and inclusive cost of
// those calls) and out of it, its cycle, where its source is (its fl= file, first and last line
// with cost, and the files its code was inlined from), and the other functions of its name
// (in other files or objects). For a cycle (`<cycle N>`), its members, the calls into it from
// outside and the calls out of it. What it is not: a tree (views/flame.h) or JSON (server/).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"
#include "views/scope.h"

namespace calltree::views {

class session;

struct detail_query : scope {
  std::string sort_event;   // callers and callees by this column's cost; empty: the first
  std::size_t limit = 500;  // at most this many callers and callees each
};

struct call_row {
  std::uint32_t id = 0;  // the other function (a key)
  std::uint64_t count = 0;
  std::vector<std::uint64_t> cost;  // per column: inclusive cost of those calls
  std::uint32_t call = 0;           // (the tables' call index; for a cycle, the first one)
  // A call of the function to itself, or between two members of its cycle: its cost is a
  // sum over nested (recursive) calls, which counts the same cost again at each level.
  bool recursive = false;
};

struct function_detail {
  column_set columns;
  std::shared_ptr<const part_costs> costs;
  std::uint32_t id = 0;
  bool is_cycle = false;
  bool present = true;  // has cost or calls in the selected parts
  std::vector<std::uint64_t> self, inclusive;
  std::uint64_t calls = 0;
  std::uint32_t cycle = 0;
  std::vector<call_row> callers, callees;
  std::size_t callers_total = 0, callees_total = 0;
  std::vector<std::uint32_t> members;  // a cycle's, by inclusive cost (at most `limit`)
  std::size_t members_total = 0;
  std::vector<std::uint32_t> same_name;         // other functions of the name
  std::uint32_t file = 0;                       // the display file (a file id): its fl= file
  bool file_found = false;                      // its source can be shown
  std::uint64_t first_line = 0, last_line = 0;  // with self cost in a found file; 0: unknown
  // The other files its code lies in (inlined from them: fi=/fe=), by file id, each
  // with its first and last line with self cost and its self cost there (every part summed,
  // as the source view's lines); own_self: the rest of its self cost (every part), its own
  // file's.
  struct span {
    std::uint32_t file = 0;
    std::uint64_t first_line = 0, last_line = 0;
    std::vector<std::uint64_t> self;
  };
  std::vector<span> inlined;
  std::vector<std::uint64_t> own_self;
};

// An error for an id that is no function or cycle, or an unknown event.
result<function_detail> describe_function(const session& s, std::uint64_t id,
                                          const detail_query& q);

}  // namespace calltree::views

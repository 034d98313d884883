// views/list_transforms.h — (internal) the function list's rows merged as the call-tree
// transforms merge frames: a function's compiler clones one row, a collapsed object one row,
// a function's recursion levels one row.
//
// What it is: the transforms of views/stack_transform.h rename and merge the frames of the
// program's stacks; the list has no stacks, but the same merges of its keys, made from the
// names alone:
//  * collapse an object (`collapse_object`): every function of a matching object is the
//    object's row (as every frame of the object is one frame per run of them);
//  * merge clones: `f.constprop.0`, `f.isra.0`, `f.part.0`, `f.cold`, `f.lto_priv.0` are f's
//    row: the key named `f` of the same object and file, else the first clone (then named f);
//  * collapse recursion: `f'2`, `f'3` (callgrind's --separate-recs levels) are f's row;
//    collapse direct recursion only merges a level whose calls all come from f's own levels.
// A focus on a call path keeps part of each function's cost, which the file does not say
// exactly: the list does not apply it (`focus_path` says it was asked).
//
// A merged row's costs are much those of a group of the list (function_list.cc): its self
// cost the sum of its functions' (exact); its inclusive cost the calls into it from functions
// outside it, and what each of its functions' own lines (self cost and calls out) cost beyond
// the calls into it (all of a function no one calls: the cost the flame graph's roots hold,
// docs/estimate.md); its calls those from outside it. That inclusive cost is exact when the
// row is never entered again below itself (f.cold called under f only from f itself, not
// through g) and no function of it is called for more than its lines add up to: `exact` says
// so where a walk of the call graph showed it, and is false (an upper bound, as KCachegrind's
// group costs) where a row's functions reach one another through others, or the walks'
// budget ran out before it.
// What it is not: a tree (the flame graph's rows are its frames), nor a new estimate.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "views/part_costs.h"
#include "views/stack_filter.h"

namespace calltree::views {

class session;

struct list_merge {
  static constexpr std::uint32_t unmerged = UINT32_MAX;
  // Per key: the key whose row it is in (itself when it is no other's).
  std::vector<std::uint32_t> row_of;
  // Per key: its merged row's index in `rows`, or `unmerged` (a row of one function, named as
  // it is: the list's own numbers).
  std::vector<std::uint32_t> merged_index;
  struct row {
    std::uint32_t key = 0;                       // the row's key (its id in the list)
    std::string name;                            // its name in the list
    std::vector<std::uint32_t> members;          // the keys in it, the row's own first
    std::vector<std::uint64_t> self, inclusive;  // per recorded column of part_costs
    std::uint64_t calls = 0;                     // calls into it from outside it
    bool exact = false;                          // inclusive is exact (see above)
    std::size_t functions() const { return members.size(); }
  };
  std::vector<row> rows;
  bool focus_path = false;  // some step focuses on a call path (not applied to the list)
};

// The rows of `pc`'s keys merged by `f`'s transforms (its name filters are not read).
std::shared_ptr<const list_merge> merge_list_rows(const session& s, const part_costs& pc,
                                                  const stack_filter& f);

}  // namespace calltree::views

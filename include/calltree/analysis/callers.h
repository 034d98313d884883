// analysis/callers.h — what a user of a profile asks first: the functions of highest cost, a
// function found by its name, and a function's callers and callees, summed per function.
//
// What it is: free functions over a `const profile&` and the inclusive costs compute_inclusive
// (analysis/inclusive.h) gave for it, so the numbers are those `calltree annotate` and
// `calltree serve` show. Callers and callees: the call rows (profile::calls: one per part,
// call site and target) between the function and each other function, their counts and
// inclusive costs summed. What it is not: a call tree (no contexts: who called the caller is
// not known), nor a new inclusive cost: a call's cost is what the file says for it.
//
// Recursion, as inclusive.h counts it: a call of a function to itself, or between two members
// of its cycle, is listed (with `recursive` set) but its cost is a sum over nested calls, which
// holds the same cost again at each level: do not add it to the function's inclusive cost.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "calltree/export.h"
#include "calltree/profile.h"

namespace calltree {

// The calls between one function and one other function, summed.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct call_summary {
  function_id function;     // the other function: the caller (in callers), the callee (callees)
  std::uint64_t count = 0;  // the number of calls (saturating sum of the rows' counts)
  std::vector<std::uint64_t> inclusive;  // their inclusive cost, per event (profile order)
  std::uint32_t first_call = 0;          // the first of the call rows summed (index of p.calls)
  // A call to itself or within its cycle (see above): its cost counts nested calls again.
  bool recursive = false;
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds; its ids index the profile it came from.
struct function_calls {
  std::vector<call_summary> callers;  // the functions that call it
  std::vector<call_summary> callees;  // the functions it calls
};

// Threads and lifetime: a value, copied freely.
struct calls_options {
  std::optional<part_id> part;  // only this part's calls; default every part
  event_id sort_event;          // each list by this event's cost, the highest first (its size
                                // in a signed profile: cost_magnitude)
};

// The callers and callees of `f` in `p`, each sorted by the inclusive cost of
// options.sort_event (then by count, both descending, then by function id). `inc` is
// compute_inclusive(p) (its cycles mark the recursive calls); with options.part, compute it
// for that part (inclusive_options::part) to keep the two in step. Empty lists for an `f` that
// is no function of `p`.
CALLTREE_API function_calls calls_of(const profile& p, const inclusive_result& inc, function_id f,
                                     const calls_options& options = {});

// How many times each function was called, by function id: the counts of the call rows into
// it from other functions, summed (saturating). A call of a function to itself (direct
// recursion) is not counted; a call from another member of its cycle is. With `part`, that
// part's calls only.
CALLTREE_API id_vector<function_id, std::uint64_t> call_counts(const profile& p,
                                                               std::optional<part_id> part = {});

// Threads and lifetime: a value.
enum class cost_kind : std::uint8_t {
  self,       // the cost of the function's own code
  inclusive,  // with the cost of what it calls (analysis/inclusive.h)
};

// The (at most) `n` functions of highest `kind` cost of event `event` in `inc` (a
// compute_inclusive result), the highest first, ties by function id; functions with no cost of
// that event are left out. Empty for an event `inc` does not have. In a profile of
// differences (inc.signed_costs) the largest changes first, as `calltree annotate` lists them:
// -1,000 above +14 (cost_magnitude).
CALLTREE_API std::vector<function_id> top_functions(const inclusive_result& inc, event_id event,
                                                    cost_kind kind, std::size_t n);

// Every function named `name` (the whole name, as the file spells it: `main`, `foo(int)`), by
// id. A function is its object, file and name, so one name may be several functions (a
// `static` helper in two files, one function in two shared objects).
CALLTREE_API std::vector<function_id> find_functions(const profile& p, std::string_view name);

// The first function named `name` (the lowest id: the first read), if there is one.
CALLTREE_API std::optional<function_id> find_function(const profile& p, std::string_view name);

}  // namespace calltree

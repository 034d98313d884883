// canonical_order.h — an order of a profile's rows that depends on names, not on reading order.
//
// Why: the model numbers functions, files and rows in the order the input named them, so two
// profiles holding the same facts (merge(merge(a,b),c) and merge(a,merge(b,c)) read back) can
// list them in different orders. Written in this order instead, the same facts give the same
// bytes: `calltree merge` is then associative byte for byte (docs/fleet.md).
//
// The order, within each part:
// * functions by (object name, file name, function name), compared as bytes;
// * a function's self rows: first those in the function's own file, then the other (inlined)
//   source files by name; within one file by position (instr, bb, line);
// * its call rows: the same by call-site file and site, then by callee (as functions are
//   ordered), then by target position;
// * its jump rows: the same by source file and source position, then unconditional before
//   conditional, target file, target function, target position.
// Each key is the row's whole identity in the builder (profile_builder.h), so no two rows tie
// and the order is total. Names are compared by their whole text (a spill-mode pool reads a
// spilled name back once); in a digest-mode pool only the kept prefixes are known, and ties
// there fall back to ids.
#pragma once

#include <cstdint>
#include <vector>

#include "calltree/profile.h"

namespace calltree::detail {

struct row_order {
  std::vector<std::uint32_t> self, calls, jumps;  // row indices, in order
  // A key per function id; the functions' order is that of their keys.
  std::vector<std::uint32_t> function_key;
};

// Rows sorted by (part, function id), each function's rows in model order.
row_order model_order(const profile& p);
// Rows in the canonical order above.
row_order canonical_order(const profile& p);

}  // namespace calltree::detail

// analysis/difference.h — NEW minus OLD as one profile of differences, as cg_diff writes it.
//
// What it is: `difference_inputs` reads OLD with every cost negated, then NEW, into one
// profile (merge.h's machinery: one part, self costs per (function, source file, position),
// calls per (caller, call site, callee, target)), so each row holds NEW - OLD, negative where
// the cost went down; the profile is signed (profile::signed_costs, cost_matrix.h), and
// `write_callgrind` writes it as a callgrind file with signed numbers, which every reader of
// calltree reads back (a `negative-cost` note says it is a difference). A row of equal cost on
// both sides stays, with 0, as in cg_diff's output.
//
// Choices made (as `calltree diff -o` documents them):
//  * Functions are matched by identity (object, file, name), as merge does; no rewrites.
//  * Counts are not costs: a call's count is NEW's (0 for a call only OLD made), jumps are
//    NEW's. Inclusive costs of a call are differences like every other cost.
//  * `summary:` is the sum of the difference's self costs (what cg_diff writes for two
//    cachegrind files, whose summary is that sum); the header is OLD's first part's (as
//    merge keeps the first input's), its `desc:` lines replaced by `Files compared: OLD;
//    NEW` (cg_diff's words).
// What it is not: the report of `calltree diff` (analysis/diff.h), which matches functions
// after rewrites and sums per function.
#pragma once

#include <string>

#include "calltree/analysis/merge.h"
#include "calltree/diagnostic.h"
#include "calltree/export.h"
#include "calltree/profile.h"
#include "calltree/result.h"

namespace calltree {

// Reads `old_path` and `new_path` ("-" = stdin for one of them) into `out` (empty) as NEW -
// OLD. Errors as merge_inputs (an input that cannot be opened or holds no profile).
CALLTREE_API result<merge_stats> difference_inputs(const std::string& old_path,
                                                   const std::string& new_path, profile& out,
                                                   diagnostic_sink& diagnostics,
                                                   const merge_options& options = {});

}  // namespace calltree

// analysis/merge_any.h — (internal) merge_inputs() for the tool's `calltree merge`.
//
// What it is: merge_inputs as the command has always merged: an input that holds no profile
// (binary, empty, no events:) is reported by its diagnostics and merged as the nothing it
// holds, where merge_inputs gives an error_code::no_profile result.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "calltree/analysis/merge.h"

namespace calltree::detail {

result<merge_stats> merge_any_inputs(std::span<const std::string> paths, profile& out,
                                     diagnostic_sink& diagnostics,
                                     const merge_options& options = {});

// merge_inputs where the first `subtracted` inputs count negatively (negating_sink.h): the
// sum of -OLD and NEW is difference_inputs' NEW - OLD (difference.h).
result<merge_stats> merge_subtracting(std::span<const std::string> paths, profile& out,
                                      diagnostic_sink& diagnostics, const merge_options& options,
                                      std::size_t subtracted);

}  // namespace calltree::detail

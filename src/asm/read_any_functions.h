// asm/read_any_functions.h — (internal) read_functions() for the tool's `annotate --asm` and
// serve's assembly panel.
//
// What it is: read_functions as the tool has always read: an input that holds no profile
// (binary, empty, no events:) gives its read_stats and an empty profile, where read_functions
// gives an error_code::no_profile result.
#pragma once

#include <functional>
#include <string_view>

#include "calltree/asm.h"

namespace calltree::detail {

result<read_stats> read_any_functions(input& in, profile& out,
                                      std::function<bool(std::string_view name)> keep,
                                      diagnostic_sink& diagnostics,
                                      const reader_options& options = {});

}  // namespace calltree::detail

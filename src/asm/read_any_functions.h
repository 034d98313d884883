// asm/read_any_functions.h — (internal) read_functions() for the tool's `annotate --asm` and
// serve's assembly panel.
//
// What it is: read_functions as the tool has always read: an input that holds no profile
// (binary, empty, no events:) gives its read_stats and an empty profile, where read_functions
// gives an error_code::no_profile result; and the same filtered profile from records read
// otherwise (read_functions_by).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "calltree/asm.h"

namespace calltree::detail {

result<read_stats> read_any_functions(input& in, profile& out,
                                      std::function<bool(std::string_view name)> keep,
                                      diagnostic_sink& diagnostics,
                                      const reader_options& options = {});

// The same profile of the functions `keep` accepts, from the records `read` hands the sink it
// is given (names of out.strings), for records that come from elsewhere than one input (serve's
// chunks of a profile, views/session.h read_records_of_name). `max_memory` as
// reader_options::max_name_bytes.
status read_functions_by(profile& out, std::function<bool(std::string_view name)> keep,
                         diagnostic_sink& diagnostics, std::uint64_t max_memory,
                         const std::string& display_name,
                         const std::function<status(record_sink&)>& read);

}  // namespace calltree::detail

// reader/load_any.h — (internal) load_profile() for the tool's commands.
//
// What it is: load_profile as the commands read, which report a file that holds no profile
// (binary, empty, no events:) from its diagnostics and go on with its read_stats, as they
// always have, where load_profile gives an error_code::no_profile result.
#pragma once

#include <string>

#include "calltree/profile_builder.h"

namespace calltree::detail {

result<read_stats> load_any_input(const std::string& path, profile& out,
                                  diagnostic_sink& diagnostics, reader_options options = {},
                                  builder_options build = {});

}  // namespace calltree::detail

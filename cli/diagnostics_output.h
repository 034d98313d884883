// diagnostics_output.h — how the CLI prints what the library reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "calltree/diagnostic.h"

namespace calltree::cli {

// Prints each kept diagnostic to stderr (`file:line:col: severity: message [code]`, the line and
// a caret; colours on a TTY), then one line per code whose further diagnostics were not kept.
void print_diagnostics(const diagnostic_collector& c);

// Parses sizes like 512M, 2G, 1048576 (bytes). nullopt if malformed.
std::optional<std::uint64_t> parse_size(std::string_view s);

// "calltree: " + message on stderr.
void print_error(std::string_view message);

}  // namespace calltree::cli

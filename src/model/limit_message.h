// limit_message.h — the words of the `limit_exceeded` error of a sink that stops keeping
// records at its memory limit (the profile builder, annotate's tables), which name the
// command-line tool's --max-memory. Not the library's API.
#pragma once

#include <cstdint>
#include <string>

namespace calltree {

std::string records_limit_message(std::uint64_t limit);

}  // namespace calltree

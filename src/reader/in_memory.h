// in_memory.h — an input's bytes when they are all in memory already (a memory_input of
// uncompressed text), for the reader's parallel path, which cuts them into chunks itself
// instead of calling next() (chunk_feed.h). Not the library's API: the input class says
// nothing of how its bytes are held.
#pragma once

#include <span>

#include "calltree/input.h"

namespace calltree::detail {

// All of `in`'s bytes if they are in memory and next() has not been called yet; else empty.
std::span<const char> in_memory(const input& in);

}  // namespace calltree::detail

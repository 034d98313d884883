// memory_limit.h — the default ceiling on the memory one input may make calltree use.
//
// What it is: the default of the limits the options carry (the command-line tool's
// `--max-memory` sets them instead). The reader stops once the names it has
// interned pass it (reader_options::max_name_bytes) and the profile builder stops keeping
// records once the model would pass it (builder_options::max_memory); both report a
// `limit_exceeded` error and keep everything read before. Unless the options say otherwise, it
// is three quarters of the memory this process can have (physical memory, or the container's
// cgroup limit if lower): no real profile that this machine can hold is refused, and a hostile
// file cannot take the rest of the machine with it.
// What it is not: an allocator or an RSS watchdog. The builder estimates the bytes its model
// holds; input buffers, the mapped file and report scratch come on top (a few MB per input).
#pragma once

#include <cstdint>

#include "calltree/export.h"

namespace calltree {

// Three quarters of min(physical memory, cgroup memory limit), as found on this machine (0 if
// neither is known): what reader_options::max_name_bytes and builder_options::max_memory start
// with. The same number for the life of the process.
CALLTREE_API std::uint64_t machine_memory_limit();

}  // namespace calltree

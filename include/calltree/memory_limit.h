// memory_limit.h — the default ceiling on the memory one input may make calltree use.
//
// What it is: the number behind `--max-memory`. The reader stops once the names it has
// interned pass it (reader_options::max_name_bytes) and the profile builder stops keeping
// records once the model would pass it (builder_options::max_memory); both report a
// `limit_exceeded` error and keep everything read before. Unless the user sets a limit, it is
// three quarters of the memory this process can have (physical memory, or the container's
// cgroup limit if lower): no real profile that this machine can hold is refused, and a hostile
// file cannot take the rest of the machine with it.
// What it is not: an allocator or an RSS watchdog. The builder estimates the bytes its model
// holds; input buffers, the mapped file and report scratch come on top (a few MB per input).
#pragma once

#include <cstdint>
#include <string>

namespace calltree {

// The limit new reader_options / builder_options start with (0 = none).
std::uint64_t default_memory_limit();
// Sets the process-wide default (the CLI's --max-memory); 0 removes the limit.
void set_default_memory_limit(std::uint64_t bytes);
// Three quarters of min(physical memory, cgroup memory limit), as found on this machine.
std::uint64_t machine_memory_limit();
// The `limit_exceeded` message of a sink that stops keeping records at `limit` bytes (the
// profile builder, annotate's tables).
std::string records_limit_message(std::uint64_t limit);

}  // namespace calltree

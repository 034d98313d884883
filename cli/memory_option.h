// memory_option.h — the memory limit of this run of the tool: `--max-memory=SIZE`, else the
// library's default (machine_memory_limit, calltree/memory_limit.h: 3/4 of the memory).
//
// The library has no limit of its own that a process sets: each reader_options,
// builder_options and the options of the views, annotate and merge carry theirs. The tool
// reads --max-memory once (main.cc) and every command puts memory_limit() into each of the
// options it makes, so every reading of a run honours it.
#pragma once

#include <cstdint>

namespace calltree::cli {

// Set once from the command line (main.cc), before the command runs; 0 = no limit.
void set_memory_limit(std::uint64_t bytes);
std::uint64_t memory_limit();

}  // namespace calltree::cli

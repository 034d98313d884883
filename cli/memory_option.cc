// memory_option.cc — the memory limit of this run of the tool (memory_option.h).
#include "memory_option.h"

#include <optional>

#include "calltree/memory_limit.h"

namespace calltree::cli {

namespace {
std::optional<std::uint64_t> given;  // --max-memory, if given
}  // namespace

void set_memory_limit(std::uint64_t bytes) { given = bytes; }

std::uint64_t memory_limit() { return given ? *given : machine_memory_limit(); }

}  // namespace calltree::cli

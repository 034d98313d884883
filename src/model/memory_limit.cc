// memory_limit.cc — the default memory ceiling: 3/4 of what this process can have, and the
// words of the error of a sink that reaches a limit.
#include "calltree/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "model/limit_message.h"

namespace calltree {
namespace {

// A number from the first line of a cgroup file ("max" or missing: no limit).
std::uint64_t read_cgroup_limit(const char* path) {
  std::FILE* f = std::fopen(path, "r");
  if (!f) return UINT64_MAX;
  unsigned long long v = 0;
  int n = std::fscanf(f, "%llu", &v);
  std::fclose(f);
  return n == 1 && v > 0 ? static_cast<std::uint64_t>(v) : UINT64_MAX;
}

std::uint64_t compute_machine_limit() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t physical = pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) *
                                                            static_cast<std::uint64_t>(page_size)
                                                      : UINT64_MAX;
  std::uint64_t cap = std::min({physical, read_cgroup_limit("/sys/fs/cgroup/memory.max"),
                                read_cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes")});
  return cap == UINT64_MAX ? 0 : cap / 4 * 3;
}

}  // namespace

std::uint64_t machine_memory_limit() {
  static const std::uint64_t limit = compute_machine_limit();
  return limit;
}

std::string records_limit_message(std::uint64_t limit) {
  const std::uint64_t mib = limit >> 20;
  return "the profile would take more than the memory limit (" +
         (mib ? std::to_string(mib) + " MiB" : std::to_string(limit) + " bytes") +
         ", see --max-memory); the records from here on are not kept";
}

}  // namespace calltree

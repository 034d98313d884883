// radix_sort.cc — see radix_sort.h.
#include "model/radix_sort.h"

namespace calltree::detail {

void radix_sort(std::vector<keyed_index>& v) {
  constexpr std::size_t passes = 8;
  if (v.size() < 2) return;
  // Every pass's counts in one reading of the keys.
  std::vector<std::array<std::size_t, 256>> count(passes);
  for (auto& c : count) c.fill(0);
  for (const keyed_index& e : v)
    for (std::size_t p = 0; p < passes; ++p) ++count[p][(e.key >> (8 * p)) & 0xff];
  std::vector<keyed_index> other(v.size());
  for (std::size_t p = 0; p < passes; ++p) {
    auto& c = count[p];
    // A pass that would leave every pair where it is (one byte value for all keys) is skipped.
    if (c[(v[0].key >> (8 * p)) & 0xff] == v.size()) continue;
    std::size_t at = 0;
    for (std::size_t& n : c) {
      const std::size_t here = n;
      n = at;
      at += here;
    }
    for (const keyed_index& e : v) other[c[(e.key >> (8 * p)) & 0xff]++] = e;
    v.swap(other);
  }
}

}  // namespace calltree::detail

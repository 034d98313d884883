// radix_sort.h — a stable sort of (key, index) pairs by a 64-bit key, for the report's long
// lists: annotate's functions by cost (275 k of them in the real profile) and its keys by
// rank.
//
// What it is: a least-significant-digit radix sort, one byte a pass, that skips the passes
// where every key has the same byte (costs are far below 2^64: most of their high bytes are
// equal). Pairs of equal keys keep their order, so a list built in a tie-breaking order needs
// no second comparison. What it is not: a general sort; a comparison sort is still the tool for
// short lists and for orders that are not one number.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace calltree::detail {

struct keyed_index {
  std::uint64_t key = 0;
  std::uint32_t index = 0;
};

// Sorts `v` by key, smallest first, keeping the order of equal keys.
void radix_sort(std::vector<keyed_index>& v);

}  // namespace calltree::detail

// row_index.h — an open-addressing hash index over rows kept in a vector.
//
// What it is: the builder's way to find "the row for this key" without storing the keys twice:
// slots hold row numbers (and 32 bits of the key's hash), and keys are read back from the rows
// themselves. 8 bytes a slot, no node allocation, so memory grows with distinct rows only. What it
// is not: a general map.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "calltree/id.h"

namespace calltree::detail {

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}
// mix() of an id's index.
template <typename Tag>
inline std::uint64_t mix(std::uint64_t h, strong_id<Tag> id) {
  return mix(h, id.index());
}

class row_index {
 public:
  static constexpr std::uint32_t empty = 0xffffffffu;

  // Finds the row whose key equals the probe (eq(row) true) or returns empty and the slot to
  // fill with insert().
  template <typename Eq>
  std::uint32_t find(std::uint64_t hash, Eq eq, std::size_t& slot) const {
    if (slots_.empty()) {
      slot = 0;
      return empty;
    }
    const std::size_t mask = slots_.size() - 1;
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    for (std::size_t i = home(tag);; i = (i + 1) & mask) {
      const std::uint64_t e = slots_[i];
      const auto r = static_cast<std::uint32_t>(e);
      if (r == empty) {
        slot = i;
        return empty;
      }
      if (static_cast<std::uint32_t>(e >> 32) == tag && eq(r)) return r;
    }
  }

  // Inserts `row` after a failed find (which gave `slot`); may grow the table.
  void insert(std::uint64_t hash, std::uint32_t row, std::size_t slot) {
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    if ((count_ + 1) * 4 > slots_.size() * 3) {
      grow();
      slot = free_slot(tag);
    }
    slots_[slot] = (static_cast<std::uint64_t>(tag) << 32) | row;
    ++count_;
  }

  // Makes room for `rows` entries without growing (an index that knows its size up front).
  void reserve(std::size_t rows) {
    std::size_t n = slots_.empty() ? 1024 : slots_.size();
    while (rows * 4 > n * 3) n *= 2;
    if (n != slots_.size()) regrow(n);
  }

  void clear() {
    slots_.clear();
    count_ = 0;
    shift_ = 32;
  }
  // Empties the index but keeps its memory: for an index filled again and again to about the
  // same size (a chunk's records), which would otherwise allocate it again each time. It keeps
  // as many slots as the entries it held wanted (not the most it ever had: one large chunk
  // would make every later reset fill them all).
  void reset() {
    if (slots_.empty()) return;
    std::size_t n = 1024;
    while (count_ * 4 > n * 3) n *= 2;
    slots_.assign(n, unused);  // (within the capacity: no allocation)
    shift_ = 32 - static_cast<unsigned>(__builtin_ctzll(n));
    count_ = 0;
  }

 private:
  // A slot is the key's 32 hash bits beside its row number, in one word: a probe reads one
  // cache line, and growing places every entry again from its stored bits, without hashing
  // (or even touching) the rows. The home slot is the top bits of tag * 2^32/phi (Fibonacci
  // hashing): taking low bits would put keys that differ only in high bits (a pair packed as
  // a << 32 | b, a final multiply that only carries upwards) into one run of slots.
  static constexpr std::uint64_t unused = 0xffffffffull;  // row == empty

  std::size_t home(std::uint32_t tag) const {
    return static_cast<std::size_t>(static_cast<std::uint32_t>(tag * 0x9e3779b9u) >> shift_);
  }
  std::size_t free_slot(std::uint32_t tag) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = home(tag);
    while (static_cast<std::uint32_t>(slots_[i]) != empty) i = (i + 1) & mask;
    return i;
  }

  void grow() { regrow(slots_.empty() ? 1024 : slots_.size() * 2); }
  void regrow(std::size_t n) {
    std::vector<std::uint64_t> old = std::move(slots_);
    slots_.assign(n, unused);
    shift_ = 32 - static_cast<unsigned>(__builtin_ctzll(n));
    for (std::uint64_t e : old)
      if (static_cast<std::uint32_t>(e) != empty)
        slots_[free_slot(static_cast<std::uint32_t>(e >> 32))] = e;
  }

  std::vector<std::uint64_t> slots_;
  std::size_t count_ = 0;
  unsigned shift_ = 32;
};

}  // namespace calltree::detail

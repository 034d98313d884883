// row_index.h — an open-addressing hash index over rows kept in a vector.
//
// What it is: the builder's way to find "the row for this key" without storing the keys twice:
// slots hold row numbers, and keys are read back from the rows themselves. 4 bytes a slot,
// no node allocation, so memory grows with distinct rows only. What it is not: a general map.
#pragma once

#include <cstdint>
#include <vector>

namespace calltree::detail {

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
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
    std::size_t mask = slots_.size() - 1;
    std::size_t i = home(hash);
    for (;;) {
      std::uint32_t r = slots_[i];
      if (r == empty) {
        slot = i;
        return empty;
      }
      if (hashes_[i] == static_cast<std::uint32_t>(hash >> 32) && eq(r)) return r;
      i = (i + 1) & mask;
    }
  }

  // Inserts `row` after a failed find; may rehash, so needs every row's hash.
  template <typename HashOf>
  void insert(std::uint64_t hash, std::uint32_t row, std::size_t slot, HashOf hash_of) {
    if ((count_ + 1) * 4 > slots_.size() * 3) {
      grow(hash_of);
      std::size_t mask = slots_.size() - 1;
      slot = home(hash);
      while (slots_[slot] != empty) slot = (slot + 1) & mask;
    }
    slots_[slot] = row;
    hashes_[slot] = static_cast<std::uint32_t>(hash >> 32);
    ++count_;
  }

  void clear() {
    slots_.clear();
    hashes_.clear();
    count_ = 0;
    shift_ = 64;
  }

 private:
  // The home slot: the top bits of hash * 2^64/phi (Fibonacci hashing). Taking the hash's own
  // low bits would put keys that differ only in high bits (a pair packed as a << 32 | b, a
  // final multiply that only carries upwards) into one run of slots.
  std::size_t home(std::uint64_t hash) const {
    return static_cast<std::size_t>((hash * 0x9e3779b97f4a7c15ull) >> shift_);
  }

  template <typename HashOf>
  void grow(HashOf hash_of) {
    std::size_t n = slots_.empty() ? 1024 : slots_.size() * 2;
    std::vector<std::uint32_t> old = std::move(slots_);
    slots_.assign(n, empty);
    hashes_.assign(n, 0);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    std::size_t mask = n - 1;
    for (std::uint32_t r : old) {
      if (r == empty) continue;
      std::uint64_t h = hash_of(r);
      std::size_t i = home(h);
      while (slots_[i] != empty) i = (i + 1) & mask;
      slots_[i] = r;
      hashes_[i] = static_cast<std::uint32_t>(h >> 32);
    }
  }

  std::vector<std::uint32_t> slots_;
  std::vector<std::uint32_t> hashes_;
  std::size_t count_ = 0;
  unsigned shift_ = 64;
};

}  // namespace calltree::detail

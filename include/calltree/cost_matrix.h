// cost_matrix.h — costs as one flat 64-bit matrix [row][event], and checked arithmetic.
//
// What it is: storage for the cost rows of the profile model, one column per event type, with
// no cap on the number of events, and `add_saturating`, the one way costs are summed: an
// overflow is detected and reported by the caller, never wrapped. What it is not: a sparse
// or per-part structure; the model's rows say which part and function a row belongs to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "calltree/export.h"

namespace calltree {

// a += b; returns false (and leaves a = UINT64_MAX) if the sum does not fit in 64 bits.
inline bool add_saturating(std::uint64_t& a, std::uint64_t b) {
  if (__builtin_add_overflow(a, b, &a)) {
    a = UINT64_MAX;
    return false;
  }
  return true;
}
// Adds b into a element-wise (a.size() >= b.size()); false if any element saturated.
CALLTREE_API bool add_saturating(std::span<std::uint64_t> a, std::span<const std::uint64_t> b);

class cost_matrix {
 public:
  explicit cost_matrix(std::size_t columns = 0) : columns_(columns) {}
  std::size_t columns() const { return columns_; }
  std::size_t rows() const { return rows_; }
  std::span<std::uint64_t> row(std::size_t r) { return {data_.data() + r * columns_, columns_}; }
  std::span<const std::uint64_t> row(std::size_t r) const {
    return {data_.data() + r * columns_, columns_};
  }
  // Appends a zero row and returns its index.
  std::size_t add_row() {
    if (columns_ == 1)
      data_.push_back(0);  // (inline, where resize is a call: one event is the common case)
    else
      data_.resize(data_.size() + columns_, 0);
    return rows_++;
  }
  // Appends n zero rows.
  void add_rows(std::size_t n) {
    data_.resize(data_.size() + n * columns_, 0);
    rows_ += n;
  }
  // Widens every row to `columns` (new columns are 0). Rarely needed: a later part with a new
  // event.
  CALLTREE_API void set_columns(std::size_t columns);
  void reserve_rows(std::size_t n) { data_.reserve(n * columns_); }
  // No rows (the room stays).
  void clear() {
    data_.clear();
    rows_ = 0;
  }
  // Bytes of cost storage held (capacity, not size: what the memory guard must count).
  std::size_t bytes() const { return data_.capacity() * sizeof(std::uint64_t); }

 private:
  std::size_t columns_;
  std::size_t rows_ = 0;
  std::vector<std::uint64_t> data_;
};

}  // namespace calltree

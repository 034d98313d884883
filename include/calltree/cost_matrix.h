// cost_matrix.h — costs as one flat 64-bit matrix [row][event], and checked arithmetic.
//
// What it is: storage for the cost rows of the profile model, one column per event type, with
// no cap on the number of events, and `add_saturating`, the one way costs are summed: an
// overflow is detected and reported by the caller, never wrapped (signed costs: below). What
// it is not: a sparse or per-part structure; the model's rows say which part and function a
// row belongs to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "calltree/export.h"

namespace calltree {

// Signed costs. A cost is an unsigned 64-bit number, except in a profile of differences (what
// cg_diff and `calltree diff -o` write: `-129` where a cost went down). There a cost is a signed
// 64-bit number held as its two's-complement bit pattern in the same uint64_t: sums of such
// patterns are exact modulo 2^64, so every sum of the library (self costs, inclusive costs,
// totals, merges) is right without a second type, and only what reads a number's value
// (formatting, comparing, sorting, percentages, colours) asks `as_signed`.
//
// The arithmetic follows the thread's mode: unsigned (the default) saturates at 2^64-1;
// signed wraps through 2^64 (a negative addend is a large pattern) and saturates only where
// the signed sum leaves [-2^63, 2^63-1]. Every reading starts its thread unsigned (or signed
// where its sink sums into a profile of differences: merge after a signed input, `diff -o`),
// and turns the signed mode on at the first negative number of the file (read_stats::
// signed_costs, profile::signed_costs), so the sinks it feeds on that thread sum signed; code
// that works on a signed profile afterwards (a writer, a report, a server's request) says so
// with a `signed_costs_scope` of the profile's flag.
CALLTREE_API bool signed_costs_here() noexcept;
// Sets this thread's mode; returns the previous one.
CALLTREE_API bool set_signed_costs_here(bool on) noexcept;
// Threads: it sets the calling thread's mode only. Lifetime: the mode is restored when it is
// destroyed.
class signed_costs_scope {
 public:
  explicit signed_costs_scope(bool on) : previous_(set_signed_costs_here(on)) {}
  ~signed_costs_scope() { set_signed_costs_here(previous_); }
  signed_costs_scope(const signed_costs_scope&) = delete;
  signed_costs_scope& operator=(const signed_costs_scope&) = delete;

 private:
  bool previous_;
};
// The value of a cost of a signed profile (C++20: the conversion is modular, never UB).
inline std::int64_t as_signed(std::uint64_t v) { return static_cast<std::int64_t>(v); }
// The size of a cost, what a list ranks by: the cost itself, or in a signed profile
// (`signed_costs`) the size of the change, |as_signed(v)| (-1,000 ranks above +14; -2^63 fits).
inline std::uint64_t cost_magnitude(std::uint64_t v, bool signed_costs) {
  return signed_costs && as_signed(v) < 0 ? 0 - v : v;
}

// The rare case of add_saturating: a carry out of 64 bits or a change of the top bit.
CALLTREE_API bool add_cost_edge(std::uint64_t& a, std::uint64_t b, std::uint64_t sum,
                                bool carry) noexcept;

// a += b; returns false (and leaves a at the limit: 2^64-1 unsigned, -2^63 or 2^63-1 signed)
// if the sum does not fit in 64 bits in this thread's mode.
inline bool add_saturating(std::uint64_t& a, std::uint64_t b) {
  std::uint64_t s;
  const bool carry = __builtin_add_overflow(a, b, &s);
  if (carry || (((a ^ s) & (b ^ s)) >> 63)) [[unlikely]]
    return add_cost_edge(a, b, s, carry);
  a = s;
  return true;
}
// Adds b into a element-wise (a.size() >= b.size()); false if any element saturated.
CALLTREE_API bool add_saturating(std::span<std::uint64_t> a, std::span<const std::uint64_t> b);

// Threads: a const matrix may be read from several threads at once. Lifetime: row(r) is valid until
// the matrix grows (add_row, set_columns).
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

#include "calltree/cost_matrix.h"

namespace calltree {

namespace {
thread_local bool signed_mode = false;
}

bool signed_costs_here() noexcept { return signed_mode; }

bool set_signed_costs_here(bool on) noexcept {
  const bool was = signed_mode;
  signed_mode = on;
  return was;
}

bool add_cost_edge(std::uint64_t& a, std::uint64_t b, std::uint64_t sum, bool carry) noexcept {
  if (!signed_mode) {
    a = carry ? UINT64_MAX : sum;  // unsigned: past 2^63 is no overflow, past 2^64 is
    return !carry;
  }
  // Signed: overflow where both addends have one sign and the sum the other.
  if (((a ^ sum) & (b ^ sum)) >> 63) {
    a = as_signed(b) < 0 ? static_cast<std::uint64_t>(INT64_MIN)
                         : static_cast<std::uint64_t>(INT64_MAX);
    return false;
  }
  a = sum;
  return true;
}

bool add_saturating(std::span<std::uint64_t> a, std::span<const std::uint64_t> b) {
  bool ok = true;
  for (std::size_t i = 0; i < b.size(); ++i) ok &= add_saturating(a[i], b[i]);
  return ok;
}

void cost_matrix::set_columns(std::size_t columns) {
  if (columns <= columns_) return;
  std::size_t n = rows();
  std::vector<std::uint64_t> wider(n * columns, 0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < columns_; ++c) wider[r * columns + c] = data_[r * columns_ + c];
  data_ = std::move(wider);
  columns_ = columns;
  rows_ = n;
}

}  // namespace calltree

#include "calltree/cost_matrix.h"

namespace calltree {

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

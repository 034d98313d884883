// run_order.cc — the runs of a folder, oldest first (see history/run_order.h).
#include "history/run_order.h"

#include <algorithm>

namespace calltree::history {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      std::size_t zi = i, zj = j;  // past the leading zeros
      while (zi + 1 < ei && a[zi] == '0') ++zi;
      while (zj + 1 < ej && b[zj] == '0') ++zj;
      const std::string_view na = a.substr(zi, ei - zi), nb = b.substr(zj, ej - zj);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      if (ei - i != ej - j) return ei - i < ej - j;  // "07" after "7"
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

void order_runs(std::vector<run_file>& files, run_order order) {
  std::stable_sort(files.begin(), files.end(), [order](const run_file& x, const run_file& y) {
    if (order == run_order::time && x.mtime_ns != y.mtime_ns) return x.mtime_ns < y.mtime_ns;
    if (natural_less(x.path, y.path)) return true;
    if (natural_less(y.path, x.path)) return false;
    return x.path < y.path;
  });
}

}  // namespace calltree::history

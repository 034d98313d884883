// annotate_format.cc — callgrind_annotate's number formats (report/annotate_data.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "report/annotate_data.h"

namespace calltree::detail {

// The same text as snprintf, without it (73 k rows of the real profile, each a call of
// snprintf's floating-point formatting): for 0 <= perc < 99.995 the hundredths are rounded
// from perc * 100, which is within a few units of 10^-12 of the exact product, so the
// rounding goes the way printf's (of the exact value) goes unless the product is within 10^-9
// of a half. Those few, and any perc out of that range, are left to snprintf.
std::size_t format_percent(char* buf, std::size_t size, double perc) {
  if (size >= 10 && !std::signbit(perc) && perc < 99.995) {  // (-0.0 prints "-0.00")
    const double x = perc * 100;
    const double whole = std::floor(x);
    const double frac = x - whole;
    if (std::fabs(frac - 0.5) > 1e-9) {
      const auto r = static_cast<std::uint32_t>(whole) + (frac > 0.5 ? 1 : 0);
      const std::uint32_t units = r / 100, hundredths = r % 100;
      std::size_t n = 0;
      buf[n++] = ' ';
      buf[n++] = '(';
      buf[n++] = units < 10 ? ' ' : static_cast<char>('0' + units / 10);
      buf[n++] = static_cast<char>('0' + units % 10);
      buf[n++] = '.';
      buf[n++] = static_cast<char>('0' + hundredths / 10);
      buf[n++] = static_cast<char>('0' + hundredths % 10);
      buf[n++] = '%';
      buf[n++] = ')';
      return n;
    }
  }
  if (size == 0) return 0;
  const int k = -9.995 < perc && perc < 99.995 ? std::snprintf(buf, size, " (%5.2f%%)", perc)
                                               : std::snprintf(buf, size, " (%5.1f%%)", perc);
  return std::min(static_cast<std::size_t>(k > 0 ? k : 0), size - 1);
}

std::string commify(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  std::size_t lead = digits.size() % 3;
  if (lead == 0) lead = 3;
  out.append(digits, 0, lead);
  for (std::size_t i = lead; i < digits.size(); i += 3) {
    out.push_back(',');
    out.append(digits, i, 3);
  }
  return out;
}

}  // namespace calltree::detail

// annotate_text_printer.h — (internal) what the parts of annotate's text report share: the
// report being written (its text, the columns shown and sorted by, the totals the percentages
// are of) and callgrind_annotate's way of printing a cost array (print_CC,
// compute_CC_col_widths).
//
// What it is: the printer of src/report/annotate_text.cc (the header, the function table) and
// annotate_text_sources.cc (the annotated source files). What it is not: a public header.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "calltree/profile.h"
#include "calltree/result.h"
#include "report/annotate_data.h"
#include "views/annotate_options.h"

namespace calltree::detail::text {

inline const std::string fancy = std::string(80, '-') + "\n";

struct cc_view {
  const std::uint64_t* v = nullptr;  // nullptr = all undefined ("[]")
  const char* d = nullptr;
};

inline std::size_t digits(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// commify() into `buf` (at least 27 bytes); returns the length.
inline std::size_t commify_to(char* buf, std::uint64_t v) {
  char digits[20];
  std::size_t nd = 0;
  do {
    digits[nd++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  std::size_t n = 0;
  for (std::size_t i = nd; i-- > 0;) {
    buf[n++] = digits[i];
    if (i && i % 3 == 0) buf[n++] = ',';
  }
  return n;
}

// A signed profile's cost (a difference): its magnitude, and its text with the sign.
inline std::uint64_t magnitude(std::uint64_t v) { return as_signed(v) < 0 ? 0 - v : v; }
inline std::size_t commify_signed_to(char* buf, std::uint64_t v) {
  if (as_signed(v) >= 0) return commify_to(buf, v);
  buf[0] = '-';
  return 1 + commify_to(buf + 1, 0 - v);
}

inline double percent(std::uint64_t v, std::uint64_t total) {
  if (total == 0) return 0.0;
  std::uint64_t prod;
  if (!__builtin_mul_overflow(v, std::uint64_t{100}, &prod))
    return static_cast<double>(prod) / static_cast<double>(total);
  return static_cast<double>(v) * 100.0 / static_cast<double>(total);
}

inline double to_number(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// The report being written: its text, the columns it shows and sorts by (indexes into
// annotate_data::columns), and the totals its percentages are of.
struct printer {
  const annotate_data& d;
  const annotate_options& o;
  std::vector<std::size_t> show_order, sort_order;
  std::vector<std::string> thresholds;  // as printed
  cc_view summary;
  std::vector<std::uint64_t> summary_v;  // mutable copy (the "events annotated" fix-up)
  std::vector<char> summary_d;
  std::string out;
  // A profile of differences (profile::signed_costs): costs printed with their sign, rows
  // ordered by magnitude, percentages signed (docs/format.md, "Signed costs").
  bool sgn = false;

  double perc(std::uint64_t v, std::uint64_t total) const {
    if (!sgn) return percent(v, total);
    if (total == 0) return 0.0;
    return static_cast<double>(as_signed(v)) * 100.0 / static_cast<double>(as_signed(total));
  }

  std::vector<std::size_t> widths(const std::vector<cc_view>& ccs) const {
    return widths(ccs, [](const cc_view& c) { return c; });
  }
  // Column widths for the cost arrays get(x) of the items x of `items`.
  template <typename Items, typename Get>
  std::vector<std::size_t> widths(const Items& items, Get get) const {
    std::vector<std::size_t> w;
    for (const auto& c : d.columns) w.push_back(c.size());
    for (const auto& item : items) {
      const cc_view cc = get(item);
      if (!cc.v) continue;
      for (std::size_t i = 0; i < w.size(); ++i) {
        if (!cc.d[i]) continue;
        std::size_t len = digits(sgn ? magnitude(cc.v[i]) : cc.v[i]);
        std::size_t width = len + (len - 1) / 3 + (sgn && as_signed(cc.v[i]) < 0);
        if (o.show_percs) width += 9;
        w[i] = std::max(w[i], width);
      }
    }
    return w;
  }

  void print_cc(cc_view cc, const std::vector<std::size_t>& w) {
    for (std::size_t i : show_order) {
      bool def = cc.v && cc.d[i];
      char text[128];
      std::size_t n = 0;
      if (def) {
        n = sgn ? commify_signed_to(text, cc.v[i]) : commify_to(text, cc.v[i]);
      } else {
        text[n++] = '.';
      }
      if (o.show_percs) {
        if (def && cc.v[i] != 0) {
          n += detail::format_percent(text + n, sizeof text - n,
                                      perc(cc.v[i], summary_d[i] ? summary_v[i] : 0));
        } else {
          std::memcpy(text + n, "         ", 9);
          n += 9;
        }
      }
      if (w[i] > n) out.append(w[i] - n, ' ');
      out.append(text, n);
      out += ' ';
    }
  }

  void print_events(const std::vector<std::size_t>& w) {
    for (std::size_t i : show_order) {
      out += d.columns[i];
      if (w[i] > d.columns[i].size()) out.append(w[i] - d.columns[i].size(), ' ');
      out += ' ';
    }
  }

  // callgrind_annotate's mycmp: descending by the sort events, undefined as -1.
  int cmp(cc_view a, cc_view b) const {
    for (std::size_t i : sort_order) {
      bool da = a.v && a.d[i], db = b.v && b.d[i];
      if (da != db) return da ? -1 : 1;  // defined (>= 0) before undefined (-1)
      if (!da) continue;
      const std::uint64_t x = sgn ? magnitude(a.v[i]) : a.v[i];
      const std::uint64_t y = sgn ? magnitude(b.v[i]) : b.v[i];
      if (x != y) return x > y ? -1 : 1;
    }
    return 0;
  }
};

inline cc_view view(const cc_table& t, std::size_t r) { return {t.values(r), t.defined(r)}; }

// The report's three parts, in callgrind_annotate's order (each a sub of its script):
// print_options: the header, and the part it describes (nullptr: none); `users` the user
// files named, once each.
const part* print_options(printer& pr, const profile& p, const std::vector<std::string>& show,
                          const std::vector<std::string>& sort, std::vector<std::string>& users);
// print_summary_and_fn_totals: the totals and the function table; the files its rows name,
// in order of first use (for auto-annotation). `hand_out` passes the text on as it grows.
std::vector<std::string> print_function_totals(printer& pr, double single_threshold,
                                               const std::function<void()>& hand_out);
// annotate_ann_files: the user's files, then those of the table's rows; an error for a user
// file that is found nowhere.
status print_source_files(printer& pr, const part* first, const std::vector<std::string>& users,
                          const std::vector<std::string>& threshold_files);

}  // namespace calltree::detail::text

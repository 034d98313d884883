// annotate_text.cc — callgrind_annotate 3.19's text layout, from annotate_data.
//
// Each function below mirrors a sub of /usr/bin/callgrind_annotate (print_options,
// print_summary_and_fn_totals, annotate_ann_files, print_CC, compute_CC_col_widths); the
// comments say where calltree deliberately differs (docs/annotate.md).
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "model/free_storage.h"
#include "model/radix_sort.h"
#include "report/annotate.h"
#include "report/annotate_data.h"
#include "views/annotate_direct.h"

namespace calltree {

namespace {

using detail::annotate_data;
using detail::cc_table;
using detail::commify;

const std::string fancy = std::string(80, '-') + "\n";

struct cc_view {
  const std::uint64_t* v = nullptr;  // nullptr = all undefined ("[]")
  const char* d = nullptr;
};

std::size_t digits(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// commify() into `buf` (at least 27 bytes); returns the length.
std::size_t commify_to(char* buf, std::uint64_t v) {
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
std::uint64_t magnitude(std::uint64_t v) { return as_signed(v) < 0 ? 0 - v : v; }
std::size_t commify_signed_to(char* buf, std::uint64_t v) {
  if (as_signed(v) >= 0) return commify_to(buf, v);
  buf[0] = '-';
  return 1 + commify_to(buf + 1, 0 - v);
}

double percent(std::uint64_t v, std::uint64_t total) {
  if (total == 0) return 0.0;
  std::uint64_t prod;
  if (!__builtin_mul_overflow(v, std::uint64_t{100}, &prod))
    return static_cast<double>(prod) / static_cast<double>(total);
  return static_cast<double>(v) * 100.0 / static_cast<double>(total);
}

double to_number(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

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

cc_view view(const cc_table& t, std::size_t r) { return {t.values(r), t.defined(r)}; }

// The file part of a "file:function" key as callgrind_annotate takes it: s/:.+$//.
std::string_view threshold_file(std::string_view key) {
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] == ':' && i + 1 < key.size() && key[i + 1] != '\n') return key.substr(0, i);
  return key;
}

bool read_lines(const std::string& path, std::vector<std::string>& lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return false;
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t nl = all.find('\n', pos);
    std::size_t end = nl == std::string::npos ? all.size() : nl + 1;
    lines.push_back(all.substr(pos, end - pos));
    pos = end;
  }
  return true;
}

std::int64_t mtime_of(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<std::int64_t>(st.st_mtime);
}

}  // namespace

status detail::print_annotate_text(const profile& p, const annotate_data& d,
                                   const annotate_options& o,
                                   const std::function<void(std::string_view)>* write,
                                   std::string& result_out) {
  signed_costs_scope signed_sums(p.signed_costs);
  printer pr{d, o, {}, {}, {}, {}, {}, {}, {}, p.signed_costs};
  const bool stream = write && o.user_files.empty();
  auto hand_out = [&] {
    if (stream && pr.out.size() >= (std::size_t{1} << 20)) {
      (*write)(pr.out);
      pr.out.clear();
    }
  };

  auto column = [&](const std::string& n) -> std::size_t {
    return static_cast<std::size_t>(std::find(d.columns.begin(), d.columns.end(), n) -
                                    d.columns.begin());
  };
  std::vector<std::string> show = o.show.empty() ? d.recorded : o.show;
  std::vector<std::string> sort = o.sort.empty() ? d.recorded : o.sort;
  for (const auto& n : show) pr.show_order.push_back(column(n));
  for (const auto& n : sort) pr.sort_order.push_back(column(n));
  if (o.sort_thresholds.empty()) {
    pr.thresholds.assign(sort.size(), "0");
    if (!pr.thresholds.empty()) pr.thresholds[0] = o.threshold;
  } else {
    pr.thresholds = o.sort_thresholds;
    pr.thresholds.resize(sort.size(), "0");
  }
  const double single_threshold = o.sort_thresholds.empty() ? to_number(o.threshold) : 0.0;

  pr.summary_v.assign(d.totals.values(0), d.totals.values(0) + d.columns.size());
  pr.summary_d.assign(d.totals.defined(0), d.totals.defined(0) + d.columns.size());
  std::string& out = pr.out;

  // ---- print_options
  const part* first = nullptr;
  for (part_id i : p.parts.ids())
    if (!o.part || *o.part == i) {
      first = &p.parts[i];
      break;
    }
  out += fancy;
  out += "Profile data file '" + o.input_name + "'";
  if (first && !first->header.creator.empty()) out += " (creator: " + first->header.creator + ")";
  out += "\n";
  out += fancy;
  if (first) {
    for (const auto& line : first->header.description_lines) {
      if (line.rfind("Option:", 0) == 0) continue;  // callgrind_annotate hides options
      out += line + "\n";
    }
  }
  std::string target = first ? first->header.cmd : std::string();
  if (target.empty()) target = "(unknown)";
  if (first && first->header.pid) {
    target += " (PID " + std::to_string(*first->header.pid);
    if (first->header.part_number) target += ", part " + std::to_string(*first->header.part_number);
    if (first->header.thread) target += ", thread " + std::to_string(*first->header.thread);
    target += ")";
  }
  out += "Profiled target:  " + target + "\n";
  if (p.parts.size() > 1) {
    // calltree: several parts are summed (callgrind_annotate mixes them; see docs).
    if (o.part)
      out += "Parts:            " + std::to_string(o.part->index() + 1) + " of " +
             std::to_string(p.parts.size()) + "\n";
    else
      out += "Parts:            all " + std::to_string(p.parts.size()) + " summed\n";
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + v[i];
    return s;
  };
  out += "Events recorded:  " + join(d.recorded) + "\n";
  out += "Events shown:     " + join(show) + "\n";
  out += "Event sort order: " + join(sort) + "\n";
  out += "Thresholds:       " + join(pr.thresholds) + "\n";
  std::vector<std::string> incs;
  for (const auto& dir : o.include_dirs) incs.push_back(dir + "/");
  if (incs.empty()) incs.emplace_back();
  out += "Include dirs:     " + incs[0] + "\n";
  for (std::size_t i = 1; i < incs.size(); ++i) out += "                  " + incs[i] + "\n";
  std::vector<std::string> users;
  for (const auto& f : o.user_files)
    if (std::find(users.begin(), users.end(), f) == users.end()) users.push_back(f);
  out += "User annotated:   " + (users.empty() ? std::string() : users[0]) + "\n";
  for (std::size_t i = 1; i < users.size(); ++i) out += "                  " + users[i] + "\n";
  out += std::string("Auto-annotation:  ") + (o.auto_annotate ? "on" : "off") + "\n";
  out += "\n";

  // ---- print_summary_and_fn_totals
  struct row {
    std::uint32_t key = UINT32_MAX;  // (a key's name is made when printed)
    std::uint32_t cycle = 0;         // 1-based for a cycle row
  };
  std::vector<row> rows;
  const cc_table& fn_table = o.inclusive ? d.inclusive : d.self;
  auto cc_of = [&](const row& r) {
    return r.key != UINT32_MAX ? view(fn_table, r.key) : view(d.cycle_cc, r.cycle - 1);
  };
  rows.reserve(d.keys() + d.cycles.size());
  for (std::uint32_t k = 0; k < d.keys(); ++k) {
    if (!(d.key_seen[k] || (o.inclusive && d.key_called[k]))) continue;
    rows.push_back({k, 0});
  }
  std::vector<std::string> cycle_names;
  if (o.inclusive && !o.raw) {
    for (std::uint32_t c = 0; c < d.cycles.size(); ++c)
      cycle_names.push_back("<cycle " + std::to_string(c + 1) + ">");
    for (std::uint32_t c = 0; c < d.cycles.size(); ++c) rows.push_back({UINT32_MAX, c + 1});
  }
  // `rows` is built in the order that breaks ties of cost and name: keys in order, then cycles.
  auto summary_w = pr.widths({cc_view{pr.summary_v.data(), pr.summary_d.data()}});
  auto fn_w = pr.widths(rows, cc_of);
  pr.summary = {pr.summary_v.data(), pr.summary_d.data()};

  out += fancy;
  pr.print_events(summary_w);
  out += "\n";
  out += fancy;
  pr.print_cc(pr.summary, summary_w);
  out += " PROGRAM TOTALS";
  if (d.totals_calculated) out += " (calculated)";
  out += "\n\n";
  out += fancy;
  pr.print_events(fn_w);
  out += " file:function\n";
  out += fancy;

  // callgrind_annotate's order: by cost, equal costs by name. The threshold cuts the list by
  // cost alone (rows of equal cost add the same to the running sums), so rows are ordered by
  // cost first and only the runs of equal cost that are printed are then put in name order:
  // the names of the rows not printed are never needed (with a spilling pool, never read).
  // The order by cost is one radix sort of the rows' first sort column (equal costs stay in
  // the order built); rows with no cost in it go after those with one, as callgrind_annotate
  // sorts its -1 below 0. Only with more sort columns is a run of equal first costs put in
  // order by the others (stably: still in the order built where all are equal).
  std::vector<std::uint32_t> order(rows.size());
  {
    std::vector<detail::keyed_index> defined, undefined;
    defined.reserve(rows.size());
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
      if (pr.sort_order.empty()) {
        defined.push_back({0, i});
        continue;
      }
      const cc_view cc = cc_of(rows[i]);
      const std::size_t col = pr.sort_order[0];
      if (cc.v && cc.d[col])
        defined.push_back({~(pr.sgn ? magnitude(cc.v[col]) : cc.v[col]), i});
      else
        undefined.push_back({0, i});
    }
    detail::radix_sort(defined);
    std::size_t at = 0;
    auto place = [&](const std::vector<detail::keyed_index>& list) {
      std::size_t from = at;
      for (std::size_t j = 0; j < list.size(); ++j) {
        order[at++] = list[j].index;
        if (j + 1 < list.size() && list[j + 1].key == list[j].key) continue;
        if (pr.sort_order.size() > 1 && at - from > 1)
          std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(from),
                           order.begin() + static_cast<std::ptrdiff_t>(at),
                           [&](std::uint32_t a, std::uint32_t b) {
                             return pr.cmp(cc_of(rows[a]), cc_of(rows[b])) < 0;
                           });
        from = at;
      }
    };
    place(defined);
    place(undefined);
  }

  std::vector<double> th;
  for (const auto& t : pr.thresholds) th.push_back(to_number(t));
  // A signed profile's threshold: the rows shown account for that share of the sum of all
  // rows' magnitudes (a total of differences can be near 0 with large changes inside it).
  std::vector<double> magnitudes(pr.sort_order.size(), 0.0);
  if (pr.sgn)
    for (const row& r : rows) {
      const cc_view cc = cc_of(r);
      for (std::size_t i = 0; i < pr.sort_order.size(); ++i)
        if (cc.v && cc.d[pr.sort_order[i]])
          magnitudes[i] += static_cast<double>(magnitude(cc.v[pr.sort_order[i]]));
    }
  // The running sums behind the threshold, and whether they reached it.
  auto reached = [&](const std::vector<double>& curr) {
    bool all = true;
    for (std::size_t i = 0; i < th.size() && i < pr.sort_order.size(); ++i) {
      std::size_t col = pr.sort_order[i];
      double prop = curr[i] * 100;
      if (pr.sgn) {
        if (magnitudes[i] > 0) prop /= magnitudes[i];
      } else if (pr.summary_d[col] && pr.summary_v[col] > 0) {
        prop /= static_cast<double>(pr.summary_v[col]);
      }
      all = all && prop >= th[i];
    }
    return all;
  };
  auto add_row = [&](std::vector<double>& curr, const row& r) {
    const cc_view cc = cc_of(r);
    for (std::size_t i = 0; i < pr.sort_order.size(); ++i) {
      std::size_t col = pr.sort_order[i];
      if (!(cc.v && cc.d[col])) continue;
      if (pr.sgn)
        curr[i] += static_cast<double>(magnitude(cc.v[col]));
      else if (o.inclusive)
        curr[i] = static_cast<double>(static_cast<long double>(pr.summary_v[col]) -
                                      static_cast<long double>(cc.v[col]));
      else
        curr[i] += static_cast<double>(cc.v[col]);
    }
  };
  // Rows are taken in that order until the threshold is reached, then those of the same cost
  // as the last one shown (its run is put in name order as a whole).
  std::size_t shown = SIZE_MAX;
  {
    std::vector<row> ordered;
    std::vector<double> curr(pr.sort_order.size(), 0.0);
    for (std::uint32_t i : order) {
      if (shown == SIZE_MAX && single_threshold < 100 && reached(curr)) shown = ordered.size();
      if (shown != SIZE_MAX && (shown == 0 || pr.cmp(cc_of(ordered.back()), cc_of(rows[i])) != 0))
        break;
      ordered.push_back(rows[i]);
      if (shown == SIZE_MAX) add_row(curr, ordered.back());
    }
    if (shown == SIZE_MAX) shown = ordered.size();
    detail::free_storage(order);
    rows = std::move(ordered);
  }
  // Name order within each run of equal cost up to the end of the run of the last row shown.
  auto by_name = [&](const row& a, const row& b) {
    if (a.key != UINT32_MAX && b.key != UINT32_MAX) return d.compare_key_names(a.key, b.key) < 0;
    return (a.key != UINT32_MAX ? d.key_name(a.key) : cycle_names[a.cycle - 1]) <
           (b.key != UINT32_MAX ? d.key_name(b.key) : cycle_names[b.cycle - 1]);
  };
  std::size_t end = shown;
  while (end > 0 && end < rows.size() && pr.cmp(cc_of(rows[end - 1]), cc_of(rows[end])) == 0) ++end;
  // The end of the run of equal cost that starts at `from`, and that run in name order.
  auto run_to = [&](std::size_t from) {
    std::size_t to = from + 1;
    while (to < end && pr.cmp(cc_of(rows[from]), cc_of(rows[to])) == 0) ++to;
    return to;
  };
  auto sort_run = [&](std::size_t from, std::size_t to) {
    if (to - from > 1) std::stable_sort(rows.begin() + from, rows.begin() + to, by_name);
  };
  // Without trees a run is put in name order when its first row is printed, and the names
  // read for that are kept until its last: each name is read once (a spilling pool reads it
  // back from its file; on the real profile 30 k of the 73 k rows printed are in runs). With
  // trees every row reads the names of its callers and callees too: the runs are ordered
  // first and the names forgotten after each row, so they never pile up.
  const bool tree = o.tree_caller || o.tree_calling;
  if (tree) {
    for (std::size_t from = 0; from < end;) {
      const std::size_t to = run_to(from);
      sort_run(from, to);
      d.forget_names();
      from = to;
    }
  }

  std::vector<std::string> threshold_files;  // in order of first use
  std::set<std::string> threshold_seen;
  auto object_suffix = [&](std::uint32_t k, bool only_nonempty) -> std::string {
    if (k == UINT32_MAX || !d.key_has_object[k]) return {};
    const std::string& object = d.objects[d.key_object[k]];
    if (only_nonempty && object.empty()) return {};
    return " [" + object + "]";
  };
  auto call_sort = [&](std::span<const std::uint32_t> list, bool by_caller) {
    std::vector<std::uint32_t> idx(list.begin(), list.end());
    std::sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
      int c = pr.cmp(view(d.call_cc, a), view(d.call_cc, b));
      if (c != 0) return c < 0;
      return d.compare_key_names(by_caller ? d.calls[a].caller : d.calls[a].callee,
                                 by_caller ? d.calls[b].caller : d.calls[b].callee) < 0;
    });
    return idx;
  };

  // Without trees the names the rows need are known now, in order (each run's are together,
  // whatever its name order): with two threads or more they are read ahead on another.
  if (!tree && o.threads > 1) {
    std::vector<std::uint32_t> keys;
    keys.reserve(end);
    for (std::size_t ri = 0; ri < end; ++ri) keys.push_back(rows[ri].key);
    d.read_names_ahead(std::move(keys));
  }
  std::size_t run_end = 0;  // (without trees) the end of the run being printed
  for (std::size_t ri = 0; ri < shown; ++ri) {
    hand_out();
    if (tree) {
      d.forget_names();
    } else if (ri == run_end) {
      d.forget_names();
      run_end = run_to(ri);
      d.take_names(run_end);
      sort_run(ri, run_end);
    }
    const row& r = rows[ri];
    if (tree) out += "\n";
    const bool unknown = r.key != UINT32_MAX && d.function_name(r.key) == "???" &&
                         d.files[d.key_file[r.key]] == "???";
    if (o.tree_caller && !unknown && r.key != UINT32_MAX) {
      for (std::uint32_t ci : call_sort(d.callers_of[r.key], true)) {
        const auto& c = d.calls[ci];
        pr.print_cc(view(d.call_cc, ci), fn_w);
        out += " < " + d.key_name(c.caller) + " (" + commify(c.count) + "x)" +
               object_suffix(c.caller, false) + "\n";
      }
    }
    pr.print_cc(cc_of(r), fn_w);
    if (tree) out += " * ";
    out += ' ';
    if (r.key != UINT32_MAX)
      d.append_key_name(out, r.key);
    else
      out += cycle_names[r.cycle - 1];
    if (r.key != UINT32_MAX && d.cycle_of.size() > r.key && d.cycle_of[r.key] && !o.raw)
      out += " <cycle " + std::to_string(d.cycle_of[r.key]) + ">";
    out += object_suffix(r.key, true);
    out += "\n";
    if (o.on_function_row && r.key != UINT32_MAX)
      o.on_function_row(d.files[d.key_file[r.key]], d.function_name(r.key),
                        d.key_has_object[r.key] ? d.objects[d.key_object[r.key]] : "");
    if (o.tree_calling && !unknown && r.key != UINT32_MAX) {
      for (std::uint32_t ci : call_sort(d.callees_of[r.key], false)) {
        const auto& c = d.calls[ci];
        pr.print_cc(view(d.call_cc, ci), fn_w);
        out += " >   " + d.key_name(c.callee) + " (" + commify(c.count) + "x)" +
               object_suffix(c.callee, false) + "\n";
      }
    }
    if (o.auto_annotate && r.key != UINT32_MAX) {
      const std::string name = d.key_name(r.key);
      std::string f(threshold_file(name));
      if (threshold_seen.insert(f).second) threshold_files.push_back(f);
    }
  }
  d.stop_reading_ahead();
  d.forget_names();
  out += "\n";

  // ---- annotate_ann_files
  std::vector<std::string> files;  // user files first (command-line order), then auto ones
  std::set<std::string> user_set(users.begin(), users.end());
  for (const auto& f : users) files.push_back(f);
  if (o.auto_annotate)
    for (const auto& f : threshold_files)
      if (f != "???" && !user_set.count(f)) files.push_back(f);

  std::vector<std::string> dirs{""};
  for (const auto& dir : o.include_dirs) dirs.push_back(dir + "/");
  std::vector<std::string> unfound;
  std::vector<std::uint64_t> printed_v(d.columns.size(), 0);
  std::vector<char> printed_d(d.columns.size(), 0);
  bool did_annotations = false;
  std::unordered_map<std::string, std::uint32_t> file_index;
  if (!files.empty())
    for (std::uint32_t i = 0; i < d.files.size(); ++i) file_index.emplace(d.files[i], i);

  bool sampled = false;
  if (first)
    for (const auto& [type, value] : first->header.descriptions)
      if (type == "Call counts" && value.starts_with("samples")) sampled = true;
  for (const std::string& src : files) {
    std::string opened, full;
    std::vector<std::string> lines;
    views::look_for_source(src, o.include_dirs, o.source_roots,
                           [&](const std::string& path, const std::string& named) {
                             lines.clear();
                             if (!views::regular_file(path) || !read_lines(path, lines))
                               return false;
                             opened = path;
                             full = named;
                             return true;
                           });
    const bool is_user = user_set.count(src) > 0;
    if (opened.empty()) {
      if (is_user)
        return error{"File " + src + " not opened in any of: " + [&] {
          std::string s;
          for (std::size_t i = 0; i < dirs.size(); ++i) s += (i ? " " : "") + dirs[i];
          return s;
        }()};
      // (A sampling profiler's frames of no file (folded stacks, perf, V8, pprof: its part says
      // its call counts are samples) are frames without source, not a file that could not be
      // found; callgrind_annotate's "  " line is kept for callgrind's own `fl=` of no name.)
      if (src.empty() && sampled) continue;
      unfound.push_back(src);
      continue;
    }
    out += fancy;
    out += std::string("-- ") + (is_user ? "User" : "Auto") + "-annotated source: " + full + "\n";
    out += fancy;
    auto fit = file_index.find(src);
    if (fit == file_index.end()) {
      out += "  No information has been collected for " + src + "\n\n";
      continue;
    }
    did_annotations = true;
    const auto& line_map = d.file_lines[fit->second];
    std::vector<std::uint64_t> line_nums;
    for (const auto& [ln, r] : line_map) line_nums.push_back(ln);

    bool more_recent = false;
    std::int64_t src_mtime = mtime_of(opened);
    if (o.input_mtime != 0 && src_mtime > o.input_mtime) {
      more_recent = true;
      out +=
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@ Source file '" +
          src + "' is more recent than input file '" + o.input_name +
          "'.\n"
          "@ Annotations may not be correct.\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "\n";
    }
    std::vector<cc_view> file_ccs;
    for (const auto& [ln, r] : line_map) file_ccs.push_back(view(d.line_cc, r));
    auto w = pr.widths(file_ccs);
    pr.print_events(w);
    out += "\n\n";

    if (!line_nums.empty() && line_nums[0] == 0) line_nums.erase(line_nums.begin());
    // Interesting ranges: lines with a cost and `context` lines around them.
    std::vector<std::int64_t> pairs;
    const auto ctx = static_cast<std::int64_t>(o.context);
    for (std::size_t i = 0; i < line_nums.size(); ++i) {
      pairs.push_back(static_cast<std::int64_t>(line_nums[i]) - ctx);
      while (i + 1 < line_nums.size() && static_cast<std::int64_t>(line_nums[i]) + 2 * ctx >=
                                             static_cast<std::int64_t>(line_nums[i + 1]))
        ++i;
      pairs.push_back(static_cast<std::int64_t>(line_nums[i]) + ctx);
    }
    if (!pairs.empty() && pairs[0] < 1) pairs[0] = 1;
    std::size_t next_num = 0;  // index into line_nums
    std::int64_t cur = 0;      // lines read ($.)
    std::size_t li = 0;        // next line to read
    auto read = [&](std::string& s) {
      if (li >= lines.size()) return false;
      s = lines[li++];
      ++cur;
      return true;
    };
    for (std::size_t pi = 0; pi + 1 < pairs.size(); pi += 2) {
      std::int64_t low = pairs[pi];
      std::int64_t high = pairs[pi + 1];
      std::string tmp;
      while (cur < low - 1)
        if (!read(tmp)) break;
      if (low != 1) out += "-- line " + std::to_string(low) + " " + std::string(40, '-') + "\n";
      std::string src_line;
      bool got = false;
      while (cur < high && (got = read(src_line))) {
        const auto ln = static_cast<std::uint64_t>(cur);
        if (next_num < line_nums.size() && ln == line_nums[next_num]) {
          std::uint32_t r = line_map.at(ln);
          pr.print_cc(view(d.line_cc, r), w);
          for (std::size_t c = 0; c < d.columns.size(); ++c)
            if (d.line_cc.defined(r)[c]) {
              add_saturating(printed_v[c], d.line_cc.values(r)[c]);
              printed_d[c] = 1;
            }
          ++next_num;
        } else {
          pr.print_cc({}, w);
        }
        out += " " + src_line;
        if (const detail::ann_site* site = d.find_site(fit->second, ln)) {
          const std::uint32_t func = site->func;
          auto site_list = d.site_callees[static_cast<std::size_t>(site - d.sites.data())];
          std::vector<std::uint32_t> calleds(site_list.begin(), site_list.end());
          auto pair_cc = [&](std::uint32_t callee) -> cc_view {
            for (std::uint32_t ci : d.callees_of[func])
              if (d.calls[ci].callee == callee) return view(d.call_cc, ci);
            return {};
          };
          std::stable_sort(calleds.begin(), calleds.end(), [&](std::uint32_t a, std::uint32_t b) {
            int c = pr.cmp(pair_cc(a), pair_cc(b));
            if (c != 0) return c < 0;
            return d.compare_key_names(a, b) < 0;
          });
          for (std::uint32_t callee : calleds) {
            const std::uint32_t cli = d.find_call_line(func, callee, ln);
            if (cli == UINT32_MAX) continue;
            const auto& cl = d.call_lines[cli];
            pr.print_cc(view(d.call_line_cc, cli), w);
            out += " => " + d.key_name(callee) + " (" + commify(cl.count) + "x)\n";
          }
          d.forget_names();
        }
        got = got && !src_line.empty() && src_line != "0";
      }
      if (got) {
        out += "-- line " + std::to_string(high) + " " + std::string(40, '-') + "\n";
      } else {
        break;
      }
    }
    if (next_num < line_nums.size()) {
      for (std::size_t i = next_num; i < line_nums.size(); ++i) {
        pr.print_cc(view(d.line_cc, line_map.at(line_nums[i])), w);
        out += " <bogus line " + std::to_string(line_nums[i]) + ">\n";
      }
      out += "\n";
      std::string cause;
      if (more_recent) {
        cause = "@@ cause:    '" + src +
                "' has changed since information was gathered.\n"
                "@@           If so, a warning will have already been issued about this.\n"
                "@@ solution: Recompile program and rerun under \"valgrind --cachesim=yes\" to \n"
                "@@           gather new information.\n";
      } else if (src.size() >= 2 && src.compare(src.size() - 2, 2, ".h") == 0) {
        cause =
            "@@ cause:    bug in the Valgrind's debug info reader that screws up with .h\n"
            "@@           files sometimes\n"
            "@@ solution: none, sorry\n";
      } else {
        cause = "@@ cause:    not sure, sorry\n";
      }
      out +=
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@\n"
          "@@ Information recorded about lines past the end of '" +
          src +
          "'.\n"
          "@@\n"
          "@@ Probable cause and solution:\n" +
          cause +
          "@@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n";
    }
    out += "\n";
    if (auto z = line_map.find(0); z != line_map.end()) {
      pr.print_cc(view(d.line_cc, z->second), w);
      out += " <counts for unidentified lines in " + src + ">\n\n";
    }
  }

  if (!unfound.empty()) {
    std::sort(unfound.begin(), unfound.end());
    out += fancy;
    out += "The following files chosen for auto-annotation could not be found:\n";
    out += fancy;
    for (const auto& f : unfound) out += "  " + f + "\n";
    out += "\n";
  }

  if (did_annotations) {
    for (std::size_t i = 0; i < d.columns.size(); ++i) {
      std::uint64_t s = pr.summary_d[i] ? pr.summary_v[i] : 0;
      if (s == 0 || printed_v[i] > s) {
        pr.summary_v[i] = printed_v[i];
        pr.summary_d[i] = printed_d[i];
      }
    }
    cc_view printed{printed_v.data(), printed_d.data()};
    auto w = pr.widths({printed});
    out += fancy;
    pr.print_events(w);
    out += "\n";
    out += fancy;
    pr.print_cc(printed, w);
    out += " events annotated\n\n";
  }
  result_out = std::move(pr.out);
  return ok();
}

status annotate_text_of(annotate_direct& tables, const std::function<void(std::string_view)>& write,
                        std::vector<std::string>* warnings) {
  const annotate_options o = tables.report_options();
  detail::annotate_data d;
  if (auto made = tables.take_tables(d, warnings); !made) return made;
  if (!o.tree_caller && !o.tree_calling && !d.lines) {
    // The text report shows calls only in trees and beside source lines: these calls were
    // kept for the inclusive costs, which are solved.
    detail::free_storage(d.calls);
    d.call_cc = detail::cc_table();
    detail::free_storage(d.callers_of);
    detail::free_storage(d.callees_of);
    views::give_back_freed_memory();
  }
  std::string out;
  auto s = detail::print_annotate_text(tables.parts(), d, o, &write, out);
  if (!s) return s;
  if (!out.empty()) write(out);
  return ok();
}

}  // namespace calltree

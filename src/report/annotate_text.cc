// annotate_text.cc — callgrind_annotate 3.19's text layout, from annotate_data: the header
// and the function table (the annotated source files: annotate_text_sources.cc).
//
// Each function below mirrors a sub of /usr/bin/callgrind_annotate (print_options,
// print_summary_and_fn_totals, annotate_ann_files, print_CC, compute_CC_col_widths); the
// comments say where calltree deliberately differs (docs/annotate.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "model/free_storage.h"
#include "model/radix_sort.h"
#include "report/annotate.h"
#include "report/annotate_data.h"
#include "report/annotate_text_printer.h"
#include "views/annotate_direct.h"

namespace calltree {

namespace detail::text {

namespace {

// The file part of a "file:function" key as callgrind_annotate takes it: s/:.+$//.
std::string_view threshold_file(std::string_view key) {
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] == ':' && i + 1 < key.size() && key[i + 1] != '\n') return key.substr(0, i);
  return key;
}
}  // namespace

const part* print_options(printer& pr, const profile& p, const std::vector<std::string>& show,
                          const std::vector<std::string>& sort, std::vector<std::string>& users) {
  const annotate_data& d = pr.d;
  const annotate_options& o = pr.o;
  std::string& out = pr.out;
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
  for (const auto& f : o.user_files)
    if (std::find(users.begin(), users.end(), f) == users.end()) users.push_back(f);
  out += "User annotated:   " + (users.empty() ? std::string() : users[0]) + "\n";
  for (std::size_t i = 1; i < users.size(); ++i) out += "                  " + users[i] + "\n";
  out += std::string("Auto-annotation:  ") + (o.auto_annotate ? "on" : "off") + "\n";
  out += "\n";
  return first;
}

std::vector<std::string> print_function_totals(printer& pr, double single_threshold,
                                               const std::function<void()>& hand_out) {
  const annotate_data& d = pr.d;
  const annotate_options& o = pr.o;
  std::string& out = pr.out;
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
  return threshold_files;
}

}  // namespace detail::text

status detail::print_annotate_text(const profile& p, const annotate_data& d,
                                   const annotate_options& o,
                                   const std::function<void(std::string_view)>* write,
                                   std::string& result_out) {
  signed_costs_scope signed_sums(p.signed_costs);
  detail::text::printer pr{d, o, {}, {}, {}, {}, {}, {}, {}, p.signed_costs};
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
  const double single_threshold =
      o.sort_thresholds.empty() ? detail::text::to_number(o.threshold) : 0.0;

  pr.summary_v.assign(d.totals.values(0), d.totals.values(0) + d.columns.size());
  pr.summary_d.assign(d.totals.defined(0), d.totals.defined(0) + d.columns.size());
  std::vector<std::string> users;
  const part* first = detail::text::print_options(pr, p, show, sort, users);
  const std::vector<std::string> threshold_files =
      detail::text::print_function_totals(pr, single_threshold, hand_out);
  if (auto s = detail::text::print_source_files(pr, first, users, threshold_files); !s) return s;
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

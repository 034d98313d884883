// diff_text.cc — the text report of `calltree diff` (see report/diff.h).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>

#include "calltree/cost_matrix.h"
#include "report/diff.h"

namespace calltree {

std::string function_label(const function_key& k) {
  std::string s;
  if (!k.file.empty()) s = k.file + ":";
  s += k.name;
  if (!k.object.empty()) s += " [" + k.object + "]";
  return s;
}

namespace {
std::string unsigned_thousands(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  const std::size_t lead = digits.size() % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (i % 3) == lead) out += ',';
    out += digits[i];
  }
  return out;
}
}  // namespace

std::string with_thousands(std::uint64_t v) {
  // (A profile of differences, where the thread sums signed: the signed value.)
  // (The sign inserted, not "-" + ...: GCC 12 -O3 warns of a false overlap, -Wrestrict.)
  if ((v >> 63) && signed_costs_here()) {
    std::string digits = unsigned_thousands(0 - v);
    digits.insert(digits.begin(), '-');
    return digits;
  }
  return unsigned_thousands(v);
}

std::string signed_delta(std::uint64_t old_value, std::uint64_t new_value) {
  if (old_value == new_value) return "0";
  // (The sign inserted, not "+" + ...: GCC 12 -O3 warns of a false overlap, -Wrestrict.)
  const bool up =
      signed_costs_here() ? as_signed(new_value) > as_signed(old_value) : new_value > old_value;
  std::string digits = unsigned_thousands(up ? new_value - old_value : old_value - new_value);
  digits.insert(digits.begin(), up ? '+' : '-');
  return digits;
}

std::string percent_text(std::uint64_t old_value, std::uint64_t new_value) {
  if (old_value == new_value) return "0.00%";
  auto p = percent_change(old_value, new_value);
  if (!p) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.2f%%", *p);
  return buf;
}

namespace detail {
namespace {

// Rows of cells; every column but the last is right-aligned to its widest cell, the last one
// (a label or source text) is written as it is.
class text_table {
 public:
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  void write(std::ostream& out) const {
    std::vector<std::size_t> width;
    for (const auto& r : rows_)
      for (std::size_t c = 0; c + 1 < r.size(); ++c) {
        if (width.size() <= c) width.resize(c + 1, 0);
        width[c] = std::max(width[c], r[c].size());
      }
    for (const auto& r : rows_) {
      std::string line;
      for (std::size_t c = 0; c < r.size(); ++c) {
        if (c) line += "  ";
        if (c + 1 < r.size()) {
          // The first column (event names) is left-aligned, numbers right-aligned.
          if (c == 0) {
            line += r[c];
            line.append(width[c] - r[c].size(), ' ');
          } else {
            line.append(width[c] - r[c].size(), ' ');
            line += r[c];
          }
        } else {
          line += r[c];
        }
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

const char* const rule =
    "--------------------------------------------------------------------------------\n";

void section(std::ostream& out, const std::string& title) { out << rule << title << '\n' << rule; }

std::string join(const std::vector<std::string>& v, const char* sep = " ") {
  std::string s;
  for (const auto& x : v) {
    if (!s.empty()) s += sep;
    s += x;
  }
  return s;
}

std::vector<std::size_t> shown(const diff_result& r, const diff_report_options& o) {
  if (!o.shown_events.empty()) return o.shown_events;
  std::vector<std::size_t> all(r.events.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

std::string change_suffix(function_change c) {
  if (c == function_change::added) return " (added)";
  if (c == function_change::removed) return " (removed)";
  return "";
}

void add_cost_cells(std::vector<std::string>& row, std::uint64_t o, std::uint64_t n) {
  row.push_back(with_thousands(o));
  row.push_back(with_thousands(n));
  row.push_back(signed_delta(o, n));
  row.push_back(percent_text(o, n));
}

// One row per shown event of a function: self then inclusive columns, the label on the first.
void add_function_rows(text_table& t, const diff_result& r, const function_diff& f,
                       const std::vector<std::size_t>& events) {
  bool first = true;
  for (std::size_t e : events) {
    std::vector<std::string> row{r.events[e]};
    add_cost_cells(row, f.self_old[e], f.self_new[e]);
    add_cost_cells(row, f.inclusive_old[e], f.inclusive_new[e]);
    row.push_back(first ? function_label(f.key) + change_suffix(f.change) : "");
    t.add(std::move(row));
    first = false;
  }
}

text_table function_table_head() {
  text_table t;
  t.add({"event", "self old", "self new", "self delta", "self delta%", "incl old", "incl new",
         "incl delta", "incl delta%", "function"});
  return t;
}

// Source files read once each; nullptr when not found.
class source_cache {
 public:
  explicit source_cache(const std::vector<std::string>& dirs) : dirs_(dirs) {}
  const std::vector<std::string>* lines(const std::string& path) {
    auto it = cache_.find(path);
    if (it != cache_.end()) return it->second.get();
    std::unique_ptr<std::vector<std::string>> v;
    if (!path.empty()) {
      std::vector<std::string> candidates{path};
      for (const auto& d : dirs_) {
        if (d.empty()) continue;
        std::string dir = d;
        if (dir.back() != '/') dir += '/';
        candidates.push_back(dir + (path.front() == '/' ? path.substr(1) : path));
      }
      for (const auto& c : candidates) {
        std::ifstream in(c, std::ios::binary);
        if (!in) continue;
        v = std::make_unique<std::vector<std::string>>();
        std::string line;
        while (std::getline(in, line)) {
          if (!line.empty() && line.back() == '\r') line.pop_back();
          v->push_back(std::move(line));
        }
        break;
      }
    }
    return (cache_[path] = std::move(v)).get();
  }

 private:
  const std::vector<std::string>& dirs_;
  std::map<std::string, std::unique_ptr<std::vector<std::string>>> cache_;
};

std::string position_text(std::uint64_t pos, bool by_instr) {
  if (!by_instr) return pos ? std::to_string(pos) : std::string("-");
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, pos);
  return buf;
}

void write_detail(std::ostream& out, const diff_result& r, const function_detail& d,
                  const std::vector<std::size_t>& events, source_cache& sources) {
  const function_diff& f = r.functions[d.function];
  out << '\n';
  section(out, "Function " + function_label(f.key) + change_suffix(f.change));
  text_table head = function_table_head();
  add_function_rows(head, r, f, events);
  head.write(out);

  // Lines and call sites of each source file, in position order; call sites after the line.
  out << '\n';
  text_table t;
  t.add({"event", "old", "new", "delta", "delta%", d.by_instr ? "instr" : "line", "source / call"});
  std::size_t li = 0, ci = 0;
  std::string current_file;
  bool any = false;
  while (li < d.lines.size() || ci < d.calls.size()) {
    const bool take_line = ci >= d.calls.size() ||
                           (li < d.lines.size() && std::tie(d.lines[li].file, d.lines[li].pos) <=
                                                       std::tie(d.calls[ci].file, d.calls[ci].pos));
    const std::string& file = take_line ? d.lines[li].file : d.calls[ci].file;
    if (!any || file != current_file) {
      current_file = file;
      const bool found = !d.by_instr && sources.lines(file);
      t.add({"", "", "", "", "", "",
             "-- file " + (file.empty() ? std::string("(unknown)") : file) +
                 (d.by_instr || found ? "" : " (source not found)")});
    }
    any = true;
    if (take_line) {
      const line_diff& l = d.lines[li++];
      std::string text;
      if (!d.by_instr && l.pos) {
        if (const auto* src = sources.lines(l.file); src && l.pos <= src->size())
          text = (*src)[l.pos - 1];
      }
      bool first = true;
      for (std::size_t e : events) {
        std::vector<std::string> row{r.events[e]};
        add_cost_cells(row, l.cost_old[e], l.cost_new[e]);
        row.push_back(first ? position_text(l.pos, d.by_instr) : "");
        row.push_back(first ? text : "");
        t.add(std::move(row));
        first = false;
      }
    } else {
      const call_site_diff& c = d.calls[ci++];
      std::string what = "=> " + function_label(c.callee) + " (" + with_thousands(c.count_old) +
                         "x -> " + with_thousands(c.count_new) + "x)";
      bool first = true;
      for (std::size_t e : events) {
        std::vector<std::string> row{r.events[e]};
        add_cost_cells(row, c.cost_old[e], c.cost_new[e]);
        row.push_back(first ? position_text(c.pos, d.by_instr) : "");
        row.push_back(first ? what : "");
        t.add(std::move(row));
        first = false;
      }
    }
  }
  if (any)
    t.write(out);
  else
    out << "(no cost lines or calls in this function)\n";
}

void write_gate(std::ostream& out, const diff_result& r, const diff_report_options& o) {
  const diff_gate& g = *o.gate;
  char pct[64];
  std::snprintf(pct, sizeof pct, "%g", g.percent);
  out << '\n';
  section(out, std::string("Gate: fail above ") + pct + "% growth of " + r.events[g.event.index()] +
                   (g.per_function ? std::string(" (program total and each listed function, ") +
                                         (o.ranking.inclusive ? "inclusive" : "self") + " cost)"
                                   : std::string(" (program total)")));
  if (o.gate_failures.empty()) {
    out << "passed\n";
    return;
  }
  for (const auto& f : o.gate_failures) {
    std::string what =
        f.function ? function_label(r.functions[*f.function].key) : std::string("PROGRAM TOTALS");
    out << "FAILED: " << what << ": " << r.events[f.event.index()] << ' '
        << with_thousands(f.old_value) << " -> " << with_thousands(f.new_value) << " ("
        << percent_text(f.old_value, f.new_value) << ")\n";
  }
}

}  // namespace
}  // namespace detail

void write_diff_text(std::ostream& out, const diff_result& r, const diff_selection& selection,
                     const std::vector<function_detail>& details,
                     const diff_report_options& options) {
  using namespace detail;
  const std::vector<std::size_t> events = shown(r, options);
  std::vector<std::string> shown_names, sort_names;
  for (std::size_t e : events) shown_names.push_back(r.events[e]);
  if (options.ranking.sort_events.empty()) {
    if (!r.events.empty()) sort_names.push_back(r.events.front());
  } else {
    for (event_id e : options.ranking.sort_events) sort_names.push_back(r.events[e.index()]);
  }

  out << "Old profile:      " << options.old_input.name << '\n';
  if (!options.old_input.cmd.empty()) out << "Old command:      " << options.old_input.cmd << '\n';
  out << "New profile:      " << options.new_input.name << '\n';
  if (!options.new_input.cmd.empty()) out << "New command:      " << options.new_input.cmd << '\n';
  if (options.part)
    out << "Parts:            part " << options.part->index() + 1 << " of each\n";
  else
    out << "Parts:            all parts summed (old: " << r.parts_old << ", new: " << r.parts_new
        << ")\n";
  out << "Events compared:  " << join(r.events) << '\n';
  if (!r.old_only_events.empty() || !r.new_only_events.empty()) {
    out << "Not compared:    ";
    if (!r.old_only_events.empty()) out << ' ' << join(r.old_only_events) << " (only in old)";
    if (!r.new_only_events.empty()) out << ' ' << join(r.new_only_events) << " (only in new)";
    out << '\n';
  }
  out << "Events shown:     " << join(shown_names) << '\n';
  out << "Event sort order: " << join(sort_names) << " ("
      << (options.ranking.inclusive ? "inclusive" : "self") << " cost, absolute change)\n";
  char threshold[64];
  std::snprintf(threshold, sizeof threshold, "%g", options.ranking.threshold_percent);
  out << "Threshold:        " << threshold << "%\n";
  const std::size_t changed = r.count(function_change::changed),
                    unchanged = r.count(function_change::unchanged),
                    added = r.count(function_change::added),
                    removed = r.count(function_change::removed);
  out << "Functions:        " << r.functions_old << " old, " << r.functions_new << " new; "
      << changed + unchanged << " in both (" << changed << " changed), " << added << " added, "
      << removed << " removed\n";

  text_table totals;
  totals.add({"event", "old", "new", "delta", "delta%", ""});
  for (std::size_t e : events) {
    std::vector<std::string> row{r.events[e]};
    add_cost_cells(row, r.total_old[e], r.total_new[e]);
    row.push_back(e == events.front() ? "PROGRAM TOTALS" : "");
    totals.add(std::move(row));
  }
  out << rule;
  totals.write(out);

  const bool no_change = changed == 0 && added == 0 && removed == 0 && r.total_old == r.total_new;
  if (no_change) {
    out << rule << "No change.\n";
  } else {
    out << '\n';
    std::string title = "Functions: " + std::to_string(selection.listed.size()) + " listed";
    if (selection.below_threshold)
      title += ", " + std::to_string(selection.below_threshold) + " below the threshold";
    if (selection.beyond_limit)
      title += ", " + std::to_string(selection.beyond_limit) + " beyond the limit";
    section(out, title);
    if (selection.listed.empty()) {
      out << "(no function above the threshold)\n";
    } else {
      text_table t = function_table_head();
      for (function_diff_id i : selection.listed) add_function_rows(t, r, r.functions[i], events);
      t.write(out);
    }
  }

  source_cache sources(options.source_dirs);
  for (const auto& d : details) write_detail(out, r, d, events, sources);
  if (options.gate) write_gate(out, r, options);
}

}  // namespace calltree

// annotate_json.cc — the annotate report as JSON (schema "calltree-annotate" version 1,
// documented in docs/json.md). Everything the text report shows, unthresholded and with both
// self and inclusive costs, so CI scripts never parse the text layout.
#include <algorithm>
#include <map>
#include <set>

#include "calltree/totals.h"
#include "report/annotate.h"
#include "report/annotate_data.h"
#include "report/json.h"
#include "views/annotate_direct.h"

namespace calltree {

namespace {

void costs(json_writer& j, const detail::annotate_data& d, const detail::cc_table& t,
           std::size_t row) {
  j.begin_object();
  for (std::size_t c = 0; c < d.columns.size(); ++c) j.key(d.columns[c]).value(t.values(row)[c]);
  j.end_object();
}

std::string file_of_key(const std::string& key) {
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] == ':' && i + 1 < key.size()) return key.substr(0, i);
  return key;
}

}  // namespace

std::string detail::print_annotate_json(const profile& p, const annotate_data& d,
                                        const annotate_options& options) {
  annotate_options o = options;
  o.inclusive = true;  // JSON always carries both

  std::vector<std::size_t> sort_cols;
  for (const auto& n : (o.sort.empty() ? d.recorded : o.sort))
    sort_cols.push_back(static_cast<std::size_t>(std::find(d.columns.begin(), d.columns.end(), n) -
                                                 d.columns.begin()));
  const detail::cc_table& order_table = options.inclusive ? d.inclusive : d.self;
  std::vector<std::uint32_t> keys;
  for (std::uint32_t k = 0; k < d.keys(); ++k)
    if (d.key_seen[k] || d.key_called[k]) keys.push_back(k);
  signed_costs_scope sums(p.signed_costs);  // (its numbers: signed in a file of differences)
  // A file of differences: by the size of each change, as the text report (docs/format.md).
  auto size = [&](std::uint64_t v) { return p.signed_costs && as_signed(v) < 0 ? 0 - v : v; };
  std::sort(keys.begin(), keys.end(), [&](std::uint32_t a, std::uint32_t b) {
    for (std::size_t c : sort_cols) {
      std::uint64_t x = size(order_table.values(a)[c]), y = size(order_table.values(b)[c]);
      if (x != y) return x > y;
    }
    return d.compare_key_names(a, b) < 0;
  });

  json_writer j;
  j.begin_object();
  j.key("schema").value("calltree-annotate");
  j.key("version").value(1);
  j.key("input").value(o.input_name);
  const part* first = nullptr;
  for (part_id i : p.parts.ids())
    if (!o.part || *o.part == i) {
      first = &p.parts[i];
      break;
    }
  j.key("creator").value(first ? first->header.creator : std::string());
  j.key("command").value(first ? first->header.cmd : std::string());
  j.key("parts").begin_object();
  j.key("count").value(static_cast<std::uint64_t>(p.parts.size()));
  j.key("selected");
  if (o.part)
    j.value(std::uint64_t{o.part->index()} + 1);
  else
    j.value("all");
  j.end_object();
  j.key("events").begin_array();
  for (const auto& c : d.columns) j.value(c);
  j.end_array();
  j.key("recorded_events").begin_array();
  for (const auto& c : d.recorded) j.value(c);
  j.end_array();
  j.key("inclusive_method").value(o.raw ? "raw" : "cycles");
  j.key("totals");
  costs(j, d, d.totals, 0);
  j.key("totals_calculated").value(d.totals_calculated);
  // The two figures behind "totals" (calltree/totals.h), and the sentence where they differ.
  std::vector<summed_totals> figures;
  for (const auto& name : d.recorded) {
    summed_totals t;
    if (const auto e = p.find_event(name))
      for (part_id pt : p.parts.ids())
        if (!o.part || *o.part == pt) t.add(part_totals(p, pt, *e));
    figures.push_back(t);
  }
  std::vector<std::string> differ;
  j.key("totals_summed").begin_object();
  for (std::size_t c = 0; c < d.recorded.size(); ++c) j.key(d.recorded[c]).value(figures[c].summed);
  j.end_object();
  j.key("totals_stated").begin_object();
  for (std::size_t c = 0; c < d.recorded.size(); ++c) {
    j.key(d.recorded[c]);
    if (figures[c].stated)
      j.value(*figures[c].stated);
    else
      j.null();
    if (std::string w = total_difference(figures[c], d.recorded[c]); !w.empty())
      differ.push_back(w);
  }
  j.end_object();
  j.key("totals_warnings").begin_array();
  for (const auto& w : differ) j.value(w);
  j.end_array();

  j.key("functions").begin_array();
  for (std::uint32_t k : keys) {
    j.begin_object();
    j.key("key").value(d.key_name(k));
    j.key("file").value(d.files[d.key_file[k]]);
    j.key("name").value(d.function_name(k));
    j.key("object");
    if (d.key_has_object[k])
      j.value(d.objects[d.key_object[k]]);
    else
      j.null();
    j.key("self");
    costs(j, d, d.self, k);
    j.key("inclusive");
    costs(j, d, d.inclusive, k);
    j.key("cycle");
    if (!o.raw && k < d.cycle_of.size() && d.cycle_of[k])
      j.value(static_cast<std::uint64_t>(d.cycle_of[k]));
    else
      j.null();
    for (int side = 0; side < 2; ++side) {
      j.key(side == 0 ? "callers" : "callees").begin_array();
      const auto& list = side == 0 ? d.callers_of[k] : d.callees_of[k];
      for (std::uint32_t ci : list) {
        const auto& c = d.calls[ci];
        j.begin_object();
        j.key("function").value(d.key_name(side == 0 ? c.caller : c.callee));
        j.key("count").value(c.count);
        j.key("cost");
        costs(j, d, d.call_cc, ci);
        j.end_object();
      }
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();

  j.key("cycles").begin_array();
  if (!o.raw) {
    for (std::size_t c = 0; c < d.cycles.size(); ++c) {
      j.begin_object();
      j.key("id").value(static_cast<std::uint64_t>(c + 1));
      j.key("members").begin_array();
      for (std::uint32_t m : d.cycles[c]) j.value(d.key_name(m));
      j.end_array();
      j.key("inclusive");
      costs(j, d, d.cycle_cc, c);
      j.end_object();
    }
  }
  j.end_array();

  // Per-line self costs and call sites of the files source annotation would show: the user
  // files and, with --auto=yes, the files of every function (unthresholded).
  j.key("source").begin_array();
  std::set<std::string> chosen(o.user_files.begin(), o.user_files.end());
  if (o.auto_annotate)
    for (std::uint32_t k : keys) chosen.insert(file_of_key(d.key_name(k)));
  chosen.erase("???");
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<std::size_t>> line_calls;
  for (std::size_t ci = 0; ci < d.call_lines.size(); ++ci)
    line_calls[{d.key_file[d.call_lines[ci].caller], d.call_lines[ci].line}].push_back(ci);
  for (std::uint32_t f = 0; d.lines && f < d.files.size(); ++f) {
    if (!chosen.count(d.files[f]) || d.file_lines[f].empty()) continue;
    j.begin_object();
    j.key("file").value(d.files[f]);
    j.key("lines").begin_array();
    for (const auto& [line, row] : d.file_lines[f]) {
      j.begin_object();
      j.key("line").value(line);
      j.key("self");
      costs(j, d, d.line_cc, row);
      auto site = line_calls.find({f, line});
      if (site != line_calls.end()) {
        j.key("calls").begin_array();
        for (std::size_t ci : site->second) {
          const auto& cl = d.call_lines[ci];
          j.begin_object();
          j.key("caller").value(d.key_name(cl.caller));
          j.key("callee").value(d.key_name(cl.callee));
          j.key("count").value(cl.count);
          j.key("cost");
          costs(j, d, d.call_line_cc, ci);
          j.end_object();
        }
        j.end_array();
      }
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.take() + "\n";
}

status annotate_json_of(annotate_direct& tables, std::string& out,
                        std::vector<std::string>* warnings) {
  detail::annotate_data d;
  if (auto made = tables.take_tables(d, warnings); !made) return made;
  out = detail::print_annotate_json(tables.parts(), d, tables.report_options());
  return ok();
}

}  // namespace calltree

// server/routes_profile.cc — GET /api/v1/profile: what was loaded (docs/serve.md).
#include <optional>
#include <vector>

#include "api_impl.h"
#include "calltree/totals.h"
#include "reader/read_profile.h"
#include "views/part_costs.h"

namespace calltree::server::detail {

namespace {

void input_object(json_writer& j, const views::session& s, const views::column_set& columns) {
  j.begin_object();
  j.key("name").value(s.input_name);
  j.key("size").value(s.input_size);
  j.key("complete").value(calltree::detail::read_to_end(s.stats));
  j.key("lines").value(s.stats.lines);
  j.key("bytes").value(s.stats.bytes);
  const part* first = s.p.parts.empty() ? nullptr : &s.p.parts.front();
  j.key("creator").value(first ? first->header.creator : std::string());
  j.key("command").value(first ? first->header.cmd : std::string());
  // A run of several files (serve FILE..., --parts, --siblings): each file, and each part's.
  std::vector<std::uint32_t> file_of_part;
  if (!s.run_files.empty()) {
    j.key("files").begin_array();
    for (std::size_t f = 0; f < s.run_files.size(); ++f) {
      const auto& rf = s.run_files[f];
      j.begin_object();
      j.key("name").value(rf.name);
      j.key("size").value(rf.size);
      j.key("parts").value(static_cast<std::uint64_t>(rf.parts));
      j.key("complete").value(rf.complete);
      j.end_object();
      file_of_part.insert(file_of_part.end(), rf.parts, static_cast<std::uint32_t>(f));
    }
    j.end_array();
  }
  j.key("parts").begin_array();
  for (std::size_t i = 0; i < s.p.parts.size(); ++i) {
    const part_header& h = s.p.parts[part_id{i}].header;
    j.begin_object();
    j.key("index").value(static_cast<std::uint64_t>(i + 1));
    if (i < file_of_part.size()) j.key("file").value(static_cast<std::uint64_t>(file_of_part[i]));
    j.key("pid");
    h.pid ? j.value(*h.pid) : j.null();
    j.key("thread");
    h.thread ? j.value(*h.thread) : j.null();
    j.key("part");
    h.part_number ? j.value(*h.part_number) : j.null();
    j.key("events").begin_array();
    for (const auto& e : h.events) j.value(e);
    j.end_array();
    j.key("totals");
    costs_of_row(j, columns, s.part_totals(static_cast<std::uint32_t>(i)).data());
    j.end_object();
  }
  j.end_array();
  j.key("positions").begin_array();
  if (s.p.positions & pos_instr) j.value("instr");
  if (s.p.positions & pos_bb) j.value("bb");
  if (s.p.positions & pos_line) j.value("line");
  j.end_array();
  j.key("has_jumps").value(s.stats.jump_lines > 0);
  j.key("has_calls").value(s.stats.call_lines > 0);
  // A sampling profiler's file (docs/import.md): its call counts are samples taken under each
  // call, as its `desc: Call counts:` line says, or as gperftools' `pprof --callgrind` writes
  // them, whose one event is `Hits` (each call's count is the hits under it, its cost's
  // figure). Said only then: other answers are unchanged.
  if (first) {
    bool sampled = first->header.events.size() == 1 && first->header.events[0] == "Hits";
    for (const auto& [type, value] : first->header.descriptions)
      if (type == "Call counts" && value.starts_with("samples")) sampled = true;
    if (sampled) j.key("sampled_calls").value(true);
  }
  j.key("diagnostics").begin_object();
  j.key("errors").value(s.errors);
  j.key("warnings").value(s.warnings);
  j.key("notes").value(s.notes);
  // How many of each code, shown or not (errors, then warnings, then notes; each by code).
  j.key("by_code").begin_array();
  for (const auto& c : s.diagnostic_counts) {
    j.begin_object();
    j.key("code").value(to_string(c.code));
    j.key("severity").value(to_string(c.severity));
    j.key("count").value(c.count);
    j.end_object();
  }
  j.end_array();
  j.key("shown").begin_array();
  for (const diagnostic& d : s.diagnostics) {
    j.begin_object();
    j.key("file").value(d.file);
    j.key("line").value(d.line);
    j.key("column").value(static_cast<std::uint64_t>(d.column));
    j.key("severity").value(to_string(d.severity));
    j.key("code").value(to_string(d.code));
    j.key("message").value(d.message);
    j.key("text").value(d.line_text);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  j.key("warnings").begin_array();
  for (const auto& w : s.table_warnings) j.value(w);
  j.end_array();
  j.end_object();
}

}  // namespace

response route_profile(const request& r, const views::session& s, const views::session* old) {
  common_query q;
  if (auto f = parse_common(r, s, q)) return error_response(*f);
  auto cols = views::resolve_columns(s, {}, q.derived);
  if (!cols) return error_response(400, "bad_event", cols.error().message);
  const views::column_set& columns = *cols;
  auto all = s.costs_of({});

  json_writer j;
  begin_envelope(j);
  j.key("mode").value(old ? "diff" : "single");
  j.key("inputs").begin_array();
  if (old) {
    auto old_cols = views::resolve_columns(*old, {}, {});
    input_object(j, *old, old_cols ? *old_cols : views::column_set{});
  }
  input_object(j, s, columns);
  j.end_array();
  j.key("events").begin_array();
  for (const auto& c : columns.columns) {
    j.begin_object();
    j.key("name").value(c.name);
    j.key("long_name").value(c.long_name);
    j.key("formula");
    c.recorded ? j.null() : j.value(c.formula);
    j.key("recorded").value(c.recorded);
    j.end_object();
  }
  j.end_array();
  j.key("event_warnings").begin_array();
  for (const auto& w : columns.warnings) j.value(w);
  j.end_array();
  j.key("totals");
  costs_of_row(j, columns, all->totals());
  j.key("totals_calculated").value(all->totals_calculated());
  // The two figures behind "totals" (calltree/totals.h): the sum of the self costs, and what
  // the file states (null for an event it states nothing of); the inputs' warnings say which
  // one the percentages are of where they differ.
  {
    std::vector<std::uint64_t> summed;
    std::vector<std::optional<std::uint64_t>> stated;
    for (const auto& name : s.t.recorded) {
      const auto e = s.p.find_event(name);
      const summed_totals t = e ? totals_of(s.p, *e) : summed_totals{};
      summed.push_back(t.summed);
      stated.push_back(t.stated);
    }
    j.key("totals_summed");
    costs_of_row(j, columns, summed.data());
    j.key("totals_stated").begin_object();
    for (std::size_t c = 0; c < stated.size(); ++c) {
      j.key(s.t.recorded[c]);
      if (stated[c])
        cost(j, *stated[c]);
      else
        j.null();
    }
    j.end_object();
  }
  j.key("functions").value(static_cast<std::uint64_t>(s.keys()));
  j.key("cycles").value(static_cast<std::uint64_t>(s.cycles()));
  j.key("files").begin_array();
  for (std::size_t f = 0; f < s.t.files.size(); ++f) {
    j.begin_object();
    j.key("id").value(static_cast<std::uint64_t>(f));
    j.key("name").value(s.t.files[f]);
    j.key("found").value(f < s.t.file_found.size() && s.t.file_found[f] != 0);
    j.end_object();
  }
  j.end_array();
  j.key("report").null();
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

// server/routes_diff.cc — diff mode (`serve OLD NEW`): GET /api/v1/functions as the matched
// list with old, new, delta and percent, and the change of each function of a flame graph.
#include <re2/re2.h>

#include <cmath>

#include "api_impl.h"
#include "calltree/analysis/diff.h"

namespace calltree::server::detail {

void change_object(json_writer& j, std::uint64_t o, std::uint64_t n) {
  j.begin_object();
  j.key("old");
  cost(j, o);
  j.key("new");
  cost(j, n);
  j.key("delta");
  if (n >= o) {
    const std::uint64_t d = n - o;
    d < (std::uint64_t{1} << 53) ? j.value(d) : j.value(std::to_string(d));
  } else {
    const std::uint64_t d = o - n;
    d < (std::uint64_t{1} << 53) ? j.value(-static_cast<std::int64_t>(d))
                                 : j.value(std::string("-").append(std::to_string(d)));
  }
  j.key("percent");
  if (auto p = percent_change(o, n))
    j.value(std::round(*p * 10000) / 10000);
  else
    j.null();
  j.end_object();
}

namespace {

void changes(json_writer& j, const views::column_set& cols, const std::vector<std::uint64_t>& so,
             const std::vector<std::uint64_t>& sn, const std::vector<std::uint64_t>& io,
             const std::vector<std::uint64_t>& in) {
  for (int which = 0; which < 2; ++which) {
    j.key(which == 0 ? "self" : "inclusive").begin_object();
    const auto& o = which == 0 ? so : io;
    const auto& n = which == 0 ? sn : in;
    for (std::size_t c = 0; c < cols.size(); ++c) {
      j.key(cols.columns[c].name);
      change_object(j, o[c], n[c]);
    }
    j.end_object();
  }
}

void row_changes(json_writer& j, const views::column_set& cols, const views::diff_row& r) {
  changes(j, cols, r.self_old, r.self_new, r.inclusive_old, r.inclusive_new);
}

}  // namespace

void flame_delta::write(json_writer& j, std::uint32_t key) const {
  const auto& of_key = frames_of_old ? table->of_old_key : table->of_new_key;
  if (key >= of_key.size() || of_key[key] == views::no_key) return;  // (a cycle: no function)
  const views::diff_row r = views::diff_of_function(*table, columns, of_key[key]);
  j.key("diff").begin_object();
  j.key("change").value(to_string(r.change));
  j.key("other_id");
  const std::uint32_t other = frames_of_old ? r.new_id : r.old_id;
  other == views::no_key ? j.null() : j.value(static_cast<std::uint64_t>(other));
  row_changes(j, columns.new_columns, r);
  j.end_object();
}

std::optional<failure> make_flame_delta(const request& r, const views::diff_source& src,
                                        bool frames_of_old, std::optional<flame_delta>& out) {
  common_query c;
  if (auto f = parse_common(r, frames_of_old ? src.old_side() : src.new_side(), c)) return f;
  std::vector<std::string> names = c.events.empty() ? src.compared : c.events;
  // (An event of one side only has no change to show: the delta covers the compared ones.)
  std::erase_if(names, [&](const std::string& n) {
    return std::find(src.compared.begin(), src.compared.end(), n) == src.compared.end();
  });
  auto cols = views::resolve_diff_columns(src, names, {});
  if (!cols) return failure{400, "bad_event", "an event is not in both profiles"};
  if (!c.parts.empty() && src.old_side().p.parts.size() != src.new_side().p.parts.size())
    return failure{400, "bad_parts",
                   "the two profiles have different numbers of parts: compare all"};
  auto table = src.of_parts(c.parts);
  if (!table) return failure{400, "bad_parts", table.error().message};
  out.emplace(flame_delta{frames_of_old, *table, std::move(*cols)});
  return std::nullopt;
}

response route_diff_functions(const request& r, const views::diff_source& src) {
  const views::session& old_side = src.old_side();
  const views::session& new_side = src.new_side();
  common_query c;
  if (auto f = parse_common(r, new_side, c)) return error_response(*f);
  if (!c.parts.empty() && old_side.p.parts.size() != new_side.p.parts.size())
    return error_response(400, "bad_parts",
                          "the two profiles have different numbers of parts: compare all");
  views::diff_query q;
  q.parts = c.parts;
  q.events = c.events;
  q.derived = c.derived;
  q.sort_event = c.sort_event;
  if (auto by = param(r, "by")) {
    if (*by == "self" || *by == "inclusive")
      q.inclusive = *by == "inclusive";
    else if (*by == "name")
      q.measure = views::diff_measure::name;
    else
      return error_response(400, "bad_by", "by takes self, inclusive or name");
  }
  if (auto m = param(r, "measure")) {
    if (q.measure == views::diff_measure::name)
      return error_response(400, "bad_measure", "measure is not for by=name");
    if (*m == "abs_delta")
      q.measure = views::diff_measure::abs_delta;
    else if (*m == "delta")
      q.measure = views::diff_measure::delta;
    else if (*m == "percent")
      q.measure = views::diff_measure::percent;
    else if (*m == "new")
      q.measure = views::diff_measure::new_cost;
    else if (*m == "old")
      q.measure = views::diff_measure::old_cost;
    else
      return error_response(400, "bad_measure",
                            "measure takes abs_delta, delta, percent, new or old");
  }
  q.descending = q.measure != views::diff_measure::name;
  if (auto dir = param(r, "dir")) {
    if (*dir != "asc" && *dir != "desc")
      return error_response(400, "bad_dir", "dir takes asc or desc");
    q.descending = *dir == "desc";
  }
  if (auto u = param(r, "unchanged")) {
    if (*u != "yes" && *u != "no")
      return error_response(400, "bad_unchanged", "unchanged takes yes or no");
    q.unchanged = *u == "yes";
  }
  std::shared_ptr<const RE2> re;
  if (auto f = param(r, "filter"); f && !f->empty()) {
    if (f->size() > 1000)
      return error_response(400, "bad_regex", "the filter is longer than 1000 bytes");
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(8 << 20);
    re = std::make_shared<RE2>(re2::StringPiece(f->data(), f->size()), o);
    if (!re->ok())
      return error_response(400, "bad_regex", "bad regular expression: " + re->error());
    q.filter = std::string(*f);
    q.match = [re](std::string_view name) {
      return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re);
    };
  }
  list_window window;
  if (auto f = parse_window(r, window)) return error_response(*f);
  q.offset = window.offset;
  q.limit = window.limit;
  std::optional<std::string> in_group;
  if (auto f = parse_group(r, q.group, in_group)) return error_response(*f);
  if (in_group) {
    q.in_group = std::move(*in_group);
    q.only_group = true;
  }
  if (auto l = param(r, "group_limit")) {
    auto v = parse_uint(*l, UINT64_MAX);
    if (!v) return error_response(400, "bad_limit", "group_limit takes a number");
    q.group_limit = std::min<std::uint64_t>(*v, max_limit);
  }
  auto list = views::diff_functions(src, q);
  if (!list) return error_response(400, "bad_event", list.error().message);
  const views::diff_list& l = *list;

  json_writer j;
  begin_envelope(j);
  j.key("mode").value("diff");
  j.key("events").begin_array();
  for (const auto& col : l.columns.new_columns.columns) j.value(col.name);
  j.end_array();
  j.key("old_only_events").begin_array();
  for (const auto& e : src.old_only) j.value(e);
  j.end_array();
  j.key("new_only_events").begin_array();
  for (const auto& e : src.new_only) j.value(e);
  j.end_array();
  j.key("matching").value("functions");
  j.key("totals").begin_object();
  for (std::size_t col = 0; col < l.columns.size(); ++col) {
    j.key(l.columns.new_columns.columns[col].name);
    change_object(j, l.totals_old[col], l.totals_new[col]);
  }
  j.end_object();
  j.key("counts").begin_object();
  for (auto ch : {function_change::changed, function_change::unchanged, function_change::added,
                  function_change::removed})
    j.key(to_string(ch)).value(static_cast<std::uint64_t>(l.counts[static_cast<int>(ch)]));
  j.end_object();
  j.key("total_rows").value(static_cast<std::uint64_t>(l.total_rows));
  window_fields(j, window);
  j.key("rows").begin_array();
  for (const views::diff_row& row : l.rows) {
    const function_key& k = l.table->r.functions[function_diff_id{row.function}].key;
    j.begin_object();
    j.key("id");
    row.new_id == views::no_key ? j.null() : j.value(static_cast<std::uint64_t>(row.new_id));
    j.key("old_id");
    row.old_id == views::no_key ? j.null() : j.value(static_cast<std::uint64_t>(row.old_id));
    j.key("kind").value("function");
    j.key("name").value(k.name);
    j.key("file").value(l.table->display_file[row.function]);
    j.key("object").value(k.object);
    j.key("change").value(to_string(row.change));
    row_changes(j, l.columns.new_columns, row);
    j.end_object();
  }
  j.end_array();
  j.key("groups");
  if (!l.grouped) {
    j.null();
  } else {
    j.begin_array();
    for (const views::diff_group& g : l.groups) {
      j.begin_object();
      j.key("name").value(g.name);
      j.key("functions").value(static_cast<std::uint64_t>(g.functions));
      changes(j, l.columns.new_columns, g.self_old, g.self_new, g.inclusive_old, g.inclusive_new);
      j.end_object();
    }
    j.end_array();
  }
  j.key("total_groups");
  l.grouped ? j.value(static_cast<std::uint64_t>(l.total_groups)) : j.null();
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

// server/routes_functions.cc — GET /api/v1/functions (the function list) and
// GET /api/v1/function/ID (one function, its callers and callees). docs/serve.md.
#include <re2/re2.h>

#include <algorithm>

#include "api_impl.h"
#include "views/function_detail.h"
#include "views/function_list.h"

namespace calltree::server::detail {

namespace {

constexpr std::size_t max_regex = 1000;

}  // namespace

std::optional<failure> compile_filter(std::string_view text, std::shared_ptr<const RE2>& out) {
  if (text.size() > max_regex)
    return failure{400, "bad_regex",
                   "the filter is longer than " + std::to_string(max_regex) + " bytes"};
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(8 << 20);
  auto re = std::make_shared<RE2>(re2::StringPiece(text.data(), text.size()), o);
  if (!re->ok()) return failure{400, "bad_regex", "bad regular expression: " + re->error()};
  out = std::move(re);
  return std::nullopt;
}

response route_functions(const request& r, const views::session& s) {
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::list_query q;
  static_cast<views::scope&>(q) = c;
  q.sort_event = c.sort_event;
  if (auto by = param(r, "by")) {
    if (*by == "self")
      q.by = views::sort_by::self;
    else if (*by == "inclusive")
      q.by = views::sort_by::inclusive;
    else if (*by == "calls")
      q.by = views::sort_by::calls;
    else if (*by == "name")
      q.by = views::sort_by::name;
    else
      return error_response(400, "bad_by", "by takes self, inclusive, calls or name");
  }
  q.descending = q.by != views::sort_by::name;
  if (auto dir = param(r, "dir")) {
    if (*dir != "asc" && *dir != "desc")
      return error_response(400, "bad_dir", "dir takes asc or desc");
    q.descending = *dir == "desc";
  }
  std::shared_ptr<const RE2> re;
  if (auto f = param(r, "filter"); f && !f->empty()) {
    if (auto fail = compile_filter(*f, re)) return error_response(*fail);
    q.filter = std::string(*f);
    q.match = [re](std::string_view name) {
      return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re);
    };
  }
  if (auto f = parse_group(r, q.group, q.in_group)) return error_response(*f);
  if (auto cy = param(r, "cycles")) {
    if (*cy != "yes" && *cy != "no")
      return error_response(400, "bad_cycles", "cycles takes yes or no");
    q.cycles = *cy == "yes";
  }
  if (auto l = param(r, "group_limit")) {
    auto v = parse_uint(*l, UINT64_MAX);
    if (!v) return error_response(400, "bad_limit", "group_limit takes a number");
    q.group_limit = std::min<std::uint64_t>(*v, max_limit);
  }
  // The transforms (transform=..., merge_clones=...) merge rows (views/list_transforms.h); the
  // stack filters (focus=...) are the stack views', not the list's.
  if (auto f = parse_stack_filter(r, q.transforms)) return error_response(*f);
  list_window window;
  if (auto f = parse_window(r, window)) return error_response(*f);
  q.offset = window.offset;
  q.limit = window.limit;
  bool part_columns = false;
  if (auto pc = param(r, "part_columns")) {
    if (*pc != "yes" && *pc != "no")
      return error_response(400, "bad_part_columns", "part_columns takes yes or no");
    part_columns = *pc == "yes";
  }
  if (auto at = param(r, "locate")) {
    auto v = parse_uint(*at, UINT32_MAX);
    if (!v) return error_response(400, "bad_locate", "locate takes a function's id");
    q.locate = static_cast<std::uint32_t>(*v);
  }
  auto list = views::list_functions(s, q);
  if (!list) return error_response(400, "bad_event", list.error().message);
  const views::function_list& l = *list;
  // The parts side by side: each part's costs of the rows of this window only (each part's
  // costs are made once and kept by the session, views/part_costs.h).
  std::vector<std::shared_ptr<const views::part_costs>> per_part;
  if (part_columns && s.p.parts.size() > 1)
    for (std::uint32_t part = 0; part < std::min(s.p.parts.size(), views::max_part_columns); ++part)
      per_part.push_back(s.costs_of({part}));

  json_writer j;
  begin_envelope(j);
  j.key("events").begin_array();
  for (const auto& col : l.columns.columns) j.value(col.name);
  j.end_array();
  j.key("sort").begin_object();
  j.key("event");
  l.columns.size() ? j.value(l.columns.columns[l.sort_column].name) : j.null();
  j.key("by").value(q.by == views::sort_by::self        ? "self"
                    : q.by == views::sort_by::inclusive ? "inclusive"
                    : q.by == views::sort_by::calls     ? "calls"
                                                        : "name");
  j.key("dir").value(q.descending ? "desc" : "asc");
  j.end_object();
  j.key("totals");
  costs_of_row(j, l.columns, l.costs->totals());
  j.key("total_rows").value(static_cast<std::uint64_t>(l.total_rows));
  if (q.locate) {
    // (only when asked: an answer without it stays as it was)
    j.key("located");
    l.located ? j.value(static_cast<std::uint64_t>(*l.located)) : j.null();
  }
  window_fields(j, window);
  j.key("rows").begin_array();
  for (const views::list_row& row : l.rows) {
    j.begin_object();
    function_fields(j, s, row.id,
                    row.merged ? std::string_view(row.merged->name) : std::string_view());
    if (l.merge) {
      // (only with transforms: an answer without them stays as it was)
      j.key("functions")
          .value(std::uint64_t{row.merged ? row.merged->functions() : std::size_t{1}});
      // (the ids of a merged row's functions, its own first: the first 100)
      if (row.merged && row.merged->functions() > 1) {
        j.key("members").begin_array();
        for (std::size_t m = 0; m < std::min<std::size_t>(row.merged->members.size(), 100); ++m)
          j.value(std::uint64_t{row.merged->members[m]});
        j.end_array();
      }
      j.key("inclusive_exact").value(!row.merged || row.merged->exact);
    }
    j.key("self");
    costs(j, l.columns, row.self);
    j.key("inclusive");
    costs(j, l.columns, row.inclusive);
    j.key("calls").value(row.calls);
    j.key("cycle");
    row.cycle ? j.value(static_cast<std::uint64_t>(row.cycle)) : j.null();
    if (part_columns) {
      // (A cycle is a cycle of the parts summed: no part has it as such.)
      j.key("parts");
      if (s.is_cycle(row.id) || (row.merged && row.merged->functions() > 1)) {
        j.null();
      } else {
        j.begin_array();
        for (const auto& pc : per_part) {
          j.begin_object();
          j.key("self");
          costs_of_row(j, l.columns, pc->self(row.id));
          j.key("inclusive");
          costs_of_row(j, l.columns, pc->inclusive(row.id));
          j.end_object();
        }
        j.end_array();
      }
    }
    j.end_object();
  }
  j.end_array();
  if (part_columns) j.key("part_columns").value(static_cast<std::uint64_t>(per_part.size()));
  j.key("groups");
  if (q.group == views::grouping::none) {
    j.null();
  } else {
    j.begin_array();
    for (const views::group_row& g : l.groups) {
      j.begin_object();
      j.key("name").value(g.name);
      j.key("self");
      costs(j, l.columns, g.self);
      j.key("inclusive");
      costs(j, l.columns, g.inclusive);
      j.key("functions").value(static_cast<std::uint64_t>(g.functions));
      j.end_object();
    }
    j.end_array();
  }
  j.key("total_groups");
  q.group == views::grouping::none ? j.null() : j.value(static_cast<std::uint64_t>(l.total_groups));
  if (l.merge) {
    // What the transforms did to the list: functions merged into others' rows, rows of one
    // function named otherwise, and a focus on a call path (whose share of each function the
    // file does not say) not applied.
    j.key("transforms").begin_object();
    j.key("text").value(q.transforms.text);
    std::uint64_t merged = 0, renamed = 0;
    for (const auto& m : l.merge->rows) {
      merged += m.functions() - 1;
      renamed += m.functions() == 1;  // (a clone alone, by its function's name; an object's)
    }
    j.key("functions_merged").value(merged);
    j.key("rows_renamed").value(renamed);
    j.key("focus_path_not_applied").value(l.merge->focus_path);
    j.end_object();
  }
  j.end_object();
  return json_response(j.take());
}

response route_function(const request& r, const views::session& s, std::string_view segment) {
  std::uint32_t id = 0;
  if (auto f = parse_id(segment, s, id)) return error_response(*f);
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::detail_query q;
  static_cast<views::scope&>(q) = c;
  q.sort_event = c.sort_event;
  if (auto l = param(r, "limit")) {
    auto v = parse_uint(*l, UINT64_MAX);
    if (!v) return error_response(400, "bad_limit", "limit takes a number");
    q.limit = std::min<std::uint64_t>(*v, max_limit);
  }
  auto d = views::describe_function(s, id, q);
  if (!d) return error_response(400, "bad_event", d.error().message);
  const views::function_detail& f = *d;

  json_writer j;
  begin_envelope(j);
  j.key("events").begin_array();
  for (const auto& col : f.columns.columns) j.value(col.name);
  j.end_array();
  function_fields(j, s, id);
  j.key("present").value(f.present);
  j.key("self");
  costs(j, f.columns, f.self);
  j.key("inclusive");
  costs(j, f.columns, f.inclusive);
  j.key("calls").value(f.calls);
  j.key("cycle");
  f.cycle ? j.value(static_cast<std::uint64_t>(f.cycle)) : j.null();
  j.key("cycle_id");
  f.cycle ? j.value(static_cast<std::uint64_t>(s.keys() + f.cycle - 1)) : j.null();
  j.key("totals");
  costs_of_row(j, f.columns, f.costs->totals());
  for (int side = 0; side < 2; ++side) {
    const auto& list = side == 0 ? f.callers : f.callees;
    j.key(side == 0 ? "callers" : "callees").begin_array();
    for (const views::call_row& call : list) {
      j.begin_object();
      function_fields(j, s, call.id);
      j.key("count").value(call.count);
      j.key("cost");
      costs(j, f.columns, call.cost);
      j.key("cycle");
      const std::uint32_t cy = f.costs->cycle_of(call.id);
      cy ? j.value(static_cast<std::uint64_t>(cy)) : j.null();
      j.key("recursive").value(call.recursive);
      j.end_object();
    }
    j.end_array();
    j.key(side == 0 ? "callers_total" : "callees_total")
        .value(static_cast<std::uint64_t>(side == 0 ? f.callers_total : f.callees_total));
  }
  j.key("members").begin_array();
  for (std::uint32_t m : f.members) {
    j.begin_object();
    function_fields(j, s, m);
    j.key("inclusive");
    costs_of_row(j, f.columns, f.costs->inclusive(m));
    j.end_object();
  }
  j.end_array();
  j.key("members_total").value(static_cast<std::uint64_t>(f.members_total));
  j.key("same_name").begin_array();
  for (std::uint32_t k : f.same_name) {
    j.begin_object();
    function_fields(j, s, k);
    j.end_object();
  }
  j.end_array();
  j.key("source");
  if (f.is_cycle) {
    j.null();
  } else {
    j.begin_object();
    j.key("file_id").value(static_cast<std::uint64_t>(f.file));
    j.key("found").value(f.file_found);
    j.key("first_line").value(f.first_line);
    j.key("last_line").value(f.last_line);
    // (self costs per file: of every part, as the source view's lines)
    j.key("self");
    costs(j, f.columns, f.own_self);
    j.key("inlined").begin_array();
    for (const auto& sp : f.inlined) {
      j.begin_object();
      j.key("file_id").value(static_cast<std::uint64_t>(sp.file));
      j.key("file").value(s.file_names()[sp.file]);
      j.key("first_line").value(sp.first_line);
      j.key("last_line").value(sp.last_line);
      j.key("self");
      costs(j, f.columns, sp.self);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

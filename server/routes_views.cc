// server/routes_views.cc — GET /api/v1/graph/ID, /api/v1/flame, /api/v1/coverage/ID and
// /api/v1/source/FILE_ID (docs/serve.md).
#include <algorithm>

#include "api_impl.h"
#include "source_files.h"
#include "stack_filter_regex.h"
#include "views/call_graph.h"
#include "views/coverage.h"
#include "views/flame.h"
#include "views/source.h"

namespace calltree::server::detail {

namespace {

void event_list(json_writer& j, const views::column_set& columns) {
  j.key("events").begin_array();
  for (const auto& c : columns.columns) j.value(c.name);
  j.end_array();
}

// Arrays of one column of a matrix per event: {"Ir": [1, 2, ...], ...}.
void matrix_columns(json_writer& j, const views::column_set& columns, const cost_matrix& m,
                    std::size_t rows) {
  j.begin_object();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    j.key(columns.columns[c].name).begin_array();
    for (std::size_t r = 0; r < rows; ++r) cost(j, m.row(r)[c]);
    j.end_array();
  }
  j.end_object();
}

std::optional<failure> parse_fraction_param(const request& r, std::string_view name, double& out) {
  if (auto v = param(r, name)) {
    auto f = parse_fraction(*v);
    if (!f)
      return failure{400, "bad_" + std::string(name),
                     std::string(name) + " takes a fraction from 0 to 1 (0.01 is 1 %)"};
    out = *f;
  }
  return std::nullopt;
}

template <typename T>
std::optional<failure> parse_count_param(const request& r, std::string_view name, T& out,
                                         std::uint64_t max) {
  if (auto v = param(r, name)) {
    auto n = parse_uint(*v, UINT64_MAX);
    if (!n) return failure{400, "bad_" + std::string(name), std::string(name) + " takes a number"};
    out = static_cast<T>(std::min<std::uint64_t>(*n, max));
  }
  return std::nullopt;
}

// "filter": what a filter left out of the program's stacks (only in a filtered answer, so
// that an unfiltered one is as it was): the expressions, and per event the stacks' total and
// the cost of those left out.
void filter_fields(json_writer& j, const views::column_set& columns, const views::stack_filter& f,
                   const views::filter_summary& sum) {
  j.key("filter").begin_object();
  const std::pair<const char*, bool> given[] = {{"focus", bool(f.focus)},
                                                {"ignore", bool(f.ignore)},
                                                {"hide", bool(f.hide)},
                                                {"show", bool(f.show)}};
  const bool matched[] = {sum.focus_matched, sum.ignore_matched, sum.hide_matched,
                          sum.show_matched};
  j.key("unmatched").begin_array();
  for (std::size_t i = 0; i < 4; ++i)
    if (given[i].second && !matched[i]) j.value(given[i].first);
  if (f.focuses_path() && !sum.focus_path_matched) j.value("focus_path");
  j.end_array();
  if (f.transforms()) j.key("text").value(f.text);
  j.key("total");
  costs(j, columns, sum.total);
  j.key("dropped");
  costs(j, columns, sum.dropped);
  j.end_object();
}

// by_thread=1: "by_thread" (whether the tree has thread frames: from the roots only) and
// "threads", each selected part's root frame: {"part", "pid", "thread", "name", "frame",
// "totals"} (the frame's index, -1 where a filter left it out; the part's totals, the Parts
// table's).
void thread_fields(json_writer& j, const views::session& s, const views::flame_view& fl) {
  const path_tree& t = fl.tree;
  j.key("by_thread").value(!fl.threads.empty());
  j.key("threads").begin_array();
  for (std::uint32_t i = 0; i < fl.threads.size(); ++i) {
    const views::thread_root& th = fl.threads[i];
    const part_header& h = s.p.parts[part_id{th.part}].header;
    j.begin_object();
    j.key("part").value(static_cast<std::uint64_t>(th.part + 1));
    j.key("pid");
    h.pid ? j.value(*h.pid) : j.null();
    j.key("thread");
    h.thread ? j.value(*h.thread) : j.null();
    j.key("name").value(th.name);
    auto at = std::find(t.node.begin(), t.node.end(), fl.thread_node + i);
    j.key("frame");
    at == t.node.end() ? j.value(std::int64_t{-1})
                       : j.value(static_cast<std::uint64_t>(at - t.node.begin()));
    j.key("totals");
    costs_of_row(j, fl.columns, s.part_totals(th.part).data());
    j.end_object();
  }
  j.end_array();
}

}  // namespace

// (api_impl.h) focus=, ignore=, hide=, show= (views/stack_filter.h), and the transforms
// merge_clones=, collapse_recursion=, collapse_direct_recursion=, collapse_object=,
// focus_path= (views/stack_transform.h), applied in that fixed order, then transform=
// (repeated) in the order given: 400 bad_regex for a bad expression or transform.
std::optional<failure> parse_stack_filter(const request& r, views::stack_filter& out) {
  stack_filter_text text;
  std::optional<std::string>* into[] = {&text.focus, &text.ignore, &text.hide, &text.show};
  static constexpr std::string_view names[] = {"focus", "ignore", "hide", "show"};
  for (std::size_t i = 0; i < 4; ++i)
    if (auto v = param(r, names[i])) *into[i] = std::string(*v);
  // The transforms (views/stack_transform.h): merge_clones=1, the others as their text.
  if (auto v = param(r, "merge_clones")) text.merge_clones = *v == "1" || *v == "yes";
  std::optional<std::string>* transforms[] = {&text.collapse_recursion,
                                              &text.collapse_direct_recursion,
                                              &text.collapse_object, &text.focus_path};
  static constexpr std::string_view transform_names[] = {
      "collapse_recursion", "collapse_direct_recursion", "collapse_object", "focus_path"};
  for (std::size_t i = 0; i < 4; ++i)
    if (auto v = param(r, transform_names[i])) *transforms[i] = std::string(*v);
  // transform=NAME[:ARGUMENT], repeated: the steps in the user's order, after those above.
  for (const std::string& step : params(r, "transform")) {
    const std::size_t colon = step.find(':');
    text.steps.emplace_back(step.substr(0, colon),
                            colon == std::string::npos ? std::string() : step.substr(colon + 1));
  }
  auto f = compile_stack_filter(text, {names[0], names[1], names[2], names[3]});
  if (!f) return failure{400, "bad_regex", f.error().message};
  out = std::move(*f);
  return std::nullopt;
}

response route_graph(const request& r, const views::session& s, std::string_view segment) {
  std::uint32_t id = 0;
  if (auto f = parse_id(segment, s, id)) return error_response(*f);
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::graph_query q;
  static_cast<views::scope&>(q) = c;
  q.weight_event = c.sort_event;
  if (auto f = parse_count_param(r, "up", q.up, 10)) return error_response(*f);
  if (auto f = parse_count_param(r, "down", q.down, 10)) return error_response(*f);
  if (auto f = parse_count_param(r, "max_nodes", q.max_nodes, 1000)) return error_response(*f);
  if (auto f = parse_fraction_param(r, "min", q.min_share)) return error_response(*f);
  if (auto f = parse_fraction_param(r, "node_min", q.node_min_share)) return error_response(*f);
  if (auto f = parse_stack_filter(r, q.filter)) return error_response(*f);
  auto g = views::call_graph_around(s, id, q);
  if (!g) return error_response(400, "bad_event", g.error().message);

  json_writer j;
  begin_envelope(j);
  event_list(j, g->columns);
  j.key("center").value(static_cast<std::uint64_t>(id));
  j.key("event");
  g->columns.size() ? j.value(g->columns.columns[g->weight_column].name) : j.null();
  j.key("up").value(static_cast<std::uint64_t>(q.up));
  j.key("down").value(static_cast<std::uint64_t>(q.down));
  j.key("min").value(q.min_share);
  j.key("threshold");
  cost(j, g->threshold);
  // (only when asked: a report's answers, made with the defaults, stay as they were)
  if (q.node_min_share > 0) {
    j.key("node_min").value(q.node_min_share);
    j.key("node_threshold");
    cost(j, g->node_threshold);
  }
  j.key("truncated").value(g->truncated);
  j.key("nodes").begin_array();
  for (const views::graph_node& n : g->nodes) {
    j.begin_object();
    function_fields(j, s, n.id);
    j.key("depth").value(static_cast<std::int64_t>(n.depth));
    j.key("self");
    costs(j, g->columns, n.self);
    j.key("inclusive");
    costs(j, g->columns, n.inclusive);
    const std::uint32_t cy = g->costs->cycle_of(n.id);
    j.key("cycle");
    cy ? j.value(static_cast<std::uint64_t>(cy)) : j.null();
    j.end_object();
  }
  j.end_array();
  j.key("edges").begin_array();
  for (const views::graph_edge& e : g->edges) {
    j.begin_object();
    j.key("from").value(static_cast<std::uint64_t>(e.from));
    j.key("to").value(static_cast<std::uint64_t>(e.to));
    j.key("count").value(e.count);
    j.key("cost");
    costs(j, g->columns, e.cost);
    j.end_object();
  }
  j.end_array();
  j.key("totals");
  costs_of_row(j, g->columns, g->costs->totals());
  if (g->filtered) filter_fields(j, g->columns, q.filter, *g->filtered);
  j.end_object();
  return json_response(j.take());
}

response route_flame(const request& r, const views::session& s, const flame_delta* delta) {
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::flame_query q;
  static_cast<views::scope&>(q) = c;
  q.weight_event = c.sort_event;
  if (auto root = param(r, "root"); root && *root != "all") {
    std::uint32_t id = 0;
    if (auto f = parse_id(*root, s, id)) return error_response(*f);
    q.root = id;
  }
  if (auto d = param(r, "direction")) {
    if (*d == "callees")
      q.direction = path_direction::callees;
    else if (*d == "callers")
      q.direction = path_direction::callers;
    else
      return error_response(400, "bad_direction", "direction takes callees or callers");
    if (q.direction == path_direction::callers && !q.root)
      return error_response(400, "bad_direction", "direction=callers needs a root function");
  }
  if (auto f = parse_fraction_param(r, "min", q.min_share)) return error_response(*f);
  if (auto f = parse_count_param(r, "max_frames", q.max_frames, 200000)) return error_response(*f);
  if (q.max_frames == 0) q.max_frames = 1;
  if (auto v = param(r, "merge")) {
    if (*v != "yes" && *v != "no") return error_response(400, "bad_merge", "merge takes yes or no");
    q.merge = *v == "yes";
  }
  if (auto f = parse_stack_filter(r, q.filter)) return error_response(*f);
  if (auto v = param(r, "by_thread")) {
    if (*v != "1" && *v != "0")
      return error_response(400, "bad_by_thread", "by_thread takes 1 or 0");
    q.by_thread = *v == "1";
  }
  auto fl = views::flame(s, q);
  if (!fl) return error_response(400, "bad_event", fl.error().message);
  const path_tree& t = fl->tree;

  json_writer j;
  begin_envelope(j);
  event_list(j, fl->columns);
  j.key("root");
  q.root ? j.value(static_cast<std::uint64_t>(*q.root)) : j.null();
  j.key("direction").value(q.direction == path_direction::callers ? "callers" : "callees");
  j.key("event");
  fl->columns.size() ? j.value(fl->columns.columns[fl->weight_column].name) : j.null();
  j.key("min").value(q.min_share);
  j.key("max_frames").value(static_cast<std::uint64_t>(q.max_frames));
  j.key("merged").value(q.merge);
  j.key("estimated").value(t.estimated);
  // Where the tree comes from: "recorded", the stacks the file holds (an imported profile's),
  // or "call graph", the estimate's (a callgrind file's; or, with stacks_note saying why, an
  // imported profile's view the stacks cannot draw).
  j.key("stacks").value(fl->recorded ? "recorded" : "call graph");
  if (!fl->stacks_note.empty()) j.key("stacks_note").value(fl->stacks_note);
  j.key("pruned").value(static_cast<std::uint64_t>(t.pruned));
  j.key("saturated").value(t.saturated);
  j.key("unfitted").value(static_cast<std::uint64_t>(t.unfitted));
  j.key("frames").begin_object();
  j.key("count").value(static_cast<std::uint64_t>(t.frames()));
  // (by_thread: a thread's frame is -1, named in "threads")
  const bool threads = !fl->threads.empty();
  auto is_thread = [&](std::uint32_t n) { return threads && n >= fl->thread_node; };
  j.key("id").begin_array();
  for (std::uint32_t n : t.node)
    is_thread(n) ? j.value(std::int64_t{-1}) : j.value(static_cast<std::uint64_t>(n));
  j.end_array();
  j.key("parent").begin_array();
  for (std::uint32_t p : t.parent)
    p == path_tree::no_frame ? j.value(std::int64_t{-1}) : j.value(static_cast<std::uint64_t>(p));
  j.end_array();
  j.key("depth").begin_array();
  for (std::uint32_t d : t.depth) j.value(static_cast<std::uint64_t>(d));
  j.end_array();
  j.key("self");
  matrix_columns(j, fl->columns, t.self, t.frames());
  j.key("total");
  matrix_columns(j, fl->columns, t.total, t.frames());
  j.end_object();
  // Each function of the frames once.
  std::vector<std::uint32_t> ids;
  for (std::uint32_t n : t.node)
    if (!is_thread(n)) ids.push_back(n);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  j.key("functions").begin_object();
  for (std::uint32_t id : ids) {
    j.key(std::to_string(id)).begin_object();
    // (A node a transform renamed, a merged clone or a collapsed object, by its new name.)
    auto re = std::lower_bound(fl->renamed.begin(), fl->renamed.end(), id,
                               [](const auto& a, std::uint32_t b) { return a.first < b; });
    function_fields(j, s, id,
                    re != fl->renamed.end() && re->first == id ? std::string_view(re->second)
                                                               : std::string_view());
    const std::uint32_t cy = fl->costs->cycle_of(id);
    j.key("cycle");
    cy ? j.value(static_cast<std::uint64_t>(cy)) : j.null();
    if (delta) delta->write(j, id);
    j.end_object();
  }
  j.end_object();
  j.key("totals");
  costs_of_row(j, fl->columns, fl->costs->totals());
  if (fl->filtered) filter_fields(j, fl->columns, q.filter, *fl->filtered);
  if (q.by_thread) thread_fields(j, s, *fl);
  j.end_object();
  return json_response(j.take());
}

response route_coverage(const request& r, const views::session& s, std::string_view segment) {
  std::uint32_t id = 0;
  if (auto f = parse_id(segment, s, id)) return error_response(*f);
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::coverage_query q;
  static_cast<views::scope&>(q) = c;
  q.weight_event = c.sort_event;
  if (auto d = param(r, "direction")) {
    if (*d == "callees")
      q.direction = path_direction::callees;
    else if (*d == "callers")
      q.direction = path_direction::callers;
    else
      return error_response(400, "bad_direction", "direction takes callees or callers");
  }
  if (auto f = parse_fraction_param(r, "min", q.min_share)) return error_response(*f);
  list_window w;
  if (auto f = parse_window(r, w)) return error_response(*f);
  auto v = views::coverage(s, id, q);
  if (!v) return error_response(400, "bad_event", v.error().message);
  const coverage_list& l = v->list;

  json_writer j;
  begin_envelope(j);
  event_list(j, v->columns);
  j.key("function").begin_object();
  function_fields(j, s, id);
  j.end_object();
  j.key("direction").value(q.direction == path_direction::callers ? "callers" : "callees");
  j.key("event");
  v->columns.size() ? j.value(v->columns.columns[v->weight_column].name) : j.null();
  j.key("min").value(q.min_share);
  j.key("detect_cycles").value(q.detect_cycles);
  j.key("estimated").value(l.estimated);
  j.key("pruned").value(static_cast<std::uint64_t>(l.pruned));
  j.key("saturated").value(l.saturated);
  j.key("total");
  costs(j, v->columns, l.total);
  j.key("total_entries").value(static_cast<std::uint64_t>(l.entries.size()));
  window_fields(j, w);
  j.key("entries").begin_array();
  for (std::uint64_t i = w.offset; i < l.entries.size() && i - w.offset < w.limit; ++i) {
    const coverage_entry& e = l.entries[i];
    j.begin_object();
    function_fields(j, s, e.node);
    const std::uint32_t cy = e.node < s.keys() ? v->costs->cycle_of(e.node) : 0;
    j.key("cycle");
    cy ? j.value(static_cast<std::uint64_t>(cy)) : j.null();
    j.key("cost");
    costs(j, v->columns, e.cost);
    j.key("min_distance").value(static_cast<std::uint64_t>(e.min_distance));
    j.key("max_distance").value(static_cast<std::uint64_t>(e.max_distance));
    j.key("paths").value(e.paths);
    j.end_object();
  }
  j.end_array();
  j.key("totals");
  costs_of_row(j, v->columns, v->costs->totals());
  j.end_object();
  return json_response(j.take());
}

response route_source(const request& r, const views::session& s, std::string_view segment,
                      bool serve_text) {
  auto file = parse_uint(segment, UINT64_MAX);
  if (!file)
    return error_response(400, "bad_file_id",
                          "a file id is a number (a /profile `files` id), not '" +
                              std::string(segment.substr(0, 100)) + "'");
  // (The files of the source-line tables: the profile's, then any a jump alone names.)
  const std::vector<std::string>& files = s.file_names();
  if (*file >= files.size())
    return error_response(404, "no_such_file",
                          "no file has id " + std::to_string(*file) + " (ids go up to " +
                              std::to_string(files.empty() ? 0 : files.size() - 1) + ")");
  common_query c;
  if (auto f = parse_common(r, s, c)) return error_response(*f);
  views::source_query q;
  q.events = c.events;
  q.derived = c.derived;
  q.weight_event = c.sort_event;
  if (auto f = parse_fraction_param(r, "hot", q.hot_share)) return error_response(*f);
  std::optional<std::uint32_t> function;
  if (auto fn = param(r, "function")) {
    std::uint32_t id = 0;
    if (auto f = parse_id(*fn, s, id)) return error_response(*f);
    function = id;
  }
  // A line's calls: the max_calls of highest cost, and the count and cost of the rest.
  std::size_t max_calls = 100;
  if (auto f = parse_count_param(r, "max_calls", max_calls, 5000)) return error_response(*f);
  const std::string& name = files[*file];
  // (`???` and `php:internal` gather every function without a file: their line 0 holds every
  // call those make, 419,964 in the real 260 MB clang profile, which is no one function's
  // source; the page shows only the note. None of their lines are sent.)
  const bool no_file = names_no_file(name);
  q.with_lines = !no_file;
  // One part of several chosen (parts=N): its lines alone, read again for it (views/source.h).
  if (c.parts.size() == 1 && s.p.parts.size() > 1) q.part = c.parts[0];
  if (q.part && q.with_lines) {
    if (auto one = s.lines_of_part(*q.part); !one->error.empty())
      return error_response(409, "part_lines",
                            "the lines of part " + std::to_string(*q.part + 1) + ": " + one->error);
  }
  // (Lines read from the file's chunks: a file changed since it was read says so.)
  if (q.with_lines && s.lines_by_chunks())
    if (auto lines = s.lines_of_file(static_cast<std::uint32_t>(*file)); !lines)
      return error_response(409, "file_changed", lines.error().message);
  auto v = views::annotate_source(s, *file, q);
  if (!v) return error_response(400, "bad_event", v.error().message);
  source_text text;
  if (!serve_text)
    text.message = "this server shows no source text (--no-source)";
  else
    text = read_source(name, s.options);

  json_writer j;
  begin_envelope(j);
  event_list(j, v->columns);
  j.key("file_id").value(*file);
  j.key("name").value(name);
  j.key("missing").value(!text.found);
  j.key("no_file").value(no_file);
  j.key("message");
  text.found ? j.null() : j.value(text.message);
  j.key("path");
  text.found ? j.value(text.path) : j.null();
  j.key("has_costs").value(v->has_lines);
  j.key("event");
  v->columns.size() ? j.value(v->columns.columns[v->weight_column].name) : j.null();
  j.key("hot").value(q.hot_share);
  j.key("function");
  function ? j.value(static_cast<std::uint64_t>(*function)) : j.null();
  // (only with one part chosen: the lines, calls, jumps and `hot` are that part's)
  if (q.part) j.key("part").value(std::uint64_t{*q.part + 1});
  j.key("max_calls").value(static_cast<std::uint64_t>(max_calls));
  j.key("text").begin_array();
  for (const auto& line : text.lines) j.value(line);
  j.end_array();
  j.key("lines").begin_array();
  for (const views::source_line& l : v->lines) {
    j.begin_object();
    j.key("line").value(l.line);
    j.key("self");
    costs(j, v->columns, l.self);
    j.key("hot").value(l.hot);
    if (!l.calls.empty()) {
      const std::size_t shown = std::min(l.calls.size(), max_calls);
      j.key("calls").begin_array();
      for (std::size_t k = 0; k < shown; ++k) {
        const views::source_call& call = l.calls[k];
        j.begin_object();
        j.key("caller").value(static_cast<std::uint64_t>(call.caller));
        j.key("callee").begin_object();
        function_fields(j, s, call.callee);
        j.end_object();
        j.key("count").value(call.count);
        j.key("cost");
        costs(j, v->columns, call.cost);
        j.key("recursive").value(call.recursive);
        j.end_object();
      }
      j.end_array();
      if (shown < l.calls.size()) {
        // (the calls are in order of cost: those left out are the cheapest)
        std::vector<std::uint64_t> rest(v->columns.size(), 0);
        for (std::size_t k = shown; k < l.calls.size(); ++k)
          for (std::size_t e = 0; e < rest.size(); ++e) {  // (saturating)
            const std::uint64_t x = l.calls[k].cost[e];
            rest[e] = rest[e] > UINT64_MAX - x ? UINT64_MAX : rest[e] + x;
          }
        j.key("more_calls").begin_object();
        j.key("count").value(static_cast<std::uint64_t>(l.calls.size() - shown));
        j.key("cost");
        costs(j, v->columns, rest);
        j.end_object();
      }
    }
    if (!l.jumps.empty()) {
      j.key("jumps").begin_array();
      for (const views::source_jump& jm : l.jumps) {
        j.begin_object();
        j.key("target_file_id").value(static_cast<std::uint64_t>(jm.target_file));
        j.key("target_line").value(jm.target_line);
        j.key("conditional").value(jm.conditional);
        j.key("executed").value(jm.executed);
        j.key("followed").value(jm.followed);
        j.end_object();
      }
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();
  j.key("functions").begin_array();
  for (const views::source_function& f : v->functions) {
    j.begin_object();
    function_fields(j, s, f.id);
    j.key("first_line").value(f.first_line);
    j.key("last_line").value(f.last_line);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

// tui/pages.cc — the terminal viewer's screens as lines of text (tui/pages.h).
#include "pages.h"

#include <re2/re2.h>

#include <algorithm>
#include <memory>

#include "report/annotate_data.h"
#include "report/diff.h"
#include "stack_filter_regex.h"
#include "views/columns.h"
#include "views/flame.h"
#include "views/function_detail.h"
#include "views/source.h"

namespace calltree::tui {
namespace {

// The columns of one event, or an error for an unknown one.
result<views::column_set> columns_of(const views::session& s, std::size_t event) {
  const auto names = event_names(s);
  if (names.empty()) return error{"the profile has no events"};
  const std::vector<std::string> shown{names[std::min(event, names.size() - 1)]};
  return views::resolve_columns(s, shown, {});
}

std::string label(const views::session& s, std::uint32_t id) {
  std::string out(s.name(id));
  if (!s.is_cycle(id) && id < s.keys()) {
    const auto object = s.object(id);
    if (!object.empty()) {
      const auto slash = object.rfind('/');
      out += " [" +
             std::string(slash == std::string_view::npos ? object : object.substr(slash + 1)) + "]";
    }
  }
  return out;
}

}  // namespace

std::string fit(std::string_view text, std::size_t width) {
  if (text.size() <= width) return std::string(text) + std::string(width - text.size(), ' ');
  if (width == 0) return {};
  return std::string(text.substr(0, width - 1)) + "~";
}

std::string right(std::string_view text, std::size_t width) {
  if (text.size() >= width) return std::string(text);
  return std::string(width - text.size(), ' ') + std::string(text);
}

result<std::function<bool(std::string_view)>> name_filter(const std::string& regex) {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(8 << 20);
  auto re = std::make_shared<RE2>(regex, o);
  if (!re->ok()) return error{"bad regular expression: " + re->error()};
  return std::function<bool(std::string_view)>([re](std::string_view name) {
    return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re);
  });
}

std::string cost_text(std::uint64_t value, std::uint64_t total) {
  // (A profile of differences, signed_costs_here(): the cost with its sign, its share of the
  // signed total, as annotate writes them.)
  std::string out = with_thousands(value);
  char buf[32];
  const bool sign = signed_costs_here();
  const double v = sign ? static_cast<double>(as_signed(value)) : static_cast<double>(value);
  const double t = sign ? static_cast<double>(as_signed(total)) : static_cast<double>(total);
  out.append(buf, detail::format_percent(buf, sizeof buf, total ? 100.0 * v / t : 0));
  return out;
}

std::size_t cost_width(std::uint64_t total) {
  // (The total's text, its sign's place too in a profile of differences: a row may be of the
  // other sign, or larger than the total.)
  return std::max<std::size_t>(cost_text(total, total).size() + (signed_costs_here() ? 1 : 0), 10);
}

std::string parts_text(const views::session& s, const std::vector<std::uint32_t>& parts) {
  if (parts.size() != 1 || s.p.parts.size() <= 1) return "";
  const auto& h = s.p.parts[part_id{parts[0]}].header;
  std::string out =
      "part " + std::to_string(parts[0] + 1) + " of " + std::to_string(s.p.parts.size());
  if (h.thread) out += " (thread " + std::to_string(*h.thread) + ")";
  return out;
}

std::vector<std::string> event_names(const views::session& s) { return views::known_events(s, {}); }

result<page> list_page(const views::session& s, const list_state& state, std::size_t width,
                       std::size_t offset, std::size_t limit) {
  auto cols = columns_of(s, state.event);
  if (!cols) return cols.error();
  views::list_query q;
  q.parts = state.parts;
  q.events = {cols->columns[0].name};
  q.by = state.by;
  q.descending = state.by != views::sort_by::name;
  q.offset = offset;
  q.limit = limit;
  if (!state.filter.empty()) {
    auto match = name_filter(state.filter);
    if (!match) return match.error();
    q.filter = state.filter;
    q.match = std::move(*match);
  }
  q.group = state.group;
  q.in_group = state.in_group;
  auto list = views::list_functions(s, q);
  if (!list) return list.error();
  const views::column& c = list->columns.columns[0];
  const std::uint64_t total = c.value(list->costs->totals());
  page p;
  p.title = "Functions: " + std::to_string(list->total_rows) + " of " + std::to_string(s.ids()) +
            ", by " +
            (state.by == views::sort_by::self        ? "self"
             : state.by == views::sort_by::inclusive ? "inclusive"
             : state.by == views::sort_by::calls     ? "calls"
                                                     : "name") +
            " cost of " + c.name +
            (state.filter.empty() ? "" : ", matching /" + state.filter + "/") +
            (state.parts.empty() ? "" : ", " + parts_text(s, state.parts));
  // (Every row's costs at one width: the widest of the program total's.)
  const std::size_t w = cost_width(total);
  p.header = right("Inclusive", w) + "  " + right("Self", w) + "  " + right("Called", 9) + "  " +
             "Function";
  if (state.group != views::grouping::none && !state.in_group) {
    static constexpr const char* kinds[] = {"", "object", "file", "class"};
    p.title = std::to_string(list->total_groups) + " groups by " +
              kinds[static_cast<int>(state.group)] + ", by inclusive cost of " + c.name +
              (state.parts.empty() ? "" : ", " + parts_text(s, state.parts));
    p.header =
        right("Inclusive", w) + "  " + right("Self", w) + "  " + right("Functions", 9) + "  Group";
    for (const auto& g : list->groups) {
      line l;
      l.text = right(cost_text(g.inclusive[0], total), w) + "  " +
               right(cost_text(g.self[0], total), w) + "  " +
               right(detail::commify(g.functions), 9) + "  " + (g.name.empty() ? "(none)" : g.name);
      l.group = g.name;
      p.lines.push_back(std::move(l));
    }
    for (auto& l : p.lines) l.text = fit(l.text, width);
    return p;
  }
  if (state.in_group) p.title += ", in " + *state.in_group;
  p.first = std::min(offset, list->total_rows);
  p.total = list->total_rows;
  for (const auto& row : list->rows) {
    line l;
    const std::uint64_t incl = row.inclusive[0], self = row.self[0];
    l.text = right(cost_text(incl, total), w) + "  " + right(cost_text(self, total), w) + "  " +
             right(detail::commify(row.calls), 9) + "  " + label(s, row.id);
    l.function = row.id;
    p.lines.push_back(std::move(l));
  }
  if (p.total == 0) p.note = state.filter.empty() ? "No function has cost." : "No name matches.";
  for (auto& l : p.lines) l.text = fit(l.text, width);
  return p;
}

result<page> function_page(const views::session& s, std::uint32_t id, std::size_t event,
                           const std::vector<std::uint32_t>& parts, std::size_t width) {
  auto cols = columns_of(s, event);
  if (!cols) return cols.error();
  views::detail_query q;
  q.parts = parts;
  q.events = {cols->columns[0].name};
  auto d = views::describe_function(s, id, q);
  if (!d) return d.error();
  const views::column& c = d->columns.columns[0];
  const std::uint64_t total = c.value(d->costs->totals());
  page p;
  p.title = std::string(d->is_cycle ? "Cycle " : "Function ") + label(s, id) +
            (parts.empty() ? "" : ", " + parts_text(s, parts));
  const std::size_t w = cost_width(total);
  p.header = right("Inclusive", w) + "  " + right("Count", 11) + "  Function";
  auto heading = [&](std::string text) {
    line l;
    l.text = std::move(text);
    l.look = tone::heading;
    p.lines.push_back(std::move(l));
  };
  heading(c.name + ": inclusive " + cost_text(d->inclusive[0], total) + ", self " +
          cost_text(d->self[0], total) + ", called " + detail::commify(d->calls) + " times" +
          (d->file_found || d->file ? "" : ""));
  if (!d->is_cycle && id < s.keys()) {
    line where;
    where.text = "  " + std::string(s.file(id)) +
                 (d->first_line ? ":" + std::to_string(d->first_line) : std::string());
    where.look = tone::dim;
    p.lines.push_back(std::move(where));
  }
  auto calls = [&](const char* name, const std::vector<views::call_row>& rows, std::size_t all) {
    heading(std::string(name) + " (" + std::to_string(all) + ")");
    for (const auto& r : rows) {
      line l;
      l.text = right(cost_text(r.cost[0], total), w) + "  " + right(detail::commify(r.count), 11) +
               "  " + label(s, r.id) + (r.recursive ? "  (recursive)" : "");
      l.function = r.id;
      p.lines.push_back(std::move(l));
    }
    if (rows.empty()) {
      line none;
      none.text = "  (none)";
      none.look = tone::dim;
      p.lines.push_back(std::move(none));
    }
  };
  calls("Callers", d->callers, d->callers_total);
  calls("Callees", d->callees, d->callees_total);
  for (auto& l : p.lines) l.text = fit(l.text, width);
  return p;
}

result<page> source_page(const views::session& s, std::uint32_t id, std::size_t event,
                         const text_reader& read_text, std::size_t width) {
  auto cols = columns_of(s, event);
  if (!cols) return cols.error();
  if (s.is_cycle(id) || id >= s.keys()) return error{"a cycle has no source of its own"};
  views::detail_query dq;
  dq.events = {cols->columns[0].name};
  auto d = views::describe_function(s, id, dq);
  if (!d) return d.error();
  views::source_query q;
  q.events = dq.events;
  auto v = views::annotate_source(s, d->file, q);
  if (!v) return v.error();
  const views::column& c = v->columns.columns[0];
  const std::uint64_t total = c.value(d->costs->totals());
  page p;
  p.title = "Source of " + std::string(s.name(id)) + ": " +
            (d->file < s.file_names().size() ? s.file_names()[d->file] : std::string("?"));
  const std::size_t w = cost_width(total);
  p.header = right(c.name, w) + "  " + right("Line", 6) + "  Source";
  if (!v->has_lines) {
    p.note = "This file's lines were not found while reading (see -I and --source-root).";
    return p;
  }
  const auto& files = s.file_names();
  std::string why_not;
  const std::vector<std::string> text =
      d->file < files.size() ? read_text(files[d->file], why_not) : std::vector<std::string>{};
  if (text.empty()) p.note = why_not;
  // Every line of the text, and those with cost beyond its end.
  std::uint64_t last = text.size();
  for (const auto& l : v->lines) last = std::max(last, l.line);
  auto at = v->lines.begin();
  for (std::uint64_t n = 0; n <= last; ++n) {
    while (at != v->lines.end() && at->line < n) ++at;
    const views::source_line* cost = at != v->lines.end() && at->line == n ? &*at : nullptr;
    if (n == 0 && !cost) continue;
    line l;
    const std::uint64_t self = cost ? cost->self[0] : 0;
    l.text = right(cost && self ? cost_text(self, total) : std::string(cost ? "." : ""), w) + "  " +
             right(n ? std::to_string(n) : std::string("-"), 6) + "  " +
             (n == 0             ? std::string("(no line)")
              : n <= text.size() ? text[n - 1]
                                 : std::string());
    l.look = cost && cost->hot ? tone::hot : cost ? tone::plain : tone::dim;
    l.source_line = n;
    p.lines.push_back(std::move(l));
    if (cost)
      for (const auto& call : cost->calls) {
        line cl;
        cl.text = right(cost_text(call.cost[0], total), w) + "  " + std::string(6, ' ') +
                  "    -> " + label(s, call.callee) + " (" + detail::commify(call.count) +
                  (call.count == 1 ? " call)" : " calls)");
        cl.function = call.callee;
        cl.look = tone::dim;
        p.lines.push_back(std::move(cl));
      }
  }
  for (auto& l : p.lines) l.text = fit(l.text, width);
  return p;
}

result<tree_state> tree_of(const views::session& s, std::size_t event,
                           const std::vector<std::uint32_t>& parts, const tree_filters& filters) {
  auto cols = columns_of(s, event);
  if (!cols) return cols.error();
  views::flame_query q;
  q.parts = parts;
  q.events = {cols->columns[0].name};
  if (filters.any()) {
    // (Each name exactly: ^name$ quoted, several as alternatives.)
    auto names = [](const std::vector<std::string>& of) -> std::optional<std::string> {
      if (of.empty()) return std::nullopt;
      std::string re;
      for (const auto& n : of) re += (re.empty() ? "^" : "|^") + RE2::QuoteMeta(n) + "$";
      return re;
    };
    server::stack_filter_text text;
    text.focus = names(filters.focus);
    text.ignore = names(filters.ignore);
    text.hide = names(filters.hide);
    text.merge_clones = filters.merge_clones;
    if (filters.collapse_recursion) text.collapse_recursion = "";
    auto compiled = server::compile_stack_filter(text, {"focus", "ignore", "hide", "show"});
    if (!compiled) return compiled.error();
    q.filter = std::move(*compiled);
  }
  auto f = views::flame(s, q);
  if (!f) return f.error();
  tree_state t;
  t.event = event;
  t.parts = parts;
  t.filters = filters;
  t.filter_text = q.filter.text;
  t.renamed = f->renamed;
  t.total = f->columns.columns[0].value(f->costs->totals());
  t.tree = std::move(f->tree);
  t.open.assign(t.tree.frames(), 0);
  // The roots open.
  for (std::uint32_t x = 0; x < t.tree.frames(); ++x)
    if (t.tree.parent[x] == path_tree::no_frame) t.open[x] = 1;
  return t;
}

page tree_page(const views::session& s, const tree_state& t, std::size_t width) {
  page p;
  const auto names = event_names(s);
  const std::string event = names.empty() ? "" : names[std::min(t.event, names.size() - 1)];
  const std::uint64_t total = t.total;
  p.title = "Call tree of " + event + " (the flame graph's estimate)" +
            (t.parts.empty() ? "" : ", " + parts_text(s, t.parts)) +
            (t.filter_text.empty() ? "" : ", " + t.filter_text);
  const std::size_t w = cost_width(total);
  p.header = right("Inclusive", w) + "  " + right("Self", w) + "  Function";
  auto name_of = [&](std::uint32_t node) {
    for (const auto& [n, name] : t.renamed)
      if (n == node) return name;
    return label(s, node);
  };
  // Preorder: a frame is shown when its parent is shown and open.
  std::vector<char> shown(t.tree.frames(), 0);
  for (std::uint32_t x = 0; x < t.tree.frames(); ++x) {
    const auto parent = t.tree.parent[x];
    shown[x] = parent == path_tree::no_frame || (shown[parent] && t.open[parent]);
    if (!shown[x]) continue;
    const bool leaf = x + 1 >= t.tree.frames() || t.tree.parent[x + 1] != x;
    line l;
    l.text = right(cost_text(t.tree.total.row(x)[0], total), w) + "  " +
             right(cost_text(t.tree.self.row(x)[0], total), w) + "  " +
             std::string(2 * t.tree.depth[x], ' ') +
             (leaf        ? "  "
              : t.open[x] ? "- "
                          : "+ ") +
             name_of(t.tree.node[x]);
    l.frame = x;
    l.function = t.tree.node[x];
    p.lines.push_back(std::move(l));
  }
  for (auto& l : p.lines) l.text = fit(l.text, width);
  return p;
}

}  // namespace calltree::tui

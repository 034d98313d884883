// server/routes_folder.cc — GET /api/v1/folder: the table of `calltree serve DIR`
// (docs/serve.md). Each row is what the file's first block says (views/header_read.h), and
// the total of a profile larger than that block from the run store (run_store.h: the
// index); a profile is read whole for its views only when it is opened (/api/v1/f/ID/...).
#include "api_impl.h"
#include "folder.h"

namespace calltree::server::detail {

namespace {

std::string_view total_from(row_total_from f) {
  switch (f) {
    case row_total_from::opened:
    case row_total_from::read:
      return "read";
    case row_total_from::index:
      return "index";
    case row_total_from::summary:
      return "summary";
  }
  return "unknown";
}

void row(json_writer& j, const folder_entry& e) {
  const views::header_facts& h = e.facts;
  j.begin_object();
  j.key("id").value(e.id);
  j.key("name").value(e.name);
  j.key("size").value(e.size);
  j.key("mtime_ms")
      .value(static_cast<std::uint64_t>(std::max<std::int64_t>(0, e.mtime_ns)) / 1000000);
  j.key("headed").value(e.headed);
  j.key("problem");
  e.headed && !h.problem.empty() ? j.value(h.problem) : j.null();
  j.key("producer").value(h.creator);
  j.key("cmd").value(h.cmd);
  j.key("events").begin_array();
  for (const auto& ev : h.events) j.value(ev);
  j.end_array();
  j.key("compression").value(to_string(h.kind));
  // What was read of it for the table: all of it (a file smaller than one block, or a profile
  // opened since: its parts and total are then the page's) or its header.
  j.key("read").value(e.opened || (e.headed && h.whole) ? "whole"
                      : !e.headed                       ? "nothing"
                                                        : "header");
  j.key("parts");
  if (e.opened)
    j.value(e.opened_parts);
  else
    e.headed&& h.whole&& h.parts ? j.value(h.parts) : j.null();
  j.key("total");
  // (One figure, calltree/totals.h's, before and after the file is opened: folder.h.)
  if (const auto t = row_total(e)) {
    j.begin_object();
    j.key("event").value(t->from == row_total_from::opened ? e.opened_event : h.events.front());
    j.key("value");
    cost(j, t->value);
    j.key("from").value(total_from(t->from));
    j.end_object();
  } else {
    j.null();
  }
  j.key("errors").value(h.errors);
  j.end_object();
}

}  // namespace

response route_folder(const request& r, folder& f) {
  folder_query q;
  list_window w;
  if (auto fail = parse_window(r, w)) return error_response(*fail);
  q.offset = w.offset;
  q.limit = w.limit;
  if (auto by = param(r, "by")) {
    static constexpr std::pair<std::string_view, folder_column> names[] = {
        {"name", folder_column::name},  {"producer", folder_column::producer},
        {"cmd", folder_column::cmd},    {"time", folder_column::time},
        {"size", folder_column::size},  {"parts", folder_column::parts},
        {"total", folder_column::total}};
    bool known = false;
    for (const auto& [n, c] : names)
      if (*by == n) {
        q.by = c;
        known = true;
      }
    if (!known)
      return error_response(400, "bad_by",
                            "by takes name, producer, cmd, time, size, parts or total");
  }
  q.descending =
      q.by != folder_column::name && q.by != folder_column::producer && q.by != folder_column::cmd;
  if (auto dir = param(r, "dir")) {
    if (*dir != "asc" && *dir != "desc")
      return error_response(400, "bad_dir", "dir takes asc or desc");
    q.descending = *dir == "desc";
  }
  std::shared_ptr<const RE2> re;
  if (auto text = param(r, "filter"); text && !text->empty()) {
    if (auto fail = compile_filter(*text, re)) return error_response(*fail);
    // The name, the creator: or the cmd: (those known once the header is read).
    q.match = [re](const folder_entry& e) {
      auto hit = [&](const std::string& s) {
        return RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re);
      };
      return hit(e.name) || (e.headed && (hit(e.facts.creator) || hit(e.facts.cmd)));
    };
  }
  if (auto scan = param(r, "rescan"); scan && *scan == "1") f.rescan();
  const folder_page page = f.query(q);
  json_writer j;
  begin_envelope(j);
  j.key("dir").value(f.dir());
  j.key("listed").value(page.listed);
  j.key("matched").value(page.matched);
  j.key("pending").value(page.pending);
  j.key("scans").value(page.scans);
  window_fields(j, w);
  j.key("rows").begin_array();
  for (const auto& e : page.rows) row(j, e);
  j.end_array();
  j.end_object();
  return json_response(j.take());
}

}  // namespace calltree::server::detail

// server/api_common.cc — what the API's routes share (api_impl.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "api_impl.h"
#include "views/part_costs.h"

namespace calltree::server::detail {

response error_response(int status, std::string_view code, std::string_view message) {
  json_writer j;
  j.begin_object();
  j.key("error").begin_object();
  j.key("status").value(status);
  j.key("code").value(code);
  j.key("message").value(message);
  j.end_object();
  j.end_object();
  response r;
  r.status = status;
  r.body = j.take() + "\n";
  return r;
}

response json_response(std::string body) {
  response r;
  r.body = std::move(body);
  r.body += '\n';
  return r;
}

std::optional<std::string_view> param(const request& r, std::string_view name) {
  std::optional<std::string_view> out;
  for (const auto& [k, v] : r.params)
    if (k == name) out = v;
  return out;
}

std::vector<std::string> params(const request& r, std::string_view name) {
  std::vector<std::string> out;
  for (const auto& [k, v] : r.params)
    if (k == name) out.push_back(v);
  return out;
}

std::optional<std::uint64_t> parse_uint(std::string_view text, std::uint64_t max) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v > max)
    return std::nullopt;
  return v;
}

std::optional<failure> parse_window(const request& r, list_window& w) {
  if (auto o = param(r, "offset")) {
    auto v = parse_uint(*o, UINT64_MAX);
    if (!v)
      return failure{400, "bad_offset", "offset takes a number from 0 to 18446744073709551615"};
    w.offset = *v;
  }
  if (auto l = param(r, "limit")) {
    auto v = parse_uint(*l, UINT64_MAX);
    if (!v) return failure{400, "bad_limit", "limit takes a number"};
    w.capped = *v > max_limit;
    w.limit = std::min(*v, max_limit);
  }
  return std::nullopt;
}

void window_fields(json_writer& j, const list_window& w) {
  j.key("offset").value(w.offset);
  j.key("limit").value(w.limit);
  j.key("max_limit").value(max_limit);
  j.key("limit_capped").value(w.capped);
}

std::optional<double> parse_fraction(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v) || v < 0 || v > 1) return std::nullopt;
  return v;
}

void cost(json_writer& j, std::uint64_t v) {
  if ((v >> 63) && signed_costs_here()) {  // a negative cost (a file of differences)
    const std::int64_t x = as_signed(v);
    if (x > -(std::int64_t{1} << 53))
      j.value(x);
    else
      j.value(std::to_string(x));
    return;
  }
  if (v < (std::uint64_t{1} << 53))
    j.value(v);
  else
    j.value(std::to_string(v));
}

void costs(json_writer& j, const views::column_set& columns, const std::vector<std::uint64_t>& v) {
  j.begin_object();
  for (std::size_t c = 0; c < columns.size() && c < v.size(); ++c) {
    j.key(columns.columns[c].name);
    cost(j, v[c]);
  }
  j.end_object();
}

void costs_of_row(json_writer& j, const views::column_set& columns, const std::uint64_t* row) {
  j.begin_object();
  for (const auto& c : columns.columns) {
    j.key(c.name);
    cost(j, c.value(row));
  }
  j.end_object();
}

void begin_envelope(json_writer& j) {
  j.begin_object();
  j.key("schema").value("calltree-serve");
  j.key("version").value(1);
}

namespace {

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const std::size_t c = s.find(',');
    if (c != 0) out.emplace_back(s.substr(0, c));
    if (c == std::string_view::npos) break;
    s.remove_prefix(c + 1);
  }
  return out;
}

}  // namespace

std::optional<failure> parse_common(const request& r, const views::session& s, common_query& q) {
  if (auto p = param(r, "parts")) {
    auto parsed = views::parse_parts(*p, s.p.parts.size());
    if (!parsed) return failure{400, "bad_parts", parsed.error().message};
    q.parts = std::move(*parsed);
  }
  if (auto e = param(r, "events")) {
    q.events = split_commas(*e);
    if (q.events.size() > 64) return failure{400, "bad_events", "at most 64 events"};
  }
  q.derived = params(r, "derived");
  if (q.derived.size() > 16) return failure{400, "bad_derived", "at most 16 derived events"};
  for (const auto& d : q.derived)
    if (d.size() > 1000 || d.find('=') == std::string::npos)
      return failure{400, "bad_derived",
                     "derived takes NAME=FORMULA (e.g. CEst=Ir+10Bm), at most 1000 bytes"};
  if (auto e = param(r, "event")) q.sort_event = std::string(*e);
  if (auto e = param(r, "sort")) q.sort_event = std::string(*e);
  if (auto d = param(r, "detect_cycles")) {
    if (*d != "yes" && *d != "no")
      return failure{400, "bad_detect_cycles", "detect_cycles takes yes or no"};
    q.detect_cycles = *d == "yes";
  }
  return std::nullopt;
}

std::optional<failure> parse_group(const request& r, views::grouping& group,
                                   std::optional<std::string>& in_group) {
  if (auto g = param(r, "group")) {
    if (*g == "none")
      group = views::grouping::none;
    else if (*g == "object")
      group = views::grouping::object;
    else if (*g == "file")
      group = views::grouping::file;
    else if (*g == "class")
      group = views::grouping::klass;
    else
      return failure{400, "bad_group", "group takes none, object, file or class"};
  }
  if (auto g = param(r, "in_group")) {
    if (group == views::grouping::none)
      return failure{400, "bad_group", "in_group needs group=object, file or class"};
    in_group = std::string(*g);
  }
  return std::nullopt;
}

std::optional<failure> parse_id(std::string_view segment, const views::session& s,
                                std::uint32_t& id) {
  auto v = parse_uint(segment, UINT64_MAX);
  if (!v)
    return failure{400, "bad_id",
                   "a function id is a number (the `id` of a /functions row), not '" +
                       std::string(segment.substr(0, 100)) + "'"};
  if (*v >= s.ids())
    return failure{404, "no_such_function",
                   "no function or cycle has id " + std::to_string(*v) + " (ids go up to " +
                       std::to_string(s.ids() == 0 ? 0 : s.ids() - 1) + ")"};
  id = static_cast<std::uint32_t>(*v);
  return std::nullopt;
}

void function_fields(json_writer& j, const views::session& s, std::uint32_t id,
                     std::string_view name) {
  j.key("id").value(static_cast<std::uint64_t>(id));
  const bool cycle = id >= s.keys();
  j.key("kind").value(cycle ? "cycle" : "function");
  j.key("name").value(name.empty() ? s.name(id) : name);
  if (cycle) {
    j.key("file").value("");
    j.key("file_id").null();
    j.key("object").value("");
    return;
  }
  j.key("file").value(s.file(id));
  j.key("file_id").value(static_cast<std::uint64_t>(s.t.key_file[id]));
  j.key("object").value(s.object(id));
  j.key("label").value(static_cast<std::uint64_t>(s.label_of[id]));
}

}  // namespace calltree::server::detail

// mcp_lookup.cc — functions and files named by an agent (mcp_lookup.h).
#include "mcp_lookup.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace calltree::cli::mcp {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Levenshtein distance of a and b, or `limit + 1` once it is known to exceed `limit`.
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
  if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0], best = row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
      best = std::min(best, row[j]);
    }
    if (best > limit) return limit + 1;
  }
  return row[b.size()];
}

// Whether `file` (as an agent gives it) names the profile's `name`: the same, or one ends in
// the other after a '/'.
bool same_file(std::string_view given, std::string_view name) {
  auto ends = [](std::string_view s, std::string_view tail) {
    return s.size() > tail.size() && s.ends_with(tail) && s[s.size() - tail.size() - 1] == '/';
  };
  if (given.starts_with("./")) given.remove_prefix(2);
  if (name.starts_with("./")) name.remove_prefix(2);
  return given == name || ends(name, given) || ends(given, name);
}

}  // namespace

std::string closest_names(const views::session& s, const std::string& name, std::size_t n) {
  const std::string want = lower(name);
  // (containing it: the shortest first; else the nearest in spelling)
  std::vector<std::pair<std::size_t, std::string>> containing, near;
  const std::size_t limit = std::max<std::size_t>(2, want.size() / 3);
  std::set<std::string> seen;
  for (std::uint32_t id = 0; id < s.ids(); ++id) {
    const std::string_view full = s.name(id);
    if (full.size() > 4096 || !seen.insert(std::string(full)).second) continue;
    const std::string l = lower(full);
    if (!want.empty() && (l.find(want) != std::string::npos || want.find(l) != std::string::npos)) {
      containing.emplace_back(full.size(), std::string(full));
      continue;
    }
    // (the name before its parameters, for C++)
    const std::string_view base = std::string_view(l).substr(0, l.find('('));
    const std::size_t d = distance(want, base, limit);
    if (d <= limit) near.emplace_back(d, std::string(full));
  }
  std::sort(containing.begin(), containing.end());
  std::sort(near.begin(), near.end());
  std::string out;
  std::size_t listed = 0;
  for (const auto* list : {&containing, &near})
    for (const auto& [rank, candidate] : *list) {
      if (listed == n) break;
      out += (listed++ ? ", " : "") + candidate;
    }
  return out;
}

found_function find_function(const served& s, const std::string& path, const std::string& name,
                             const std::optional<std::string>& file, const std::string& event) {
  if (name.empty()) throw bad_arguments("function: argument 'name' is empty: give a name");
  if (name.size() > 4000) throw tool_failure("no function has a name that long");
  // Exactly the name, then the name with a parameter list: the API's list, heaviest first.
  json rows = json::array();
  for (const std::string& re : {std::string("^").append(RE2::QuoteMeta(name)).append("$"),
                                std::string("^").append(RE2::QuoteMeta(name)).append("\\(")}) {
    query q;
    q.add("filter", re).add("by", "inclusive").add("limit", 5000);
    if (!event.empty()) q.add("sort", event).add("events", event);
    const json list = s.ask("/api/v1/functions?" + q.str());
    rows = list["rows"];
    if (!rows.empty()) break;
  }
  if (rows.empty()) {
    const std::string close = closest_names(*s.sessions.front(), name);
    throw tool_failure("no function named '" + name + "' in " + path +
                       (close.empty() ? std::string("; top_functions lists its functions")
                                      : "; closest: " + close));
  }
  json chosen = json::array();
  if (file) {
    for (const json& r : rows)
      if (same_file(*file, r.value("file", ""))) chosen.push_back(r);
    if (chosen.empty()) {
      std::string files;
      for (const json& r : rows) files += (files.empty() ? "" : ", ") + r.value("file", "");
      throw tool_failure("no function named '" + name + "' in the file '" + *file +
                         "'; that name is in: " + files);
    }
  } else {
    chosen = rows;
  }
  found_function f;
  f.id = chosen[0]["id"].get<std::uint64_t>();
  for (const json& r : rows)
    if (r["id"] != chosen[0]["id"])
      f.others.push_back(
          {{"name", r["name"]}, {"file", r.value("file", "")}, {"object", r.value("object", "")}});
  return f;
}

std::uint64_t find_file(const served& s, const std::string& file) {
  const json profile = s.ask("/api/v1/profile");
  std::vector<std::uint64_t> ids;
  for (const json& f : profile["files"])
    if (f["name"].get<std::string>() == file) return f["id"].get<std::uint64_t>();
  for (const json& f : profile["files"])
    if (same_file(file, f["name"].get<std::string>())) ids.push_back(f["id"].get<std::uint64_t>());
  if (ids.size() == 1) return ids[0];
  std::string names;
  std::size_t listed = 0;
  const std::string base = lower(file.substr(file.rfind('/') + 1));
  for (const json& f : profile["files"]) {
    const std::string n = f["name"];
    const bool matched =
        ids.empty() ? lower(n).find(base) != std::string::npos
                    : std::find(ids.begin(), ids.end(), f["id"].get<std::uint64_t>()) != ids.end();
    if (matched && listed++ < 8) names += (names.empty() ? "" : ", ") + n;
  }
  if (!ids.empty())
    throw tool_failure("several source files end in '" + file + "': " + names +
                       "; give more of the path");
  throw tool_failure("the profile names no source file '" + file + "'" +
                     (names.empty() ? std::string("; summary counts its files, top_functions "
                                                  "shows each function's")
                                    : "; closest: " + names));
}

}  // namespace calltree::cli::mcp

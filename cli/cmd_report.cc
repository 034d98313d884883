// cmd_report.cc — `calltree report --html FILE -o report.html`: serve's page as one file.
//
// The page of `calltree serve` (the front end embedded in this binary) with the answers its
// views need written into it, so that it opens from disk, with no server, for CI artifacts
// and e-mail. The answers are the serve API's own (server/api.h, asked in-process, no socket):
// the profile, the function list cut at a threshold of inclusive cost (the page says which),
// each listed function's callers and callees, the flame graph of the program, and the source
// of the listed functions' files (each at most 1 MB, 8 MB in all). Written to a temporary
// file, renamed when complete. docs/serve.md, "calltree report --html".

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "api.h"
#include "args.h"
#include "assets.h"
#include "command.h"
#include "output_file.h"
#include "progress.h"
#include "views/session.h"

namespace calltree::cli {
namespace {

constexpr flag report_flags[] = {
    {"html", 0, false, "write the report as one self-contained HTML file (the only format)"},
    {"output", 'o', true, "the file to write", "FILE"},
    {"threshold", 0, true,
     "list the functions whose inclusive cost is at least PCT percent of the total [0.1]", "PCT"},
    {"event", 0, true, "the event the threshold measures [the first]", "NAME"},
    {"include", 'I', true, "look for source files in DIR too (repeatable)", "DIR"},
    {"source-root", 0, true, "look for sources under NEW where the profile says OLD (repeatable)",
     "OLD=NEW"},
    {"no-source", 0, false, "embed no source text (costs per line are still shown)"},
    {"help", 'h', false, "show this help"},
};

constexpr std::string_view report_usage = "--html [OPTIONS] FILE -o FILE.html";
constexpr std::string_view report_summary =
    "Writes the page of 'calltree serve' as one HTML file with the profile's data\n"
    "in it: it opens from disk with no server (for CI artifacts and e-mail). The\n"
    "function list holds the functions above a threshold of inclusive cost (the\n"
    "page says which), with their callers, callees and source, and the flame\n"
    "graph; the call graph and per-function maps need 'calltree serve'.\n"
    "Exit status: 0 written, 1 the profile cannot be read, 2 usage or I/O errors.";

constexpr std::size_t max_source = 1 << 20;    // bytes of one file's answer
constexpr std::size_t max_sources = 8u << 20;  // bytes of all of them
constexpr std::size_t max_functions = 20000;   // rows listed, whatever the threshold

// `</` may not appear inside a <script> element: JSON allows `<\/` for it.
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + 64);
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out.push_back(json[i]);
    }
  }
  return out;
}

// The asset a tag of index.html names (`src="./assets/x.js"`), or nullptr.
const server::asset* named_asset(const std::string& html, std::size_t tag, const char* attr) {
  const std::size_t end = html.find('>', tag);
  std::size_t a = html.find(attr, tag);
  if (a == std::string::npos || a > end) return nullptr;
  a += std::string_view(attr).size();
  const std::size_t q = html.find('"', a);
  if (q == std::string::npos) return nullptr;
  std::string path = html.substr(a, q - a);
  if (path.compare(0, 2, "./") == 0) path.erase(0, 1);
  return server::find_asset(path);
}

// index.html with its script and stylesheet written into it, and the data before them.
std::optional<std::string> inline_page(const std::string& data_json, std::string& err) {
  const server::asset* index = server::find_asset("/index.html");
  if (!index) {
    err = "this calltree was built without its web front end (-DCALLTREE_WEB=OFF)";
    return std::nullopt;
  }
  std::string html(index->data);
  std::string out;
  std::size_t pos = 0;
  bool script = false;
  while (true) {
    const std::size_t s = html.find("<script type=\"module\"", pos);
    const std::size_t l = html.find("<link rel=\"stylesheet\"", pos);
    const std::size_t next = std::min(s, l);
    if (next == std::string::npos) break;
    out.append(html, pos, next - pos);
    if (next == s) {
      const server::asset* js = named_asset(html, s, "src=\"");
      const std::size_t close = html.find("</script>", s);
      if (!js || close == std::string::npos) {
        err = "the front end's index.html names a script this binary does not hold";
        return std::nullopt;
      }
      out += "<script>window.__CALLTREE_REPORT__=" + script_safe(data_json) + ";</script>\n";
      std::string code(js->data);
      for (std::size_t i = 0; (i = code.find("</script", i)) != std::string::npos; i += 2)
        code.replace(i, 2, "<\\/");
      out += "<script type=\"module\">" + code + "</script>";
      pos = close + 9;
      script = true;
    } else {
      const server::asset* css = named_asset(html, l, "href=\"");
      if (!css) {
        err = "the front end's index.html names a stylesheet this binary does not hold";
        return std::nullopt;
      }
      out += "<style>" + std::string(css->data) + "</style>";
      pos = html.find('>', l) + 1;
    }
  }
  out.append(html, pos, std::string::npos);
  if (!script) {
    err = "the front end's index.html has no module script";
    return std::nullopt;
  }
  return out;
}

int run_report(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_args(args, report_flags, err);
  if (!parsed) return usage_error("report", err);
  const parsed_args& a = *parsed;
  if (a.has("help")) {
    std::fputs(format_help("report", report_usage, report_summary, report_flags).c_str(), stdout);
    return exit_ok;
  }
  if (!a.has("html")) return usage_error("report", "give --html (the only report there is)");
  if (a.positional.size() != 1) return usage_error("report", "needs one profile");
  auto out_path = a.get("output");
  if (!out_path || out_path->empty()) return usage_error("report", "needs -o FILE.html");
  double threshold = 0.001;
  if (auto t = a.get("threshold")) {
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (t->empty() || *end != '\0' || !(v >= 0 && v <= 100))
      return usage_error("report", "--threshold takes a percentage from 0 to 100");
    threshold = v / 100;
  }

  views::load_options lo;
  for (auto dir : a.all("include")) lo.include_dirs.push_back(dir);
  for (const auto& v : a.all("source-root")) {
    auto eq = v.find('=');
    if (eq == std::string::npos) return usage_error("report", "--source-root takes OLD=NEW");
    lo.source_roots.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  }
  if (char buf[4096]; getcwd(buf, sizeof buf)) lo.cwd = std::string(buf) + "/";
  const std::string& path = a.positional[0];
  std::shared_ptr<const views::session> session;
  {
    progress_line progress(path);
    lo.progress = [&progress](const read_progress& p) { progress.update(p); };
    auto loaded = views::load_session(path, lo);
    progress.finish();
    if (!loaded) {
      std::fprintf(stderr, "calltree report: %s\n", loaded.error().message.c_str());
      return exit_findings;
    }
    session = std::move(*loaded);
  }

  server::api_options ao;
  ao.token = std::string(32, '0');
  ao.serve_sources = !a.has("no-source");
  const server::api api(ao, session);
  // One answer of the API, asked in-process; a failure is the report's failure.
  auto ask = [&](const std::string& target, nlohmann::json& j) -> bool {
    server::response r =
        api.handle_target("GET", target, "localhost:0", "Bearer " + ao.token, std::string());
    if (r.status != 200) {
      std::fprintf(stderr, "calltree report: %s: %s\n", target.c_str(), r.body.c_str());
      return false;
    }
    j = nlohmann::json::parse(r.body, nullptr, false);
    return !j.is_discarded();
  };

  nlohmann::json data = nlohmann::json::object();
  nlohmann::json profile;
  if (!ask("/api/v1/profile", profile)) return exit_usage;
  if (profile["events"].empty()) {
    std::fprintf(stderr, "calltree report: %s: the profile has no events\n", path.c_str());
    return exit_findings;
  }
  std::string event = profile["events"][0]["name"].get<std::string>();
  if (auto e = a.get("event")) {
    bool known = false;
    for (const auto& ev : profile["events"]) known |= ev["name"] == *e;
    if (!known) return usage_error("report", "--event: no event " + *e + " in " + path);
    event = *e;
  }
  auto number = [](const nlohmann::json& v) {
    return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>();
  };
  const double total = number(profile["totals"][event]);

  // The function list, heaviest inclusive first, down to the threshold.
  nlohmann::json rows = nlohmann::json::array();
  std::uint64_t total_rows = 0;
  for (std::size_t offset = 0;; offset += 5000) {
    nlohmann::json page;
    if (!ask("/api/v1/functions?by=inclusive&sort=" + event +
                 "&limit=5000&offset=" + std::to_string(offset),
             page))
      return exit_usage;
    total_rows = page["total_rows"].get<std::uint64_t>();
    bool below = false;
    for (auto& row : page["rows"]) {
      if (number(row["inclusive"][event]) < threshold * total || rows.size() >= max_functions) {
        below = true;
        break;
      }
      rows.push_back(std::move(row));
    }
    if (below || page["rows"].size() < 5000) break;
  }
  std::set<std::uint64_t> file_ids;
  for (const auto& row : rows) {
    const std::string id = std::to_string(row["id"].get<std::uint64_t>());
    nlohmann::json detail;
    if (!ask("/api/v1/function/" + id + "?limit=100&sort=" + event, detail)) return exit_usage;
    data["function/" + id] = std::move(detail);
    if (row["file_id"].is_number()) file_ids.insert(row["file_id"].get<std::uint64_t>());
  }
  std::size_t source_bytes = 0, sources_left_out = 0;
  for (std::uint64_t f : file_ids) {
    const std::string target = "/api/v1/source/" + std::to_string(f) + "?sort=" + event;
    server::response r =
        api.handle_target("GET", target, "localhost:0", "Bearer " + ao.token, std::string());
    if (r.status != 200 || r.body.size() > max_source ||
        source_bytes + r.body.size() > max_sources) {
      ++sources_left_out;
      continue;
    }
    source_bytes += r.body.size();
    data["source/" + std::to_string(f)] = nlohmann::json::parse(r.body, nullptr, false);
  }
  nlohmann::json flame;
  if (!ask("/api/v1/flame?max_frames=5000&sort=" + event +
               "&min=" + std::to_string(std::max(threshold, 0.0005)),
           flame))
    return exit_usage;
  data["flame"] = std::move(flame);
  data["functions"] = {{"rows", std::move(rows)}, {"totals", profile["totals"]}};
  profile["report"] = {{"threshold", threshold},
                       {"event", event},
                       {"functions", total_rows},
                       {"shown", data["functions"]["rows"].size()},
                       {"sources_left_out", sources_left_out}};
  data["profile"] = std::move(profile);

  auto page = inline_page(data.dump(), err);
  if (!page) {
    std::fprintf(stderr, "calltree report: %s\n", err.c_str());
    return exit_usage;
  }
  // A temporary file beside the output, renamed when complete: never half a report.
  output_file out;
  if (!out.open(*out_path, err)) {
    std::fprintf(stderr, "calltree report: %s\n", err.c_str());
    return exit_usage;
  }
  out.write(*page);
  if (!out.commit(err)) {
    std::fprintf(stderr, "calltree report: %s\n", err.c_str());
    return exit_usage;
  }
  std::fprintf(stderr, "calltree report: wrote %s (%zu bytes; %zu of %llu functions)\n",
               out_path->c_str(), page->size(), data["functions"]["rows"].size(),
               static_cast<unsigned long long>(total_rows));
  return exit_ok;
}

}  // namespace

CALLTREE_COMMAND(report, {.name = "report",
                          .summary = "write serve's page as one HTML file with the data in it",
                          .usage = report_usage,
                          .description = report_summary,
                          .flags = report_flags,
                          .run = run_report});

}  // namespace calltree::cli

// cmd_report.cc — `calltree report --html FILE -o report.html`: serve's page as one file.
//
// The page of `calltree serve` (the front end embedded in this binary, made self-contained by
// report_page.cc) with the answers its views ask for written into it, so that it opens from
// disk, with no server, for CI artifacts and e-mail. The answers are the serve API's own
// (server/api.h, asked in-process, no socket), keyed by route as the page asks them
// (web/src/api.ts, reportAnswer): the profile; the function list cut at a threshold of
// inclusive cost (the page says which), each row with its object, file and class group; the
// groups' sums; each listed function's callers and callees, call graph at the page's default
// depth and threshold, and callers' and callees' flame graphs; the program's flame graph;
// the listed functions' source files; and, for a profile of several parts, each part alone
// (its list, groups, flame graph and its functions' callers and callees). Byte budgets (below)
// keep the file small: answers are taken heaviest function first while they fit, and the
// page says how many were left out. Written to a temporary file, renamed when complete.
// With two profiles, OLD NEW, the diff page instead (report_diff.cc, with --fail-above).
// docs/serve.md, "calltree report --html".

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "api.h"
#include "assets.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "report_ask.h"
#include "report_budget.h"
#include "report_diff.h"
#include "report_page.h"
#include "viewer_options.h"
#include "views/function_list.h"
#include "views/session.h"

namespace calltree::cli {
namespace {

struct report_flags {
  bool html = false, no_source = false, help = false;
  std::optional<std::string> output, threshold, event, fail_above;
  std::vector<std::string> include, source_root;
};

constexpr auto report_table = make_flag_table<report_flags>({
    {"html", 0, &report_flags::html,
     "write the report as one self-contained HTML file (the only format)"},
    {"output", 'o', &report_flags::output, "the file to write", "FILE"},
    {"threshold", 0, &report_flags::threshold,
     "list the functions whose inclusive cost is at least PCT percent of the total [0.1]", "PCT"},
    {"event", 0, &report_flags::event,
     "the event of the threshold, call graphs and flame graphs [the first]", "NAME"},
    {"include", 'I', &report_flags::include, "look for source files in DIR too (repeatable)",
     "DIR"},
    {"source-root", 0, &report_flags::source_root,
     "look for sources under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"no-source", 0, &report_flags::no_source,
     "embed no source text (costs per line are still shown)"},
    {"fail-above", 0, &report_flags::fail_above,
     "with OLD NEW: exit 1 when the program total of EVENT (default: the first compared "
     "event) grows by more than PCT %, as calltree diff --fail-above; the verdict is at the "
     "top of the page, which is written either way",
     "PCT[:EVENT]"},
    {"help", 'h', &report_flags::help, "show this help"},
});

constexpr std::string_view report_usage =
    "--html [OPTIONS] FILE -o FILE.html | --html [OPTIONS] OLD NEW -o FILE.html";
constexpr std::string_view report_summary =
    "Writes the page of 'calltree serve' as one HTML file with the profile's data\n"
    "in it: it opens from disk with no server (for CI artifacts and e-mail). The\n"
    "function list holds the functions above a threshold of inclusive cost (the\n"
    "page says which), grouped by object, file or class as in serve, with each\n"
    "one's callers, callees, source, call graph (at callers and callees depth 2,\n"
    "calls below 0.5% hidden) and flame graphs (sandwich, callee map); the\n"
    "program's flame graph; and each part alone, for a profile of several parts.\n"
    "Byte budgets keep the file small (graphs 2 MB, flame graphs 2 MB, sources\n"
    "8 MB, parts 4 MB); what a view asks that the report does not hold (another\n"
    "depth, event or part) says so and needs 'calltree serve'.\n"
    "With two profiles, OLD NEW: the diff page of 'calltree serve OLD NEW' (the\n"
    "functions whose inclusive cost in OLD or NEW is above the threshold, with\n"
    "their change, groups, and each side's views as above), and with\n"
    "--fail-above the verdict of 'calltree diff --fail-above' at its top.\n"
    "Exit status: 0 written, 1 a profile cannot be read, or (the page written)\n"
    "--fail-above is exceeded or an input has errors, as calltree diff; 2 usage or\n"
    "I/O errors (no file).";

int run_report(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, report_table, err);
  if (!parsed) return usage_error("report", err);
  const command_line<report_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("report", report_usage, report_summary, report_table.flags).c_str(),
               stdout);
    return exit_ok;
  }
  if (!a.html) return usage_error("report", "give --html (the only report there is)");
  if (a.positional.empty() || a.positional.size() > 2)
    return usage_error("report", "needs one profile, or two (OLD NEW) for a diff");
  const auto& out_path = a.output;
  if (!out_path || out_path->empty()) return usage_error("report", "needs -o FILE.html");
  double threshold = 0.001;
  if (const auto& t = a.threshold) {
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (t->empty() || *end != '\0' || !(v >= 0 && v <= 100))
      return usage_error("report", "--threshold takes a percentage from 0 to 100");
    threshold = v / 100;
  }

  if (a.fail_above && a.positional.size() != 2)
    return usage_error("report", "--fail-above needs two profiles, OLD NEW");
  if (a.positional.size() == 2) {
    diff_report_args d;
    d.old_path = a.positional[0];
    d.new_path = a.positional[1];
    d.out_path = *out_path;
    d.threshold = threshold;
    d.event = a.event;
    d.no_source = a.no_source;
    if (const auto& v = a.fail_above) {
      std::string pct = *v;
      if (auto colon = pct.find(':'); colon != std::string::npos) {
        d.gate_event = pct.substr(colon + 1);
        pct.resize(colon);
      }
      auto limit = parse_nonnegative(pct);
      if (!limit)
        return usage_error("report", "--fail-above needs PCT or PCT:EVENT, PCT a number >= 0");
      d.gate_percent = *limit;
    }
    for (auto dir : a.include) d.include.push_back(include_dir(std::move(dir)));
    for (const auto& v : a.source_root) {
      auto root = source_root(v);
      if (!root) return usage_error("report", "--source-root takes OLD=NEW");
      d.source_roots.push_back(std::move(*root));
    }
    return write_diff_report(d);
  }
  auto viewer = viewer_options(a.include, a.source_root);
  if (!viewer) return usage_error("report", viewer.error().message);
  views::load_options lo = std::move(*viewer);
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
    if (changed_while_read((*loaded)->diagnostics, detail::read_to_end((*loaded)->stats), path,
                           (*loaded)->input_size)) {
      // (What was read is not the file's: no report is made of it.)
      print_input_changed(path);
      return exit_findings;
    }
    session = std::move(*loaded);
  }

  server::api_options ao;
  ao.token = std::string(32, '0');
  ao.serve_sources = !a.no_source;
  const server::api api(ao, session);
  // One answer of the API, asked in-process (report_ask.h).
  const report_asker asker(api, ao.token);
  auto ask_raw = [&asker](const std::string& target, std::string& body) {
    return asker.raw(target, body);
  };
  auto ask = [&asker](const std::string& target, nlohmann::json& j) {
    return asker.json(target, j);
  };
  // Answers embedded as the API wrote them (most of the report's bytes), by the route the page
  // asks them under: kept as text, never parsed and written again.
  std::map<std::string, std::string> raw;

  nlohmann::json data = nlohmann::json::object();
  nlohmann::json profile;
  if (!ask("/api/v1/profile", profile)) return exit_usage;
  if (profile["events"].empty()) {
    std::fprintf(stderr, "calltree report: %s: the profile has no events\n", path.c_str());
    return exit_findings;
  }
  std::string event = profile["events"][0]["name"].get<std::string>();
  if (const auto& e = a.event) {
    bool known = false;
    for (const auto& ev : profile["events"]) known |= ev["name"] == *e;
    if (!known) return usage_error("report", "--event: no event " + *e + " in " + path);
    event = *e;
  }
  auto number = [](const nlohmann::json& v) {
    if (v.is_null()) return 0.0;
    return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>();
  };
  const std::string sort = "&sort=" + event;

  // The function list (of all parts, or of `parts`), heaviest inclusive first, down to the
  // threshold of `total`; each row with its groups (indices into `group_names`).
  nlohmann::json group_names = nlohmann::json::array();
  std::map<std::string, std::size_t, std::less<>> group_index;
  auto name_index = [&](std::string_view name) {
    auto it = group_index.find(name);
    if (it != group_index.end()) return it->second;
    group_names.push_back(std::string(name));
    return group_index.emplace(std::string(name), group_names.size() - 1).first->second;
  };
  auto list = [&](const std::string& parts, double total, nlohmann::json& rows,
                  std::uint64_t& total_rows) -> bool {
    rows = nlohmann::json::array();
    for (std::size_t offset = 0;; offset += 5000) {
      nlohmann::json page;
      if (!ask("/api/v1/functions?by=inclusive&limit=5000&offset=" + std::to_string(offset) + sort +
                   parts,
               page))
        return false;
      total_rows = page["total_rows"].get<std::uint64_t>();
      bool below = false;
      for (auto& row : page["rows"]) {
        // (by size: a file of differences has negative costs and totals, and its list comes
        // by magnitude, as serve sorts it)
        if (std::abs(number(row["inclusive"][event])) < threshold * std::abs(total) ||
            rows.size() >= max_functions) {
          below = true;
          break;
        }
        const auto id = row["id"].get<std::uint32_t>();
        nlohmann::json g = nlohmann::json::array();
        for (auto kind : {views::grouping::object, views::grouping::file, views::grouping::klass}) {
          if (id < session->keys())  // (a cycle is in no group)
            g.push_back(name_index(views::group_name(*session, kind, id)));
          else
            g.push_back(nullptr);
        }
        row["g"] = std::move(g);
        rows.push_back(std::move(row));
      }
      if (below || page["rows"].size() < 5000) break;
    }
    return true;
  };
  // The groups of the three groupings (sums over every function, not only the listed ones).
  auto groups = [&](const std::string& parts, nlohmann::json& out) -> bool {
    for (const char* kind : {"object", "file", "class"}) {
      nlohmann::json g;
      if (!ask(std::string("/api/v1/functions?by=inclusive&limit=0&group=") + kind + sort + parts,
               g))
        return false;
      out[kind] = {{"groups", std::move(g["groups"])}, {"total_groups", g["total_groups"]}};
    }
    return true;
  };

  nlohmann::json rows;
  std::uint64_t total_rows = 0;
  if (!list("", number(profile["totals"][event]), rows, total_rows)) return exit_usage;
  if (!groups("", data["groups"])) return exit_usage;
  std::set<std::uint64_t> file_ids;
  for (const auto& row : rows) {
    const std::string id = std::to_string(row["id"].get<std::uint64_t>());
    if (!ask_raw("/api/v1/function/" + id + "?limit=100" + sort, raw["function/" + id]))
      return exit_usage;
    if (row["file_id"].is_number()) file_ids.insert(row["file_id"].get<std::uint64_t>());
  }

  // The call graph of each listed function at the page's defaults, and its callers' and
  // callees' flame graphs (the sandwich; the callees' also draw its callee map), heaviest
  // first while they fit their budgets.
  budget graphs{max_graphs, max_graph}, flames{max_flames, max_flame},
      coverages{max_flames, max_flame};
  for (const auto& row : rows) {
    const std::string id = std::to_string(row["id"].get<std::uint64_t>());
    if (graphs.full()) {  // (none more fits: not asked)
      ++graphs.left_out;
    } else {
      std::string g;
      if (!ask_raw("/api/v1/graph/" + id + "?up=" + std::to_string(graph_depth) +
                       "&down=" + std::to_string(graph_depth) + "&min=" + graph_min + sort,
                   g))
        return exit_usage;
      if (graphs.take(g.size())) raw["graph/" + id] = std::move(g);
    }
    if (row["kind"] == "cycle") {
      // (a cycle has no flame graph of its own: the page says so as serve's answer does)
      const nlohmann::json no = {
          {"__error",
           {{"status", 400},
            {"code", "bad_root"},
            {"message", "a flame graph's root is a function, not a cycle (take a member)"}}}};
      data["flame/" + id + "/callers"] = no;
      data["flame/" + id + "/callees"] = no;
      continue;
    }
    if (flames.full()) {  // (none more fits: not asked)
      ++flames.left_out;
      continue;
    }
    std::string up, down;
    const std::string flame = "/api/v1/flame?root=" + id + "&min=" + flame_min +
                              "&max_frames=" + std::to_string(flame_frames) + sort;
    if (!ask_raw(flame + "&direction=callers", up) || !ask_raw(flame + "&direction=callees", down))
      return exit_usage;
    if (flames.take(up.size() + down.size())) {
      raw["flame/" + id + "/callers"] = std::move(up);
      raw["flame/" + id + "/callees"] = std::move(down);
    }
    // Its All Callers and All Callees (the coverage lists), in a budget of the flame graphs'.
    std::string all_up, all_down;
    const std::string coverage = "/api/v1/coverage/" + id + "?limit=1000" + sort;
    if (!ask_raw(coverage + "&direction=callers", all_up) ||
        !ask_raw(coverage + "&direction=callees", all_down))
      return exit_usage;
    if (coverages.take(all_up.size() + all_down.size())) {
      raw["coverage/" + id + "/callers"] = std::move(all_up);
      raw["coverage/" + id + "/callees"] = std::move(all_down);
    }
  }

  budget sources{max_sources, max_source};
  for (std::uint64_t f : file_ids) {
    const std::string target = "/api/v1/source/" + std::to_string(f) + "?sort=" + event;
    server::response r =
        api.handle_target("GET", target, "localhost:0", "Bearer " + ao.token, std::string());
    if (r.status != 200 || !sources.take(r.body.size())) continue;
    raw["source/" + std::to_string(f)] = std::move(r.body);
  }
  const std::string program_flame =
      "/api/v1/flame?max_frames=5000&min=" + std::to_string(std::max(threshold, 0.0005)) + sort;
  if (!ask_raw(program_flame, raw["flame"])) return exit_usage;

  // Each part alone (a profile of several parts): its function list at the same threshold of
  // the part's total, its groups, flame graph, and the listed functions' callers and callees,
  // the lighter parts' last while the budget lasts.
  budget parts{max_parts, max_part};
  nlohmann::json parts_shown = nlohmann::json::array();
  std::size_t part_details = 0, part_details_left_out = 0;
  const nlohmann::json& input = profile["inputs"].back();
  if (input["parts"].size() > 1) {
    for (const auto& part : input["parts"]) {
      const std::string n = std::to_string(part["index"].get<std::uint64_t>());
      const std::string q = "&parts=" + n;
      if (parts.full()) {  // (none more fits: not asked)
        ++parts.left_out;
        continue;
      }
      nlohmann::json part_rows, part_groups = nlohmann::json::object();
      std::string part_flame;
      std::uint64_t part_total_rows = 0;
      if (!list(q, number(part["totals"][event]), part_rows, part_total_rows) ||
          !groups(q, part_groups) || !ask_raw(program_flame + q, part_flame))
        return exit_usage;
      nlohmann::json answer = {{"rows", std::move(part_rows)},
                               {"totals", part["totals"]},
                               {"total_rows", part_total_rows},
                               {"groups", std::move(part_groups)}};
      if (!parts.take(answer.dump().size() + part_flame.size())) continue;
      parts_shown.push_back(part["index"]);
      for (const auto& row : answer["rows"]) {
        const std::string id = std::to_string(row["id"].get<std::uint64_t>());
        std::string detail;
        if (!ask_raw("/api/v1/function/" + id + "?limit=100" + sort + q, detail)) return exit_usage;
        if (parts.room(detail.size())) {
          raw["function/" + id + "?parts=" + n] = std::move(detail);
          ++part_details;
        } else {
          ++part_details_left_out;
        }
      }
      data["parts/" + n] = std::move(answer);
      raw["flame?parts=" + n] = std::move(part_flame);
    }
  }

  data["functions"] = {{"rows", std::move(rows)}, {"totals", profile["totals"]}};
  data["group_names"] = std::move(group_names);
  const std::size_t shown = data["functions"]["rows"].size();
  profile["report"] = {
      {"threshold", threshold},
      {"event", event},
      {"functions", total_rows},
      {"shown", shown},
      {"sources_left_out", sources.left_out},
      {"sources", sources.said()},
      {"graphs", graphs.said()},
      {"graph", {{"up", graph_depth}, {"down", graph_depth}, {"min", std::stod(graph_min)}}},
      {"flames", flames.said()},
      {"flame", {{"min", std::stod(flame_min)}, {"max_frames", flame_frames}}},
      {"parts", parts.said()},
      {"parts_shown", std::move(parts_shown)},
      {"part_details", part_details},
      {"part_details_left_out", part_details_left_out}};
  data["profile"] = std::move(profile);

  // The data object: the parsed answers, then the raw ones spliced in as members.
  const auto size = write_report(data.dump(), raw, *out_path, err);
  if (!size) {
    std::fprintf(stderr, "calltree report: %s\n", err.c_str());
    return exit_usage;
  }
  std::fprintf(stderr, "calltree report: wrote %s (%zu bytes; %zu of %llu functions)\n",
               out_path->c_str(), *size, shown, static_cast<unsigned long long>(total_rows));
  return exit_ok;
}

}  // namespace

CALLTREE_COMMAND(report, {.name = "report",
                          .summary = "write serve's page as one HTML file with the data in it",
                          .usage = report_usage,
                          .description = report_summary,
                          .flags = report_table.flags,
                          .run = run_report});

}  // namespace calltree::cli

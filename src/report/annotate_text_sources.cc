// annotate_text_sources.cc — annotate's text report, its last part: the annotated source
// files (callgrind_annotate's annotate_ann_files), each line's cost and the calls made from it.
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "report/annotate_data.h"
#include "report/annotate_text_printer.h"
#include "views/tables.h"

namespace calltree::detail::text {

namespace {

bool read_lines(const std::string& path, std::vector<std::string>& lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return false;
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t nl = all.find('\n', pos);
    std::size_t end = nl == std::string::npos ? all.size() : nl + 1;
    lines.push_back(all.substr(pos, end - pos));
    pos = end;
  }
  return true;
}

std::int64_t mtime_of(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<std::int64_t>(st.st_mtime);
}
}  // namespace

status print_source_files(printer& pr, const part* first, const std::vector<std::string>& users,
                          const std::vector<std::string>& threshold_files) {
  const annotate_data& d = pr.d;
  const annotate_options& o = pr.o;
  std::string& out = pr.out;
  std::vector<std::string> files;  // user files first (command-line order), then auto ones
  std::set<std::string> user_set(users.begin(), users.end());
  for (const auto& f : users) files.push_back(f);
  if (o.auto_annotate)
    for (const auto& f : threshold_files)
      if (f != "???" && !user_set.count(f)) files.push_back(f);

  std::vector<std::string> dirs{""};
  for (const auto& dir : o.include_dirs) dirs.push_back(dir + "/");
  std::vector<std::string> unfound;
  std::vector<std::uint64_t> printed_v(d.columns.size(), 0);
  std::vector<char> printed_d(d.columns.size(), 0);
  bool did_annotations = false;
  std::unordered_map<std::string, std::uint32_t> file_index;
  if (!files.empty())
    for (std::uint32_t i = 0; i < d.files.size(); ++i) file_index.emplace(d.files[i], i);

  bool sampled = false;
  if (first)
    for (const auto& [type, value] : first->header.descriptions)
      if (type == "Call counts" && value.starts_with("samples")) sampled = true;
  for (const std::string& src : files) {
    std::string opened, full;
    std::vector<std::string> lines;
    views::look_for_source(src, o.include_dirs, o.source_roots,
                           [&](const std::string& path, const std::string& named) {
                             lines.clear();
                             if (!views::regular_file(path) || !read_lines(path, lines))
                               return false;
                             opened = path;
                             full = named;
                             return true;
                           });
    const bool is_user = user_set.count(src) > 0;
    if (opened.empty()) {
      if (is_user)
        return error{"File " + src + " not opened in any of: " + [&] {
          std::string s;
          for (std::size_t i = 0; i < dirs.size(); ++i) s += (i ? " " : "") + dirs[i];
          return s;
        }()};
      // (A sampling profiler's frames of no file (folded stacks, perf, V8, pprof: its part says
      // its call counts are samples) are frames without source, not a file that could not be
      // found; callgrind_annotate's "  " line is kept for callgrind's own `fl=` of no name.)
      if (src.empty() && sampled) continue;
      unfound.push_back(src);
      continue;
    }
    out += fancy;
    out += std::string("-- ") + (is_user ? "User" : "Auto") + "-annotated source: " + full + "\n";
    out += fancy;
    auto fit = file_index.find(src);
    if (fit == file_index.end()) {
      out += "  No information has been collected for " + src + "\n\n";
      continue;
    }
    did_annotations = true;
    const auto& line_map = d.file_lines[fit->second];
    std::vector<std::uint64_t> line_nums;
    for (const auto& [ln, r] : line_map) line_nums.push_back(ln);

    bool more_recent = false;
    std::int64_t src_mtime = mtime_of(opened);
    if (o.input_mtime != 0 && src_mtime > o.input_mtime) {
      more_recent = true;
      out +=
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@ Source file '" +
          src + "' is more recent than input file '" + o.input_name +
          "'.\n"
          "@ Annotations may not be correct.\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "\n";
    }
    std::vector<cc_view> file_ccs;
    for (const auto& [ln, r] : line_map) file_ccs.push_back(view(d.line_cc, r));
    auto w = pr.widths(file_ccs);
    pr.print_events(w);
    out += "\n\n";

    if (!line_nums.empty() && line_nums[0] == 0) line_nums.erase(line_nums.begin());
    // Interesting ranges: lines with a cost and `context` lines around them.
    std::vector<std::int64_t> pairs;
    const auto ctx = static_cast<std::int64_t>(o.context);
    for (std::size_t i = 0; i < line_nums.size(); ++i) {
      pairs.push_back(static_cast<std::int64_t>(line_nums[i]) - ctx);
      while (i + 1 < line_nums.size() && static_cast<std::int64_t>(line_nums[i]) + 2 * ctx >=
                                             static_cast<std::int64_t>(line_nums[i + 1]))
        ++i;
      pairs.push_back(static_cast<std::int64_t>(line_nums[i]) + ctx);
    }
    if (!pairs.empty() && pairs[0] < 1) pairs[0] = 1;
    std::size_t next_num = 0;  // index into line_nums
    std::int64_t cur = 0;      // lines read ($.)
    std::size_t li = 0;        // next line to read
    auto read = [&](std::string& s) {
      if (li >= lines.size()) return false;
      s = lines[li++];
      ++cur;
      return true;
    };
    for (std::size_t pi = 0; pi + 1 < pairs.size(); pi += 2) {
      std::int64_t low = pairs[pi];
      std::int64_t high = pairs[pi + 1];
      std::string tmp;
      while (cur < low - 1)
        if (!read(tmp)) break;
      if (low != 1) out += "-- line " + std::to_string(low) + " " + std::string(40, '-') + "\n";
      std::string src_line;
      bool got = false;
      while (cur < high && (got = read(src_line))) {
        const auto ln = static_cast<std::uint64_t>(cur);
        if (next_num < line_nums.size() && ln == line_nums[next_num]) {
          std::uint32_t r = line_map.at(ln);
          pr.print_cc(view(d.line_cc, r), w);
          for (std::size_t c = 0; c < d.columns.size(); ++c)
            if (d.line_cc.defined(r)[c]) {
              add_saturating(printed_v[c], d.line_cc.values(r)[c]);
              printed_d[c] = 1;
            }
          ++next_num;
        } else {
          pr.print_cc({}, w);
        }
        out += " " + src_line;
        if (const detail::ann_site* site = d.find_site(fit->second, ln)) {
          const std::uint32_t func = site->func;
          auto site_list = d.site_callees[static_cast<std::size_t>(site - d.sites.data())];
          std::vector<std::uint32_t> calleds(site_list.begin(), site_list.end());
          auto pair_cc = [&](std::uint32_t callee) -> cc_view {
            for (std::uint32_t ci : d.callees_of[func])
              if (d.calls[ci].callee == callee) return view(d.call_cc, ci);
            return {};
          };
          std::stable_sort(calleds.begin(), calleds.end(), [&](std::uint32_t a, std::uint32_t b) {
            int c = pr.cmp(pair_cc(a), pair_cc(b));
            if (c != 0) return c < 0;
            return d.compare_key_names(a, b) < 0;
          });
          for (std::uint32_t callee : calleds) {
            const std::uint32_t cli = d.find_call_line(func, callee, ln);
            if (cli == UINT32_MAX) continue;
            const auto& cl = d.call_lines[cli];
            pr.print_cc(view(d.call_line_cc, cli), w);
            out += " => " + d.key_name(callee) + " (" + commify(cl.count) + "x)\n";
          }
          d.forget_names();
        }
        got = got && !src_line.empty() && src_line != "0";
      }
      if (got) {
        out += "-- line " + std::to_string(high) + " " + std::string(40, '-') + "\n";
      } else {
        break;
      }
    }
    if (next_num < line_nums.size()) {
      for (std::size_t i = next_num; i < line_nums.size(); ++i) {
        pr.print_cc(view(d.line_cc, line_map.at(line_nums[i])), w);
        out += " <bogus line " + std::to_string(line_nums[i]) + ">\n";
      }
      out += "\n";
      std::string cause;
      if (more_recent) {
        cause = "@@ cause:    '" + src +
                "' has changed since information was gathered.\n"
                "@@           If so, a warning will have already been issued about this.\n"
                "@@ solution: Recompile program and rerun under \"valgrind --cachesim=yes\" to \n"
                "@@           gather new information.\n";
      } else if (src.size() >= 2 && src.compare(src.size() - 2, 2, ".h") == 0) {
        cause =
            "@@ cause:    bug in the Valgrind's debug info reader that screws up with .h\n"
            "@@           files sometimes\n"
            "@@ solution: none, sorry\n";
      } else {
        cause = "@@ cause:    not sure, sorry\n";
      }
      out +=
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
          "@@\n"
          "@@ Information recorded about lines past the end of '" +
          src +
          "'.\n"
          "@@\n"
          "@@ Probable cause and solution:\n" +
          cause +
          "@@\n"
          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n";
    }
    out += "\n";
    if (auto z = line_map.find(0); z != line_map.end()) {
      pr.print_cc(view(d.line_cc, z->second), w);
      out += " <counts for unidentified lines in " + src + ">\n\n";
    }
  }

  if (!unfound.empty()) {
    std::sort(unfound.begin(), unfound.end());
    out += fancy;
    out += "The following files chosen for auto-annotation could not be found:\n";
    out += fancy;
    for (const auto& f : unfound) out += "  " + f + "\n";
    out += "\n";
  }

  if (did_annotations) {
    for (std::size_t i = 0; i < d.columns.size(); ++i) {
      std::uint64_t s = pr.summary_d[i] ? pr.summary_v[i] : 0;
      if (s == 0 || printed_v[i] > s) {
        pr.summary_v[i] = printed_v[i];
        pr.summary_d[i] = printed_d[i];
      }
    }
    cc_view printed{printed_v.data(), printed_d.data()};
    auto w = pr.widths({printed});
    out += fancy;
    pr.print_events(w);
    out += "\n";
    out += fancy;
    pr.print_cc(printed, w);
    out += " events annotated\n\n";
  }
  return ok();
}

}  // namespace calltree::detail::text

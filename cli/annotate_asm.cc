// annotate_asm.cc — `calltree annotate --asm`: the profile read again for the chosen
// functions' instructions, objdump run on their objects, and their annotated machine code.
//
// Why a second reading: the report reads the profile summed (per function or per line: fast,
// small); instruction rows of every function of a large profile would take gigabytes (the real
// 260 MB profile: 1.25 GB and 7 s as a whole model). The second reading keeps the records of
// the chosen functions' names only (function_filter) and builds a small model of them.
#include "annotate_asm.h"

#include <regex.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <unordered_set>

#include "asm/read_any_functions.h"
#include "calltree/asm.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "command.h"
#include "memory_option.h"
#include "objdump_runner.h"
#include "views/annotate_direct.h"

namespace calltree::cli {

namespace {

// Source lines for the headers between instructions, looked for as the report looks for
// sources: the name as given (relative to the current directory), under each -I directory,
// and under a --source-root rewrite.
class source_lines {
 public:
  explicit source_lines(const annotate_options& o) : o_(o) {}
  std::optional<std::string> line(std::string_view file, std::uint64_t n) {
    auto it = files_.find(std::string(file));
    if (it == files_.end()) it = files_.emplace(std::string(file), load(std::string(file))).first;
    if (n == 0 || n > it->second.size()) return std::nullopt;
    return it->second[n - 1];
  }

 private:
  std::vector<std::string> load(const std::string& file) {
    std::vector<std::string> candidates{file};
    for (const auto& d : o_.include_dirs) candidates.push_back(d + "/" + file);
    for (const auto& [old_root, new_root] : o_.source_roots)
      if (file.starts_with(old_root)) candidates.push_back(new_root + file.substr(old_root.size()));
    for (const auto& c : candidates) {
      if (!is_file(c)) continue;
      std::ifstream in(c, std::ios::binary);
      std::vector<std::string> lines;
      for (std::string l; std::getline(in, l);) lines.push_back(std::move(l));
      return lines;
    }
    return {};
  }
  const annotate_options& o_;
  std::map<std::string, std::vector<std::string>> files_;
};

// Counts the reading's diagnostics only: the report's reading showed them already.
class silent_diagnostics final : public diagnostic_sink {
 public:
  void report(diagnostic) override {}
  bool wants(diag_code) const override { return false; }
  void count_only(diag_code, severity) override {}
};

}  // namespace

std::optional<asm_request> parse_asm_request(const asm_flags& args, std::string& err) {
  if (!args.asm_regex) {
    for (auto [f, given] : {std::pair{"objdump", args.objdump.has_value()},
                            {"object-root", !args.object_root.empty()},
                            {"asm-hot", args.asm_hot.has_value()}})
      if (given) {
        err = std::string("--") + f + " needs --asm";
        return std::nullopt;
      }
    return std::nullopt;
  }
  asm_request r;
  if (const auto& v = args.asm_regex; !v->empty()) r.regex = *v;
  if (const auto& v = args.objdump) {
    if (v->empty()) {
      err = "--objdump needs a program";
      return std::nullopt;
    }
    r.objdump = *v;
  }
  for (const auto& v : args.object_root) {
    auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0) {
      err = "--object-root takes OLD=NEW";
      return std::nullopt;
    }
    r.object_roots.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  }
  if (const auto& v = args.asm_hot) {
    char* end = nullptr;
    r.hot_percent = std::strtod(v->c_str(), &end);
    if (v->empty() || *end || !(r.hot_percent >= 0 && r.hot_percent <= 100)) {
      err = "--asm-hot takes a percentage from 0 to 100";
      return std::nullopt;
    }
  }
  return r;
}

int annotate_asm(const std::string& input, const annotate_options& o, const asm_request& r,
                 const std::vector<listed_function>& listed, std::string* json) {
  // Which names to keep: those the regex matches, or those the report listed.
  regex_t re;
  bool have_re = false;
  if (r.regex) {
    const int rc = regcomp(&re, r.regex->c_str(), REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
      char msg[256];
      regerror(rc, &re, msg, sizeof msg);
      std::fprintf(stderr, "calltree annotate: --asm=%s: %s\n", r.regex->c_str(), msg);
      return exit_usage;
    }
    have_re = true;
  }
  std::unique_ptr<regex_t, void (*)(regex_t*)> re_guard(have_re ? &re : nullptr, regfree);
  std::unordered_set<std::string> listed_names;
  for (const auto& f : listed) listed_names.insert(f.name);
  auto keep = [&](std::string_view name) {
    if (have_re) return regexec(&re, std::string(name).c_str(), 0, nullptr, 0) == 0;
    return listed_names.count(std::string(name)) > 0;
  };

  profile q;
  {
    auto in = open_input(input);
    if (!in) {
      std::fprintf(stderr, "calltree annotate: %s\n", in.error().message.c_str());
      return exit_usage;
    }
    silent_diagnostics diags;
    reader_options ro;
    ro.display_name = input;
    ro.max_name_bytes = memory_limit();
    ro.threads = static_cast<unsigned>(o.threads);  // (a compressed input: decoded aside)
    auto stats = detail::read_any_functions(**in, q, keep, diags, ro);
    if (!stats) {
      std::fprintf(stderr, "calltree annotate: %s\n", stats.error().message.c_str());
      return exit_usage;
    }
  }

  // The functions, in the report's order (or by self cost for a regex), each once.
  std::vector<function_id> chosen;
  if (have_re) {
    id_vector<function_id, std::uint64_t> first(q.functions.size(), 0);
    id_vector<function_id, char> has(q.functions.size(), 0);
    for (std::size_t i = 0; i < q.self_rows.size(); ++i) {
      has[q.self_rows[i].function] = 1;
      if (q.self_costs.columns()) first[q.self_rows[i].function] += q.self_costs.row(i)[0];
    }
    for (const auto& c : q.calls) has[c.caller] = 1;
    for (const auto& j : q.jumps) has[j.function] = 1;
    for (function_id f : q.functions.ids())
      if (has[f] && keep(q.strings.text(q.functions[f].name))) chosen.push_back(f);
    std::stable_sort(chosen.begin(), chosen.end(),
                     [&](function_id a, function_id b) { return first[a] > first[b]; });
  } else {
    key_functions keys(q, o.cwd);
    std::set<function_id> seen;
    for (const auto& l : listed)
      for (function_id f : keys.of(l.file, l.name, l.object))
        if (seen.insert(f).second) chosen.push_back(f);
  }

  // objdump, through the library's runner: the object looked for (--object-root first), run,
  // and noted when newer than the profile.
  std::atomic<bool> objdump_missing{false};
  objdump_runner runner =
      make_objdump_runner({r.objdump, r.object_roots, o.input_mtime}, &objdump_missing);

  asm_options ao;
  ao.events = o.show;
  ao.event_definitions = o.event_definitions;
  if (o.part) ao.parts = {*o.part};
  ao.hot_percent = r.hot_percent;
  ao.cwd = o.cwd;
  ao.jobs = static_cast<unsigned>(std::max<std::size_t>(o.threads, 1));
  auto annotator = asm_annotator::make(q, ao, runner);
  if (!annotator) {
    std::fprintf(stderr, "calltree annotate: %s\n", annotator.error().message.c_str());
    return exit_usage;
  }
  const bool has_instr = q.positions & pos_instr;
  std::string out;
  if (!json) {
    if (!has_instr && !chosen.empty()) {
      out += std::string(80, '-') + "\n-- Machine code\n" + std::string(80, '-') + "\n";
      out +=
          "  Not annotated: the profile has no instruction addresses (callgrind "
          "--dump-instr=yes writes them)\n\n";
    } else if (chosen.empty()) {
      out += std::string(80, '-') + "\n-- Machine code\n" + std::string(80, '-') + "\n";
      out += r.regex ? "  No function of the profile matches --asm=" + *r.regex + "\n\n"
                     : std::string("  No function is listed\n\n");
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  } else {
    *json = "[";
  }
  source_lines sources(o);
  asm_text_options to;
  to.show_percs = o.show_percs;
  to.source_line = [&](std::string_view file, std::uint64_t line) {
    return sources.line(file, line);
  };
  // Each view written as it comes (annotate's pieces: a long list is never held whole).
  std::size_t not_shown = 0, shown = 0;
  if (has_instr)
    annotator->annotate(chosen, [&](asm_view&& v) {
      not_shown += v.status != asm_status::ok;
      if (json) {
        if (shown++) *json += ',';
        *json += asm_json(v);
        return;
      }
      std::string t = asm_text(v, to);
      std::fwrite(t.data(), 1, t.size(), stdout);
    });
  if (json) *json += "]";
  if (!has_instr && !chosen.empty())
    std::fprintf(stderr,
                 "calltree annotate: warning: --asm: %s has no instruction addresses "
                 "(callgrind --dump-instr=yes writes them)\n",
                 input.c_str());
  if (not_shown)
    std::fprintf(stderr,
                 "calltree annotate: warning: --asm: %zu of %zu functions not annotated "
                 "(the reasons are in the report)\n",
                 not_shown, has_instr ? chosen.size() : std::size_t{0});
  if (objdump_missing) {
    std::fprintf(stderr, "calltree annotate: cannot run %s (--objdump=PATH chooses it)\n",
                 r.objdump.c_str());
    return exit_usage;
  }
  return exit_ok;
}

int annotate_asm_json(const std::string& input, const annotate_options& o, const asm_request& r,
                      std::string& json) {
  std::vector<listed_function> listed;
  if (!r.regex) {
    // The functions the text report would list: its table, made and thrown away.
    annotate_options t = o;
    t.on_function_row = [&](std::string_view file, std::string_view name, std::string_view object) {
      listed.push_back({std::string(file), std::string(name), std::string(object)});
    };
    auto in = open_input(input);
    if (!in) return exit_usage;
    profile p;
    diagnostic_collector quiet;
    annotate_direct sink(p, t);
    if (!read_callgrind(**in, p.strings, sink, quiet, {})) return exit_usage;
    if (!annotate_text_of(sink, [](std::string_view) {})) return exit_usage;
  }
  std::string views;
  const int rc = annotate_asm(input, o, r, listed, &views);
  // The report's document gains an "asm" key (docs/json.md: keys are only ever added).
  const std::size_t end = json.rfind('}');
  if (end != std::string::npos) json.insert(end, ",\"asm\":" + views);
  return rc;
}

}  // namespace calltree::cli

// cmd_annotate.cc — `calltree annotate`: callgrind_annotate's command line and report.
//
// Accepts Valgrind 3.19 callgrind_annotate's options with the same meaning and defaults
// (`--show=A,B --sort=A:pct,B --threshold=N --show-percs --auto=yes|no --context=N
// --inclusive=yes|no --tree=none|caller|calling|both -I DIR`, a profile, then source files)
// so `alias callgrind_annotate='calltree annotate'` works, plus calltree's own options.
#include <glob.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "annotate_asm.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "command.h"
#include "flag_table.h"
#include "memory_option.h"
#include "model/string_pool_access.h"
#include "progress.h"
#include "reader/read_profile.h"
#include "report/annotate.h"
#include "views/annotate_direct.h"

namespace calltree::cli {
namespace {

struct annotate_flags : asm_flags {
  std::optional<std::string> show, sort, threshold, show_percs, auto_annotate, context, inclusive,
      tree, part, threads;
  std::vector<std::string> include, source_root, event;
  bool json = false, raw = false, version = false, help = false;
};

constexpr auto annotate_table = make_flag_table<annotate_flags>({
    {"show", 0, &annotate_flags::show, "only show figures for events A,B,C [all]", "A,B,C"},
    {"sort", 0, &annotate_flags::sort,
     "sort by events A,B,C, each optionally with :PCT threshold [event order]", "A,B,C"},
    {"threshold", 0, &annotate_flags::threshold,
     "percentage of the primary sort event to show [99]", "N"},
    // (`--show-percs` alone means yes: callgrind_annotate's usage says --show-percs=yes|no.)
    {"show-percs", 0, &annotate_flags::show_percs,
     "show a percentage for each non-zero count [yes]", "yes|no", alone_means{"yes"}},
    {"auto", 0, &annotate_flags::auto_annotate,
     "annotate all source files of the functions shown [yes]", "yes|no"},
    {"context", 0, &annotate_flags::context, "lines of context around annotated lines [8]", "N"},
    {"inclusive", 0, &annotate_flags::inclusive, "show inclusive costs (cycles handled) [no]",
     "yes|no"},
    {"tree", 0, &annotate_flags::tree, "show callers, callees or both of each function [none]",
     "none|caller|calling|both"},
    {"include", 'I', &annotate_flags::include,
     "add DIR to the directories searched for source files", "DIR"},
    {"part", 0, &annotate_flags::part,
     "only part N (1-based) of a file with several parts [all, summed]", "N"},
    {"json", 0, &annotate_flags::json, "write the report as JSON (docs/json.md)"},
    {"raw", 0, &annotate_flags::raw,
     "callgrind_annotate 3.19's raw sums: inclusive cost summed over all calls (recursion "
     "counted again), calls=0 cost as self cost"},
    {"source-root", 0, &annotate_flags::source_root,
     "look for sources under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"event", 0, &annotate_flags::event,
     "define a derived event, e.g. 'CEst = Ir + 10 Bm' (repeatable)", "'NAME = FORMULA'"},
    {"threads", 0, &annotate_flags::threads,
     "threads to read with; 2 or more decode a compressed file on a thread of its own, read a "
     "plain file's chunks ahead on the others, and read the printed names back ahead of the "
     "report (the report is the same) [number of cores]",
     "N"},
    // (`--asm` alone: the functions the report lists; the next argument is not its value.)
    {"asm", 0, &annotate_flags::asm_regex,
     "after the report, the machine code of the functions whose name matches REGEX (POSIX "
     "extended; --asm alone: those the report lists) with costs, calls and jumps per "
     "instruction (docs/annotate.md, \"Machine code\")",
     "REGEX", alone_means{""}},
    {"objdump", 0, &annotate_flags::objdump,
     "the objdump --asm runs, e.g. a cross objdump [objdump]", "PATH"},
    {"object-root", 0, &annotate_flags::object_root,
     "look for object files under NEW where the profile says OLD", "OLD=NEW"},
    {"asm-hot", 0, &annotate_flags::asm_hot,
     "--asm marks instructions with PCT % of their function's cost [5]", "PCT"},
    {"version", 0, &annotate_flags::version, "show version"},
    {"help", 'h', &annotate_flags::help, "show this help"},
});

constexpr std::string_view annotate_usage = "[OPTIONS] [PROFILE [SOURCE-FILE...]]";
constexpr std::string_view annotate_summary =
    "callgrind_annotate's report, fast and right: header, PROGRAM TOTALS, the\n"
    "file:function table, caller/callee trees and annotated source, byte for byte\n"
    "in callgrind_annotate 3.19's layout. Inclusive costs handle recursion and\n"
    "cycles (<cycle N>); several parts are summed. PROFILE defaults to the first\n"
    "callgrind.out* (else cachegrind.out*) in the current directory; '-' is stdin.\n"
    "Differences from callgrind_annotate: docs/annotate.md.";

std::vector<std::string> perl_split_commas(const std::string& s) {
  // Perl's split(/,/, $s): trailing empty fields are dropped.
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (true) {
    std::size_t c = s.find(',', pos);
    out.push_back(s.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
    if (c == std::string::npos) break;
    pos = c + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

bool is_number(const std::string& s) {
  // [\d\.]+
  if (s.empty()) return false;
  for (char c : s)
    if (!(c >= '0' && c <= '9') && c != '.') return false;
  return true;
}

std::string first_match(const char* pattern) {
  glob_t g;
  std::string r;
  if (glob(pattern, 0, nullptr, &g) == 0 && g.gl_pathc > 0) r = g.gl_pathv[0];
  globfree(&g);
  return r;
}

// Counts the errors and warnings (annotate names them in one line; `calltree check` shows
// them) and keeps the few that say the report is not the whole profile (the input is binary, was
// not read to its end, was cut short, or hit --max-memory): those are printed. The reader never
// builds the text of the others.
class stderr_counter final : public diagnostic_sink {
 public:
  void report(diagnostic d) override {
    count_only(d.code, d.severity);
    if (wants(d.code)) kept.push_back(std::move(d));
  }
  bool wants(diag_code c) const override {
    return kept.size() < 10 && (c == diag_code::binary_input || c == diag_code::io_error ||
                                c == diag_code::truncated_input || c == diag_code::limit_exceeded ||
                                c == diag_code::likely_truncated || c == diag_code::no_events ||
                                c == diag_code::input_changed || c == diag_code::input_grew);
  }
  void count_only(diag_code, severity s) override {
    if (s == severity::error) ++errors;
    if (s == severity::warning) ++warnings;
  }
  void print() const {
    for (const auto& d : kept) std::fputs(format_diagnostic(d, false).c_str(), stderr);
  }
  std::uint64_t errors = 0, warnings = 0;
  std::vector<diagnostic> kept;
};

int run_annotate(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, annotate_table, err);
  if (!parsed) return usage_error("annotate", err);
  const command_line<annotate_flags>& a = *parsed;
  if (a.help) {
    std::fputs(
        format_help("annotate", annotate_usage, annotate_summary, annotate_table.flags).c_str(),
        stdout);
    return exit_ok;
  }
  if (a.version) {
    std::printf("calltree annotate %s (callgrind_annotate 3.19.0 compatible)\n", CALLTREE_VERSION);
    return exit_ok;
  }

  annotate_options o;
  o.max_memory = memory_limit();
  const bool json = a.json;
  if (a.show) o.show = perl_split_commas(*a.show);
  if (a.sort) {
    const std::string& value = *a.sort;
    bool any = false;
    for (auto s : perl_split_commas(value)) {
      std::string th = "0";
      // /.*:([\d\.]+)%?$/
      std::size_t colon = s.rfind(':');
      if (colon != std::string::npos) {
        std::string t = s.substr(colon + 1);
        if (!t.empty() && t.back() == '%') t.pop_back();
        if (is_number(t)) {
          double v = std::strtod(t.c_str(), nullptr);
          if (v < 0 || v > 100) return usage_error("annotate", "bad threshold in --sort=" + value);
          th = t;
          any = true;
          s = s.substr(0, s.find(':'));
        }
      }
      o.sort.push_back(s);
      o.sort_thresholds.push_back(th);
    }
    if (!any) o.sort_thresholds.clear();
  }
  if (a.threshold) {
    std::string t = *a.threshold;
    if (!t.empty() && t.back() == '%') t.pop_back();
    if (!is_number(t)) return usage_error("annotate", "bad --threshold=" + *a.threshold);
    double v = std::strtod(t.c_str(), nullptr);
    if (v < 0 || v > 100) return usage_error("annotate", "--threshold must be between 0 and 100");
    o.threshold = t;
  }
  for (auto [name, value, into] : {std::tuple{"show-percs", &a.show_percs, &o.show_percs},
                                   {"auto", &a.auto_annotate, &o.auto_annotate},
                                   {"inclusive", &a.inclusive, &o.inclusive}}) {
    if (!*value) continue;
    auto b = parse_yes_no(**value);
    if (!b) return usage_error("annotate", "--" + std::string(name) + " takes yes or no");
    *into = *b;
  }
  if (a.context) {
    const std::string& value = *a.context;
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
      return usage_error("annotate", "bad --context=" + value);
    o.context = std::strtoull(value.c_str(), nullptr, 10);
  }
  if (a.tree) {
    const std::string& value = *a.tree;
    if (value != "none" && value != "caller" && value != "calling" && value != "both")
      return usage_error("annotate", "--tree takes none, caller, calling or both");
    o.tree_caller = value == "caller" || value == "both";
    o.tree_calling = value == "calling" || value == "both";
  }
  for (std::string dir : a.include) {
    if (!dir.empty() && dir[0] == '=') dir.erase(0, 1);  // -I=dir, as callgrind_annotate
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
    o.include_dirs.push_back(dir);
  }
  if (a.part) {
    const std::string& value = *a.part;
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
        std::strtoull(value.c_str(), nullptr, 10) == 0)
      return usage_error("annotate", "--part takes a part number from 1");
    o.part = static_cast<part_id>(std::strtoull(value.c_str(), nullptr, 10) - 1);
  }
  o.raw = a.raw;
  for (const auto& value : a.source_root) {
    auto root = source_root(value);
    if (!root) return usage_error("annotate", "--source-root takes OLD=NEW");
    o.source_roots.push_back(std::move(*root));
  }
  o.event_definitions = a.event;

  // --asm: machine code after the report, whose source annotation is then off unless asked.
  auto asm_req = parse_asm_request(a, err);
  if (!err.empty()) return usage_error("annotate", err);
  std::vector<listed_function> listed;
  if (asm_req && !a.auto_annotate) o.auto_annotate = false;
  if (asm_req && !asm_req->regex)
    o.on_function_row = [&](std::string_view f, std::string_view n, std::string_view ob) {
      listed.push_back({std::string(f), std::string(n), std::string(ob)});
    };

  std::string input;
  bool defaulted = false;
  if (!a.positional.empty()) {
    input = a.positional[0];
    std::vector<std::string> dirs{""};
    for (const auto& d : o.include_dirs) dirs.push_back(d + "/");
    for (std::size_t i = 1; i < a.positional.size(); ++i) {
      const std::string& f = a.positional[i];
      bool ok = false;
      for (const auto& d : dirs)
        if (access((d + f).c_str(), R_OK) == 0) ok = true;
      if (!ok) {
        std::string all;
        for (std::size_t k = 0; k < dirs.size(); ++k) all += (k ? " " : "") + dirs[k];
        std::fprintf(stderr, "File %s not found in any of: %s\n", f.c_str(), all.c_str());
        return exit_usage;
      }
      o.user_files.push_back(f);
    }
  } else {
    input = first_match("callgrind.out*");
    if (input.empty()) input = first_match("cachegrind.out*");
    if (input.empty())
      return usage_error("annotate", "no profile given and no callgrind.out* here");
    defaulted = true;
  }
  if (asm_req && input == "-")
    return usage_error("annotate", "--asm reads the profile twice: give a file");
  o.input_name = input;
  o.cwd = current_dir();
  if (input != "-") {
    struct stat st;
    if (stat(input.c_str(), &st) == 0) o.input_mtime = static_cast<std::int64_t>(st.st_mtime);
  }

  // The model and the report grow many vectors by doubling. glibc serves big blocks with fresh
  // mmaps (and trims freed memory back to the system), so every doubling page-faults again;
  // kept on the heap, freed blocks are reused. (15 % of the time on a 260 MB profile, the
  // same peak RSS.)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);

  // Stream the input into annotate's tables (annotate_direct.h): no model is built.
  profile p;
  // The text report needs the text of the names it prints (a fraction of them): the others
  // wait in a temporary file (pool_mode::spill). JSON lists every function.
  if (!json) p.strings = string_pool_access::make(pool_mode::spill);
  std::optional<annotate_direct> direct;
  stderr_counter diags;
  int read_status = exit_ok;
  {
    auto in = open_input(input);
    if (!in) {
      std::fprintf(stderr, "calltree annotate: %s\n", in.error().message.c_str());
      return exit_usage;
    }
    reader_options ro;
    ro.display_name = input == "-" ? "<stdin>" : input;
    ro.max_name_bytes = memory_limit();
    auto threads = parse_threads(a.threads);
    if (!threads) return usage_error("annotate", "--threads needs a number from 1 to 64");
    ro.threads = *threads;
    o.threads = *threads;
    // The sink asks for sums per context (for source annotation, per line; with --raw, each
    // line), no jumps: the report shows none.
    progress_line progress(ro.display_name);
    progress.attach(ro);
    direct.emplace(p, o, &diags, ro.display_name);
    if (json) direct->keep_json_tables();
    auto stats = detail::read_profile(**in, p.strings, *direct, diags, ro, detail::any_input());
    progress.finish();
    if (!stats) {
      std::fprintf(stderr, "calltree annotate: %s\n", stats.error().message.c_str());
      return exit_usage;
    }
    // Errors and a read cut off make the status 1 (after the report of what was read); a
    // warning alone keeps 0. Nothing read at all (a binary file, no events:): no report.
    diags.print();
    if (!detail::read_to_end(*stats))
      std::fprintf(stderr, "calltree annotate: error: %s was not read to its end\n",
                   ro.display_name.c_str());
    if (diags.errors)
      std::fprintf(stderr, "calltree annotate: error: %llu errors in %s (see 'calltree check')\n",
                   static_cast<unsigned long long>(diags.errors), ro.display_name.c_str());
    if (!detail::read_to_end(*stats) || diags.errors) read_status = exit_findings;
    if (stats->parts == 0 && diags.errors) return exit_findings;
  }
  if (o.part && !p.parts.contains(*o.part)) {
    std::fprintf(stderr, "calltree annotate: --part=%u but the profile has %zu part(s)\n",
                 o.part->index() + 1, p.parts.size());
    return exit_usage;
  }

  std::vector<std::string> warnings;
  std::size_t warned = 0;
  auto warn = [&] {
    for (; warned < warnings.size(); ++warned)
      std::fprintf(stderr, "calltree annotate: warning: %s\n", warnings[warned].c_str());
  };
  if (json) {
    std::string text;
    auto made = annotate_json_of(*direct, text, &warnings);
    warn();
    if (!made) {
      std::fprintf(stderr, "%s\n", made.error().message.c_str());
      return exit_usage;
    }
    direct.reset();
    const int rc = asm_req ? annotate_asm_json(input, o, *asm_req, text) : exit_ok;
    std::fwrite(text.data(), 1, text.size(), stdout);
    return rc != exit_ok ? rc : read_status;
  }
  // The text is written as it is made (a large report is never held whole); the warnings and
  // the "Reading data" line come before its first piece, as when it was written at once.
  bool started = false;
  auto write = [&](std::string_view piece) {
    if (!started) {
      started = true;
      warn();
      if (defaulted) std::printf("Reading data from '%s'...\n", input.c_str());
    }
    std::fwrite(piece.data(), 1, piece.size(), stdout);
  };
  auto status = annotate_text_of(*direct, write, &warnings);
  warn();
  if (!status) {
    std::fprintf(stderr, "%s\n", status.error().message.c_str());
    return exit_usage;
  }
  if (asm_req) {
    const int rc = annotate_asm(input, o, *asm_req, listed, nullptr);
    if (rc != exit_ok) return rc;
  }
  return read_status;
}

}  // namespace

CALLTREE_COMMAND(annotate,
                 {.name = "annotate",
                  .summary = "callgrind_annotate's report (drop-in), with right inclusive costs",
                  .usage = annotate_usage,
                  .description = annotate_summary,
                  .flags = annotate_table.flags,
                  .run = run_annotate});

}  // namespace calltree::cli

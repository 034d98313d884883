// cmd_export.cc — `calltree export --to=FORMAT FILE -o OUT`: a profile in another tool's format.
//
// Reads the profile as `serve` does (views/session.h: every dialect and compression, derived
// events with --event), refuses a file with errors (they are printed as `calltree check`
// prints them; exit 1, nothing written), and writes the format (export/export.h) into a
// temporary file beside OUT, renamed to OUT once complete: OUT is never half-written. svg and
// png are the DOT export drawn by Graphviz's `dot`. docs/export.md.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "command.h"
#include "diagnostics_output.h"
#include "export/export.h"
#include "export/model_json_stream.h"
#include "flag_table.h"
#include "huge_pages.h"
#include "memory_option.h"
#include "model/builder_access.h"
#include "output_file.h"
#include "progress.h"
#include "reader/load_any.h"
#include "reader/read_profile.h"
#include "stack_filter_regex.h"
#include "views/part_costs.h"
#include "views/session.h"

extern char** environ;

namespace calltree::cli {
namespace {

struct export_flags {
  std::optional<std::string> to, output, show, part, node_thres, edge_thres, max_frames, min_share,
      addresses, title, dot_command, threads, focus, ignore, hide, show_frames, collapse_recursion,
      collapse_direct_recursion, collapse_object, focus_path;
  std::vector<std::string> event;
  bool merge_clones = false;
  bool help = false;
};

constexpr auto export_table = make_flag_table<export_flags>({
    {"to", 0, &export_flags::to,
     "the format: pprof, folded, speedscope, chrome, dot, svg, png, flamegraph, json "
     "(docs/export.md)",
     "FORMAT"},
    {"output", 'o', &export_flags::output, "the file to write ('-': standard output)", "OUT"},
    {"show", 0, &export_flags::show,
     "events to export, comma-separated, recorded or derived [every event; folded: the first]",
     "A,B"},
    {"event", 0, &export_flags::event,
     "define a derived event, e.g. 'CEst = Ir + 10 Bm' (repeatable)", "'NAME = FORMULA'"},
    {"part", 0, &export_flags::part,
     "only parts N,M (1-based) of a file with several parts [all, summed; speedscope and "
     "chrome: one profile or thread per part]",
     "N[,M...]"},
    {"node-thres", 0, &export_flags::node_thres,
     "dot/svg/png: leave out functions below PCT % of the total inclusive cost [0.5]", "PCT"},
    {"edge-thres", 0, &export_flags::edge_thres,
     "dot/svg/png: leave out calls below PCT % of the total [0.1]", "PCT"},
    {"max-frames", 0, &export_flags::max_frames,
     "stack formats: at most N frames in the estimate's tree (self costs stay exact) [1048576]",
     "N"},
    {"min-share", 0, &export_flags::min_share,
     "stack formats: no frame for a call path below this share of the total; self costs stay "
     "exact (0: every path, up to --max-frames; an imported profile's recorded stacks: all "
     "unless given) [0.00001]",
     "FRACTION"},
    {"focus", 0, &export_flags::focus,
     "stack formats: only the stacks with a function whose name matches RE (RE2, anywhere in "
     "the name), as pprof's -focus",
     "RE"},
    {"ignore", 0, &export_flags::ignore,
     "stack formats: leave out the stacks with a function whose name matches RE (pprof's "
     "-ignore)",
     "RE"},
    {"hide", 0, &export_flags::hide,
     "stack formats: leave the functions whose names match RE out of the stacks, their cost "
     "to their callers (pprof's -hide)",
     "RE"},
    {"show-frames", 0, &export_flags::show_frames,
     "stack formats: keep only the functions whose names match RE in the stacks (pprof's "
     "-show; --show picks events)",
     "RE"},
    {"merge-clones", 0, &export_flags::merge_clones,
     "stack formats: a function's compiler clones (f.constprop.0, f.isra.0, f.part.0, f.cold, "
     "f.lto_priv.0) are the function f"},
    {"collapse-recursion", 0, &export_flags::collapse_recursion,
     "stack formats: a function matching RE called under itself, directly or not, is one frame "
     "(the frames between fold into the outer one) [alone: every function]",
     "RE", alone_means{""}},
    {"collapse-direct-recursion", 0, &export_flags::collapse_direct_recursion,
     "stack formats: a function matching RE calling itself directly is one frame [alone: every "
     "function]",
     "RE", alone_means{""}},
    {"collapse-object", 0, &export_flags::collapse_object,
     "stack formats: the functions of an object (ob=) matching RE, called from the same object, "
     "are one frame named by the object",
     "RE"},
    {"focus-path", 0, &export_flags::focus_path,
     "stack formats: only the stacks through the call path PATH (function names from a root, "
     "separated by ';': main;parse;lex), the function at its end their root",
     "PATH"},
    {"addresses", 0, &export_flags::addresses,
     "pprof, a profile with instruction positions: a location per instruction address and "
     "each object's address range (go tool pprof -addresses); the file is many times larger "
     "[no]",
     "yes|no"},
    {"title", 0, &export_flags::title,
     "the title of a flamegraph, speedscope or chrome export [the file name]", "TEXT"},
    {"dot-command", 0, &export_flags::dot_command, "svg/png: the Graphviz program to run [dot]",
     "PATH"},
    {"threads", 0, &export_flags::threads,
     "threads to read with (and to compress pprof, format stacks with) [number of cores]", "N"},
    {"help", 'h', &export_flags::help, "show this help"},
});

constexpr std::string_view export_usage = "--to=FORMAT [OPTIONS] FILE -o OUT";
constexpr std::string_view export_summary =
    "Writes a profile in the format of another tool: pprof (go tool pprof, Pyroscope,\n"
    "Parca), folded stacks (flamegraph.pl, inferno), speedscope, chrome (Perfetto),\n"
    "dot/svg/png (a call graph as gprof2dot draws it), flamegraph (a standalone SVG),\n"
    "json (the model). Stacks are the call paths estimated from the call graph\n"
    "(docs/estimate.md): self costs and totals are exact; an imported profile's (folded,\n"
    "perf script, pprof, .cpuprofile) are the stacks it records. OUT is written whole or\n"
    "not at all. Exit status: 0; 1 when the profile cannot be read or has errors (printed\n"
    "as 'calltree check' prints them; nothing is written); 2 on usage errors.";

// Runs `dot -TFORMAT DOT_FILE`, its standard output written into `drawn` (by calltree: a
// full disk is then calltree's write error, exit 2 with its reason, not dot's failure); an
// error message about dot, or empty.
std::string run_dot(const std::string& program, const std::string& format,
                    const std::string& dot_file, output_file& drawn) {
  std::string tflag = "-T" + format;
  const char* argv[] = {program.c_str(), tflag.c_str(), dot_file.c_str(), nullptr};
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    return std::string("cannot run '") + program + "' (" + std::strerror(errno) + ")";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, program.c_str(), &actions, nullptr,
                              const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    return "cannot run '" + program + "' (" + std::strerror(rc) + "): --to=" + format +
           " needs Graphviz (Debian: apt-get install graphviz), or "
           "export --to=dot and draw it elsewhere";
  }
  // (Read to the end even after a failed write: dot then ends as it would, and the write's
  // error is what commit reports.)
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    drawn.write({buffer.data(), static_cast<std::size_t>(n)});
  }
  close(pipe_fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    return "'" + program + " " + tflag + "' failed (exit status " +
           std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)) + ")";
  return {};
}

// "calltree export: MESSAGE" on standard error; `status` is the exit status to return.
int failed(const std::string& message, int status = exit_findings) {
  std::fprintf(stderr, "calltree export: %s\n", message.c_str());
  return status;
}
void warn(const std::string& message) {
  std::fprintf(stderr, "calltree export: warning: %s\n", message.c_str());
}

// A filtered export says on standard error what the filter left out, and which expressions
// matched no function (as go tool pprof warns).
void note_filtered(const export_report& r, const views::stack_filter& f) {
  std::fprintf(stderr, "calltree export: %s\n",
               views::filter_note(*r.filtered, r.filtered_events, f.text).c_str());
  const std::pair<const char*, bool> unmatched[] = {
      {"--focus", f.focus && !r.filtered->focus_matched},
      {"--ignore", f.ignore && !r.filtered->ignore_matched},
      {"--hide", f.hide && !r.filtered->hide_matched},
      {"--show-frames", f.show && !r.filtered->show_matched}};
  for (const auto& [flag, none] : unmatched)
    if (none) warn(std::string(flag) + " matched no function of the stacks");
  if (f.focuses_path() && !r.filtered->focus_path_matched)
    warn("--focus-path matched no call path of the stacks (names from a root, ';' between)");
}

// A profile read with errors is not exported: they are printed, as `calltree check` prints
// them, and nothing is written.
int nothing_written(const std::string& input, std::uint64_t errors, bool complete) {
  return failed(input + ": " + std::to_string(errors) + " error(s)" +
                (complete ? "" : ", not read to its end") + "; nothing written");
}
int refuse(const std::string& input, const diagnostic_collector& diags, const read_stats& r) {
  print_diagnostics(diags);
  return nothing_written(input, diags.errors(), detail::read_to_end(r));
}

// --to=json written while the file is read (export/model_json_stream.h), into `out`'s
// temporary file: exit_ok with the document complete, or -1 when what was written is not the
// model's (a function's rows came back in a later run, a later part brought events) and the
// caller must write the model instead.
int export_model_streaming(const std::string& input, output_file& out, reader_options ro) {
  // Its tables are reserved up front and filled once, its ring reused: huge pages made its
  // median and slowest runs slower here, its best about the same (huge_pages.h). The
  // model's path, if the caller falls back to it, has them again.
  const no_huge_pages small_pages;
  diagnostic_collector diags(20);
  progress_line progress(ro.display_name);
  progress.attach(ro);
  auto in = open_input(input);
  if (!in) return failed(in.error().message);
  const export_sink sink = [&out](std::string_view b) { out.write(b); };
  exporting::model_json_stream stream(input, sink, ro.threads);
  builder_options bo;
  bo.max_memory = memory_limit();
  profile p;
  profile_builder b(p, &diags, ro.display_name, bo);
  builder_access::stream_self_rows(b, &stream);
  if ((*in)->kind() == compression::none) builder_access::expect_input_bytes(b, (*in)->raw_size());
  builder_access::streaming_sink reading(b);  // (it asks for runs merged by place)
  auto r = detail::read_profile(**in, p.strings, reading, diags, ro, detail::any_input());
  progress.finish();
  if (!r) return failed(r.error().message);
  if (stream.given_up()) return -1;  // (it stopped the reading)
  if (b.limit_hit()) r->state = read_state::stopped;
  if (diags.errors() || !detail::read_to_end(*r)) return refuse(input, diags, *r);
  builder_access::finish_stream(b);
  auto done = stream.finish(p);
  if (!done) return failed(done.error().message);
  return *done ? exit_ok : -1;
}

// --to=json: the model as read (positions and jumps kept), not annotate's tables. Written as
// the file is read when the file can be read again and OUT is a file (not standard output, a
// pipe or a device) that can be thrown away for the model if need be (a few files only:
// Xdebug's, whose functions come back block after block).
int export_model(const std::string& input, const std::string& out_path, const export_flags& a) {
  const std::pair<const char*, bool> given[] = {
      {"show", a.show.has_value()},
      {"event", !a.event.empty()},
      {"part", a.part.has_value()},
      {"node-thres", a.node_thres.has_value()},
      {"edge-thres", a.edge_thres.has_value()},
      {"min-share", a.min_share.has_value()},
      {"max-frames", a.max_frames.has_value()},
      {"title", a.title.has_value()},
      {"dot-command", a.dot_command.has_value()},
      {"addresses", a.addresses.has_value()},
      {"focus", a.focus.has_value()},
      {"ignore", a.ignore.has_value()},
      {"hide", a.hide.has_value()},
      {"show-frames", a.show_frames.has_value()},
      {"merge-clones", a.merge_clones},
      {"collapse-recursion", a.collapse_recursion.has_value()},
      {"collapse-direct-recursion", a.collapse_direct_recursion.has_value()},
      {"collapse-object", a.collapse_object.has_value()},
      {"focus-path", a.focus_path.has_value()}};
  for (const auto& [f, is_given] : given)
    if (is_given)
      return usage_error("export",
                         std::string("--") + f + " does not apply to --to=json (the whole model)");
  reader_options ro;
  ro.display_name = input == "-" ? "<stdin>" : input;
  ro.max_name_bytes = memory_limit();
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("export", "--threads needs a number from 1 to 64");
  ro.threads = *threads;
  std::string err;
  output_file out;
  if (!out.open(out_path, err)) return failed(err, exit_usage);
  if (input != "-" && !out.temporary().empty()) {
    const int rc = export_model_streaming(input, out, ro);
    if (rc == exit_ok && !out.commit(err)) return failed(err, exit_usage);
    if (rc != -1) return rc;
    out.discard();
    if (!out.open(out_path, err)) return failed(err, exit_usage);
  }
  diagnostic_collector diags(20);
  progress_line progress(ro.display_name);
  progress.attach(ro);
  profile p;
  builder_options bo;
  bo.max_memory = memory_limit();
  auto r = detail::load_any_input(input, p, diags, ro, bo);
  progress.finish();
  if (!r) return failed(r.error().message);
  if (diags.errors() || !detail::read_to_end(*r)) return refuse(input, diags, *r);
  auto done = export_model_json(p, input, [&out](std::string_view b) { out.write(b); });
  if (!done) return failed(done.error().message);
  if (!out.commit(err)) return failed(err, exit_usage);
  return exit_ok;
}

int run_export(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, export_table, err);
  if (!parsed) return usage_error("export", err);
  const command_line<export_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("export", export_usage, export_summary, export_table.flags).c_str(),
               stdout);
    return exit_ok;
  }
  const auto& to = a.to;
  if (!to) return usage_error("export", "needs --to=FORMAT");
  const bool via_dot = *to == "svg" || *to == "png";
  auto format = via_dot ? std::optional(export_format::dot) : parse_export_format(*to);
  if (!format)
    return usage_error(
        "export", "unknown format '" + *to +
                      "' (pprof, folded, speedscope, chrome, dot, svg, png, flamegraph, json)");
  if (a.positional.size() != 1) return usage_error("export", "needs exactly one profile");
  const auto& out_path = a.output;
  if (!out_path) return usage_error("export", "needs -o OUT ('-o -' for standard output)");
  if (via_dot && *out_path == "-")
    return usage_error("export", "--to=" + *to + " needs a file for -o");

  export_options o;
  o.format = *format;
  if (const auto& v = a.show) {
    o.events = split_commas(*v);
    if (o.events.empty()) return usage_error("export", "--show needs at least one event");
  }
  for (auto [name, v, into] : {std::tuple{"node-thres", &a.node_thres, &o.node_thres},
                               {"edge-thres", &a.edge_thres, &o.edge_thres}})
    if (*v) {
      auto pct = parse_nonnegative(**v);
      if (!pct || *pct > 100)
        return usage_error("export",
                           "--" + std::string(name) + " needs a percentage from 0 to 100");
      *into = *pct;
    }
  if (const auto& v = a.max_frames) {
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || p != v->data() + v->size() || n == 0)
      return usage_error("export", "--max-frames needs a number from 1");
    o.max_frames = n;
  }
  if (const auto& v = a.min_share) {
    auto share = parse_nonnegative(*v);
    if (!share || *share > 1)
      return usage_error("export", "--min-share needs a number from 0 to 1");
    o.min_share = *share;
  }
  if (const auto& v = a.addresses) {
    auto b = parse_yes_no(*v);
    if (!b) return usage_error("export", "--addresses needs yes or no");
    if (*b && o.format != export_format::pprof)
      return usage_error("export", "--addresses applies to --to=pprof only");
    o.addresses = *b;
  }
  {
    server::stack_filter_text text;
    text.focus = a.focus;
    text.ignore = a.ignore;
    text.hide = a.hide;
    text.show = a.show_frames;
    // The transforms as steps in the order of the command line (each occurrence one step).
    using field = flag_row<export_flags>::field;
    const std::pair<field, std::string_view> transforms[] = {
        {&export_flags::merge_clones, "merge_clones"},
        {&export_flags::collapse_recursion, "collapse_recursion"},
        {&export_flags::collapse_direct_recursion, "collapse_direct_recursion"},
        {&export_flags::collapse_object, "collapse_object"},
        {&export_flags::focus_path, "focus_path"}};
    for (const auto& occurrence : a.given)
      for (const auto& t : transforms)
        if (export_table.fields[occurrence.first] == t.first)
          text.steps.emplace_back(std::string(t.second), occurrence.second);
    auto filter = server::compile_stack_filter(
        text, {"--focus", "--ignore", "--hide", "--show-frames"},
        {"--collapse-recursion", "--collapse-direct-recursion", "--collapse-object"});
    if (!filter) return usage_error("export", filter.error().message);
    o.filter = std::move(*filter);
    if (o.filter.any() && o.format == export_format::dot)
      return usage_error("export",
                         "--focus, --ignore, --hide, --show-frames and the transforms apply to "
                         "the stack formats, not to the call graph of --to=" +
                             *to);
    if (o.filter.any() && o.addresses)
      return usage_error("export",
                         "--focus, --ignore, --hide, --show-frames and the transforms apply to "
                         "pprof without --addresses");
  }
  const std::string input = a.positional[0];
  o.title = a.title.value_or(input == "-" ? "<stdin>" : input);

  if (o.format == export_format::json) return export_model(input, *out_path, a);

  views::load_options lo;
  lo.max_memory = memory_limit();
  lo.event_definitions = a.event;
  lo.index_names = false;  // (every key is exported under its own name)
  lo.keep_jumps = false;   // (no format shows them; json, which does, reads the model)
  lo.inclusive = o.format == export_format::dot;  // (the stacks are estimated without them)
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("export", "--threads needs a number from 1 to 64");
  lo.threads = *threads;
  o.threads = *threads;
  lo.cwd = current_dir();
  progress_line progress(input);
  lo.progress = [&progress](const read_progress& p) { progress.update(p); };
  auto loaded = views::load_session(input, lo);
  progress.finish();
  if (!loaded) return failed(loaded.error().message);
  const views::session& s = **loaded;
  if (s.errors || !detail::read_to_end(s.stats)) {
    // A profile with errors is not exported: some of its costs were dropped.
    for (const auto& d : s.diagnostics)
      if (d.severity == severity::error) std::fputs(format_diagnostic(d).c_str(), stderr);
    return nothing_written(input, s.errors, detail::read_to_end(s.stats));
  }
  if (s.warnings)
    warn(input + ": " + std::to_string(s.warnings) + " warnings (see 'calltree check " + input +
         "')");
  for (const auto& w : s.table_warnings) warn(w);
  if (s.p.signed_costs && o.format != export_format::pprof) {
    // A file of differences (docs/format.md, "Signed costs"): only pprof's samples hold
    // negative values; the other formats' weights are durations, widths or counts.
    std::fprintf(stderr,
                 "calltree export: %s holds differences (negative costs, as cg_diff writes): "
                 "--to=%s cannot show a negative cost; use --to=pprof (go tool pprof shows "
                 "them) or --to=json; nothing written\n",
                 input.c_str(), std::string(*to).c_str());
    return exit_usage;
  }
  if (const auto& v = a.part) {
    auto parts = views::parse_parts(*v, s.p.parts.size());
    if (!parts) return usage_error("export", "--part: " + parts.error().message);
    o.parts = std::move(*parts);
  }

  output_file out;
  if (!out.open(*out_path, err)) return failed(err, exit_usage);
  auto done = export_profile(s, o, [&out](std::string_view b) { out.write(b); });
  if (!done) {
    out.discard();
    return usage_error("export", done.error().message);
  }
  for (const auto& w : done->warnings) warn(w);
  if (done->filtered) note_filtered(*done, o.filter);
  if (via_dot) {
    // The DOT text is complete in the temporary file; Graphviz draws it into another
    // temporary file, renamed to OUT.
    const std::string dot_file = out.temporary();
    output_file drawn;
    if (!drawn.open(*out_path, err)) return failed(err, exit_usage);
    // (out's buffer must reach its file before dot reads it.)
    if (!out.flush_only(err)) return failed(err, exit_usage);
    err = run_dot(a.dot_command.value_or("dot"), *to, dot_file, drawn);
    out.discard();
    if (!err.empty()) {
      drawn.discard();
      return failed(err);
    }
    if (!drawn.commit(err)) return failed(err, exit_usage);
    return exit_ok;
  }
  if (!out.commit(err)) return failed(err, exit_usage);
  return exit_ok;
}

}  // namespace
}  // namespace calltree::cli

CALLTREE_COMMAND(export, {.name = "export",
                          .summary = "write a profile for pprof, speedscope, flame graphs, "
                                     "Graphviz, Perfetto",
                          .usage = calltree::cli::export_usage,
                          .description = calltree::cli::export_summary,
                          .flags = calltree::cli::export_table.flags,
                          .run = calltree::cli::run_export});

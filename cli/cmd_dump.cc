// cmd_dump.cc — `calltree dump --records FILE`: the reader's records as canonical text.
//
// One line per record (docs/cli.md, "dump"): how calltree reads a file, and the form the
// golden tests compare. `--profile` lists instead the records replayed from the built profile
// model (aggregated: one record per distinct function, position, call and jump).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "reader/load_any.h"
#include "reader/read_profile.h"
#include "report/dump.h"
#include "standard_output.h"

namespace calltree::cli {
namespace {

struct dump_flags {
  bool records = false, profile = false, no_line_numbers = false, help = false;
};

constexpr auto dump_table = make_flag_table<dump_flags>({
    {"records", 0, &dump_flags::records, "list the records as the reader emits them (the default)"},
    {"profile", 0, &dump_flags::profile,
     "list the records replayed from the built profile (summed per function, position, call "
     "and jump; parts kept)"},
    {"no-line-numbers", 0, &dump_flags::no_line_numbers,
     "leave out the line= fields (to compare two texts of one profile)"},
    {"help", 'h', &dump_flags::help, "show this help"},
});

constexpr std::string_view dump_usage = "[--records|--profile] [OPTIONS] FILE";
constexpr std::string_view dump_summary =
    "Print how calltree reads a Callgrind-format file: one line per record (part header, self\n"
    "cost, call, jump, part end) with every field, names resolved, positions absolute; the\n"
    "layout is described in docs/cli.md. FILE may be compressed; '-' = standard input.\n"
    "Problems found while reading go to standard error.\n\n"
    "Exit status: 0 ok, 1 the input had errors or was not read to its end, 2 usage or I/O\n"
    "error.";

int run_dump(std::span<const std::string_view> argv) {
  std::string err;
  auto args = parse_flags(argv, dump_table, err);
  if (!args) {
    std::fprintf(stderr, "calltree dump: %s (see 'calltree dump --help')\n", err.c_str());
    return exit_usage;
  }
  if (args->help) {
    std::fputs(format_help("dump", dump_usage, dump_summary, dump_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (args->records && args->profile) {
    std::fprintf(stderr, "calltree dump: --records and --profile exclude each other\n");
    return exit_usage;
  }
  if (args->positional.size() != 1) {
    std::fprintf(stderr,
                 "calltree dump: expected one input FILE, got %zu (see 'calltree dump "
                 "--help')\n",
                 args->positional.size());
    return exit_usage;
  }
  const std::string path = args->positional[0];
  dump_options dopt;
  dopt.line_numbers = !args->no_line_numbers;
  reader_options ropt;
  ropt.display_name = path == "-" ? "<stdin>" : path;
  ropt.max_name_bytes = memory_limit();
  diagnostic_collector diags;

  result<read_stats> stats = error{};
  bool wrote = false;
  if (args->profile) {
    profile p;
    builder_options bo;
    bo.max_memory = memory_limit();
    stats = detail::load_any_input(path, p, diags, ropt, bo);
    if (stats) {
      dump_sink sink(std::cout, p.strings, dopt);
      replay(p, sink);
      wrote = sink.finish();
    }
  } else {
    auto in = open_input(path);
    if (!in) {
      std::fprintf(stderr, "calltree dump: %s: %s\n", path.c_str(), in.error().message.c_str());
      return exit_usage;
    }
    string_pool names;
    dump_sink sink(std::cout, names, dopt);
    stats = detail::read_profile(**in, names, sink, diags, ropt, detail::any_input());
    wrote = sink.finish();
  }
  int write_errno = errno;
  print_diagnostics(diags);
  if (!stats) {
    std::fprintf(stderr, "calltree dump: %s: %s\n", ropt.display_name.c_str(),
                 stats.error().message.c_str());
    return exit_usage;
  }
  if (standard_output_error()) write_errno = standard_output_error();
  if (!wrote && write_errno != EPIPE) {
    std::fprintf(stderr, "calltree dump: error writing standard output: %s\n",
                 std::strerror(write_errno));
    return exit_usage;
  }
  return diags.errors() || !detail::read_to_end(*stats) ? exit_findings : exit_ok;
}

}  // namespace

CALLTREE_COMMAND(dump, {.name = "dump",
                        .summary = "list the records calltree reads from a file, one line each",
                        .usage = dump_usage,
                        .description = dump_summary,
                        .flags = dump_table.flags,
                        .run = run_dump});

}  // namespace calltree::cli

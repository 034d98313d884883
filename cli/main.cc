// main.cc — `calltree`: dispatches to the subcommands registered in cli/cmd_*.cc.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "calltree/memory_limit.h"
#include "color.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "import/formats.h"
#include "memory_option.h"
#include "perf_data_runner.h"
#include "standard_output.h"

namespace calltree::cli {
std::vector<command>& commands() {
  static std::vector<command> table;
  return table;
}
}  // namespace calltree::cli

namespace calltree::cli {
const std::string_view program_description =
    "Read, check, convert, annotate, diff, merge, export and serve Callgrind-format\n"
    "profiles (callgrind, cachegrind, Xdebug, pyprof2calltree, pprof, ...). Files\n"
    "may be gzip, zstd, xz or bzip2 compressed; '-' is standard input.";
namespace {
// The options of every command: before the command's name, or among its arguments.
struct program_flags {
  std::optional<std::string> max_memory, color, from;
  bool help = false;  // before the command only (after it, the command's own --help)
};
constexpr auto program_table = make_flag_table<program_flags>({
    {"max-memory", 0, &program_flags::max_memory,
     "stop keeping what a file holds once it would take more than SIZE (e.g. 512M, 4G; 0 = no "
     "limit): an error, exit status 1 [3/4 of this machine's memory, so no readable profile is "
     "refused]",
     "SIZE"},
    {"color", 0, &program_flags::color,
     "colour diagnostics: auto colours a terminal unless NO_COLOR is set (non-empty) or "
     "TERM=dumb [auto]",
     "auto|always|never"},
    {"from", 0, &program_flags::from,
     "read every input as FORMAT, whatever its first bytes say: callgrind, folded, "
     "cpuprofile, pprof, pstats, perf-script or perf-data (docs/import.md) [by content]",
     "FORMAT"},
    {"help", 'h', &program_flags::help,
     "show this help; 'calltree COMMAND --help' shows a command's options"},
});
// The rows main.cc takes out of a command's arguments: all but --help, the last.
static_assert(program_table.flags.back().long_name == "help");
constexpr std::span<const flag> taken_from_commands =
    std::span<const flag>(program_table.flags).first(program_table.flags.size() - 1);
}  // namespace
const std::span<const flag> global_flags = program_table.flags;
}  // namespace calltree::cli

namespace {
void print_help() {
  std::string s = "Usage: calltree COMMAND [OPTIONS] [FILE...]\n\n" +
                  std::string(calltree::cli::program_description) + "\n\nCommands:\n";
  auto cmds = calltree::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& c : cmds) {
    std::string line = "  " + std::string(c.name);
    line.resize(14, ' ');
    s += line + std::string(c.summary) + "\n";
  }
  // The options of every command, in format_help's layout.
  std::string options = calltree::cli::format_help("", "", "", calltree::cli::global_flags);
  s += "\nOptions of every command:" + options.substr(options.find("Options:\n") + 8);
  s += "  -V, --version             print 'calltree VERSION' (calltree --version)\n";
  s += "\nExit status: 0 success (warnings alone), 1 an input had errors or was not read to\n"
       "its end (or a check failed: diff --fail-above), 2 usage or I/O error.\n";
  s += "\nRun 'calltree COMMAND --help' for a command's options, 'man calltree-COMMAND'\n"
       "for its manual.\n";
  std::fputs(s.c_str(), stdout);
}

// Makes --max-memory the run's memory limit (memory_option.h), which every command puts into its
// options, and --color the colour of diagnostics. False on a malformed value (a usage error).
bool apply(const calltree::cli::program_flags& f) {
  if (f.max_memory) {
    auto bytes = calltree::cli::parse_size(*f.max_memory);
    if (!bytes) {
      calltree::cli::print_error("--max-memory needs a size such as 512M or 4G, not '" +
                                 *f.max_memory + "'");
      return false;
    }
    calltree::cli::set_memory_limit(*bytes);
  }
  if (f.color) {
    auto mode = calltree::cli::parse_color_mode(*f.color);
    if (!mode) {
      calltree::cli::print_error("--color takes auto, always or never, not '" + *f.color + "'");
      return false;
    }
    calltree::cli::set_color_mode(*mode);
  }
  if (f.from) {
    auto format = calltree::detail::format_named(*f.from);
    if (!format) {
      calltree::cli::print_error(
          "--from takes callgrind, folded, cpuprofile, pprof, pstats, perf-script or perf-data, "
          "not '" +
          *f.from + "'");
      return false;
    }
    calltree::detail::set_process_format(*format);
  }
  return true;
}

int run(std::span<const std::string_view> args) {
  using namespace calltree::cli;
  if (args.empty() || args[0] == "help") {
    print_help();
    return args.empty() ? exit_usage : exit_ok;
  }
  if (args[0] == "--version" || args[0] == "-V") {
    std::printf("calltree %s\n", CALLTREE_VERSION);
    return 0;
  }
  if (auto rc = run_docs_option(args)) return *rc;
  // The options before the command's name: `calltree --max-memory=1G check FILE`.
  std::string err;
  auto leading = parse_args(args, program_table.flags, err, /*stop_at_positional=*/true);
  if (!leading) {
    std::fprintf(stderr, "calltree: %s (see 'calltree --help')\n", err.c_str());
    return exit_usage;
  }
  program_flags given;
  store_flags(program_table, *leading, given);
  if (given.help) {
    print_help();
    return exit_ok;
  }
  if (leading->positional.empty()) {
    print_help();
    return exit_usage;
  }
  const std::string_view name = leading->positional[0];
  const command* c = nullptr;
  for (const auto& x : commands())
    if (x.name == name) c = &x;
  if (!c) {
    std::fprintf(stderr, "calltree: unknown command '%.*s' (see 'calltree --help')\n",
                 static_cast<int>(name.size()), name.data());
    return exit_usage;
  }
  // The same options among the command's arguments (read with its table, so that a value of
  // one of its flags is never taken for one of them): `calltree check --max-memory=1G FILE`.
  const std::vector<std::string_view> after(
      args.end() - static_cast<std::ptrdiff_t>(leading->positional.size() - 1), args.end());
  parsed_args taken;
  if (!take_flags(after, taken_from_commands, c->flags, taken, err))
    return usage_error(c->name, err);
  store_flags(program_table, taken, given);
  if (!apply(given)) return exit_usage;
  const std::vector<std::string_view> rest(taken.positional.begin(), taken.positional.end());
  try {
    return c->run(rest);
  } catch (const std::bad_alloc&) {
    // The library lets an allocation that fails reach its caller (docs/reliability.md).
    std::fflush(stdout);
    std::fprintf(stderr, "calltree: error: out of memory\n");
    return exit_usage;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (calltree ... | head) is success, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  calltree::cli::track_standard_output();
  calltree::cli::install_perf_data_runner();
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  const int rc = run(args);
  // A write that failed is the command's error (with its reason), unless the reader went away
  // (`calltree ... | head`: a quiet end) or the command said so itself (exit 2).
  const int e = calltree::cli::finish_standard_output();
  if (e && e != EPIPE && rc != calltree::cli::exit_usage) {
    std::fprintf(stderr, "calltree: error writing standard output: %s\n", std::strerror(e));
    return calltree::cli::exit_usage;
  }
  return rc;
}

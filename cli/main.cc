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
#include "memory_option.h"
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
constexpr flag global_flag_table[] = {
    {"max-memory", 0, true,
     "stop keeping what a file holds once it would take more than SIZE (e.g. 512M, 4G; 0 = no "
     "limit): an error, exit status 1 [3/4 of this machine's memory, so no readable profile is "
     "refused]",
     "SIZE"},
    {"color", 0, true,
     "colour diagnostics: auto colours a terminal unless NO_COLOR is set (non-empty) or "
     "TERM=dumb [auto]",
     "auto|always|never"},
    {"help", 'h', false, "show this help; 'calltree COMMAND --help' shows a command's options"},
};
}  // namespace
const std::span<const flag> global_flags = global_flag_table;
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
// Takes `--color=WHEN` (or `--color WHEN`) out of a command's arguments. False on a bad value.
// (Before the command too: `calltree --color=never check FILE`.)
bool take_color(std::vector<std::string_view>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    std::string_view value;
    std::size_t n = 1;
    if (args[i].starts_with("--color=")) {
      value = args[i].substr(8);
    } else if (args[i] == "--color" && i + 1 < args.size()) {
      value = args[i + 1];
      n = 2;
    } else {
      continue;
    }
    auto mode = calltree::cli::parse_color_mode(value);
    if (!mode) {
      calltree::cli::print_error("--color takes auto, always or never, not '" + std::string(value) +
                                 "'");
      return false;
    }
    calltree::cli::set_color_mode(*mode);
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i + n));
    --i;
  }
  return true;
}
// Takes `--max-memory=SIZE` (or `--max-memory SIZE`) out of a command's arguments and makes it
// the run's memory limit (memory_option.h), which every command puts into its options. False on a
// malformed size (a usage error).
bool take_memory_limit(std::vector<std::string_view>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--") break;
    std::string_view value;
    std::size_t n = 1;
    if (args[i].starts_with("--max-memory=")) {
      value = args[i].substr(13);
    } else if (args[i] == "--max-memory" && i + 1 < args.size()) {
      value = args[i + 1];
      n = 2;
    } else {
      continue;
    }
    auto bytes = calltree::cli::parse_size(value);
    if (!bytes) {
      calltree::cli::print_error("--max-memory needs a size such as 512M or 4G, not '" +
                                 std::string(value) + "'");
      return false;
    }
    calltree::cli::set_memory_limit(*bytes);
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i + n));
    --i;
  }
  return true;
}
}  // namespace

namespace {

int run(std::vector<std::string_view>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_help();
    return args.empty() ? calltree::cli::exit_usage : calltree::cli::exit_ok;
  }
  if (args[0] == "--version" || args[0] == "-V") {
    std::printf("calltree %s\n", CALLTREE_VERSION);
    return 0;
  }
  if (auto rc = calltree::cli::run_docs_option(args)) return *rc;
  if (!take_memory_limit(args) || !take_color(args)) return calltree::cli::exit_usage;
  if (args.empty()) {
    print_help();
    return calltree::cli::exit_usage;
  }
  for (const auto& c : calltree::cli::commands()) {
    if (c.name == args[0]) {
      try {
        return c.run(std::span<const std::string_view>(args).subspan(1));
      } catch (const std::bad_alloc&) {
        // The library lets an allocation that fails reach its caller (docs/reliability.md).
        std::fflush(stdout);
        std::fprintf(stderr, "calltree: error: out of memory\n");
        return calltree::cli::exit_usage;
      }
    }
  }
  std::fprintf(stderr, "calltree: unknown command '%.*s' (see 'calltree --help')\n",
               static_cast<int>(args[0].size()), args[0].data());
  return calltree::cli::exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (calltree ... | head) is success, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  calltree::cli::track_standard_output();
  std::vector<std::string_view> args(argv + 1, argv + argc);
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

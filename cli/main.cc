// main.cc — `calltree`: dispatches to the subcommands registered in cli/cmd_*.cc.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "calltree/memory_limit.h"
#include "command.h"
#include "diagnostics_output.h"

namespace calltree::cli {
std::vector<command>& commands() {
  static std::vector<command> table;
  return table;
}
}  // namespace calltree::cli

namespace {
void print_help() {
  std::string s =
      "Usage: calltree COMMAND [OPTIONS] [FILE...]\n\n"
      "Read, check, convert, annotate, diff, merge and export Callgrind-format profiles\n"
      "(callgrind, cachegrind, Xdebug, pyprof2calltree, pprof, ...). Files may be\n"
      "gzip, zstd, xz or bzip2 compressed; '-' is standard input.\n\nCommands:\n";
  auto cmds = calltree::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& c : cmds) {
    std::string line = "  " + std::string(c.name);
    line.resize(14, ' ');
    s += line + std::string(c.summary) + "\n";
  }
  s += "\nOption of every command:\n"
       "  --max-memory=SIZE  stop keeping what a file holds once it would take more than SIZE\n"
       "                     (e.g. 512M, 4G; 0 = no limit); the default is 3/4 of this\n"
       "                     machine's memory, so no readable profile is refused\n";
  s += "\nRun 'calltree COMMAND --help' for a command's options.\n";
  std::fputs(s.c_str(), stdout);
}
// Takes `--max-memory=SIZE` (or `--max-memory SIZE`) out of a command's arguments and makes it
// the process's memory limit, so every command, present and future, honours it. False on a
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
    calltree::set_default_memory_limit(*bytes);
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i + n));
    --i;
  }
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (calltree ... | head) is success, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_help();
    return args.empty() ? calltree::cli::exit_usage : calltree::cli::exit_ok;
  }
  if (args[0] == "--version" || args[0] == "-V") {
    std::printf("calltree %s\n", CALLTREE_VERSION);
    return 0;
  }
  if (!take_memory_limit(args)) return calltree::cli::exit_usage;
  for (const auto& c : calltree::cli::commands()) {
    if (c.name == args[0]) {
      int rc;
      try {
        rc = c.run(std::span<const std::string_view>(args).subspan(1));
      } catch (const std::bad_alloc&) {
        // The library lets an allocation that fails reach its caller (docs/reliability.md).
        std::fflush(stdout);
        std::fprintf(stderr, "calltree: error: out of memory\n");
        return calltree::cli::exit_usage;
      }
      if (std::fflush(stdout) != 0 && errno != EPIPE) {
        std::fprintf(stderr, "calltree: error writing output\n");
        return calltree::cli::exit_usage;
      }
      return rc;
    }
  }
  std::fprintf(stderr, "calltree: unknown command '%.*s' (see 'calltree --help')\n",
               static_cast<int>(args[0].size()), args[0].data());
  return calltree::cli::exit_usage;
}

// main.cc — `calltree`: dispatches to the subcommands registered in cli/cmd_*.cc.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"

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
      "Read, check, convert, annotate, diff and merge Callgrind-format profiles\n"
      "(callgrind, cachegrind, Xdebug, pyprof2calltree, pprof, ...). Files may be\n"
      "gzip, zstd, xz or bzip2 compressed; '-' is standard input.\n\nCommands:\n";
  auto cmds = calltree::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& c : cmds) {
    std::string line = "  " + std::string(c.name);
    line.resize(14, ' ');
    s += line + std::string(c.summary) + "\n";
  }
  s += "\nRun 'calltree COMMAND --help' for a command's options.\n";
  std::fputs(s.c_str(), stdout);
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
  for (const auto& c : calltree::cli::commands()) {
    if (c.name == args[0]) {
      int rc = c.run(std::span<const std::string_view>(args).subspan(1));
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

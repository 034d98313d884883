// command.h — the subcommand table of the `calltree` binary.
//
// Each subcommand lives in its own cli/cmd_<name>.cc and registers itself with
// CALLTREE_COMMAND; main.cc only dispatches. cli/ is the only code that prints or exits.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "args.h"

namespace calltree::cli {

// Exit codes shared by every command.
inline constexpr int exit_ok = 0;
inline constexpr int exit_findings = 1;  // check found errors, diff over its threshold
inline constexpr int exit_usage = 2;     // usage or I/O error

// Everything the binary says about a command comes from here: `calltree --help`, `calltree
// NAME --help`, the man pages and the shell completions, so none can drift from the others.
struct command {
  std::string_view name;
  std::string_view summary;      // one line: `calltree --help`, the man page's NAME
  std::string_view usage;        // after "calltree NAME ", e.g. "[OPTIONS] FILE..."
  std::string_view description;  // `calltree NAME --help`'s text, the man page's DESCRIPTION
  std::span<const flag> flags;   // every option, in the order --help lists them
  int (*run)(std::span<const std::string_view> args);  // args exclude the command name
};

std::vector<command>& commands();

// The program as a whole, for `calltree --help` and calltree(1): one paragraph, and the options
// every command takes (main.cc takes them out before a command sees its arguments).
extern const std::string_view program_description;
extern const std::span<const flag> global_flags;

// The hidden options that render this table for the build and the shells (docs_gen.cc):
// `--man[=COMMAND]` (a man page on stdout), `--man-dir=DIR` (every page, into DIR),
// `--completion=bash|zsh` (the shell's completion script) and `--complete SHELL LINE` (what
// the script offers for LINE, the command line up to the cursor). nullopt: not one of them.
std::optional<int> run_docs_option(std::span<const std::string_view> args);

struct command_registrar {
  explicit command_registrar(command c) { commands().push_back(c); }
};

}  // namespace calltree::cli

// CALLTREE_COMMAND(ident, {.name = ..., .summary = ..., .usage = ..., .description = ...,
//                          .flags = ..., .run = ...});
#define CALLTREE_COMMAND(ident, ...)                                  \
  static const ::calltree::cli::command_registrar ident##_registrar { \
    ::calltree::cli::command __VA_ARGS__                              \
  }

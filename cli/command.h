// command.h — the subcommand table of the `calltree` binary.
//
// Each subcommand lives in its own cli/cmd_<name>.cc and registers itself with
// CALLTREE_COMMAND; main.cc only dispatches. cli/ is the only code that prints or exits.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace calltree::cli {

// Exit codes shared by every command.
inline constexpr int exit_ok = 0;
inline constexpr int exit_findings = 1;  // check found errors, diff over its threshold
inline constexpr int exit_usage = 2;     // usage or I/O error

struct command {
  std::string_view name;
  std::string_view summary;                            // one line for `calltree --help`
  int (*run)(std::span<const std::string_view> args);  // args exclude the command name
};

std::vector<command>& commands();

struct command_registrar {
  explicit command_registrar(command c) { commands().push_back(c); }
};

}  // namespace calltree::cli

#define CALLTREE_COMMAND(ident, name, summary, fn)                    \
  static const ::calltree::cli::command_registrar ident##_registrar { \
    { name, summary, fn }                                             \
  }

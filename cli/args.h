// args.h — a small command-line flag parser for the subcommands.
//
// Accepts `--name=value`, `--name value` (for flags declared to take a value), `-X value`,
// `-Xvalue` for one-letter options, `--` to end options, and collects positional arguments.
// Every command declares its flags as data (a table, flag_table.h binds each to a field of the
// command's options struct) and gets usage errors it can print. This level knows flags by their
// row in the table only: no command looks a flag up by its name.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace calltree::cli {

struct flag {
  std::string_view long_name;  // without "--"
  char short_name = 0;         // 0 = none
  bool takes_value = false;
  std::string_view help;  // "  --name=VALUE  help" in --help output
  std::string_view value_name = "VALUE";
  // For a flag that takes a value: `--name` alone (no '=') means `--name=ALONE` instead of
  // taking the next argument as its value (annotate's `--show-percs`, `--asm`). Not shown.
  std::optional<std::string_view> alone;
};

struct parsed_args {
  // Every occurrence in order (repeatable flags): the flag's row in the table, and its value
  // (empty for switches).
  std::vector<std::pair<std::size_t, std::string>> flags;
  std::vector<std::string> positional;
};

// Parses `args` against `table`; on error returns nullopt and sets `error`. With
// `stop_at_positional`, the first positional argument and everything after it are positional
// (the options before a command's name).
std::optional<parsed_args> parse_args(std::span<const std::string_view> args,
                                      std::span<const flag> table, std::string& error,
                                      bool stop_at_positional = false);

// Takes the flags of `taken` out of `args` (a command's arguments, read with `kept`, its own
// table, so that the value of one of its flags is never taken for a flag): their occurrences go
// to `out.flags` (rows of `taken`), the other arguments to `out.positional`, in order. A flag in
// both tables is taken; one in neither stays for the command to refuse. Stops at `--`.
bool take_flags(std::span<const std::string_view> args, std::span<const flag> taken,
                std::span<const flag> kept, parsed_args& out, std::string& error);

// "Usage: calltree NAME USAGE\n\nSUMMARY\n\nOptions:\n" + one line per flag.
std::string format_help(std::string_view name, std::string_view usage, std::string_view summary,
                        std::span<const flag> table);

// Parses "yes"/"no" (callgrind_annotate's booleans) and also "true"/"false", "1"/"0".
std::optional<bool> parse_yes_no(std::string_view v);

// "a,b,,c" -> {"a", "b", "c"}: the non-empty fields of a comma-separated list.
std::vector<std::string> split_commas(std::string_view s);

// A whole decimal number at least 0 ("0.5", "1e-3"): nullopt for anything else (NaN too).
std::optional<double> parse_nonnegative(std::string_view s);

// An -I DIR of serve and report: `-I=DIR` too (as callgrind_annotate takes it), a trailing '/'
// dropped (a lone "/" kept).
std::string include_dir(std::string dir);

// --source-root OLD=NEW split at its first '=': nullopt without one.
std::optional<std::pair<std::string, std::string>> source_root(std::string_view v);

// The current directory with a trailing '/' (file names under it are shown relative), or "".
std::string current_dir();

// Prints "calltree COMMAND: MESSAGE\n(see 'calltree COMMAND --help')" to stderr; returns the
// usage exit status (2).
int usage_error(std::string_view command, std::string_view message);

}  // namespace calltree::cli

// args.h — a small command-line flag parser for the subcommands.
//
// Accepts `--name=value`, `--name value` (for flags declared to take a value), `-X value`,
// `-Xvalue` for one-letter options, `--` to end options, and collects positional arguments.
// Every command declares its flags as data (a table) and gets usage errors it can print.
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
};

struct parsed_args {
  // Every occurrence in order (repeatable flags), value empty for switches.
  std::vector<std::pair<std::string_view, std::string>> flags;
  std::vector<std::string> positional;

  bool has(std::string_view name) const;
  // The last value given for `name`.
  std::optional<std::string> get(std::string_view name) const;
  std::vector<std::string> all(std::string_view name) const;
};

// Parses `args` against `table`; on error returns nullopt and sets `error`.
std::optional<parsed_args> parse_args(std::span<const std::string_view> args,
                                      std::span<const flag> table, std::string& error);

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

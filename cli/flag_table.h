// flag_table.h — a command's flags bound to the fields of its options struct.
//
// Each command declares a struct of what its flags say (`struct check_flags { bool json; ...
// }`) and one table whose rows name a flag, its help and the field it fills: a `bool` is a
// switch; a `std::optional<std::string>` takes a value, the last one given wins; a
// `std::vector<std::string>` takes a value and may be repeated, every value kept in order. The
// table's `flags` are what --help, the man pages and the shell completions show (command.h);
// parse_flags fills the struct. A command reads fields, so a misspelt flag in its code is a
// compile error, and whether a flag takes a value follows from its field's type.
//
// What it does not do: check values (a command turns its strings into numbers, events, paths
// and says what is wrong in its own words).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "args.h"

namespace calltree::cli {

// A row for an option every command takes (command.h's global_flags), listed again in a
// command's own table for its help: main.cc takes it out of the arguments before the command
// sees them, so it fills no field. It takes a value.
struct taken_by_main_t {};
inline constexpr taken_by_main_t taken_by_main{};

// `--name` alone (no '=') means `--name=VALUE` (args.h, flag::alone).
struct alone_means {
  std::string_view value;
};

template <class Options>
struct flag_row {
  using field = std::variant<std::monostate, bool Options::*, std::optional<std::string> Options::*,
                             std::vector<std::string> Options::*>;
  flag doc;
  field into;

  // A switch.
  constexpr flag_row(std::string_view long_name, char short_name, bool Options::*f,
                     std::string_view help)
      : doc{long_name, short_name, false, help, "VALUE", std::nullopt}, into(f) {}
  // A value; the last one given wins.
  constexpr flag_row(std::string_view long_name, char short_name,
                     std::optional<std::string> Options::*f, std::string_view help,
                     std::string_view value_name, std::optional<alone_means> alone = {})
      : doc{long_name, short_name, true, help, value_name, alone_value(alone)}, into(f) {}
  // A repeatable value.
  constexpr flag_row(std::string_view long_name, char short_name,
                     std::vector<std::string> Options::*f, std::string_view help,
                     std::string_view value_name)
      : doc{long_name, short_name, true, help, value_name, std::nullopt}, into(f) {}
  // An option of every command, documented here too.
  constexpr flag_row(std::string_view long_name, char short_name, taken_by_main_t,
                     std::string_view help, std::string_view value_name)
      : doc{long_name, short_name, true, help, value_name, std::nullopt}, into() {}

 private:
  static constexpr std::optional<std::string_view> alone_value(std::optional<alone_means> a) {
    if (a) return a->value;
    return std::nullopt;
  }
};

template <class Options, std::size_t N>
struct flag_table {
  std::array<flag, N> flags;  // for --help, the man pages and the completions, in this order
  std::array<typename flag_row<Options>::field, N> fields;
};

// The table of `rows` (a compile error if two rows share a name).
template <class Options, std::size_t N>
consteval flag_table<Options, N> make_flag_table(const flag_row<Options> (&rows)[N]) {
  flag_table<Options, N> t{};
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (rows[j].doc.long_name == rows[i].doc.long_name ||
          (rows[i].doc.short_name && rows[j].doc.short_name == rows[i].doc.short_name))
        throw "two rows of a flag table share a name";
    t.flags[i] = rows[i].doc;
    t.fields[i] = rows[i].into;
  }
  return t;
}

// What a command's arguments say: the fields of its flags, and its other arguments in order.
template <class Options>
struct command_line : Options {
  std::vector<std::string> positional;
  // Every flag given, in order: its row of the table and its value (empty for a switch), for
  // a command to which the order of its flags matters (export's transforms).
  std::vector<std::pair<std::size_t, std::string>> given;
};

namespace flag_detail {
// (Out of line: inlined into store_flags for an Options with no field of this type, whose
// visit still has the branch, GCC 12 warns that the store would write past the struct,
// -Warray-bounds.)
[[gnu::noinline]] inline void store_value(std::optional<std::string>& into, std::string& value) {
  into = std::move(value);
}
[[gnu::noinline]] inline void store_value(std::vector<std::string>& into, std::string& value) {
  into.push_back(std::move(value));
}
}  // namespace flag_detail

// Stores the occurrences `parsed.flags` (rows of `table`) into `into`, in order.
template <class Options, std::size_t N>
void store_flags(const flag_table<Options, N>& table, parsed_args& parsed, Options& into) {
  for (auto& occurrence : parsed.flags) {
    // (Not a structured binding: Clang 14 cannot capture one in a lambda.)
    auto& value = occurrence.second;
    std::visit(
        [&into, &value](auto field) {
          using F = decltype(field);
          if constexpr (std::is_same_v<F, bool Options::*>)
            into.*field = true;
          else if constexpr (!std::is_same_v<F, std::monostate>)
            flag_detail::store_value(into.*field, value);
        },
        table.fields[occurrence.first]);
  }
}

// Parses a command's arguments against its table; on error returns nullopt and sets `error`
// ("unknown option '--x'", "option '--x' needs a value", ...).
template <class Options, std::size_t N>
std::optional<command_line<Options>> parse_flags(std::span<const std::string_view> args,
                                                 const flag_table<Options, N>& table,
                                                 std::string& error) {
  auto parsed = parse_args(args, table.flags, error);
  if (!parsed) return std::nullopt;
  command_line<Options> out{};
  out.given = parsed->flags;
  store_flags(table, *parsed, static_cast<Options&>(out));
  out.positional = std::move(parsed->positional);
  return out;
}

}  // namespace calltree::cli

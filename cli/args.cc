#include "args.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "command.h"

namespace calltree::cli {

namespace {

// The row of `table` the option `a` ("--name[=value]", "-X[value]") names, or nullptr.
const flag* row_of(std::string_view a, std::span<const flag> table) {
  if (a[1] == '-') {
    const std::string_view name = a.substr(
        2, a.find('=') == std::string_view::npos ? std::string_view::npos : a.find('=') - 2);
    for (const auto& t : table)
      if (t.long_name == name) return &t;
  } else {
    for (const auto& t : table)
      if (t.short_name && t.short_name == a[1]) return &t;
  }
  return nullptr;
}

// The value of the option at args[i], whose row is `f` (empty for a switch); moves `i` past a
// value in the next argument. nullopt and `error` when it is malformed.
std::optional<std::string> value_of(std::span<const std::string_view> args, std::size_t& i,
                                    const flag& f, std::string& error) {
  const std::string_view a = args[i];
  std::optional<std::string> value;
  if (a[1] == '-') {
    if (const auto eq = a.find('='); eq != std::string_view::npos)
      value = std::string(a.substr(eq + 1));
  } else if (a.size() > 2) {
    if (!f.takes_value) {
      error = "option '" + std::string(a.substr(0, 2)) + "' takes no value";
      return std::nullopt;
    }
    value = std::string(a.substr(2));
  }
  if (f.takes_value && !value) {
    if (a[1] == '-' && f.alone) return std::string(*f.alone);
    if (i + 1 >= args.size()) {
      error = "option '--" + std::string(f.long_name) + "' needs a value";
      return std::nullopt;
    }
    value = std::string(args[++i]);
  }
  if (!f.takes_value && value) {
    error = "option '--" + std::string(f.long_name) + "' takes no value";
    return std::nullopt;
  }
  return value.value_or(std::string());
}

bool is_option(std::string_view a) { return a != "-" && a.size() >= 2 && a[0] == '-'; }

}  // namespace

std::optional<parsed_args> parse_args(std::span<const std::string_view> args,
                                      std::span<const flag> table, std::string& error,
                                      bool stop_at_positional) {
  parsed_args out;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (options_done || !is_option(a)) {
      out.positional.emplace_back(a);
      if (stop_at_positional) options_done = true;
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    const flag* f = row_of(a, table);
    if (!f) {
      error = "unknown option '" +
              std::string(a[1] == '-' ? a.substr(0, a.find('=')) : a.substr(0, 2)) + "'";
      return std::nullopt;
    }
    auto value = value_of(args, i, *f, error);
    if (!value) return std::nullopt;
    out.flags.emplace_back(static_cast<std::size_t>(f - table.data()), std::move(*value));
  }
  return out;
}

bool take_flags(std::span<const std::string_view> args, std::span<const flag> taken,
                std::span<const flag> kept, parsed_args& out, std::string& error) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--") {
      out.positional.insert(out.positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i),
                            args.end());
      break;
    }
    out.positional.emplace_back(a);
    if (!is_option(a)) continue;
    if (const flag* f = row_of(a, taken)) {
      out.positional.pop_back();
      auto value = value_of(args, i, *f, error);
      if (!value) return false;
      out.flags.emplace_back(static_cast<std::size_t>(f - taken.data()), std::move(*value));
    } else if (const flag* k = row_of(a, kept)) {
      // (Its value, if the next argument holds it, stays with it; a malformed one is the
      // command's to refuse.)
      const std::size_t at = i;
      std::string ignored;
      if (value_of(args, i, *k, ignored) && i != at) out.positional.emplace_back(args[i]);
    }
  }
  return true;
}

std::string format_help(std::string_view name, std::string_view usage, std::string_view summary,
                        std::span<const flag> table) {
  std::string s = "Usage: calltree " + std::string(name) + " " + std::string(usage) + "\n\n" +
                  std::string(summary) + "\n";
  if (!table.empty()) s += "\nOptions:\n";
  for (const auto& f : table) {
    // (Appended piece by piece: `"=" + std::string(...)` makes GCC 12 at -O3 warn of an
    // overlapping copy that cannot happen, -Wrestrict, GCC bug 105651.)
    std::string left = "  ";
    if (f.short_name) left.append("-").append(1, f.short_name).append(", ");
    left.append("--").append(f.long_name);
    if (f.takes_value) left.append("=").append(f.value_name);
    if (left.size() < 28)
      left.resize(28, ' ');
    else
      left.append("\n").append(28, ' ');
    s += left + std::string(f.help) + "\n";
  }
  return s;
}

std::optional<bool> parse_yes_no(std::string_view v) {
  if (v == "yes" || v == "true" || v == "1") return true;
  if (v == "no" || v == "false" || v == "0") return false;
  return std::nullopt;
}

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) comma = s.size();
    if (comma > start) out.emplace_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::optional<double> parse_nonnegative(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !(v >= 0)) return std::nullopt;
  return v;
}

std::string include_dir(std::string dir) {
  if (!dir.empty() && dir[0] == '=') dir.erase(0, 1);
  if (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

std::optional<std::pair<std::string, std::string>> source_root(std::string_view v) {
  const auto eq = v.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return std::pair{std::string(v.substr(0, eq)), std::string(v.substr(eq + 1))};
}

std::string current_dir() {
  if (char buf[4096]; getcwd(buf, sizeof buf)) return std::string(buf) + "/";
  return {};
}

int usage_error(std::string_view command, std::string_view message) {
  std::fprintf(stderr, "calltree %.*s: %.*s\n(see 'calltree %.*s --help')\n",
               static_cast<int>(command.size()), command.data(), static_cast<int>(message.size()),
               message.data(), static_cast<int>(command.size()), command.data());
  return exit_usage;
}

}  // namespace calltree::cli

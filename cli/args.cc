#include "args.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "command.h"

namespace calltree::cli {

bool parsed_args::has(std::string_view name) const {
  for (const auto& [n, v] : flags)
    if (n == name) return true;
  return false;
}

std::optional<std::string> parsed_args::get(std::string_view name) const {
  std::optional<std::string> r;
  for (const auto& [n, v] : flags)
    if (n == name) r = v;
  return r;
}

std::vector<std::string> parsed_args::all(std::string_view name) const {
  std::vector<std::string> r;
  for (const auto& [n, v] : flags)
    if (n == name) r.push_back(v);
  return r;
}

std::optional<parsed_args> parse_args(std::span<const std::string_view> args,
                                      std::span<const flag> table, std::string& error) {
  parsed_args out;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (options_done || a == "-" || a.size() < 2 || a[0] != '-') {
      out.positional.emplace_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    const flag* f = nullptr;
    std::optional<std::string> value;
    if (a[1] == '-') {
      std::string_view body = a.substr(2);
      std::size_t eq = body.find('=');
      std::string_view name = body.substr(0, eq);
      if (eq != std::string_view::npos) value = std::string(body.substr(eq + 1));
      for (const auto& t : table)
        if (t.long_name == name) f = &t;
      if (!f) {
        error = "unknown option '--" + std::string(name) + "'";
        return std::nullopt;
      }
    } else {
      for (const auto& t : table)
        if (t.short_name && t.short_name == a[1]) f = &t;
      if (!f) {
        error = "unknown option '" + std::string(a.substr(0, 2)) + "'";
        return std::nullopt;
      }
      if (a.size() > 2) {
        if (!f->takes_value) {
          error = "option '" + std::string(a.substr(0, 2)) + "' takes no value";
          return std::nullopt;
        }
        value = std::string(a.substr(2));
      }
    }
    if (f->takes_value && !value) {
      if (i + 1 >= args.size()) {
        error = "option '--" + std::string(f->long_name) + "' needs a value";
        return std::nullopt;
      }
      value = std::string(args[++i]);
    }
    if (!f->takes_value && value) {
      error = "option '--" + std::string(f->long_name) + "' takes no value";
      return std::nullopt;
    }
    out.flags.emplace_back(f->long_name, value.value_or(std::string()));
  }
  return out;
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

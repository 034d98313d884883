#include "diagnostics_output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "color.h"
#include "reader/read_profile.h"

namespace calltree::cli {

void print_diagnostics(const diagnostic_collector& c) {
  const bool tty = use_color(2);
  std::string out;
  for (const auto& d : c.kept()) {
    std::string s = format_diagnostic(d);
    if (tty) {
      std::string_view sev = to_string(d.severity);
      std::size_t at = s.find(": " + std::string(sev) + ": ");
      if (at != std::string::npos) {
        const char* colour = d.severity == severity::error     ? "\x1b[1;31m"
                             : d.severity == severity::warning ? "\x1b[1;35m"
                                                               : "\x1b[1;36m";
        s.insert(at + 2 + sev.size(), "\x1b[0m");
        s.insert(at + 2, colour);
      }
    }
    out += s;
  }
  for (std::size_t code = 0; code <= static_cast<std::size_t>(last_diag_code); ++code) {
    auto dc = static_cast<diag_code>(code);
    std::uint64_t n = c.count(dc);
    std::uint64_t shown = 0;
    for (const auto& d : c.kept())
      if (d.code == dc) ++shown;
    if (n > shown) {
      std::string file = c.kept().empty() ? std::string() : c.kept().front().file + ": ";
      out += file + "note: " + std::to_string(n - shown) + " more [" + std::string(to_string(dc)) +
             "] diagnostics not shown\n";
    }
  }
  std::fputs(out.c_str(), stderr);
}

void print_serious(const diagnostic_collector& c) {
  std::string out;
  for (const auto& d : c.kept())
    if (d.severity == severity::error || d.code == diag_code::likely_truncated ||
        d.code == diag_code::input_grew)
      out += format_diagnostic(d, false);
  std::fputs(out.c_str(), stderr);
}

bool changed_while_read(const std::vector<diagnostic>& kept, bool complete, const std::string& path,
                        std::uint64_t size_at_start) {
  for (const auto& d : kept)
    if (d.code == diag_code::input_changed) return true;
  if (complete || path == "-") return false;
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 || static_cast<std::uint64_t>(st.st_size) != size_at_start;
}

void print_input_changed(const std::string& name) {
  diagnostic d;
  d.severity = severity::error;
  d.code = diag_code::input_changed;
  d.file = name;
  d.message = "the file changed while it was read";
  std::fputs(format_diagnostic(d, false).c_str(), stderr);
}

std::optional<std::uint64_t> parse_size(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + static_cast<unsigned>(s[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = s.substr(i);
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B")
    shift = 0;
  else if (suffix == "K" || suffix == "KB" || suffix == "KiB")
    shift = 10;
  else if (suffix == "M" || suffix == "MB" || suffix == "MiB")
    shift = 20;
  else if (suffix == "G" || suffix == "GB" || suffix == "GiB")
    shift = 30;
  else
    return std::nullopt;
  if (shift && v > (UINT64_MAX >> shift)) return std::nullopt;
  return v << shift;
}

void print_error(std::string_view message) {
  std::fprintf(stderr, "calltree: %.*s\n", static_cast<int>(message.size()), message.data());
}

std::optional<std::string> changed_input(const views::session& s) {
  if (s.run_files.empty()) {
    if (changed_while_read(s.diagnostics, detail::read_to_end(s.stats), s.input_name, s.input_size))
      return s.input_name;
    return std::nullopt;
  }
  for (const auto& f : s.run_files)
    if (changed_while_read(s.diagnostics, f.complete, f.name, f.size)) return f.name;
  return std::nullopt;
}

}  // namespace calltree::cli

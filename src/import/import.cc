// import.cc — read_imported(): the importer of each format, and their reports.
#include "import/import.h"

#include <atomic>
#include <string>

namespace calltree::detail {

void import_target::report(severity s, diag_code code, std::uint64_t line, std::uint32_t column,
                           std::string message, std::string_view line_text) {
  // (a line of a text format; a binary one's faults, at line 0, are not lines of it)
  if (s == severity::error && line > 0) ++stats.skipped_lines;
  if (!diagnostics.wants(code)) {
    diagnostics.count_only(code, s);
    return;
  }
  diagnostic d;
  d.severity = s;
  d.code = code;
  d.file = options.display_name;
  d.line = line;
  d.column = column;
  d.message = std::move(message);
  d.line_text = std::string(line_text.substr(0, 200));
  diagnostics.report(std::move(d));
}

string_id import_name(string_pool& names, std::string_view name) {
  // (callgrind's reader takes a name without the blanks around it)
  const bool had_text = !name.empty();
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  if (name.empty() && had_text) return names.intern("(blank)");
  if (name.find_first_of(std::string_view("\0\r\n", 3)) == std::string_view::npos)
    return names.intern(name);
  std::string clean;
  for (char c : name)
    if (c == '\0' || c == '\r' || c == '\n')
      clean += "\xEF\xBF\xBD";
    else
      clean += c;
  return names.intern(clean);
}

std::string import_line(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 4096))
    if (c == '\0')
      out += "\xEF\xBF\xBD";
    else
      out += c == '\n' || c == '\r' ? ' ' : c;
  return out;
}

namespace {
std::atomic<perf_data_runner> perf_runner{nullptr};
}  // namespace

void set_perf_data_runner(perf_data_runner runner) { perf_runner.store(runner); }

void read_perf_data(std::string_view bytes, import_target& to) {
  const perf_data_runner run = perf_runner.load();
  if (!run) {
    to.report(severity::error, diag_code::perf_data, 0, 0,
              "a perf.data file: calltree reads it as the text `perf script` makes of it, which "
              "only the calltree command runs; run `perf script -i FILE > FILE.txt` and read that");
    to.stats.state = read_state::stopped;
    return;
  }
  auto text = run(to.options.display_name, bytes);
  if (!text) {
    to.report(severity::error, diag_code::perf_data, 0, 0, text.error().message);
    to.stats.state = read_state::stopped;
    return;
  }
  // (its lines are those of `perf script`'s text: a diagnostic's line is one of them)
  read_perf_script(*text, to);
  to.stats.bytes = bytes.size();
}

void read_imported(profile_format format, std::string_view bytes, import_target& to) {
  to.stats.bytes = bytes.size();
  switch (format) {
    case profile_format::folded:
      return read_folded(bytes, to);
    case profile_format::cpuprofile:
      return read_cpuprofile(bytes, to);
    case profile_format::pprof:
      return read_pprof(bytes, to);
    case profile_format::pstats:
      return read_pstats(bytes, to);
    case profile_format::perf_script:
      return read_perf_script(bytes, to);
    case profile_format::perf_data:
      return read_perf_data(bytes, to);
    case profile_format::callgrind:
      break;
  }
}

}  // namespace calltree::detail

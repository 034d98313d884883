// import.cc — read_imported(): the importer of each format, and their reports.
#include "import/import.h"

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
    case profile_format::callgrind:
      break;
  }
}

}  // namespace calltree::detail

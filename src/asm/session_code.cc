// asm/session_code.cc — a session's function's machine code (asm/session_code.h).
#include "asm/session_code.h"

#include "asm/read_any_functions.h"
#include "calltree/input.h"
#include "reader/null_diagnostics.h"

namespace calltree::detail {
std::optional<code_read_error> read_code_of(const views::session& s, std::uint32_t id, profile& q) {
  const std::string name(s.name(id));
  auto keep = [&name](std::string_view n) { return n == name; };
  if (s.lines_by_chunks()) {
    // Only the chunks that hold the records of functions of its name.
    null_diagnostics diagnostics;
    auto read = read_functions_by(
        q, keep, diagnostics, s.options.max_memory, s.input_name,
        [&](record_sink& sink) { return s.read_records_of_name(id, q.strings, sink); });
    if (!read) return code_read_error{true, read.error().message};
    return std::nullopt;
  }
  // (a run of several files: each file's parts, in order, as the session read them)
  std::vector<std::string> files;
  for (const auto& f : s.run_files) files.push_back(f.name);
  if (files.empty()) files.push_back(s.input_name);
  for (const auto& file : files) {
    auto in = open_input(file);
    if (!in) return code_read_error{false, in.error().message};
    null_diagnostics diagnostics;
    reader_options ro;
    ro.display_name = file;
    ro.threads = s.options.threads;
    ro.max_name_bytes = s.options.max_memory;
    auto stats = read_any_functions(**in, q, keep, diagnostics, ro);
    if (!stats) return code_read_error{false, stats.error().message};
  }
  return std::nullopt;
}

status annotate_code_of(const views::session& s, std::uint32_t id, const profile& q,
                        const asm_options& options, const objdump_runner& run,
                        const std::function<void(asm_view&&)>& each) {
  auto annotator = asm_annotator::make(q, options, run);
  if (!annotator) return annotator.error();
  key_functions keys(q, s.options.cwd);
  auto functions = keys.of(s.file(id), std::string(s.name(id)), s.object(id));
  annotator->annotate(functions, [&](asm_view&& v) { each(std::move(v)); });
  return ok();
}

}  // namespace calltree::detail

// select.cc — the functions to annotate: a reading that keeps only some functions' records,
// and the functions a report's key stands for.
#include <algorithm>

#include "asm/read_any_functions.h"
#include "calltree/asm.h"
#include "calltree/profile_builder.h"
#include "reader/read_hooks.h"

namespace calltree {

namespace {

// `read` hands its records to a sink that keeps the functions `keep` accepts, into `out`
// with instruction positions and jumps (records one by one: the builder's needs, no sums,
// which would merge instructions).
template <typename Read>
auto filtered(profile& out, std::function<bool(std::string_view)> keep,
              diagnostic_sink& diagnostics, std::uint64_t max_memory,
              const std::string& display_name, Read&& read) {
  builder_options bo;
  bo.max_memory = max_memory;  // (one memory limit: the caller's)
  bo.keep_positions = pos_instr | pos_line;
  bo.keep_jumps = true;
  profile_builder builder(out, &diagnostics, display_name, bo);
  function_filter filter(out.strings, std::move(keep), builder);
  return read(static_cast<record_sink&>(filter));
}

result<read_stats> read_some(input& in, profile& out, std::function<bool(std::string_view)> keep,
                             diagnostic_sink& diagnostics, const reader_options& options,
                             bool any_input) {
  return filtered(out, std::move(keep), diagnostics, options.max_name_bytes,
                  options.display_name, [&](record_sink& sink) {
                    detail::read_hooks hooks;
                    hooks.any_input = any_input;
                    return detail::read_with_hooks(in, out.strings, sink, diagnostics, options,
                                                   hooks);
                  });
}

}  // namespace

result<read_stats> read_functions(input& in, profile& out,
                                  std::function<bool(std::string_view name)> keep,
                                  diagnostic_sink& diagnostics, const reader_options& options) {
  return read_some(in, out, std::move(keep), diagnostics, options, false);
}

namespace detail {

result<read_stats> read_any_functions(input& in, profile& out,
                                      std::function<bool(std::string_view name)> keep,
                                      diagnostic_sink& diagnostics, const reader_options& options) {
  return read_some(in, out, std::move(keep), diagnostics, options, true);
}

status read_functions_by(profile& out, std::function<bool(std::string_view name)> keep,
                         diagnostic_sink& diagnostics, std::uint64_t max_memory,
                         const std::string& display_name,
                         const std::function<status(record_sink&)>& read) {
  return filtered(out, std::move(keep), diagnostics, max_memory, display_name, read);
}

}  // namespace detail

key_functions::key_functions(const profile& p, std::string cwd)
    : p_(p), cwd_(std::move(cwd)), files_(p.functions.size()) {
  id_vector<function_id, char> has(p.functions.size(), 0);
  for (const auto& r : p.self_rows) {
    has[r.function] = 1;
    auto& f = files_[r.function];
    if (std::find(f.begin(), f.end(), r.source_file) == f.end()) f.push_back(r.source_file);
  }
  for (const auto& c : p.calls) has[c.caller] = 1;
  for (const auto& j : p.jumps) has[j.function] = 1;
  for (function_id f : p.functions.ids())
    if (has[f]) by_name_.emplace_back(p.strings.text(p.functions[f].name), f);
  std::sort(by_name_.begin(), by_name_.end());
}

std::string key_functions::shown(file_id f) const {
  std::string n = p_.strings.text(p_.files[f].name);
  if (!cwd_.empty() && n.size() > cwd_.size() && n.starts_with(cwd_)) n.erase(0, cwd_.size());
  return n;
}

std::vector<function_id> key_functions::of(std::string_view file, std::string_view name,
                                           std::string_view object) const {
  std::vector<function_id> out;
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [](const auto& e, std::string_view n) { return e.first < n; });
  for (; it != by_name_.end() && it->first == name; ++it) {
    const function& fn = p_.functions[it->second];
    if (!object.empty() && p_.strings.text(p_.objects[fn.object].name) != object) continue;
    bool here = shown(fn.file) == file;
    for (file_id f : files_[it->second])
      if (!here && shown(f) == file) here = true;
    if (here) out.push_back(it->second);
  }
  return out;
}

}  // namespace calltree

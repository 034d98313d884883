// read_profile.cc — the one entry that reads any profile: the input's first bytes (or the
// format asked for) say which format, then its reader (see read_profile.h).
#include "reader/read_profile.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "calltree/cost_matrix.h"
#include "import/formats.h"
#include "import/import.h"
#include "reader/head_input.h"
#include "reader/in_memory.h"
#include "reader/read_hooks.h"

namespace calltree::detail {

namespace {

// An input of another format (import/import.h), read whole into memory first: its importer
// gives the sink the records of the same costs.
result<read_stats> read_other_format(profile_format format, input& in, string_pool& names,
                                     record_sink& records, diagnostic_sink& diagnostics,
                                     const reader_options& options, const read_hooks& hooks) {
  std::string bytes;
  const auto whole = in_memory(in);
  std::string_view all(whole.data(), whole.size());
  import_target to{names, records, diagnostics, options, {}, {}};
  to.stacks = hooks.stacks;
  if (whole.empty()) {
    while (true) {
      auto block = in.next();
      if (!block) {
        // What was read is not the whole profile: said, and nothing is made of a part of it.
        to.report(severity::error,
                  in.truncated() ? diag_code::truncated_input : diag_code::io_error, 0, 0,
                  block.error().message);
        to.stats.state = read_state::stopped;
        to.stats.bytes = bytes.size();
        return to.stats;
      }
      if (block->empty()) break;
      if (options.max_name_bytes && bytes.size() + block->size() > options.max_name_bytes) {
        to.report(severity::error, diag_code::limit_exceeded, 0, 0,
                  "the input is larger than the memory limit (--max-memory) lets it be read "
                  "into; nothing was read");
        to.stats.state = read_state::stopped;
        return to.stats;
      }
      bytes.append(block->data(), block->size());
    }
    all = bytes;
  }
  read_imported(format, all, to);
  if (!to.no_profile.empty()) {
    if (!hooks.any_input)
      return result<read_stats>(
          error{options.display_name + ": " + to.no_profile, error_code::no_profile});
    to.report(severity::error, diag_code::no_data, 0, 0,
              std::string(to_string(format)) + " input: " + to.no_profile);
  }
  return to.stats;
}

}  // namespace

result<read_stats> read_with_hooks(input& in, string_pool& names, record_sink& records,
                                   diagnostic_sink& diagnostics, const reader_options& given,
                                   const read_hooks& hooks) {
  // Each input starts unsigned (or as its sink sums, read_profile_options::signed_sums): a
  // file of differences read before on this thread does not make this one's costs signed.
  set_signed_costs_here(hooks.signed_sums);
  // Another profiler's file (import/): its first bytes say, or --from
  // (read_profile_options::format). Those in memory are looked at where they are; else the
  // first block is taken and given again first (head_input.h), so a callgrind file reads as
  // it did.
  std::optional<head_input> first;
  std::span<const char> head = in_memory(in);
  bool whole = true;
  if (head.empty()) {
    first.emplace(in);
    head = first->head();
    whole = first->head_is_whole();
  }
  const auto forced = hooks.format ? hooks.format : process_format();
  const profile_format format =
      forced ? *forced
             : sniff_format({head.data(), std::min<std::size_t>(head.size(), 64u << 10)},
                            whole && head.size() <= (64u << 10));
  // (The input's first bytes, for what it is when it holds no profile.)
  const std::string_view head_text = {head.data(), std::min<std::size_t>(head.size(), 4096)};
  input& from = first ? static_cast<input&>(*first) : in;
  if (format != profile_format::callgrind) {
    if (hooks.speculated_chunks) *hooks.speculated_chunks = 0;
    return read_other_format(format, from, names, records, diagnostics, given, hooks);
  }
  return read_callgrind_format(from, head_text, names, records, diagnostics, given, hooks);
}

result<read_stats> read_profile(input& in, string_pool& names, record_sink& records,
                                diagnostic_sink& diagnostics, const reader_options& options,
                                const read_profile_options& how) {
  read_hooks hooks;
  static_cast<read_profile_options&>(hooks) = how;
  return read_with_hooks(in, names, records, diagnostics, options, hooks);
}

}  // namespace calltree::detail

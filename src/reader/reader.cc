// reader.cc — read_callgrind: the input's blocks into the parser, on this thread or cut into
// chunks for the parallel path.
//
// What it is: the reading of a callgrind input (detail::read_callgrind_format), how to read
// derived from the sink's needs (read_config), the serial loop over the input's blocks, the
// choice of the parallel path (parallel.cc) and the checks at the end of the input (a last line
// cut, no events:, no data). What it is not: the format (parser.h and its files), nor the
// choice of a format (read_profile.cc, which read_callgrind goes through).
#include "calltree/reader.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <system_error>

#include "calltree/cost_matrix.h"
#include "reader/chunk_feed.h"
#include "reader/decode_ahead.h"
#include "reader/in_memory.h"
#include "reader/not_a_profile.h"
#include "reader/parser.h"
#include "reader/read_hooks.h"

namespace calltree::detail {

namespace {

// Inputs not mapped whose parsing is worth cutting into chunks: plain ones (a pipe) and zstd.
bool parallel_decoding(compression c) { return c == compression::none || c == compression::zstd; }

}  // namespace

result<read_stats> parser::run() {
  max_len_ = opt_.max_line_length ? opt_.max_line_length : SIZE_MAX;
  std::optional<error> io_error;
  bool truncated = false;
  bool changed = false;
  bool first_block = true;
  // The parallel path pays only when records are few for the lines read (sum_cost_runs), or
  // the sink's work per line is more than the reading's (cost_run_records): handing a record
  // from one core to the other costs about what reading its line does.
  // (The feed outlives the reading: diagnostics at the end quote the last line, in its chunk.)
  std::unique_ptr<detail::chunk_feed> feed;
  std::size_t ring = 0;    // run_chunked's, for the kind of feed made
  bool indexable = false;  // the feed's offsets are the file's, or its bytes are kept
  if ((opt_.threads > 1 || opt_.index) && (opt_.sum_cost_runs || opt_.cost_run_records)) {
    // A speculation in flight holds its chunk's names, sums and tables (a ring of five on two
    // cores, three for a decompressed stream): 128 KiB chunks hold 3.3 MB less than 512 KiB ones on
    // the real profile, in the same time (docs/performance.md, "Memory").
    const std::size_t chunk = opt_.chunk_bytes ? opt_.chunk_bytes : std::size_t{128} << 10;
    const auto whole = detail::in_memory(in_);
    if (whole.size() >= 2 * chunk) {
      feed = detail::mapped_chunks(whole, chunk);
      ring = spec_ring(true);
      indexable = true;
    } else if (whole.empty() && ((parallel_decoding(in_.kind()) &&
                                  (opt_.threads > 1 || in_.kind() == compression::none)) ||
                                 (opt_.index && opt_.index->keep_bytes))) {
      // Decoded chunks are held in memory until read: 256 KiB, twice as many of them
      // ahead of this thread (run_chunked's ring, twice, and 4), so the decoding thread does
      // not wait on the others' turns for the cores (3 threads on 2 cores). Measured on the
      // zstd real profile: 5 chunks ahead ran 10-15 % slower than 10, and 10 of 256 KB as 10
      // of 512 KB; each MB ahead is a MB of the resident size (docs/performance.md).
      // (128 KiB decoded chunks: 2 MB less, 5-10 % slower in turn on the real profile.)
      const std::size_t decoded = opt_.chunk_bytes ? chunk : std::size_t{256} << 10;
      ring = spec_ring(in_.kind() == compression::none);
      // (A plain file's decoded offsets are its own: its chunks can be read again there; a
      // compressed one's bytes are kept as they are decoded, chunk_index::keep_bytes.)
      indexable = in_.kind() == compression::none || (opt_.index && opt_.index->keep_bytes);
      if (opt_.index && in_.kind() != compression::none) opt_.index->kept_bytes = true;
      try {
        feed = detail::decoded_chunks(in_, decoded, 2 * ring + 4);
      } catch (const std::system_error&) {
        // No thread to decode on (a process or address-space limit): read on this one.
      }
    }
  }
  if (feed) {
    const auto head = feed->head();
    if (!head.empty() && binary_input(head)) return stats_;
    run_chunked(*feed, ring);
    if (!stop_) {
      io_error = feed->failure();
      truncated = feed->truncated();
      changed = io_error && in_.changed();  // (the feed has ended: its thread is done with in_)
    }
  }
  while (!feed && !stop_ && !sink_gave_up()) {
    auto blk = in_.next();
    if (!blk) {
      io_error = blk.error();
      truncated = in_.truncated();
      changed = in_.changed();
      break;
    }
    std::span<const char> b = *blk;
    if (b.empty()) break;
    stats_.bytes += b.size();
    if (opt_.progress)
      opt_.progress(read_progress{stats_.bytes, in_.raw_consumed(), in_.raw_size()});
    if (first_block) {
      first_block = false;
      if (binary_input(b)) return stats_;
    }
    process_block(b.data(), b.data() + b.size());
  }
  // A last line without its newline is a line, unless the input broke off inside it: then its
  // end is lost (a cost "1234" cut to "12"), so it is skipped rather than read wrong.
  const bool cut_line = io_error && !carry_.empty() && !stop_;
  if (!carry_.empty() && !stop_) {
    ++line_no_;
    if (cut_line) {
      ++stats_.lines;
      skip_line();
      raw_line_ = carry_;
    } else {
      process_line(carry_);
    }
  }
  const bool unterminated = !carry_.empty() && !stop_ && !io_error;
  if (io_error && changed) {
    // Its producer rewrote it (callgrind_control -d, a rerun): what was read may be of two
    // versions, and is not the file's; the one error that says so.
    stats_.state = read_state::stopped;
    const auto saved = line_no_;
    line_no_ = 0;  // (the file's, not a line's)
    report(severity::error, diag_code::input_changed, 0, 0, "the file changed while it was read");
    line_no_ = saved;
  } else if (io_error) {
    stats_.state = read_state::stopped;
    report(severity::error, truncated ? diag_code::truncated_input : diag_code::io_error, 0, 0,
           io_error->message + (cut_line ? "; this last line was cut short and is skipped, "
                                           "everything before it was read"
                                         : "; everything before this point was read"));
  }
  if (!io_error && !stop_ && !sink_gave_up() && in_.grew()) {
    const auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::input_grew, 0, 0,
           "the file grew while it was read: it was read to the " +
               std::to_string(in_.size_at_open()) +
               " bytes it had when opened, what was added after is not read");
    line_no_ = saved;
  }
  finish_pending(true);
  flush_run();
  if (part_open_ || header_has_content()) end_part();
  raw_line_ = {};
  if (opt_.index) {
    chunk_index& ix = *opt_.index;
    ix.end = stats_.bytes;
    ix.why_not = !indexable || !feed   ? "neither a plain file nor its decoded bytes kept"
                 : ix.keeping_failed   ? "its decoded bytes could not be kept"
                 : errors_             ? "the first reading met errors"
                 : signed_             ? "signed costs"
                 : limit_hit_ || stop_ ? "the reading did not end"
                 : ix.starts.empty()   ? "no chunks"
                                       : ix.why_not;
    ix.usable = ix.why_not.empty();
    ix.objects = std::move(objects_);
    ix.files = std::move(files_);
    ix.functions = std::move(functions_);
    std::sort(ix.renamed.begin(), ix.renamed.end(),
              [](const chunk_index::renaming& a, const chunk_index::renaming& b) {
                return a.key != b.key ? a.key < b.key : a.line < b.line;
              });
    for (std::size_t i = 0; i < ix.renamed.size(); ++i) {
      const std::uint64_t key = ix.renamed[i].key;
      if (i > 0 && ix.renamed[i - 1].key == key) continue;
      id_table& t = key % 3 == 0 ? ix.objects : key % 3 == 1 ? ix.files : ix.functions;
      t.set(key / 3, id_table::entry{});
    }
  }
  if (unterminated && ends_lines_) {
    const auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::likely_truncated, 0, 0,
           "the last line has no newline, though its producer ends every line with one: the file "
           "was likely cut short (truncated)");
    line_no_ = saved;
  }
  if (!any_events_ && errors_ == 0) {
    auto saved = line_no_;
    line_no_ = 0;
    no_profile_ = stats_.lines == 0 ? "empty input: no 'events:' line, no profile data"
                  : !not_a_profile_.empty()
                      ? "no 'events:' line: " + not_a_profile_
                      : "no 'events:' line: this is not a Callgrind-format profile, nor any "
                        "other format calltree reads (" +
                            std::string(detail::other_formats) + ")";
    report(severity::error, diag_code::no_events, 0, 0, no_profile_);
    line_no_ = saved;
  } else if (!any_events_ && no_profile_.empty()) {
    no_profile_ = "no 'events:' line was read: no profile data";
  } else if (any_events_ && !any_cost_) {
    auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::no_data, 0, 0, "no cost lines: the profile is empty");
    line_no_ = saved;
  }
  stats_.signed_costs = signed_;
  return stats_;
}

read_config::read_config(const reader_options& o, const read_needs& n, const read_hooks& h)
    : reader_options(o) {
  using grain = read_needs::grain;
  sum_by_context = n.costs == grain::sums_per_context;
  sum_cost_runs = n.sums();  // (sums per context allow sums per run)
  sum_per_line = n.sums() && n.per_line;
  if (sum_per_line) lines_of = n.lines_of;
  cost_run_records = n.costs == grain::runs_of_lines || n.costs == grain::runs_merged_by_place;
  merge_cost_lines = n.costs == grain::runs_merged_by_place;
  skip_jump_records = !n.jumps;
  chunk_bytes = h.chunk_bytes;
  speculate_every_chunk = h.speculate_every_chunk;
  index = h.index;
}

result<read_stats> read_callgrind_format(input& from, std::string_view head_text,
                                         string_pool& names, record_sink& records,
                                         diagnostic_sink& diagnostics, const reader_options& given,
                                         const read_hooks& hooks) {
  const read_config options(given, hooks.needs ? *hooks.needs : reader_needs_of(records), hooks);
  if (hooks.speculated_chunks) *hooks.speculated_chunks = 0;
  auto read = [&](input& in) {
    parser r(in, names, records, diagnostics, options);
    if (auto what = describe_non_profile(given.display_name, head_text))
      r.not_a_profile_ = what->clause();
    auto stats = r.run();
    if (hooks.speculated_chunks) *hooks.speculated_chunks = r.speculated_chunks_;
    if (stats && !hooks.any_input && !r.no_profile_.empty())
      return result<read_stats>(
          error{given.display_name + ": " + r.no_profile_, error_code::no_profile});
    return stats;
  };
  // Where parsing on more than one core pays (sum_cost_runs), a zstd input is decoded and cut
  // into chunks on a thread of its own (chunk_feed.h). gzip, xz and bzip2 decode slower than
  // one core parses: another thread parsing would only take the decoder's core from it
  // (measured with gzip, the real 260 MB profile: 5-7 % slower).
  const bool chunked =
      (options.sum_cost_runs || options.cost_run_records) && parallel_decoding(from.kind());
  if (options.threads > 1 && !chunked && from.kind() != compression::none) {
    std::unique_ptr<input> ahead;
    try {
      ahead = decode_ahead(from);
    } catch (const std::system_error&) {
      // No thread to decode on: decode on this one, below.
    }
    if (ahead) return read(*ahead);
  }
  return read(from);
}

}  // namespace calltree::detail

namespace calltree {

std::string_view to_string(read_state s) {
  switch (s) {
    case read_state::complete:
      return "complete";
    case read_state::likely_truncated:
      return "likely-truncated";
    case read_state::stopped:
      break;
  }
  return "stopped";
}

result<read_stats> read_callgrind(input& in, string_pool& names, record_sink& records,
                                  diagnostic_sink& diagnostics, const reader_options& options) {
  return detail::read_with_hooks(in, names, records, diagnostics, options, {});
}

}  // namespace calltree

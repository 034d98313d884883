// read_hooks.h — the reader's knobs that are not a user's choice: what tests set to reach its
// paths whatever the input's size and the threads' timing, and the read modes it derives from
// the sink's needs.
//
// What it is: internal (src/), for the reader's files and tests. read_with_hooks() is
// read_callgrind() with these hooks. What it is not: public API; a library user sets
// reader_options and the sink says what it needs (record_needs; the library's own sinks,
// read_needs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "calltree/reader.h"
#include "import/formats.h"
#include "model/run_sink.h"

namespace calltree::detail {

struct recorded_stacks;
struct chunk_index;

struct read_hooks {
  // The chunk size of the parallel path (0: the defaults, 128 KiB of a mapped file, 256 KiB of
  // decoded input). Tests make it small.
  std::size_t chunk_bytes = 0;
  // On the parallel path, every chunk after the first is read on speculation (then adopted if
  // it holds), none directly while a speculation could have been, whatever the threads'
  // timing; so which chunks are adopted depends on the input only.
  bool speculate_every_chunk = false;
  // Read as if the sink asked for these records (a test's sink that takes any grain).
  std::optional<read_needs> needs;
  // Set to the chunks of the parallel path whose speculative reading was used (0 on the
  // serial path). Not a fact of the input: tests look at it, outputs do not show it.
  std::uint64_t* speculated_chunks = nullptr;
  // An input that holds no profile (binary, empty, no events:) gives its read_stats, not an
  // error_code::no_profile result: the tool reports it from the diagnostics, as it always has.
  bool any_input = false;
  // The sink sums signed costs from the first record on (cost_matrix.h, "Signed costs"): it
  // adds this input into a profile of differences (merge, `diff -o`). Every reading starts its
  // thread in this mode, unsigned by default, whatever an earlier reading on the thread left;
  // the parser turns the signed mode on at the input's first negative number.
  bool signed_sums = false;
  // Read as this format whatever its first bytes say (`--from`); none: as they say
  // (import/formats.h).
  std::optional<profile_format> format;
  // Where an input of sampled stacks (folded, perf script, pprof, .cpuprofile) leaves each
  // part's stacks as the file records them (import/stacks.h, recorded_stacks), their `part`
  // counted in this reading; null: not kept. The views' load keeps them (session::stacks).
  std::vector<recorded_stacks>* stacks = nullptr;
  // Where the reader leaves each chunk's start state and its final name tables, so that any
  // chunks can be read again alone (chunk_index.h, read_chunks); a mapped plain file only (its
  // `usable` says whether it can be). A mapped file is then read in chunks on one thread too.
  chunk_index* index = nullptr;
};

// How the reader reads, from the sink's needs (read_needs, run_sink.h) and the hooks: the modes its
// paths test. Each says what records the reader may send; see read_needs for their meaning.
struct read_config : reader_options {
  read_config(const reader_options& o, const read_needs& n, const read_hooks& h);
  bool sum_cost_runs = false;   // sums_per_run, or sums_per_context
  bool sum_by_context = false;  // sums_per_context
  bool sum_per_line = false;    // record_needs::per_line, with a summing grain
  std::function<bool(std::string_view source_file)> lines_of;  // with sum_per_line
  bool cost_run_records = false;   // runs_of_lines, or runs_merged_by_place
  bool merge_cost_lines = false;   // runs_merged_by_place
  bool skip_jump_records = false;  // !record_needs::jumps
  std::size_t chunk_bytes = 0;
  bool speculate_every_chunk = false;
  chunk_index* index = nullptr;
};

result<read_stats> read_with_hooks(input& in, string_pool& names, record_sink& records,
                                   diagnostic_sink& diagnostics, const reader_options& options,
                                   const read_hooks& hooks);

// Read to its end, cut short or not: what the tool has always called complete (a file it
// reports as likely truncated is read to its end).
inline bool read_to_end(const read_stats& s) { return s.state != read_state::stopped; }

// read_callgrind() with read_hooks::any_input: what the tool's commands read with.
inline result<read_stats> read_any_input(input& in, string_pool& names, record_sink& records,
                                         diagnostic_sink& diagnostics,
                                         const reader_options& options = {}) {
  read_hooks h;
  h.any_input = true;
  return read_with_hooks(in, names, records, diagnostics, options, h);
}

}  // namespace calltree::detail

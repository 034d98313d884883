// read_hooks.h — the reader's knobs that are not a user's choice: what tests set to reach its
// paths whatever the input's size and the threads' timing, and the read modes it derives from
// the sink's needs.
//
// What it is: internal (src/), for the reader's files and tests. read_with_hooks() is
// read_profile() (read_profile.h: what the tool reads with) with these hooks too; it chooses
// the format (read_profile.cc) and hands a callgrind input to read_callgrind_format
// (reader.cc). What it is not: public API; a library user sets reader_options and the sink
// says what it needs (record_needs; the library's own sinks, read_needs).
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
#include "reader/read_profile.h"

namespace calltree::detail {

// The tool's options of a reading (read_profile.h), and the tests'.
struct read_hooks : read_profile_options {
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

// The callgrind reader of read_with_hooks, once the format is known: `from` is the input with
// its first bytes given again, `head_text` its first bytes (reader.cc).
result<read_stats> read_callgrind_format(input& from, std::string_view head_text,
                                         string_pool& names, record_sink& records,
                                         diagnostic_sink& diagnostics,
                                         const reader_options& options, const read_hooks& hooks);

}  // namespace calltree::detail

// read_profile.h — the one entry that reads any profile calltree reads: the input's first
// bytes (or the format asked for, `--from`) say which format, then that format's reader gives
// the sink its records: callgrind's (reader.cc and the parser), or another profiler's
// importer (import/: pprof, perf script, folded stacks, V8's .cpuprofile, cProfile's pstats).
//
// What it is: internal (src/), what the tool's commands and the views read with. What it is
// not: the public API (calltree/reader.h: read_callgrind, which reads the same way), nor the
// tests' knobs (read_hooks.h, which add to these options).
#pragma once

#include <optional>
#include <vector>

#include "calltree/reader.h"
#include "import/formats.h"

namespace calltree::detail {

struct recorded_stacks;  // import/stacks.h
struct chunk_index;      // reader/chunk_index.h

struct read_profile_options {
  // Read as this format whatever its first bytes say (`--from`); none: as they say
  // (import/formats.h).
  std::optional<profile_format> format;
  // An input that holds no profile (binary, empty, no events:) gives its read_stats, not an
  // error_code::no_profile result: the tool reports it from the diagnostics, as it always has.
  bool any_input = false;
  // The sink sums signed costs from the first record on (cost_matrix.h, "Signed costs"): it
  // adds this input into a profile of differences (merge, `diff -o`). Every reading starts its
  // thread in this mode, unsigned by default, whatever an earlier reading on the thread left;
  // the parser turns the signed mode on at the input's first negative number.
  bool signed_sums = false;
  // Where an input of sampled stacks (folded, perf script, pprof, .cpuprofile) leaves each
  // part's stacks as the file records them (import/stacks.h, recorded_stacks), their `part`
  // counted in this reading; null: not kept. The views' load keeps them (session::stacks).
  std::vector<recorded_stacks>* stacks = nullptr;
  // Where the reader leaves each chunk's start state and its final name tables, so that any
  // chunks can be read again alone (chunk_index.h, read_chunks); a mapped plain file only (its
  // `usable` says whether it can be). A mapped file is then read in chunks on one thread too.
  chunk_index* index = nullptr;
};

// The options the tool's commands read with: any input, what it holds said by its diagnostics.
inline read_profile_options any_input() {
  read_profile_options o;
  o.any_input = true;
  return o;
}

result<read_stats> read_profile(input& in, string_pool& names, record_sink& records,
                                diagnostic_sink& diagnostics, const reader_options& options = {},
                                const read_profile_options& how = {});

// Read to its end, cut short or not: what the tool has always called complete (a file it
// reports as likely truncated is read to its end).
inline bool read_to_end(const read_stats& s) { return s.state != read_state::stopped; }

}  // namespace calltree::detail

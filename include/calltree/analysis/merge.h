// analysis/merge.h — many profiles (threads, processes, runs, parts) summed into one.
//
// What it is: `merge_inputs` reads the inputs one after another into one profile (one string
// pool, one set of aggregated rows), so memory is bounded by the merged result, never by the
// number of inputs: a 100-file merge holds one model, not 100. The profile builder does the
// summing: self costs per (function, source file, position), calls per (caller, call site,
// callee, target) with counts and inclusive costs added, jumps likewise; events are united by
// name (an input without an event counts 0 for it). With parts_mode::sum every part of every
// input is folded into one part; with parts_mode::keep each input part stays a part of its own.
// `write_callgrind` then writes the profile as one valid callgrind file (through replay and
// the callgrind writer).
// What it is not: a diff, and not a re-interpretation of costs.
//
// `summary:` and `totals:` of a merged part: `totals:` is the sum of its self costs (the writer
// computes it). `summary:` is the sum, over the input parts folded into it, of what each part
// stated (its self-cost total when it stated none), because the spec lets a summary exceed the self
// costs (costs attributed to no line: callgrind's --collect-systime writes `summary: ... 331 ...`
// over `totals: ... 330 ...`), so callgrind_annotate's PROGRAM TOTALS of merge(A, B) is its total
// of A plus its total of B. A stated value is not trusted when it is below the part's self costs
// (cacheuse's short summary line) or looks like a negative number wrapped to 64 bits (callgrind's
// client-request bug: 18446744073693740485 over a total of 16): the part's self-cost total counts
// instead.
//
// Headers of the merged part (sum): the first input's, with `events:` the union of all events
// (in the order first seen), `positions:` the union of all position columns, `pid:` kept only
// when every part had the same one, `thread:` and `part:` dropped, `cmd:` the distinct commands
// sorted and joined by " ; ", the `desc:` lines every part had (cache geometry, yes; one dump's
// `Timerange:`, no), and `desc: Merged: N parts of M files summed`. They compose: a merged input
// counts as the parts and files of its own Merged: line, and its cmd: splits at " ; " into its
// commands. `write_callgrind` writes in the canonical order (replay_order::canonical,
// profile_builder.h), so
// merge(merge(a,b),c), merge(a,merge(b,c)) and merge(a,b,c) are the same bytes
// (share/doc/calltree/fleet.md).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/export.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/result.h"
#include "calltree/writer.h"

namespace calltree {

// Threads and lifetime: a value.
enum class parts_mode : std::uint8_t { sum, keep };

// Threads and lifetime: a value, copied freely.
struct merge_options {
  parts_mode parts = parts_mode::sum;
  std::size_t max_line_length = 64u << 20;  // as reader_options
  unsigned threads = 1;                     // as reader_options (a compressed input decoded ahead)
  // As reader_options::max_name_bytes and builder_options::max_memory (0 = no limit).
  std::uint64_t max_memory = machine_memory_limit();
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct merge_stats {
  std::size_t inputs = 0;
  std::uint64_t parts_read = 0;  // parts over all inputs
  std::uint64_t bytes = 0, lines = 0;
  // The inputs' read_stats::state at its worst (stopped, then likely_truncated): complete if
  // every input was read whole. (Problems are counted by the diagnostic sink.)
  read_state state = read_state::complete;
};

// Reads `paths` ("-" = stdin, compressed or not) one after another into `out` (normally
// empty), then settles the merged headers as described above. The error result is the first
// input that could not be opened or read, or that holds no profile (error_code::no_profile:
// binary bytes, empty, or no `events:` line), its message beginning with the input's name
// (`out` then holds the inputs before it); problems inside the inputs are diagnostics.
CALLTREE_API result<merge_stats> merge_inputs(std::span<const std::string> paths, profile& out,
                                              diagnostic_sink& diagnostics,
                                              const merge_options& options = {});

// Writes `p` as a callgrind file. False if the stream failed.
CALLTREE_API bool write_callgrind(const profile& p, std::ostream& out,
                                  const writer_options& options = {});

}  // namespace calltree

// reader.h — the streaming Callgrind-format reader.
//
// What it is: one pass over the input that resolves all format state (name compression with
// the three shared id tables, relative subpositions, parts, jumps, calls) and emits records
// (records.h) to a sink, and diagnostics (diagnostic.h) for every problem, reading on after
// each recoverable one. Memory is the name tables plus one line, whatever the file size.
// What it is not: the profile (see profile_builder.h), nor a validator of semantics that need
// the whole profile. Our reading of every ambiguity is in share/doc/calltree/format.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "calltree/diagnostic.h"
#include "calltree/export.h"
#include "calltree/input.h"
#include "calltree/memory_limit.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "calltree/string_pool.h"

namespace calltree {

// How far reading has come, for a progress display (see reader_options::progress).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct read_progress {
  std::uint64_t bytes = 0;         // uncompressed bytes read so far
  std::uint64_t raw_consumed = 0;  // bytes of the file itself (compressed or not) read so far
  std::uint64_t raw_size = 0;      // the file's size, 0 if unknown (a pipe)
};

// What a user of the reader chooses. How records are summed or grouped is not among them: the
// sink says what it needs (record_needs, records.h) and the reader reads accordingly.
// Threads and lifetime: a value, copied freely; `progress` is called on the calling thread.
struct reader_options {
  std::string display_name = "<input>";     // the file name in diagnostics
  std::size_t max_line_length = 64u << 20;  // longer lines are skipped with an error
  // Stop with a limit_exceeded error once the name tables hold this many bytes (0 = no limit).
  // Starts at 3/4 of the machine's memory (memory_limit.h); the command-line tool sets its
  // --max-memory here.
  std::uint64_t max_name_bytes = machine_memory_limit();
  // Threads reading may use. 1: everything on the calling thread. 2 or more: a compressed
  // input is decoded on a thread of its own, ahead of the parsing; for a sink that takes sums
  // (record_needs::sums()), the input (a mapped plain file, or a zstd stream's or pipe's bytes
  // as they come) is cut into chunks at function boundaries that the other threads read ahead
  // on speculation. Records, diagnostics, names and read_stats are the same whatever the
  // number, except where the sink's needs leave room: runs summed may be cut in other places,
  // and sums per context grouped otherwise (the sums per key are the same). The sink is called
  // on the calling thread only.
  unsigned threads = 1;
  // Called on the calling thread after each block of input (every few MB), if set. The library
  // never prints: a command-line tool shows this on a terminal.
  std::function<void(const read_progress&)> progress;
};

// How a reading ended: whether the profile read is the whole file's (each state worse than
// the one before it).
// Threads and lifetime: a value.
enum class read_state : std::uint8_t {
  complete,          // read to its end, and the end is a profile's end
  likely_truncated,  // read to its end, but the file was likely cut short: its producer ends
                     // every file in a way this one does not end (the likely-truncated
                     // warnings say how); what was read is a prefix of the profile
  stopped,           // reading stopped before the end: an I/O error, a compressed stream that
                     // ends early, the file changed while it was read, a memory limit, or the
                     // sink wanted no more (the diagnostics say which, but for the last)
};

// "complete", "likely-truncated", "stopped".
CALLTREE_API std::string_view to_string(read_state s);

// What was read. The problems found are the diagnostics': count them with the diagnostic sink
// (diagnostic_collector::errors(), warnings()).
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct read_stats {
  std::uint64_t lines = 0;          // lines read
  std::uint64_t skipped_lines = 0;  // lines that could not be used (each has a diagnostic)
  std::uint64_t bytes = 0;          // uncompressed bytes read
  std::uint64_t parts = 0;
  std::uint64_t cost_lines = 0, call_lines = 0, jump_lines = 0;
  read_state state = read_state::complete;
  // A negative number was read (a file of differences, as cg_diff writes): every cost is a
  // signed number held as its two's-complement bit pattern (cost_matrix.h, "Signed costs").
  bool signed_costs = false;
  // The whole file was read and it looks whole.
  bool complete() const { return state == read_state::complete; }
};

// Reads all of `in`, records as `records.needs()` asks for them. Names are interned into
// `names` (the caller's pool, so a profile builder can share it). The result is an error when
// the input holds no profile (error_code::no_profile: binary bytes, an empty input, or no
// `events:` line; the message begins with options.display_name, and the diagnostics say more);
// every other problem is a diagnostic, and read_stats::state says whether the whole file was
// read. So a program checks three things, each once: the result (a profile or not), `state`
// (all of it or not), and the diagnostics' error count (a profile without mistakes or not).
CALLTREE_API result<read_stats> read_callgrind(input& in, string_pool& names, record_sink& records,
                                               diagnostic_sink& diagnostics,
                                               const reader_options& options = {});

}  // namespace calltree

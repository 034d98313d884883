// reader.h — the streaming Callgrind-format reader.
//
// What it is: one pass over the input that resolves all format state (name compression with
// the three shared id tables, relative subpositions, parts, jumps, calls) and emits records
// (records.h) to a sink, and diagnostics (diagnostic.h) for every problem, reading on after
// each recoverable one. Memory is the name tables plus one line, whatever the file size.
// What it is not: the profile (see profile_builder.h), nor a validator of semantics that need
// the whole profile. Our reading of every ambiguity is in docs/format.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/memory_limit.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "calltree/string_pool.h"

namespace calltree {

// How far reading has come, for a progress display (see reader_options::progress).
struct read_progress {
  std::uint64_t bytes = 0;         // uncompressed bytes read so far
  std::uint64_t raw_consumed = 0;  // bytes of the file itself (compressed or not) read so far
  std::uint64_t raw_size = 0;      // the file's size, 0 if unknown (a pipe)
};

struct reader_options {
  std::string display_name = "<input>";     // the file name in diagnostics
  std::size_t max_line_length = 64u << 20;  // longer lines are skipped with an error
  // Stop with a limit_exceeded error once the name tables hold this many bytes (0 = no limit).
  // Starts at the process's memory limit (memory_limit.h: --max-memory, else 3/4 of memory).
  std::uint64_t max_name_bytes = default_memory_limit();
  // Threads reading may use. 1: everything on the calling thread. 2 or more: a compressed
  // input is decoded on a thread of its own, ahead of the parsing; read with sum_cost_runs or
  // cost_run_records, the input (a mapped plain file, or a zstd stream's or pipe's bytes as
  // they come) is cut into chunks at function boundaries that the other threads read ahead on
  // speculation (see reader.cc, "The parallel path", and chunk_feed.h). Records, diagnostics,
  // names and read_stats are the same whatever the number, except that runs of sum_cost_runs
  // may be cut in other places, sums of sum_by_context grouped otherwise (the sums per key are
  // the same), and cost lines may come in cost_run_records: tests/unit/reader_parallel_test.cc,
  // tests/cli/threads.sh.
  unsigned threads = 1;
  // For sinks that ignore positions (annotate with no source to show): consecutive self-cost
  // lines of one context (object, file, source file, function) may arrive as one cost record,
  // costs summed (saturating), `given` the largest, `line` and `pos` those of the first line.
  // Every other record, every diagnostic and read_stats are as without it.
  bool sum_cost_runs = false;
  // For sinks that take sums and look at no position (annotate with no source to show, check):
  // records may also arrive summed beyond runs, each sum at the place of its key's first
  // record, with that record's line and positions and the largest `given`: self costs per
  // context; calls per context, callee (object, file, function) and has_target, counts
  // summed too; jumps per context, conditional and target file and function, both counts
  // summed. (The parallel path sums each chunk so, to hand the other thread fewer records.)
  // Implies sum_cost_runs. Every diagnostic and read_stats are as without it.
  bool sum_by_context = false;
  // With sum_cost_runs or sum_by_context, for sinks that look at no position but the line
  // (annotate's source annotation): a run ends where the `line` column changes, and sums are
  // per key and line (a call's per key and call-site line, a jump's per key, source line and
  // target line), each with its records' line.
  bool sum_per_line = false;
  // With sum_per_line: whether the sink looks at the lines of this source file (a name as
  // written); where not, sums are per key alone, as without sum_per_line. Called once per name
  // and reading thread, from any of them. Empty: every file.
  std::function<bool(std::string_view source_file)> lines_of;
  // For sinks that take a run of one context's self-cost lines at once (the model's self rows
  // handed on as they come, builder_options::self_rows_to): on the parallel path, a chunk read
  // ahead hands each run of cost lines of one context (calls and jumps between them do not end
  // it) to record_sink::on_cost_run, the calls and jumps between its lines after it; every line
  // is still there, with its own line number, position and costs. It turns the parallel path
  // on without summing (the sink's per-line work, not the parsing, moves off this thread).
  // Every other record, every diagnostic and read_stats are as without it.
  bool cost_run_records = false;
  // With cost_run_records, for sinks that sum a function's cost lines per source file and
  // position (the model's self rows): a chunk read ahead adds each cost line to the earlier
  // line of its function (object, file, name) at the same source file and position, if the
  // chunk has one, as the model sums them, in the earlier line's place (its line number,
  // the largest `given`). The runs it hands over then hold one line per place of the chunk,
  // and say so (cost_run_record::merged_chunk): the sink looks nothing up within a chunk.
  // A chunk whose names map two of its own to one name in the real pool (which could make
  // two places of the chunk one) is read directly instead. Lines read directly come one by
  // one, as without it. Every other record, every diagnostic and read_stats are as without it.
  bool merge_cost_lines = false;
  // For sinks that keep no jumps: jump lines are read and checked as ever, and counted in
  // read_stats, but no jump records are sent.
  bool skip_jump_records = false;
  // The chunk size of the parallel path (0: the defaults, 128 KiB of a mapped file, 256 KiB of
  // decoded input). Tests make it small.
  std::size_t chunk_bytes = 0;
  // Tests: on the parallel path, every chunk after the first is read on speculation (then
  // adopted if it holds), none directly while a speculation could have been, whatever the
  // threads' timing; so which chunks are adopted depends on the input only.
  bool speculate_every_chunk = false;
  // Called on the calling thread after each block of input (every few MB), if set. The library
  // never prints: a command-line tool shows this on a terminal.
  std::function<void(const read_progress&)> progress;
};

struct read_stats {
  std::uint64_t lines = 0;          // lines read
  std::uint64_t skipped_lines = 0;  // lines that could not be used (each has a diagnostic)
  std::uint64_t bytes = 0;          // uncompressed bytes read
  std::uint64_t parts = 0;
  std::uint64_t cost_lines = 0, call_lines = 0, jump_lines = 0;
  std::uint64_t errors = 0, warnings = 0;
  bool complete = true;  // false if reading stopped early (I/O error, truncation, limit)
  // Chunks of the parallel path whose speculative reading was used (0 on the serial path).
  // Not a fact of the input: tests look at it, outputs do not show it.
  std::uint64_t speculated_chunks = 0;
};

// Reads all of `in`. Names are interned into `names` (the caller's pool, so a profile builder
// can share it). The result is an error only when the input could not be read at all;
// everything else is a diagnostic and `read_stats` counts it.
result<read_stats> read_callgrind(input& in, string_pool& names, record_sink& records,
                                  diagnostic_sink& diagnostics, const reader_options& options = {});

}  // namespace calltree

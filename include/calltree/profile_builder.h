// profile_builder.h — the record sink that builds a profile, and `load_profile`.
//
// What it is: aggregation. Records for the same (part, function, source file, position) are
// summed into one self row, calls into one call row per (part, caller, site, callee, target),
// jumps likewise, so memory grows with distinct positions, not with lines (Xdebug's one block
// per call becomes one row). Several inputs may be built into one profile (merge).
// What it is not: format handling (the reader did all of it) or analysis.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "calltree/diagnostic.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/records.h"

namespace calltree {

// Where a builder hands its self rows when it keeps none (builder_options::self_rows_to): the
// rows of one run of a function at a time, once the run is over. A run is the self rows of
// one (part, function) read without a record of another function's self cost between them
// (a callgrind dump writes each function's cost lines together, but for a few functions it
// writes in two blocks; Xdebug writes a block per call). The rows of a run are summed within
// it as the model sums them: one row per source file and position, in the order first read.
// The model's rows of a function are those of its runs summed the same way: a row of a later
// run that is at the source file and position of an earlier run's row is that row (the stream
// sums them); the others follow every row read before them.
class self_row_stream {
 public:
  virtual ~self_row_stream() = default;
  // `rows` (all of one part and function) with their costs (`costs.row(i)`, in the order of
  // `p.events`). `p` is the profile being built: its names, events and parts so far.
  virtual void take(const profile& p, std::span<const self_row> rows, const cost_matrix& costs) = 0;
  // The rows of a run of cost lines a chunk read ahead merged by place
  // (record_needs::runs_merged_by_place, cost_run_record::merged_chunk): one row a line, each
  // `first` but for its position (`lines[i].pos`), `costs` the rows' costs (`columns` a row,
  // in the order of `p.events`). No row handed on with the same `chunk` for this function is
  // at the place of another (the stream need look up none of them against each other); rows
  // of earlier chunks may be. The builder hands on whatever it had first. By default, as
  // take() of those rows.
  virtual void take_lines(const profile& p, const self_row& first, std::span<const cost_line> lines,
                          const std::uint64_t* costs, std::size_t columns, std::uint64_t chunk);
  // True once the stream gave up (what it makes of the rows cannot be the model's): the
  // builder then wants no more records (record_sink::wants_no_more).
  virtual bool given_up() const { return false; }
};

struct builder_options {
  // Fold every part into one part (the first input's header): `merge --parts=sum`.
  bool sum_parts = false;
  // The position columns to keep (position_kind bits). A report that works by source line
  // (annotate) keeps pos_line only: rows of one line then merge, and an instruction-level
  // profile takes a fraction of the memory. Dropped columns read as 0.
  std::uint8_t keep_positions = pos_instr | pos_bb | pos_line;
  // Keep jump rows (callgrind --collect-jumps); a report that shows no jumps can drop them.
  bool keep_jumps = true;
  // Stop keeping records once the model (names, functions, rows, their costs and indexes) would
  // take more than this many bytes: one limit_exceeded error, and the profile holds exactly the
  // records before it (later parts are dropped whole). 0 = no limit. Starts at the process's
  // memory limit (memory_limit.h: --max-memory, else 3/4 of the machine's memory).
  std::uint64_t max_memory = default_memory_limit();
  // Keep no self rows: hand each run's to this stream (`export --to=json` writes them as they
  // come). The profile must be empty at the start; calls, jumps, names and parts are built as
  // ever.
  self_row_stream* self_rows_to = nullptr;
};

class profile_builder final : public record_sink {
 public:
  // `p.strings` must be the pool the reader interns into.
  explicit profile_builder(profile& p, diagnostic_sink* diagnostics = nullptr,
                           std::string display_name = {}, builder_options options = {});
  ~profile_builder() override;
  profile_builder(const profile_builder&) = delete;
  profile_builder& operator=(const profile_builder&) = delete;

  // From its options: with self_rows_to, runs merged by place; with no position kept, sums
  // per context (one row per function and file, per caller and callee, however the records
  // came); else every line. Jumps as keep_jumps.
  record_needs needs() const override;
  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_cost_run(const cost_run_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;
  // With builder_options::self_rows_to: once the stream gave up.
  bool wants_no_more() const override;

  // Name the next input (for diagnostics) when one builder reads several inputs.
  void set_display_name(std::string name);

  // True once builder_options::max_memory stopped the build (the profile is incomplete).
  bool limit_hit() const;

  // With builder_options::self_rows_to: hands on the run not yet handed on (the last one).
  // on_part_end does it too; call it once every record is in.
  void finish_stream();

  // A hint before the first part: the input about to be read has `bytes` bytes of text. Into a
  // model without rows yet, the row tables are reserved for the rows such a file may hold (by
  // the bytes a row takes at least on instruction-level profiles), so they are not moved while
  // they grow: pages reserved are not touched until rows fill them, and the memory guard
  // counts the rows held, not the room reserved. No effect past max_memory / 2 or with rows.
  void expect_input_bytes(std::uint64_t bytes);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Reads `path` ("-" = stdin, compressed or not) into `out` (which may already hold profiles:
// they are merged). Fatal I/O errors are the error result; everything else is a diagnostic.
result<read_stats> load_profile(const std::string& path, profile& out, diagnostic_sink& diagnostics,
                                reader_options options = {}, builder_options build = {});

// Emits the profile as records, part by part and function by function, so any record sink
// (the writer, the checker, dump) can take a profile as it takes a file. `model`: functions
// and rows in the order they were first read; `canonical`: functions by (object, file, name),
// each function's rows by source file and position, so that the same facts give the same
// records however they were read (what `calltree merge` writes).
enum class replay_order : std::uint8_t { model, canonical };
void replay(const profile& p, record_sink& sink, replay_order order = replay_order::model);

}  // namespace calltree

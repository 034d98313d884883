// builder_access.h — the tools' own uses of a profile builder, not the library's API: self
// rows handed on run by run instead of kept (`export --to=json`), and a hint of the input's
// size that reserves the row tables.
// What it is not: a way to change what a builder makes of its records (profile_builder.h).
#pragma once

#include <cstdint>
#include <span>

#include "calltree/profile_builder.h"
#include "model/run_sink.h"

namespace calltree {

// Where a builder hands its self rows when it keeps none (builder_access::stream_self_rows): the
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
  // (read_needs::grain::runs_merged_by_place, cost_run_record::merged_chunk): one row a line, each
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

// What the tools (cli/, export/, bench/) ask of a builder beyond the public API (through the
// builder's state, profile_builder::impl, builder_state.h).
struct builder_access {
  // Keep no self rows: hand each run's to `stream` (`export --to=json` writes them as they
  // come). Before the first record; the profile must be empty. Read into a streaming_sink of
  // the builder (below), which asks for runs merged by place. Calls, jumps, names and parts are
  // built as ever. wants_no_more() once the stream gave up.
  static void stream_self_rows(profile_builder& b, self_row_stream* stream);
  // The builder `b` as the reader is to see it once it streams its self rows: its records, and
  // the cost lines of chunks read ahead in runs merged by place, which it hands on to its stream
  // as they are (a run at a time). Without stream_self_rows, the builder itself.
  class streaming_sink final : public run_sink {
   public:
    explicit streaming_sink(profile_builder& b) : b_(b) {}
    record_needs needs() const override { return b_.needs(); }
    read_needs reader_needs() const override;
    void on_part_begin(const part_header& h) override { b_.on_part_begin(h); }
    void on_cost(const cost_record& r) override { b_.on_cost(r); }
    void on_cost_run(const cost_run_record& r) override;
    void on_call(const call_record& r) override { b_.on_call(r); }
    void on_jump(const jump_record& r) override { b_.on_jump(r); }
    void on_part_end(const part_end& e) override { b_.on_part_end(e); }
    bool wants_no_more() const override { return b_.wants_no_more(); }

   private:
    profile_builder& b_;
  };
  // With stream_self_rows: hands on the run not yet handed on (the last one). on_part_end does
  // it too; call it once every record is in.
  static void finish_stream(profile_builder& b);
  // A hint before the first part: the input about to be read has `bytes` bytes of text. Into a
  // model without rows yet, the row tables are reserved for the rows such a file may hold (by
  // the bytes a row takes at least on instruction-level profiles), so they are not moved while
  // they grow: pages reserved are not touched until rows fill them, and the memory guard
  // counts the rows held, not the room reserved. No effect past max_memory / 2 or with rows.
  static void expect_input_bytes(profile_builder& b, std::uint64_t bytes);
};

}  // namespace calltree

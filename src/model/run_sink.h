// run_sink.h — (internal) what the library's own sinks may ask of the reader beyond
// record_needs (calltree/records.h): cost lines of a chunk read ahead handed over run by run
// (and merged by place), and sums per line for some source files only.
//
// What it is: the reader's grains, the public ones and the two of chunks read ahead between
// them; a sink of the library's that wants them is a run_sink, and the reader asks it
// reader_needs() instead of needs(). What it is not: API: a sink of a library user's takes
// records one by one or summed (record_needs), which every run_sink also takes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "calltree/records.h"

namespace calltree {

// A run of self-cost lines of one context, as a chunk read ahead hands them over to a sink
// that asked for runs (read_needs::grain::runs_of_lines): each line as its own cost_record
// would have it but for the context, which they share, and the costs, which are `costs` row by
// row, the part's event count to a row. Calls and jumps written between two of the lines come
// after the run.
struct cost_line {
  std::uint64_t line = 0;
  position pos;
  std::uint32_t given = UINT32_MAX;
};
struct cost_run_record {
  context ctx;
  std::span<const cost_line> lines;      // at least one
  std::span<const std::uint64_t> costs;  // lines.size() rows, each as cost_record::costs
  // With runs_merged_by_place, the number of the chunk the run was read in (0: a run whose
  // lines were not merged). The lines of the runs of one chunk are at distinct places of their
  // function: no two runs with one number, of one function (object, file, name), hold a line
  // at the same source file and position. The numbers grow.
  std::uint64_t merged_chunk = 0;
  std::span<const std::uint64_t> costs_of(std::size_t i) const {
    const std::size_t n = costs.size() / lines.size();
    return costs.subspan(i * n, n);
  }
};

// record_needs with the reader's own grains. Each grain allows every grain before it.
struct read_needs {
  enum class grain : std::uint8_t {
    each_line,  // record_needs::grain::each_line
    // Every line, but a chunk read ahead on another core hands each run of one context's
    // cost lines over at once (on_cost_run; calls and jumps between them come after it), for
    // a sink whose work per line outweighs the reading (the model's self rows, handed on).
    runs_of_lines,
    // As runs_of_lines, and a chunk read ahead adds each cost line to the earlier line of its
    // function (object, file, name) at the same source file and position, in that line's place
    // (its line number, the largest `given`): for a sink that sums per place as the model does
    // (cost_run_record::merged_chunk). Lines read on the reading thread come one by one.
    runs_merged_by_place,
    sums_per_run,      // record_needs::grain::sums_per_run
    sums_per_context,  // record_needs::grain::sums_per_context
  };
  grain costs = grain::each_line;
  // record_needs::per_line, for the source files `lines_of` says yes to (a name as written;
  // asked once per name and reading thread, from any of them), or for every file where
  // `lines_of` is empty.
  bool per_line = false;
  std::function<bool(std::string_view source_file)> lines_of;
  bool jumps = true;

  read_needs() = default;
  // What a sink's record_needs asks for.
  read_needs(const record_needs& n)  // NOLINT(google-explicit-constructor): every one is one
      : costs(n.costs == record_needs::grain::each_line      ? grain::each_line
              : n.costs == record_needs::grain::sums_per_run ? grain::sums_per_run
                                                             : grain::sums_per_context),
        per_line(n.per_line),
        jumps(n.jumps) {}
  bool sums() const { return costs >= grain::sums_per_run; }
};

// A sink of the library's own that takes runs of cost lines, or asks for sums per line of
// some files only.
class run_sink : public record_sink {
 public:
  // What the reader is to send (by default what needs() says).
  virtual read_needs reader_needs() const { return needs(); }
  // Only when reader_needs() asked for runs. By default, a cost record a line, in order.
  virtual void on_cost_run(const cost_run_record& r);
};

// A run as the cost records of its lines, in order, to `sink` (what a sink that takes no runs
// is given).
inline void send_lines(record_sink& sink, const cost_run_record& r) {
  cost_record c;
  c.ctx = r.ctx;
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    c.line = r.lines[i].line;
    c.pos = r.lines[i].pos;
    c.given = r.lines[i].given;
    c.costs = r.costs_of(i);
    sink.on_cost(c);
  }
}
inline void run_sink::on_cost_run(const cost_run_record& r) { send_lines(*this, r); }

// What the reader sends `sink`: a run_sink's reader_needs(), any other sink's needs().
inline read_needs reader_needs_of(const record_sink& sink) {
  if (const auto* r = dynamic_cast<const run_sink*>(&sink)) return r->reader_needs();
  return sink.needs();
}

}  // namespace calltree

// records.h — the complete facts the reader emits, and the sink interface that takes them.
//
// What it is: the contract between the reader (which owns every piece of format state: the
// name-id tables, relative subpositions, the current object/file/function, parts) and the
// sinks (profile builder, writer, checker, dump). A record is self-contained: a cost record
// names its object, function, files and absolute position. No sink keeps format state.
// What it is not: the profile model. Records are not aggregated; the same function and line may
// arrive many times (Xdebug writes one block per call) and it is the builder that sums them.
// ("Event" is the format's word for Ir, Dr, ...; the parser's output is therefore a record.)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "calltree/string_pool.h"

namespace calltree {

// Which position columns a part has (`positions:`), in the spec's order: instr, bb, line.
enum position_kind : std::uint8_t { pos_instr = 1, pos_bb = 2, pos_line = 4 };

// A subposition tuple; only the columns named by the part's `positions:` are meaningful.
struct position {
  std::uint64_t instr = 0;
  std::uint64_t bb = 0;
  std::uint64_t line = 0;
  friend bool operator==(const position&, const position&) = default;
};

// `event: Name [= formula] [: long name]`.
struct event_definition {
  std::string name;
  std::string formula;    // as written, e.g. "Ir + 10 Bm"; empty if none
  std::string long_name;  // empty if none
};

// Everything a part's header said. Emitted once the header is complete (at the first body line
// or at the end of the part), so `events` and `positions` are final.
struct part_header {
  std::uint64_t line = 0;   // where the part began in the input
  std::uint32_t index = 0;  // 0-based order of the part in the input
  std::string version;      // as written ("1"); empty if absent
  std::string creator;
  std::string cmd;  // trimmed
  std::optional<std::uint64_t> pid, thread, part_number;
  std::vector<std::pair<std::string, std::string>> descriptions;  // desc: type: value
  // Each desc: line as written after "desc:" and the blanks after it (callgrind_annotate
  // prints these verbatim, inner spacing and trailing blanks included).
  std::vector<std::string> description_lines;
  std::uint8_t positions = pos_line;  // position_kind bits
  std::vector<std::string> events;    // the `events:` names, in file order
  std::vector<event_definition> event_definitions;
  std::optional<std::vector<std::uint64_t>> summary;  // padded to events.size()
  std::vector<std::string> unknown_lines;             // header lines kept verbatim (key: value)
};

// Where a cost belongs: the function context shared by all body records.
struct context {
  string_id object = string_pool::empty;       // ob=
  string_id file = string_pool::empty;         // fl= : the function's file (part of identity)
  string_id source_file = string_pool::empty;  // fi=/fe= (inlined code) or fl=
  string_id function = string_pool::empty;     // fn=
};

// A self-cost line: cost of `ctx.function` at `pos` in `ctx.source_file`.
struct cost_record {
  std::uint64_t line = 0;
  context ctx;
  position pos;
  std::span<const std::uint64_t> costs;  // one per part event (missing ones are 0)
  // How many cost values the line wrote (the rest of `costs` is padding). callgrind_annotate
  // prints "." for a column never written and "0" for one written as 0.
  std::uint32_t given = UINT32_MAX;
};

// `calls=count target` and the cost line after it: inclusive cost of `count` calls from the
// call site `site` of ctx.function to callee_function, whose code starts at `target`.
struct call_record {
  std::uint64_t line = 0;  // the line of the calls= key
  context ctx;
  string_id callee_object = string_pool::empty;
  string_id callee_file = string_pool::empty;
  string_id callee_function = string_pool::empty;
  std::uint64_t count = 0;
  position site;
  position target;
  bool has_target = false;
  std::span<const std::uint64_t> costs;
  std::uint32_t given = UINT32_MAX;  // cost values written on the line (see cost_record)
};

// `jump=count target` or `jcnd=followed/executed target`, with its source position line.
struct jump_record {
  std::uint64_t line = 0;
  context ctx;
  bool conditional = false;
  std::uint64_t executed = 0;  // jump=: the count; jcnd=: times the branch was executed
  std::uint64_t followed = 0;  // jump=: the count; jcnd=: times the jump was taken
  position source;
  string_id target_file = string_pool::empty;      // jfi= or the current source file
  string_id target_function = string_pool::empty;  // jfn= or the current function
  position target;
};

// A run of self-cost lines of one context, as a chunk read ahead hands them over
// (reader_options::cost_run_records): each line as its own cost_record would have it but for
// the context, which they share, and the costs, which are `costs` row by row, the part's event
// count to a row. Calls and jumps written between two of the lines come after the run.
struct cost_line {
  std::uint64_t line = 0;
  position pos;
  std::uint32_t given = UINT32_MAX;
};
struct cost_run_record {
  context ctx;
  std::span<const cost_line> lines;      // at least one
  std::span<const std::uint64_t> costs;  // lines.size() rows, each as cost_record::costs
  // With reader_options::merge_cost_lines, the number of the chunk the run was read in (0: a
  // run whose lines were not merged). The lines of the runs of one chunk are at distinct
  // places of their function: no two runs with one number, of one function (object, file,
  // name), hold a line at the same source file and position. The numbers grow.
  std::uint64_t merged_chunk = 0;
  std::span<const std::uint64_t> costs_of(std::size_t i) const {
    const std::size_t n = costs.size() / lines.size();
    return costs.subspan(i * n, n);
  }
};

// The end of a part: what its `summary:` (if it came after the body) and `totals:` said.
struct part_end {
  std::uint64_t line = 0;
  std::optional<std::vector<std::uint64_t>> summary;  // padded to the part's event count
  std::optional<std::vector<std::uint64_t>> totals;
  std::vector<std::uint64_t> computed;  // sum of the part's self costs (saturated at 2^64-1)
};

class record_sink {
 public:
  virtual ~record_sink() = default;
  virtual void on_part_begin(const part_header&) {}
  virtual void on_cost(const cost_record&) {}
  // Only with reader_options::cost_run_records. By default, a cost record a line, in order.
  virtual void on_cost_run(const cost_run_record& r) {
    cost_record c;
    c.ctx = r.ctx;
    for (std::size_t i = 0; i < r.lines.size(); ++i) {
      c.line = r.lines[i].line;
      c.pos = r.lines[i].pos;
      c.given = r.lines[i].given;
      c.costs = r.costs_of(i);
      on_cost(c);
    }
  }
  virtual void on_call(const call_record&) {}
  virtual void on_jump(const jump_record&) {}
  virtual void on_part_end(const part_end&) {}
  // Whether the sink wants no more records (it gave up on what it was making from them): the
  // reader then stops at the end of the block or chunk it is reading (a MB at most), with no
  // diagnostic, and read_stats::complete false. Asked once a block.
  virtual bool wants_no_more() const { return false; }
};

// Sends every record to several sinks in turn.
class tee_sink final : public record_sink {
 public:
  explicit tee_sink(std::vector<record_sink*> sinks) : sinks_(std::move(sinks)) {}
  void on_part_begin(const part_header& h) override {
    for (auto* s : sinks_) s->on_part_begin(h);
  }
  void on_cost(const cost_record& r) override {
    for (auto* s : sinks_) s->on_cost(r);
  }
  void on_cost_run(const cost_run_record& r) override {
    for (auto* s : sinks_) s->on_cost_run(r);
  }
  void on_call(const call_record& r) override {
    for (auto* s : sinks_) s->on_call(r);
  }
  void on_jump(const jump_record& r) override {
    for (auto* s : sinks_) s->on_jump(r);
  }
  void on_part_end(const part_end& e) override {
    for (auto* s : sinks_) s->on_part_end(e);
  }
  bool wants_no_more() const override {
    for (auto* s : sinks_)
      if (s->wants_no_more()) return true;
    return false;
  }

 private:
  std::vector<record_sink*> sinks_;
};

}  // namespace calltree

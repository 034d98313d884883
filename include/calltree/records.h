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
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/export.h"
#include "calltree/string_pool.h"

namespace calltree {

// Which position columns a part has (`positions:`), in the spec's order: instr, bb, line.
// Threads and lifetime: a value.
enum position_kind : std::uint8_t { pos_instr = 1, pos_bb = 2, pos_line = 4 };

// A subposition tuple; only the columns named by the part's `positions:` are meaningful.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct position {
  std::uint64_t instr = 0;
  std::uint64_t bb = 0;
  std::uint64_t line = 0;
  friend bool operator==(const position&, const position&) = default;
};

// `event: Name [= formula] [: long name]`.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct event_definition {
  std::string name;
  std::string formula;    // as written, e.g. "Ir + 10 Bm"; empty if none
  std::string long_name;  // empty if none
};

// Everything a part's header said. Emitted once the header is complete (at the first body line
// or at the end of the part), so `events` and `positions` are final.
// Threads: a value. Lifetime: as every record, given to a sink for the call that hands it over
// (copy what you keep).
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
// Threads and lifetime: a value; its ids name strings of the reader's pool.
struct context {
  string_id object = string_pool::empty;       // ob=
  string_id file = string_pool::empty;         // fl= : the function's file (part of identity)
  string_id source_file = string_pool::empty;  // fi=/fe= (inlined code) or fl=
  string_id function = string_pool::empty;     // fn=
};

// A self-cost line: cost of `ctx.function` at `pos` in `ctx.source_file`.
// Threads: a value. Lifetime: valid during the call that hands it over (its costs are a span into
// the reader's buffer).
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
// Threads: a value. Lifetime: valid during the call that hands it over (its costs are a span into
// the reader's buffer).
struct call_record {
  std::uint64_t line = 0;  // the line of the calls= key
  context ctx;
  string_id callee_object = string_pool::empty;
  string_id callee_file = string_pool::empty;
  string_id callee_function = string_pool::empty;
  std::uint64_t count = 0;
  position site;
  position target;  // all zero when the calls= line has no target (has_target false)
  bool has_target = false;
  std::span<const std::uint64_t> costs;
  std::uint32_t given = UINT32_MAX;  // cost values written on the line (see cost_record)
};

// `jump=count target` or `jcnd=followed/executed target`, with its source position line.
// Threads: a value. Lifetime: valid during the call that hands it over.
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

// The end of a part: what its `summary:` (if it came after the body) and `totals:` said.
// Threads: a value. Lifetime: valid during the call that hands it over (copy what you keep).
struct part_end {
  std::uint64_t line = 0;
  std::optional<std::vector<std::uint64_t>> summary;  // padded to the part's event count
  std::optional<std::vector<std::uint64_t>> totals;
  std::vector<std::uint64_t> computed;  // sum of the part's self costs (saturated at 2^64-1)
  // The file had a negative number up to here (this part or one before): its costs are signed
  // (cost_matrix.h), every number above its bit pattern.
  bool signed_costs = false;
};

// What a sink wants of the records (record_sink::needs): the reader reads so as to give it
// that and no more, summing lines where the sink says it may. Fewer records for the lines read
// is also what lets reading use a second core (reader.h, `threads`). A sink may always be given
// finer records than it asked for: each grain allows every grain before it, and tee_sink asks
// for the finest of its sinks (finest()).
// Threads and lifetime: a value, copied freely.
struct record_needs {
  enum class grain : std::uint8_t {
    // Every self-cost line as its own cost record, every record in file order (the default).
    each_line,
    // Consecutive self-cost lines of one context as one cost record: costs summed (saturating),
    // `given` the largest, `line` and `pos` those of the first line. For a sink that looks at
    // no position.
    sums_per_run,
    // Records summed beyond runs, each sum in the place of its key's first record (its line
    // and positions, the largest `given`): self costs per context; calls per context, callee
    // (object, file, function) and has_target, counts summed too; jumps per context,
    // conditional and target file and function, both counts summed. For a sink that takes
    // sums and looks at no position (check, annotate with no source to show).
    sums_per_context,
  };
  grain costs = grain::each_line;
  // With sums_per_run or sums_per_context, for a sink that looks at no position but the line
  // (annotate's source annotation): a run ends where the `line` column changes, and sums are
  // per key and line (a call's per key and call-site line, a jump's per key, source line and
  // target line), each with its records' line. Elsewhere sums are per key alone.
  bool per_line = false;
  // Jump records. Without them jump lines are still read, checked and counted (read_stats).
  bool jumps = true;

  bool sums() const { return costs >= grain::sums_per_run; }
  // What both `a` and `b` can take: the finer grain, sums per line where either sums per line,
  // jumps if either wants them.
  static record_needs finest(const record_needs& a, const record_needs& b) {
    record_needs n;
    n.costs = a.costs < b.costs ? a.costs : b.costs;
    n.jumps = a.jumps || b.jumps;
    n.per_line = n.sums() && (a.per_line || b.per_line);
    return n;
  }
};

// Threads: the reader calls a sink on the thread that called it, one call at a time.
// Lifetime: a record and what it points to (costs, lines) are valid during the call only;
// string ids stay valid as long as the pool the reader interns into.
class CALLTREE_API record_sink {
 public:
  virtual ~record_sink() = default;
  // The records this sink wants (see record_needs); asked once, before the first record. By
  // default every line, in order, with jumps.
  virtual record_needs needs() const { return {}; }
  virtual void on_part_begin(const part_header&) {}
  virtual void on_cost(const cost_record&) {}
  virtual void on_call(const call_record&) {}
  virtual void on_jump(const jump_record&) {}
  virtual void on_part_end(const part_end&) {}
  // Whether the sink wants no more records (it gave up on what it was making from them): the
  // reader then stops at the end of the block or chunk it is reading (a MB at most), with no
  // diagnostic, and read_stats::state `stopped`. Asked once a block.
  virtual bool wants_no_more() const { return false; }
};

// Sends every record to several sinks in turn. It asks for the finest records any of them asks
// for (record_needs::finest).
// Threads: as record_sink. Lifetime: the sinks must outlive it (it holds pointers to them).
class CALLTREE_API tee_sink final : public record_sink {
 public:
  explicit tee_sink(std::vector<record_sink*> sinks) : sinks_(std::move(sinks)) {}
  record_needs needs() const override {
    if (sinks_.empty()) return {};
    record_needs n = sinks_.front()->needs();
    for (std::size_t i = 1; i < sinks_.size(); ++i) n = record_needs::finest(n, sinks_[i]->needs());
    return n;
  }
  void on_part_begin(const part_header& h) override {
    for (auto* s : sinks_) s->on_part_begin(h);
  }
  void on_cost(const cost_record& r) override {
    for (auto* s : sinks_) s->on_cost(r);
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

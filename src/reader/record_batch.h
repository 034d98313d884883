// record_batch.h — (internal) records kept in memory in order, to be sent on later.
//
// What it is: the output of a speculative reading of one chunk (speculation.h, parallel.cc):
// a record sink that copies each record (its costs into one array) and the notes the
// reading kept, and a replay that sends them, in order, to another sink once the chunk's names
// are known in the real pool.
// Summing (sums per context, record_needs::sums_per_context), it keeps one record per key instead:
// self costs per context, calls per context, callee and has_target, jumps per context, kind and
// target names (and per line, with sum_per_line); each sum stays where its key first appeared, and
// keeps that record's line and positions.
// With runs of lines (read_needs::grain::runs_of_lines, and no summing), it keeps the cost lines of
// each run of one context together instead (calls and jumps between them do not end the run, a note
// does), and replays them as one cost_run_record, where the run's first line was.
// Merging as well (read_needs::grain::runs_merged_by_place), a cost line at the source file and
// position of an earlier line of its function in the chunk is added to that line instead of
// kept (see on_cost, "Merging").
// What it is not: a queue between threads (one thread fills it, then another replays it).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/records.h"
#include "model/row_index.h"
#include "model/run_sink.h"
#include "reader/null_diagnostics.h"

namespace calltree::detail {

class record_batch final : public record_sink {
 public:
  // The chunk's pool ids -> the real pool's (replay).
  using name_map = id_vector<string_id, string_id>;
  void on_part_begin(const part_header&) override { part_records_ = true; }
  void on_part_end(const part_end&) override { part_records_ = true; }
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;

  // A part began or ended: the speculation cannot stand (the reader stops it before).
  bool part_records() const { return part_records_; }
  // A sum went above 2^64-1 (summing only): the speculation cannot stand, the chunk is read
  // directly, where the builder reports it where it happens.
  bool overflowed() const { return overflowed_; }
  // `summing`: one record per key (sums per context, record_needs::sums_per_context). `runs` (not
  // summing): cost lines kept as runs (runs of lines); `merging` too: merged by place (runs merged
  // by place).
  void clear(bool summing = false, bool runs = false, bool merging = false);
  // After clear(true): per key and line position (self costs) or call-site line (calls) for
  // the records whose source file `per_line` says yes to (record_needs::per_line).
  void sum_per_line(std::function<bool(string_id)> per_line) { per_line_ = std::move(per_line); }

  // A note the speculative reading kept (speculation.h: the notes about their own line's tokens),
  // in its place among the records. `line_text` points into the input, which stays mapped.
  // keep_note() copies the message (a deque: the copies stay where they are as it grows).
  struct note {
    diag_code code;
    std::uint64_t line;
    std::size_t col, len;
    std::string_view line_text;
    std::string_view message;
  };
  void keep_note(const note& n);

  // Merging, for the reader's loop over a run of cost lines (fast_paths.cc, fast_cost_run): whether
  // the last cost line went to an open run of context `c`, and the next cost line of `c` (its
  // number, position, and `width` costs, as the run's lines have, `given` of them written), as
  // on_cost would take it. The lines that need no lookup are taken here, inline.
  bool open_run_of(const context& c) const {
    return merging_ && run_open_ && !runs_.empty() && runs_.back().count &&
           same_context(runs_.back().ctx, c);
  }
  void merge_in_run(std::uint64_t line, const position& pos, const std::uint64_t* costs,
                    std::uint32_t given) {
    run& u = runs_.back();
    cost_line& last = lines_.back();
    if (last.pos == pos) {
      std::uint64_t* v = run_values_.data() + run_values_.size() - u.width;
      for (std::size_t k = 0; k < u.width; ++k)
        overflowed_ |= __builtin_add_overflow(v[k], costs[k], &v[k]);
      last.given = std::max(last.given, given);
      return;
    }
    function_lines& f = functions_[u.function];
    if (f.indexed || !after(f.last, pos)) return merge_slow(line, pos, costs, given);
    f.last = pos;
    ++f.lines;
    ++u.count;
    lines_.push_back(cost_line{line, pos, given});
    run_values_.insert(run_values_.end(), costs, costs + u.width);
  }

  // Merging: whether `map` keeps the places the chunk merged by apart, i.e. maps no two ids
  // the runs use in one field of their contexts (object, file, function, source file) to one.
  bool map_keeps_places(const name_map& map);

  // Sends every record to `sink`, with each string id `s` replaced by map[s] and `line_base`
  // added to each line number, and each note to `on_note` (its line as it was) in its place
  // among them. Merging, each run says it is of chunk `chunk` (cost_run_record::merged_chunk).
  void replay(record_sink& sink, const name_map& map, std::uint64_t line_base,
              const std::function<void(const note&)>& on_note, std::uint64_t chunk = 0);

 private:
  enum class item : std::uint8_t { cost, call, jump, note, run };
  std::vector<item> order_;
  std::vector<note> notes_;           // each viewing its message in messages_
  std::deque<std::string> messages_;  // each once while it repeats (mostly one for all)
  std::vector<cost_record> costs_;
  std::vector<call_record> calls_;
  std::vector<jump_record> jumps_;
  std::vector<std::uint64_t> values_;
  // Summing: where each record's costs start in values_, and the index of records by key.
  std::vector<std::size_t> cost_at_, call_at_;
  row_index cost_index_, call_index_, jump_index_;
  bool summing_ = false;
  // Runs (clear(false, true)): each its context and where its lines and costs begin.
  struct run {
    context ctx;
    std::size_t begin = 0, count = 0;  // in lines_
    std::size_t values = 0;            // in run_values_
    std::size_t width = 0;             // costs a line
    std::uint32_t function = 0;        // merging: its function's index in functions_
  };
  bool runs_mode_ = false;
  std::vector<run> runs_;
  std::vector<cost_line> lines_;
  std::vector<std::uint64_t> run_values_;
  bool run_open_ = false;  // the last cost line's run takes the next one of its context
  void add_line(const cost_record& r, std::uint32_t function);

  // Merging: the chunk's functions (object, file, name), each with the last position of its
  // lines while they came in increasing order (no two then share a place), and from the first
  // that did not, its lines in places_ (an index by function, source file and position).
  struct function_lines {
    string_id object, file, name;
    position last;
    std::uint32_t lines = 0;
    bool indexed = false;
  };
  struct place {
    std::uint32_t line;  // in lines_
    std::uint32_t run;   // in runs_
  };
  bool merging_ = false;
  std::vector<function_lines> functions_;
  row_index function_index_, place_index_;
  std::vector<place> places_;
  std::uint32_t last_function_ = row_index::empty;      // the function of the last cost line
  std::vector<std::pair<string_id, string_id>> apart_;  // source files kept apart at a place
  std::vector<std::uint64_t> distinct_;                 // map_keeps_places's table
  std::uint32_t function_of(const context& c);
  static bool same_context(const context& a, const context& b) {
    return a.function == b.function && a.source_file == b.source_file && a.file == b.file &&
           a.object == b.object;
  }
  // Positions compare by instr, then line, then bb (any strict order would do).
  static bool after(const position& a, const position& b) {
    return a.instr != b.instr ? a.instr < b.instr
           : a.line != b.line ? a.line < b.line
                              : a.bb < b.bb;
  }
  void merge_slow(std::uint64_t line, const position& pos, const std::uint64_t* costs,
                  std::uint32_t given);
  void index_places(std::uint32_t function);
  void merge_cost(const cost_record& r);
  void add_to_line(const place& at, const cost_record& r);
  // Summing: the record the last cost and the last jump went to, and whether that cost record
  // sums per line.
  std::uint32_t last_cost_ = row_index::empty, last_call_ = row_index::empty;
  std::uint32_t last_jump_ = row_index::empty;
  bool last_cost_by_line_ = false, last_call_by_line_ = false;
  std::function<bool(string_id)> per_line_;
  bool per_line(string_id source_file) const { return per_line_ && per_line_(source_file); }
  bool part_records_ = false;
  bool overflowed_ = false;
  void add(std::size_t at, std::span<const std::uint64_t> v);
};

}  // namespace calltree::detail

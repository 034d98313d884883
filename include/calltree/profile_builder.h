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
#include "calltree/export.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/records.h"

namespace calltree {

// Threads and lifetime: a value, copied freely.
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
  // records before it (later parts are dropped whole). 0 = no limit. Starts at 3/4 of
  // the machine's memory (memory_limit.h); the command-line tool sets its --max-memory here.
  std::uint64_t max_memory = machine_memory_limit();
};

// Threads: one thread at a time (a sink). Lifetime: it holds a reference to its profile: destroy
// the builder first.
class CALLTREE_API profile_builder final : public record_sink {
 public:
  // `p.strings` must be the pool the reader interns into.
  explicit profile_builder(profile& p, diagnostic_sink* diagnostics = nullptr,
                           std::string display_name = {}, builder_options options = {});
  ~profile_builder() override;
  profile_builder(const profile_builder&) = delete;
  profile_builder& operator=(const profile_builder&) = delete;

  // From its options: with no position kept, sums per context (one row per function and file,
  // per caller and callee, however the records came); else every line. Jumps as keep_jumps.
  record_needs needs() const override;
  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;
  bool wants_no_more() const override;

  // Name the next input (for diagnostics) when one builder reads several inputs.
  void set_display_name(std::string name);

  // True once builder_options::max_memory stopped the build (the profile is incomplete).
  bool limit_hit() const;

  // The builder's state: the library's own, defined in none of these headers (nothing can be
  // done with it here).
  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

// Reads `path` ("-" = stdin, compressed or not) into `out` (which may already hold profiles:
// they are merged). Fatal I/O errors are the error result; everything else is a diagnostic.
CALLTREE_API result<read_stats> load_profile(const std::string& path, profile& out,
                                             diagnostic_sink& diagnostics,
                                             reader_options options = {},
                                             builder_options build = {});

// Emits the profile as records, part by part and function by function, so any record sink
// (the writer, the checker, dump) can take a profile as it takes a file. `model`: functions
// and rows in the order they were first read; `canonical`: functions by (object, file, name),
// each function's rows by source file and position, so that the same facts give the same
// records however they were read (what `calltree merge` writes).
// Threads and lifetime: a value.
enum class replay_order : std::uint8_t { model, canonical };
CALLTREE_API void replay(const profile& p, record_sink& sink,
                         replay_order order = replay_order::model);

}  // namespace calltree

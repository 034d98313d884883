// record_batch.h — (internal) records kept in memory in order, to be sent on later.
//
// What it is: the output of a speculative reading of one chunk (reader.cc, "The parallel
// path"): a record sink that copies each record (its costs into one array), and a replay that
// sends them, in order, to another sink once the chunk's names are known in the real pool.
// What it is not: a queue between threads (one thread fills it, then another replays it).
#pragma once

#include <cstdint>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/records.h"

namespace calltree::detail {

// Diagnostics nobody wants (a speculative reading stops at the first, it never sends it).
class null_diagnostics final : public diagnostic_sink {
 public:
  void report(diagnostic) override {}
};

class record_batch final : public record_sink {
 public:
  void on_part_begin(const part_header&) override { part_records_ = true; }
  void on_part_end(const part_end&) override { part_records_ = true; }
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;

  // A part began or ended: the speculation cannot stand (the reader stops it before).
  bool part_records() const { return part_records_; }
  void clear();

  // Sends every record to `sink`, with each string id `s` replaced by map[s] and `line_base`
  // added to each line number.
  void replay(record_sink& sink, const std::vector<string_id>& map, std::uint64_t line_base);

 private:
  enum class item : std::uint8_t { cost, call, jump };
  std::vector<item> order_;
  std::vector<cost_record> costs_;
  std::vector<call_record> calls_;
  std::vector<jump_record> jumps_;
  std::vector<std::uint64_t> values_;
  bool part_records_ = false;
};

}  // namespace calltree::detail

// writer.h — writes records as a valid Callgrind-format file.
//
// What it is: a record sink that streams callgrind text: `# callgrind format`, `version: 1`,
// the header, then per function `fl=`/`fn=` with cost, call and jump lines, then the part's
// `summary:` and `totals:` where the records state them, as they state them (none added). Name compression (`(id) name`) and
// subposition compression (`+N`, `-N`, `*`) are on by default; ids are defined afresh in each
// part so every reader (KCachegrind resets its tables per part) can load the result.
// What it is not: a pretty-printer of the input: comments, blank lines, id numbers and the
// order of lines are not kept; what is kept is every fact the reader emitted.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "calltree/export.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree {

// Threads and lifetime: a value, copied freely.
struct writer_options {
  bool compress_names = true;
  bool compress_positions = true;
  std::string creator;  // replaces the input's creator: if non-empty
};

// Threads: one thread at a time (a sink). Lifetime: it refers to its std::ostream and its names'
// string_pool: destroy the writer first.
class CALLTREE_API callgrind_writer final : public record_sink {
 public:
  callgrind_writer(std::ostream& out, const string_pool& names, writer_options options = {});
  ~callgrind_writer() override;
  callgrind_writer(const callgrind_writer&) = delete;
  callgrind_writer& operator=(const callgrind_writer&) = delete;

  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;

  // Writes out what is buffered; call after the last record. False if the stream failed.
  bool finish();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace calltree

// dump.h — a record sink that lists every record as one line of canonical text.
//
// What it is: `calltree dump --records`, the form golden tests compare, and the way for a user
// to see how calltree reads a file: one line per record (part header, self cost, call, jump,
// part end) with every field, names resolved to their text, positions absolute, costs padded
// to the part's events. The layout is stable; it is specified in docs/cli.md ("dump").
// What it is not: a Callgrind writer (see writer.h) or a report. Records are not aggregated:
// the same function and line may appear many times, as they do in the input.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree {

struct dump_options {
  // Print the `line=` field (the input line of each record). Off to compare two readings of
  // the same facts from different texts (a file and its conversion).
  bool line_numbers = true;
};

class dump_sink final : public record_sink {
 public:
  dump_sink(std::ostream& out, const string_pool& names, dump_options options = {});
  ~dump_sink() override;
  dump_sink(const dump_sink&) = delete;
  dump_sink& operator=(const dump_sink&) = delete;

  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;

  // Writes out what is buffered. False if the stream failed.
  bool finish();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// The dump's quoting of a name: `"` + the bytes, with `\` `"` and control bytes escaped
// (`\\`, `\"`, `\n`, `\r`, `\t`, `\xNN`); other bytes (UTF-8 included) as they are.
std::string dump_quote(std::string_view s);

}  // namespace calltree

// speculation.h — a chunk read ahead, on speculation: its own parser, names and records.
//
// What it is: what one slot of the parallel path's ring holds (parallel.cc), and what its
// parser asks it while it reads the chunk (the parser has no state of the real reading): a
// placeholder for each `(id)` the chunk uses without defining, the names it defines, the
// position columns whose base it has not seen, the notes it keeps and whether it met
// something only the real state can read (then it fails, and the chunk is read again). The
// real parser adopts a reading that holds (parser::adopt, speculation.cc). What it is not:
// which chunks are read ahead, by which thread (parallel.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/string_pool.h"
#include "reader/id_table.h"
#include "reader/record_batch.h"

namespace calltree::detail {

class parser;
struct part_state;
struct read_config;

class speculation {
 public:
  speculation();
  ~speculation();
  speculation(const speculation&) = delete;
  speculation& operator=(const speculation&) = delete;

  // Reads `chunk` (which must begin with `fn=`, where a function block starts afresh, or it
  // is not read) as a parser at the start of a function block of the part `ps` would, with
  // names of its own; `ok` says whether the reading holds so far.
  void read(input& in, const read_config& options, const part_state& ps, std::string_view chunk,
            std::size_t max_len);

  // What its parser asks while it reads. Notes about the tokens of their own line, whatever
  // came before, are kept (Xdebug writes one on every calls= line), in their place among the
  // records; any other diagnostic needs the real state, or changes it: the reading fails.
  static bool keeps(severity s, diag_code code) {
    return s == severity::note &&
           (code == diag_code::extra_call_target || code == diag_code::zero_call_count);
  }
  void diagnostic(severity s, diag_code code, std::uint64_t line, std::size_t col, std::size_t len,
                  std::string_view line_text, std::string_view message);
  // The name of an `(id)` used before the chunk defines it: a placeholder no line can hold,
  // which adoption maps to the real table's name.
  string_id placeholder(name_class c, std::uint64_t id);

  struct name_def {
    name_class c;
    std::uint64_t id;
    string_id sid;
    bool first;              // the chunk's first definition of this id
    std::uint64_t line = 0;  // where, in the chunk's lines
  };
  struct name_ref {  // a placeholder: the name of an id the chunk uses without defining it
    string_id sid;
    name_class c;
    std::uint64_t id;
  };

  string_pool names;  // full text always: the names are interned again in the real pool
  record_batch records;
  null_diagnostics diagnostics;
  std::unique_ptr<parser> reader;
  bool ok = false;                  // the reading holds (adopt() may still refuse it)
  bool failed = false;              // ... and met something only the real state can read
  std::uint8_t unknown = 0;         // fields (1 instr, 2 bb, 4 line) whose base is unknown yet
  std::vector<name_def> defs;       // names the chunk defines, in order
  std::vector<name_ref> refs;       // placeholders, in the order they were made
  std::vector<string_id> no_lines;  // placeholders taken as files of no lines
  string_id object, file;           // placeholders for the ob= and fl= in force
};

}  // namespace calltree::detail

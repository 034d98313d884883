// views/source.h — (internal) annotated source: per-line costs, calls and jumps of one file.
//
// What it is: what callgrind_annotate's and KCachegrind's source views show for a source file
// the profile names (an fl=/fi=/fe= file; inlined code under its own file): self cost per line,
// the calls made from each line (callee, count, inclusive cost), the jumps (`jump=`/`jcnd=`:
// executed and followed counts, target line), each function's lines in the file, and the cost
// with no line (line 0). Only files whose source was found while reading have line tables
// (annotate's rule: the current directory, -I directories, --source-root); the caller reads
// the text. Costs are of every part (the tables keep lines summed over parts). What it is not:
// the file's text (server/ reads it, by id only) nor a path resolver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calltree/result.h"
#include "views/columns.h"
#include "views/part_costs.h"

namespace calltree::views {

class session;

struct source_query {
  std::vector<std::string> events, derived;
  std::string weight_event;  // for `hot`
  double hot_share = 0.001;  // a line is hot from this share of the program total
  // false: only the columns (and has_lines): no lines, calls, jumps or functions are made
  bool with_lines = true;
  // One part's (0-based) lines alone (session::lines_of_part), `hot` of that part's total;
  // empty: every part summed.
  std::optional<std::uint32_t> part;
};

struct source_call {
  std::uint32_t caller = 0, callee = 0;  // keys
  std::uint64_t count = 0;
  std::vector<std::uint64_t> cost;
  // A call to itself or within its cycle: the cost is a sum over nested calls (counted again
  // at each level of the recursion), not a share of the total.
  bool recursive = false;
};

struct source_jump {
  std::uint32_t target_file = 0;
  std::uint64_t target_line = 0;
  bool conditional = false;
  std::uint64_t executed = 0, followed = 0;
};

struct source_line {
  std::uint64_t line = 0;  // 0: cost with no line number
  std::vector<std::uint64_t> self;
  bool hot = false;
  std::vector<source_call> calls;
  std::vector<source_jump> jumps;
};

struct source_function {
  std::uint32_t id = 0;
  std::uint64_t first_line = 0, last_line = 0;
};

struct source_view {
  column_set columns;
  std::size_t weight_column = 0;
  std::uint32_t file = 0;
  bool has_lines = false;          // the file was found while reading: its lines are in the tables
  std::vector<source_line> lines;  // by line
  std::vector<source_function> functions;  // the keys of this file with lines, by first line
};

// An error for a file id the profile does not name, or an unknown event.
result<source_view> annotate_source(const session& s, std::uint64_t file, const source_query& q);

}  // namespace calltree::views

// export/model_json.h — the "calltree-model" document (docs/json.md) in its three pieces.
//
// What it is: the head (schema, input, positions, events, the costs table's columns), the
// rows of "costs" (the self rows, written in as many calls as wanted), and the tail (calls,
// jumps, objects, files, functions, parts). export_model_json writes the three from a model;
// model_json_stream.h writes the self rows while the file is read, and the head and tail from
// the model the builder makes beside them. The same bytes either way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "calltree/profile.h"
#include "export/export.h"

namespace calltree::exporting {

// The model's recorded events (ids into p.events): the order of every cost array.
std::vector<std::uint32_t> recorded_events(const profile& p);

// From "{" to the first row of "costs". It depends on p's positions and events only (and
// `input`).
std::string model_json_head(const profile& p, const std::string& input);

// Rows of "costs", from the self rows given to write(), in order, and flush() after the last;
// `out` must outlive it. The positions and events are p's when it is made.
class self_row_writer {
 public:
  self_row_writer(const export_sink& out, const profile& p);
  ~self_row_writer();  // (does not flush: what was not flushed is dropped)
  self_row_writer(const self_row_writer&) = delete;
  self_row_writer& operator=(const self_row_writer&) = delete;
  // `rows` with their costs: `columns` per row (p.events order), row after row.
  void write(std::span<const self_row> rows, const std::uint64_t* costs, std::size_t columns);
  void flush();

 private:
  struct impl;
  std::uint8_t kinds_;  // p.positions: which write<K> formats the rows
  std::unique_ptr<impl> impl_;
};

// From the end of "costs" to the end of the document, formatted in pieces (`piece_rows` rows
// of a table, a quarter as many functions) on `threads` threads while this one writes them in
// order: the same bytes for any number of threads and any size of piece. `before`, if set,
// runs on this thread before the first byte goes out (model_json_stream waits there for its
// last rows while the first pieces are formatted).
inline constexpr std::size_t tail_piece_rows = 16384;
void model_json_tail(const profile& p, const export_sink& out, unsigned threads = 1,
                     const std::function<void()>& before = {},
                     std::size_t piece_rows = tail_piece_rows);

}  // namespace calltree::exporting

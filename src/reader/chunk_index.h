// chunk_index.h — where a reading can start again: the reader's state at each chunk's start.
//
// What it is: what the parallel path's chunks of a mapped file (chunk_feed.h: each but the
// first starts at a line that begins with `fn=`) leave behind when a reading asks for it
// (read_hooks::index): each chunk's byte range and line, and the reader's whole body state at
// its start (the part, the `ob=`/`fl=`/`fi=`/`fn=` in force, the position base, the callee and
// jump keys), the state of every part, and the `(id)` name tables as the reading left them.
// With it, read_chunks() reads any chunks again, alone, into a sink, as the whole reading read
// them: serve's views read a function's or a file's lines from its chunks only (views/
// session.h). What it is not: which chunks hold what (the sink that asked knows: annotate_direct's
// chunk notes), nor random access into compressed input (only a mapped plain file is indexed).
//
// The names of a chunk read again are the first reading's: an `(id)` resolves to the name its
// table ended with, or, for an id given several names, the one in force on its line
// (`renamed`); a name written out to the pool's id of its text (`plain_name`, the caller's).
// So an index is `usable` only where that is the name every reading of the chunk met: no
// reading error (an id used before its definition), nothing signed, no limit reached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"
#include "model/run_sink.h"
#include "reader/id_table.h"

namespace calltree::detail {

constexpr std::size_t max_positions = 3;  // instr, bb, line

// The part's position columns, for the fast paths (other: anything but these three).
enum class layout : std::uint8_t { line, instr, instr_line, other };

// What a reading of a chunk needs of the part it is in (parser::snapshot): a chunk read ahead
// (speculation.h) or read again (read_chunks).
struct part_state {
  part_header header;
  std::size_t n_events = 0;
  std::vector<std::uint8_t> columns;
  std::uint8_t column_index[max_positions] = {2, 2, 2};
  layout lay = layout::line;
  std::uint32_t part_index = 0, current_part = 0;
};

// The reader's body state at a chunk's first byte.
struct chunk_start {
  std::uint64_t offset = 0;  // of its first byte in the input
  std::uint64_t line = 0;    // lines before it
  std::uint32_t part = 0;    // its part: chunk_index::parts[part] (none before the first part)
  bool in_part = false;      // a part's body is open (false: the header chunk)
  // A reading can start here: nothing is open (no line carried over, no `calls=` or `jump=`
  // waiting for its line, a part's body or the input's start). A chunk that is not is read on
  // from the chunk before (read_chunks), as the reader read it.
  bool clean = true;
  context ctx;
  bool have_function = false;
  position base;
  string_id callee_object, callee_file, callee_function;
  bool callee_object_set = false, callee_file_set = false, have_cfn = false, have_any_cfn = false;
  string_id jump_file, jump_function;
  bool jump_file_set = false, jump_function_set = false;
};

struct chunk_index {
  std::vector<chunk_start> starts;  // in file order; chunk k ends where k + 1 starts
  std::uint64_t end = 0;            // the input's size: where the last chunk ends
  std::vector<part_state> parts;    // every part, in file order, as its body began
  id_table objects, files, functions;  // the `(id)` tables at the reading's end
  // The ids given another name after their first (across parts, where the format allows it,
  // or with a warning): each renaming (the id as id * 3 + class, the line, the name before and
  // after), sorted by id and line at the reading's end. They are left undefined in the tables:
  // a chunk read again resolves them by its lines.
  struct renaming {
    std::uint64_t key = 0, line = 0;
    string_id was, now;
  };
  std::vector<renaming> renamed;
  // A compressed input's chunks are read again from their decoded bytes, which the reading
  // hands here as it reads, in order (the caller keeps them: a file of its own); false (no
  // room) ends the keeping, and the index is not usable. Without it, only a plain file is
  // indexed. `kept_bytes`: the reading handed them (the input was compressed).
  std::function<bool(std::span<const char>)> keep_bytes;
  bool kept_bytes = false;
  bool keeping_failed = false;
  // The chunks can be read again alone (see above): set at the reading's end.
  bool usable = false;
  // Why not, for a note ("" when usable).
  std::string why_not;
};

// The sink of a reading of chunks, over one input or a run of several read as one profile:
// the parts begin in order, each once, whichever chunks are read (every part of `parts`, the
// run's, so the sink's parts and events are the whole reading's); the parser's own part ends
// are not passed on (the next part's beginning ends the one before; finish() the last).
class part_order final : public record_sink {
 public:
  part_order(record_sink& to, std::vector<const part_state*> parts)
      : to_(to), parts_(std::move(parts)) {}
  // Parts up to `p` (an index of `parts`) have begun.
  void begin_up_to(std::uint32_t p);
  // Every part has begun, and the last has ended.
  void finish();
  // The index in `parts` of the reading's part 0 (an input of a run: the parts before it).
  std::uint32_t first = 0;
  record_needs needs() const override { return to_.needs(); }
  void on_part_begin(const part_header& h) override {
    // (header.index counts the input's parts from 0, as its index's parts)
    begin_up_to(first + static_cast<std::uint32_t>(h.index));
  }
  void on_cost(const cost_record& r) override { to_.on_cost(r); }
  void on_call(const call_record& r) override { to_.on_call(r); }
  void on_jump(const jump_record& r) override { to_.on_jump(r); }
  void on_part_end(const part_end&) override {}

 private:
  void end_open();
  record_sink& to_;
  std::vector<const part_state*> parts_;
  std::uint32_t begun_ = 0;
  bool open_ = false;
};

// Reads chunks `which` (sorted, of `ix`), each from the state its start recorded (a chunk
// that is not `clean` from the chunk before, on to it, as the first reading read it), into
// `parts` (whose `first` is this input's first part), then the records of the chunks; the
// caller calls parts.finish() once every input of the run is read. `plain_name` gives the pool
// id of a name written out in full (npos: unknown, the reading fails). `names` is only read.
// `bytes_at(k)` gives chunk k's bytes (they must stay valid until the next call). An error
// when the chunks no longer read as they did (a name unknown to the first reading). Not
// thread-safe for one index (its tables are lent to the reading): one reading at a time.
status read_chunks(chunk_index& ix, std::span<const std::uint32_t> which,
                   const std::function<std::span<const char>(std::uint32_t)>& bytes_at,
                   string_pool& names, const std::function<string_id(std::string_view)>& plain_name,
                   part_order& parts, const reader_options& options, const read_needs& needs);

}  // namespace calltree::detail

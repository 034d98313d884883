// export/model_json_stream.h — `export --to=json` written while the file is read.
//
// What it is: the self rows of the model (nine in ten of an instruction-level profile's rows,
// most of the document) written as the builder hands them on, run by run
// (profile_builder.h, builder_access::stream_self_rows), on a thread of their own, into the
// "costs" table of the "calltree-model" document (model_json.h); then, from the model the
// builder made beside them (names, parts, calls, jumps: no self rows), the rest of it. The
// bytes are those export_model_json writes from the whole model.
//
// A function's rows may come in several runs: callgrind writes a few functions in two blocks
// a little apart (17 of the 275 k functions of the real 260 MB profile, at most 2,319 blocks
// apart), Xdebug a block per call. The model sums a later run's row into the earlier row at
// the same source file and position, and places the other rows of the later run after every
// row read before. So a run is written only once `window_rows` more rows came after it: a
// later run of a function whose runs are all still in the window is summed into them there.
// A run of a function whose rows were already written, a sum beyond 2^64-1, or a part that
// changes the positions or events the document's head named (or the width of a row) make the
// document written so far not the model's: the stream gives up at once (the builder stops the
// reading), finish() says so, and the caller throws the output away and writes the model (a
// second reading of the file). It gives up too when more than half of the first 8,192 runs
// were summed into earlier ones: a file of a block per call (Xdebug) has few rows for its
// size, its model is small, and building it costs less than summing runs here (a hash lookup
// per row), so the first runs' reading is all that is lost.
//
// A chunk read ahead and merged by place (read_needs::grain::runs_merged_by_place) hands its runs
// on as its lines (take_lines): no two of them, of one function, are at one place, so a run is
// appended as it is while its function's rows in the window all came from that chunk (a
// block's runs of other source files, inlined code); a function back from an earlier chunk is
// summed in by place as take() sums a later run.
//
// The rows live in one ring, in the order they are written: the window (the rows not yet
// handed to the writing thread) after the rows that thread is writing, so the memory is the
// ring's, whatever the file's size (on the real profile the model's 17 M self rows took 1 GB).
// What it is not: a reader or a file: the caller reads (profile_builder with this as its
// stream_self_rows) and owns the output.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/result.h"
#include "export/export.h"
#include "export/model_json.h"
#include "model/builder_access.h"

namespace calltree::exporting {

class model_json_stream final : public self_row_stream {
 public:
  static constexpr std::size_t default_window_rows = std::size_t{1} << 19;

  // `out` must outlive this. threads > 1: rows are formatted and written on a thread of their
  // own (the reading's thread only copies them into the ring).
  model_json_stream(std::string input, const export_sink& out, unsigned threads,
                    std::size_t window_rows = default_window_rows);
  ~model_json_stream() override;
  model_json_stream(const model_json_stream&) = delete;
  model_json_stream& operator=(const model_json_stream&) = delete;

  void take(const profile& p, std::span<const self_row> rows, const cost_matrix& costs) override;
  void take_lines(const profile& p, const self_row& first, std::span<const cost_line> lines,
                  const std::uint64_t* costs, std::size_t columns, std::uint64_t chunk) override;
  bool given_up() const override { return broken_; }

  // Once every record is in (after builder_access::finish_stream), with the model `p` the
  // builder made: the rest of the document, and true. false: what was written is no document
  // of p (see above). An error if formatting failed (out of memory). The tail is formatted on
  // `threads` threads (model_json_tail) while the writing thread writes the last rows.
  result<bool> finish(const profile& p);

 private:
  // Rows of one function in the window, [begin, begin + count) of the ring's rows (numbered
  // from the first row taken, ring slot = number % capacity).
  struct segment {
    std::uint64_t key;  // part << 32 | function
    std::uint64_t begin;
    std::size_t count;
  };
  // Where a row of a function is: its source file and position.
  struct place {
    file_id file;
    position pos;
    friend bool operator==(const place&, const place&) = default;
  };
  struct place_hash {
    std::size_t operator()(const place& q) const;
  };
  // A function with a second run while its first is in the window: its rows by place.
  using places = std::unordered_map<place, std::uint64_t, place_hash>;

  void start(const profile& p);
  bool started(const profile& p, std::size_t columns);
  std::uint64_t& state_of(std::uint64_t key);
  std::uint64_t& chunk_of(std::uint64_t key);
  // A run's judgement: true if the stream may go on with it (see take()).
  bool count_run(std::uint64_t state);
  bool sum_into(std::uint64_t key, std::span<const self_row> rows, const cost_matrix& costs);
  void append(std::uint64_t key, std::span<const self_row> rows, const std::uint64_t* costs);
  void append_lines(std::uint64_t key, const self_row& first, std::span<const cost_line> lines,
                    const std::uint64_t* costs);
  void add_segment(std::uint64_t key, std::size_t n);
  void make_room(std::size_t n);
  void send_oldest();
  void write_rows(std::uint64_t from, std::uint64_t to);
  void work();
  void stop();

  std::string input_;
  const export_sink& out_;
  unsigned threads_;
  std::size_t window_rows_;
  bool broken_ = false;
  std::string head_;                         // written at the first row
  std::unique_ptr<self_row_writer> writer_;  // (used on the thread, when there is one)
  std::size_t columns_ = 0;                  // cost cells a row has

  // The ring: rows [released_, sent_) are the writing thread's, [sent_, taken_) the window.
  // Its memory is not initialised (rows are written before they are read).
  template <typename T>
  struct uninitialised : std::allocator<T> {
    template <typename U>
    struct rebind {
      using other = uninitialised<U>;
    };
    template <typename U>
    void construct(U*) noexcept {}
    template <typename U, typename... A>
    void construct(U* p, A&&... a) {
      ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
  };
  template <typename T>
  using ring = std::vector<T, uninitialised<T>>;
  ring<self_row> ring_;
  ring<std::uint64_t> ring_costs_;  // columns_ per row
  // (released_ and notified_ under mutex_; seen_released_: released_ when last looked at.)
  std::uint64_t taken_ = 0, sent_ = 0, released_ = 0, notified_ = 0, seen_released_ = 0;
  std::deque<segment> window_;
  std::uint64_t segments_sent_ = 0;  // window_[i] is segment number segments_sent_ + i
  // Per part and function: 0 never seen; 1 seen, its rows written or being written; else 2 +
  // the number of its first segment, in the window.
  std::vector<std::vector<std::uint64_t>> state_;
  // Per part and function in the window: the chunk its rows came from when all came from one
  // chunk merged by place (take_lines), else 0.
  std::vector<std::vector<std::uint64_t>> chunk_;
  std::unordered_map<std::uint64_t, places> repeated_;  // by key
  std::uint64_t runs_ = 0, summed_runs_ = 0;            // taken, and of those summed in

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool done_ = false;
  std::exception_ptr failed_;
};

}  // namespace calltree::exporting

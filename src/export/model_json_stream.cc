// export/model_json_stream.cc — the self rows written as they are read (see
// model_json_stream.h).
#include "export/model_json_stream.h"

#include <algorithm>
#include <cstring>
#include <system_error>
#include <utility>

namespace calltree::exporting {

namespace {
// Rows the writing thread is told of at once, and writes at once.
constexpr std::size_t step_rows = 16384;
// Runs after which the stream gives up if most were summed into earlier runs.
constexpr std::uint64_t judged_after_runs = 8192;
}  // namespace

std::size_t model_json_stream::place_hash::operator()(const place& q) const {
  const std::uint64_t h = q.pos.instr * 0x9e3779b97f4a7c15ull + q.pos.line * 0xc2b2ae3d27d4eb4full +
                          q.pos.bb * 0x165667b19e3779f9ull + q.file.index() * 0xd6e8feb86659fd93ull;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

model_json_stream::model_json_stream(std::string input, const export_sink& out, unsigned threads,
                                     std::size_t window_rows)
    : input_(std::move(input)), out_(out), threads_(threads), window_rows_(window_rows) {}

model_json_stream::~model_json_stream() { stop(); }

void model_json_stream::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void model_json_stream::start(const profile& p) {
  head_ = model_json_head(p, input_);
  out_(head_);
  writer_ = std::make_unique<self_row_writer>(out_, p);
  columns_ = p.events.size();
  if (threads_ > 1) {
    try {
      thread_ = std::thread([this] { work(); });
    } catch (const std::system_error&) {
      // No thread to be had: the rows are written on the reading's thread.
    }
  }
}

namespace {
// The entry of `key` (part << 32 | function) in a table per part and function (0: none yet).
std::uint64_t& entry_of(std::vector<std::vector<std::uint64_t>>& table, std::uint64_t key) {
  const auto part = static_cast<std::size_t>(key >> 32);
  const auto function = static_cast<std::size_t>(key & 0xffffffffu);
  if (table.size() <= part) table.resize(part + 1);
  auto& v = table[part];
  if (v.size() <= function) v.resize(std::max(function + 1, 2 * v.size()), 0);
  return v[function];
}
}  // namespace

std::uint64_t& model_json_stream::state_of(std::uint64_t key) { return entry_of(state_, key); }
std::uint64_t& model_json_stream::chunk_of(std::uint64_t key) { return entry_of(chunk_, key); }

// Starts the document at the first rows; false (and given up) if rows of `columns` costs do
// not fit it: a later part's events widened the rows.
bool model_json_stream::started(const profile& p, std::size_t columns) {
  if (!writer_) start(p);
  if (columns != columns_) broken_ = true;
  return !broken_;
}

bool model_json_stream::count_run(std::uint64_t state) {
  ++runs_;
  if (state >= 2) ++summed_runs_;
  if (runs_ == judged_after_runs && 2 * summed_runs_ > runs_)
    broken_ = true;  // mostly calls summed (Xdebug): the model is small and quicker
  else if (state == 1)
    broken_ = true;  // its rows so far were written
  return !broken_;
}

void model_json_stream::take(const profile& p, std::span<const self_row> rows,
                             const cost_matrix& costs) {
  if (broken_ || rows.empty() || !started(p, costs.columns())) return;
  const std::uint64_t key = std::uint64_t{rows[0].part.index()} << 32 | rows[0].function.index();
  const std::uint64_t state = state_of(key);
  if (!count_run(state)) return;
  chunk_of(key) = 0;
  if (state >= 2)
    broken_ = !sum_into(key, rows, costs);
  else
    append(key, rows, costs.row(0).data());
}

// A run of a chunk merged by place: appended as it is while its function's rows in the window
// all came from that chunk (a block of the function with another source file in between, or
// nothing of it yet), else summed in as take() sums a run.
void model_json_stream::take_lines(const profile& p, const self_row& first,
                                   std::span<const cost_line> lines, const std::uint64_t* costs,
                                   std::size_t columns, std::uint64_t chunk) {
  if (broken_ || lines.empty() || !started(p, columns)) return;
  const std::uint64_t key = std::uint64_t{first.part.index()} << 32 | first.function.index();
  const std::uint64_t state = state_of(key);
  std::uint64_t& from = chunk_of(key);
  if (state >= 2 && from == chunk) return append_lines(key, first, lines, costs);
  if (!count_run(state)) return;
  if (state == 0) {
    from = chunk;
    return append_lines(key, first, lines, costs);
  }
  from = 0;
  std::vector<self_row> rows(lines.size(), first);
  cost_matrix m;
  m.set_columns(columns_);
  m.add_rows(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) rows[i].pos = lines[i].pos;
  if (columns_)
    std::memcpy(m.row(0).data(), costs, lines.size() * columns_ * sizeof(std::uint64_t));
  broken_ = !sum_into(key, rows, m);
}

// A later run of an open function: each row summed into the row at its place, the others
// after every row so far. false: a sum beyond 2^64-1 (the model reports it).
bool model_json_stream::sum_into(std::uint64_t key, std::span<const self_row> rows,
                                 const cost_matrix& costs) {
  const std::size_t cap = ring_.size();
  places& at = repeated_[key];
  if (at.empty())
    for (std::size_t i = state_of(key) - 2 - segments_sent_; i < window_.size(); ++i)
      if (window_[i].key == key)
        for (std::uint64_t r = window_[i].begin; r < window_[i].begin + window_[i].count; ++r)
          at.emplace(place{ring_[r % cap].source_file, ring_[r % cap].pos}, r);
  std::vector<self_row> more;
  std::vector<std::uint64_t> more_costs;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto in = costs.row(i);
    auto it = at.find(place{rows[i].source_file, rows[i].pos});
    if (it == at.end()) {
      more.push_back(rows[i]);
      more_costs.insert(more_costs.end(), in.begin(), in.end());
      continue;
    }
    std::uint64_t* into = ring_costs_.data() + (it->second % cap) * columns_;
    for (std::size_t e = 0; e < columns_; ++e)
      if (!add_saturating(into[e], in[e])) return false;
  }
  if (!more.empty()) append(key, more, more_costs.data());
  return true;
}

// `rows` (with `costs`, columns_ each) at the end of the window, a segment of `key`'s.
void model_json_stream::append(std::uint64_t key, std::span<const self_row> rows,
                               const std::uint64_t* costs) {
  const std::size_t n = rows.size();
  make_room(n);
  const std::size_t cap = ring_.size();
  for (std::size_t done = 0; done < n;) {
    const std::size_t at = (taken_ + done) % cap;
    const std::size_t len = std::min(n - done, cap - at);
    std::memcpy(ring_.data() + at, rows.data() + done, len * sizeof(self_row));
    if (columns_)
      std::memcpy(ring_costs_.data() + at * columns_, costs + done * columns_,
                  len * columns_ * sizeof(std::uint64_t));
    done += len;
  }
  add_segment(key, n);
}

// The n rows at taken_ (a run of `first`'s function and source file, `lines`' positions)
// from a chunk merged by place.
void model_json_stream::append_lines(std::uint64_t key, const self_row& first,
                                     std::span<const cost_line> lines, const std::uint64_t* costs) {
  const std::size_t n = lines.size();
  make_room(n);
  const std::size_t cap = ring_.size();
  for (std::size_t done = 0; done < n;) {
    const std::size_t at = (taken_ + done) % cap;
    const std::size_t len = std::min(n - done, cap - at);
    self_row* to = ring_.data() + at;
    for (std::size_t i = 0; i < len; ++i) {
      to[i] = first;
      to[i].pos = lines[done + i].pos;
    }
    if (columns_)
      std::memcpy(ring_costs_.data() + at * columns_, costs + done * columns_,
                  len * columns_ * sizeof(std::uint64_t));
    done += len;
  }
  add_segment(key, n);
}

// The n rows just copied to taken_ as the window's newest segment, of `key`'s.
void model_json_stream::add_segment(std::uint64_t key, std::size_t n) {
  const std::uint64_t number = segments_sent_ + window_.size();
  window_.push_back(segment{key, taken_, n});
  std::uint64_t& state = state_of(key);
  if (state == 0) state = 2 + number;
  if (auto it = repeated_.find(key); it != repeated_.end()) {
    const std::size_t cap = ring_.size();
    for (std::uint64_t r = taken_; r < taken_ + n; ++r)
      it->second.emplace(place{ring_[r % cap].source_file, ring_[r % cap].pos}, r);
  }
  taken_ += n;
}

// Room in the ring for n more rows: the window's oldest segments sent on until the window
// and the run hold window_rows_ at most (or the window is empty), then the writing thread
// waited for (or the ring made larger).
void model_json_stream::make_room(std::size_t n) {
  while (!window_.empty() && taken_ - sent_ + n > window_rows_) send_oldest();
  if (taken_ - seen_released_ + n <= ring_.size()) return;
  std::unique_lock lock(mutex_, std::defer_lock);
  if (thread_.joinable()) {
    lock.lock();
    notified_ = sent_;
    changed_.notify_all();
    seen_released_ = released_;
    if (taken_ - seen_released_ + n <= ring_.size()) return;
  }
  const std::size_t most = window_rows_ + window_rows_ / 2;
  const std::size_t want = taken_ - sent_ + n;  // the window and the run
  if (ring_.size() < std::max(most, want)) {
    // The ring at its size at once (the window and half as much again, or the run that needs
    // more), once the writing thread has written every row sent: the window's rows move to
    // their places in it. Its memory is not filled: a page is first touched by the rows
    // written into it (grown by doubling and value-initialised, the ring was zeroed and copied
    // 2 M rows' worth on the reading thread: 0.1 s where the guest's memory was fresh).
    if (thread_.joinable()) changed_.wait(lock, [this] { return released_ == sent_ || failed_; });
    const std::size_t size = std::max(most, want);
    ring<self_row> rows(size);
    ring<std::uint64_t> costs(size * columns_);
    for (std::uint64_t r = sent_; r < taken_; ++r) {
      rows[r % size] = ring_[r % ring_.size()];
      std::memcpy(costs.data() + (r % size) * columns_,
                  ring_costs_.data() + (r % ring_.size()) * columns_,
                  columns_ * sizeof(std::uint64_t));
    }
    ring_ = std::move(rows);
    ring_costs_ = std::move(costs);
    seen_released_ = sent_;
    return;
  }
  changed_.wait(lock, [&] { return taken_ - released_ + n <= ring_.size() || failed_; });
  seen_released_ = released_;
}

// The window's oldest segment to the writing thread; its function's later runs can no longer
// be summed in.
void model_json_stream::send_oldest() {
  const segment s = window_.front();
  window_.pop_front();
  ++segments_sent_;
  sent_ = s.begin + s.count;
  std::uint64_t& state = state_of(s.key);
  if (state >= 2) {
    state = 1;
    repeated_.erase(s.key);
  }
  if (!thread_.joinable()) {
    write_rows(s.begin, sent_);
    released_ = seen_released_ = sent_;
  } else if (sent_ - notified_ >= step_rows) {
    {
      std::lock_guard lock(mutex_);
      notified_ = sent_;
    }
    changed_.notify_all();
  }
}

void model_json_stream::write_rows(std::uint64_t from, std::uint64_t to) {
  const std::size_t cap = ring_.size();
  while (from < to) {
    const std::size_t at = from % cap;
    const std::size_t len = std::min<std::uint64_t>(to - from, cap - at);
    writer_->write({ring_.data() + at, len}, ring_costs_.data() + at * columns_, columns_);
    from += len;
  }
}

void model_json_stream::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return notified_ > released_ || done_; });
    if (notified_ == released_) return;  // (done)
    const std::uint64_t from = released_;
    const std::uint64_t to = std::min<std::uint64_t>(notified_, from + step_rows);
    const bool write = !failed_;
    lock.unlock();
    if (write) {
      try {
        write_rows(from, to);
      } catch (...) {
        lock.lock();
        failed_ = std::current_exception();
        lock.unlock();
      }
    }
    lock.lock();
    released_ = to;
    changed_.notify_all();
  }
}

// The window's last rows go to the writing thread, and the tail is formatted in pieces while
// it writes them: the first piece goes out once that thread is done.
result<bool> model_json_stream::finish(const profile& p) {
  if (!writer_) start(p);
  if (!broken_)
    while (!window_.empty()) send_oldest();
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      notified_ = sent_;
    }
    changed_.notify_all();
  }
  auto rows_written = [this]() -> result<bool> {
    stop();
    if (failed_) {
      try {
        std::rethrow_exception(failed_);
      } catch (const std::exception& e) {
        return error{std::string("writing the self rows: ") + e.what()};
      } catch (...) {
        return error{"writing the self rows failed"};
      }
    }
    writer_->flush();
    return true;
  };
  if (broken_ || model_json_head(p, input_) != head_) {
    auto done = rows_written();
    if (!done) return done;
    return false;
  }
  result<bool> done = true;
  model_json_tail(p, out_, threads_, [&] { done = rows_written(); });
  return done;
}

}  // namespace calltree::exporting

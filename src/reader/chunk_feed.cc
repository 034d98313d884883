// chunk_feed.cc — the two kinds of chunk feed: a mapped file cut as its chunks are asked for,
// and a decoded stream cut on a thread of its own.
//
// The decoded feed: a producer thread calls input::next(), appends each block to the chunk it
// is filling, and cuts it there when the first "\nfn=" at or after the step shows up (the
// bytes after the cut start the next chunk). It fills at most `ahead` chunks past the one the
// reader reached, so it waits for the reader rather than run away with the memory; the
// buffers of chunks the reader is done with are reused, not given back (a fresh buffer is
// page faults all over again: a tenth of a second on the 260 MB profile). The input's error,
// like its end, comes after the bytes before it, as the last chunk.
#include "reader/chunk_feed.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace calltree::detail {

namespace {

constexpr std::string_view boundary = "\nfn=";
constexpr std::size_t head_bytes = 2048;
constexpr std::size_t piece = 64u << 10;  // see decoded_feed::produce

class mapped_feed final : public chunk_feed {
 public:
  mapped_feed(std::span<const char> all, std::size_t step) : all_(all), step_(step) {
    bounds_.push_back(0);
  }
  std::span<const char> head() override { return all_; }
  chunk get(std::size_t k) override {
    if (cancelled_.load(std::memory_order_acquire)) return {};
    std::lock_guard<std::mutex> g(m_);
    if (!cut_to(k + 1)) return {};
    return {all_.subspan(bounds_[k], bounds_[k + 1] - bounds_[k]), bounds_[k + 1]};
  }
  // (The bytes are a memory buffer's, held until the reading is over.)
  void reached(std::size_t) override {}
  void cancel() override { cancelled_.store(true, std::memory_order_release); }
  std::uint64_t raw_size() const override { return all_.size(); }

 private:
  // Cuts the file up to bound n (chunk n - 1's end), as the chunks are asked for: the threads
  // start reading at once, and the few pages a cut touches are read soon after. (Cut up front,
  // the whole file's cuts were 0.05 s of the reading thread's alone on the real profile, the
  // other threads waiting.) false: the file has no chunk n - 1.
  bool cut_to(std::size_t n) {
    while (bounds_.size() <= n && !ended_) {
      // The first chunk is the header and the first function only: the other threads need
      // the part's header before they can start, so the reader reads that much alone.
      const std::size_t at = bounds_.size() == 1 ? 1 : bounds_.back() + step_;
      const void* hit = at < all_.size() ? ::memmem(all_.data() + at - 1, all_.size() - (at - 1),
                                                    boundary.data(), boundary.size())
                                         : nullptr;
      if (!hit) {
        bounds_.push_back(all_.size());
        ended_ = true;
        break;
      }
      bounds_.push_back(static_cast<std::size_t>(static_cast<const char*>(hit) - all_.data()) + 1);
    }
    return n < bounds_.size();
  }

  std::span<const char> all_;
  const std::size_t step_;
  std::mutex m_;
  std::vector<std::size_t> bounds_;  // the cuts so far (the last: the file's end, once ended_)
  bool ended_ = false;
  std::atomic<bool> cancelled_{false};
};

// A decoded chunk's bytes: a buffer the input decodes into (input::read_into) past its end,
// which grows without first zeroing the room it makes.
class chunk_buffer {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char* data() const { return bytes_.get(); }
  std::span<const char> bytes() const { return {bytes_.get(), size_}; }
  // The room past the end, at least `n` bytes of it.
  std::span<char> room(std::size_t n) {
    if (capacity_ - size_ < n) reserve(std::max(size_ + n, 2 * capacity_));
    return {bytes_.get() + size_, n};
  }
  void grew(std::size_t n) { size_ += n; }  // n bytes were written into room()
  void shrink(std::size_t n) { size_ = n; }
  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    std::unique_ptr<char[]> b(new char[n]);
    if (size_) std::memcpy(b.get(), bytes_.get(), size_);
    bytes_ = std::move(b);
    capacity_ = n;
  }
  void assign(std::span<const char> from) {
    reserve(from.size());
    if (!from.empty()) std::memcpy(bytes_.get(), from.data(), from.size());
    size_ = from.size();
  }

 private:
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0, capacity_ = 0;
};

class decoded_feed final : public chunk_feed {
 public:
  decoded_feed(input& in, std::size_t step, std::size_t ahead)
      : in_(in), step_(std::max<std::size_t>(step, 1)), ahead_(std::max<std::size_t>(ahead, 2)) {
    thread_ = std::thread([this] { produce(); });
  }
  ~decoded_feed() override {
    cancel();
    thread_.join();
  }

  std::span<const char> head() override {
    std::unique_lock<std::mutex> g(m_);
    cv_.wait(g, [&] { return head_known_; });
    return head_;
  }
  chunk get(std::size_t k) override {
    std::unique_lock<std::mutex> g(m_);
    cv_.wait(g, [&] { return cancelled_ || finished_ || k < first_ + chunks_.size(); });
    if (cancelled_ || k < first_ || k >= first_ + chunks_.size()) return {};
    const stored& c = chunks_[k - first_];
    return {c.bytes.bytes(), c.raw_end};
  }
  bool ready(std::size_t k) const override {
    std::lock_guard<std::mutex> g(m_);
    return cancelled_ || finished_ || k < first_ + chunks_.size();
  }
  void reached(std::size_t k) override {
    std::lock_guard<std::mutex> g(m_);
    reached_ = std::max(reached_, k);
    while (first_ + 1 < reached_ && !chunks_.empty()) {
      chunks_.front().bytes.clear();
      spare_.push_back(std::move(chunks_.front().bytes));
      chunks_.pop_front();
      ++first_;
    }
    cv_.notify_all();
  }
  void cancel() override {
    {
      std::lock_guard<std::mutex> g(m_);
      cancelled_ = true;
    }
    cv_.notify_all();
  }
  std::optional<error> failure() const override {
    std::lock_guard<std::mutex> g(m_);
    return failure_;
  }
  bool truncated() const override {
    std::lock_guard<std::mutex> g(m_);
    return truncated_;
  }
  std::uint64_t raw_size() const override { return in_.raw_size(); }

 private:
  struct stored {
    chunk_buffer bytes;
    std::uint64_t raw_end = 0;
  };

  // A buffer for the next chunk, with `from` (the bytes after a cut) in it.
  chunk_buffer fresh(std::span<const char> from) {
    chunk_buffer b;
    {
      std::lock_guard<std::mutex> g(m_);
      if (!spare_.empty()) {
        b = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    b.reserve(step_ + piece);
    b.assign(from);
    return b;
  }
  // Hands a full chunk over; waits while the reader is `ahead` chunks behind. False: cancelled.
  bool push(chunk_buffer&& bytes, std::uint64_t raw_end) {
    std::unique_lock<std::mutex> g(m_);
    cv_.wait(g, [&] { return cancelled_ || first_ + chunks_.size() < reached_ + ahead_; });
    if (cancelled_) return false;
    chunks_.push_back({std::move(bytes), raw_end});
    cv_.notify_all();
    return true;
  }
  void finish(std::optional<error> e, bool truncated) {
    {
      std::lock_guard<std::mutex> g(m_);
      finished_ = head_known_ = true;
      failure_ = std::move(e);
      truncated_ = truncated;
    }
    cv_.notify_all();
  }

  void produce() {
    try {
      cut_into_chunks();
    } catch (const std::bad_alloc&) {
      // (On this thread it would end the process: the reader gets it as the input's error,
      // after the chunks handed over so far. Its text was made before: here, where memory ran
      // out, a string of 38 bytes may not be had either.)
      finish(std::move(out_of_memory_), false);
    }
  }
  void cut_into_chunks() {
    chunk_buffer cur = fresh({});
    std::size_t threshold = 1;  // the next cut's chunk starts at or after this (the first: 1)
    std::size_t searched = 0;   // where the search for the next cut goes on from
    for (;;) {
      // The input is decoded straight into the chunk, by pieces, each searched as it comes: the
      // bytes after a cut, copied to the next chunk's buffer, are at most a piece, and no buffer
      // outgrows a chunk by more.
      const std::size_t want = (cur.size() < threshold ? threshold - cur.size() : 0) + piece;
      const std::span<char> room = cur.room(want);
      auto r = in_.read_into(room);
      if (!r || *r == 0) {
        // The end or an error: what is left is the last chunk, then the error if any.
        if (!cur.empty() && !push(std::move(cur), in_.raw_consumed())) return;
        finish(r ? std::nullopt : std::optional<error>(r.error()), in_.truncated());
        return;
      }
      if (!head_known_) {
        std::lock_guard<std::mutex> g(m_);
        head_.assign(room.begin(),
                     room.begin() + static_cast<std::ptrdiff_t>(std::min(*r, head_bytes)));
        head_known_ = true;
        cv_.notify_all();
      }
      cur.grew(*r);
      const std::uint64_t raw_end = in_.raw_consumed();
      while (cur.size() >= threshold) {
        // A cut at the '\n' of "\nfn=" at index threshold - 1 or later.
        const std::size_t from = std::max(searched, threshold - 1);
        const void* hit = from < cur.size() ? ::memmem(cur.data() + from, cur.size() - from,
                                                       boundary.data(), boundary.size())
                                            : nullptr;
        std::size_t cut = 0;
        if (hit) {
          cut = static_cast<std::size_t>(static_cast<const char*>(hit) - cur.data()) + 1;
        } else if (cur.size() >= 16 * step_) {
          // No function starts for long: cut after the last newline, or anywhere.
          const void* nl = ::memrchr(cur.data(), '\n', cur.size());
          cut = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - cur.data()) + 1
                   : cur.size();
        } else {
          // A boundary may straddle the next piece: look again from its first byte.
          searched = cur.size() >= boundary.size() ? cur.size() - (boundary.size() - 1) : 0;
          break;
        }
        chunk_buffer next = fresh(cur.bytes().subspan(cut));
        cur.shrink(cut);
        if (!push(std::move(cur), raw_end)) return;
        cur = std::move(next);
        threshold = step_;
        searched = 0;
      }
    }
  }

  input& in_;
  const std::size_t step_, ahead_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<stored> chunks_;  // chunks first_, first_ + 1, ...
  std::size_t first_ = 0;
  std::size_t reached_ = 0;
  std::vector<chunk_buffer> spare_;  // buffers of chunks the reader is done with
  std::vector<char> head_;
  bool head_known_ = false;
  bool finished_ = false;
  bool cancelled_ = false;
  std::optional<error> failure_;
  bool truncated_ = false;
  error out_of_memory_{"out of memory while decoding the input"};  // (produce's, made here)
  std::thread thread_;  // last: started when everything above exists
};

}  // namespace

std::unique_ptr<chunk_feed> mapped_chunks(std::span<const char> all, std::size_t chunk_bytes) {
  return std::make_unique<mapped_feed>(all, chunk_bytes);
}

std::unique_ptr<chunk_feed> decoded_chunks(input& in, std::size_t chunk_bytes, std::size_t ahead) {
  return std::make_unique<decoded_feed>(in, chunk_bytes, ahead);
}

}  // namespace calltree::detail

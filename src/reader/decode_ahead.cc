// decode_ahead.cc — a producer thread and a ring of block buffers.
//
// The producer calls inner.next() and copies each block into a free slot (the inner decoder
// reuses its one buffer, so the copy is what lets it run ahead); the consumer's next() frees
// the slot it handed out last time and waits for the next full one. Four 1 MB slots: enough to
// absorb jitter, small enough for the bounded-memory promise. An error or the end travels as a
// slot like any block, after the blocks before it.
#include "reader/decode_ahead.h"

#include <condition_variable>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace calltree::detail {

namespace {

class ahead_input final : public input {
 public:
  explicit ahead_input(input& inner)
      : inner_(inner), kind_(inner.kind()), raw_size_(inner.raw_size()) {
    size_at_open_ = inner.size_at_open();
    slots_.resize(slot_count);
    thread_ = std::thread([this] { produce(); });
  }
  ~ahead_input() override {
    {
      std::lock_guard<std::mutex> g(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  result<std::span<const char>> next() override {
    std::unique_lock<std::mutex> g(m_);
    if (handed_out_) {
      // The block handed out last time is done with: its slot may be filled again.
      handed_out_ = false;
      slots_[head_].full = false;
      head_ = (head_ + 1) % slot_count;
      cv_.notify_all();
    }
    if (finished_) return std::span<const char>();
    cv_.wait(g, [&] { return slots_[head_].full; });
    slot& s = slots_[head_];
    consumed_ = s.raw_consumed;
    if (s.err) {
      finished_ = true;
      truncated_ = s.truncated;
      changed_ = s.changed;
      return *s.err;
    }
    if (s.size == 0) {
      finished_ = true;
      grew_ = s.grew;
      return std::span<const char>();
    }
    handed_out_ = true;
    return std::span<const char>(s.data.data(), s.size);
  }
  compression kind() const override { return kind_; }
  std::uint64_t raw_consumed() const override { return consumed_; }
  std::uint64_t raw_size() const override { return raw_size_; }

 private:
  static constexpr std::size_t slot_count = 4;
  struct slot {
    std::vector<char> data;
    std::size_t size = 0;
    std::uint64_t raw_consumed = 0;
    std::optional<error> err;
    bool truncated = false;
    bool changed = false;  // (the inner input's, with its error or its end)
    bool grew = false;
    bool full = false;
  };

  void produce() {
    std::size_t tail = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> g(m_);
        cv_.wait(g, [&] { return stop_ || !slots_[tail].full; });
        if (stop_) return;
      }
      // The slot is ours until it is marked full.
      slot& s = slots_[tail];
      bool last = false;
      try {
        auto r = inner_.next();
        if (!r) {
          s.err = r.error();
          s.truncated = inner_.truncated();
          s.changed = inner_.changed();
          s.size = 0;
          last = true;
        } else {
          s.data.assign(r->begin(), r->end());
          s.size = r->size();
          last = r->empty();
          s.grew = last && inner_.grew();
        }
      } catch (const std::bad_alloc&) {
        // (On this thread it would end the process: the reader gets it as the input's error,
        // whose text was made before: here, where memory ran out, 38 bytes may not be had.)
        s.err = std::move(out_of_memory_);
        s.size = 0;
        last = true;
      }
      s.raw_consumed = inner_.raw_consumed();
      {
        std::lock_guard<std::mutex> g(m_);
        s.full = true;
      }
      cv_.notify_all();
      if (last) return;
      tail = (tail + 1) % slot_count;
    }
  }

  input& inner_;
  compression kind_;
  std::uint64_t raw_size_;
  std::uint64_t consumed_ = 0;
  std::vector<slot> slots_;
  std::size_t head_ = 0;
  bool handed_out_ = false;
  bool finished_ = false;
  bool stop_ = false;
  std::mutex m_;
  std::condition_variable cv_;
  error out_of_memory_{"out of memory while decoding the input"};  // (produce's, made here)
  std::thread thread_;  // last: started when everything above exists
};

}  // namespace

std::unique_ptr<input> decode_ahead(input& inner) { return std::make_unique<ahead_input>(inner); }

}  // namespace calltree::detail

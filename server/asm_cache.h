// server/asm_cache.h — (internal to server/) what /api/v1/asm/ID keeps between requests, and
// how many of its slow runs go at once.
//
// What it is: an answer of the asm route costs one reading of the profile and objdump runs on
// the objects (seconds for libLLVM's 110 MB), so the server keeps (1) the objdump replies by
// object and arguments (the symbol table of an object, the code of a range) and (2) the
// answers by request, each in a bound of bytes with the least recently used dropped first; and
// (3) lets only a few answers be made at once, so that slow ones never hold every worker: past
// them a request is told to come back (503, Retry-After). What it is not: a general cache (a
// reload makes a new one: its objects and profile may have changed).
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "calltree/asm.h"

namespace calltree::server::detail {

// What a value kept holds, in bytes.
inline std::size_t bytes_of(const std::string& s) { return s.capacity(); }
std::size_t bytes_of(const objdump_reply& r);

// Values by key, at most `bound` bytes of keys and values (bytes_of(value): what it holds),
// least recently used dropped first; a value of more than half the bound is not kept.
// Safe from several threads.
template <typename V>
class lru_bytes {
 public:
  explicit lru_bytes(std::size_t bound) : bound_(bound) {}

  std::optional<V> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->value;
  }

  void put(const std::string& key, V value) {
    const std::size_t size = key.size() + bytes_of(value) + 64;
    if (size > bound_ / 2) return;
    std::lock_guard<std::mutex> lock(m_);
    if (auto it = index_.find(key); it != index_.end()) {
      bytes_ -= it->second->size;
      order_.erase(it->second);
      index_.erase(it);
    }
    order_.push_front({key, std::move(value), size});
    index_.emplace(key, order_.begin());
    bytes_ += size;
    while (bytes_ > bound_ && !order_.empty()) {
      bytes_ -= order_.back().size;
      index_.erase(order_.back().key);
      order_.pop_back();
    }
  }

  std::size_t bytes() const {
    std::lock_guard<std::mutex> lock(m_);
    return bytes_;
  }

 private:
  struct entry {
    std::string key;
    V value;
    std::size_t size = 0;
  };
  std::size_t bound_;
  mutable std::mutex m_;
  std::list<entry> order_;  // most recently used first
  std::unordered_map<std::string, typename std::list<entry>::iterator> index_;
  std::size_t bytes_ = 0;
};

struct asm_cache_limits {
  std::size_t objdump_bytes = 64u << 20;  // objdump's replies kept
  std::size_t answer_bytes = 64u << 20;   // answers kept
  unsigned jobs = 2;                      // answers made at once
};

class asm_cache {
 public:
  asm_cache(objdump_runner run, asm_cache_limits limits);

  // A runner that answers from the replies kept (objdump ran and its output was read: the
  // replies of a missing object or a failed start are not kept) and runs `run` otherwise.
  const objdump_runner& runner() const { return cached_; }

  // The answers kept, by request (the route's path and its parameters but the token).
  lru_bytes<std::string>& answers() { return answers_; }

  // A slot for making one answer, or none when `jobs` are being made (held until destroyed).
  class slot {
   public:
    explicit slot(std::atomic<unsigned>* busy) : busy_(busy) {}
    slot(slot&& o) noexcept : busy_(o.busy_) { o.busy_ = nullptr; }
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;
    slot& operator=(slot&&) = delete;
    ~slot() {
      if (busy_) busy_->fetch_sub(1);
    }

   private:
    std::atomic<unsigned>* busy_;
  };
  std::optional<slot> try_slot();

  // objdump runs made (not answered from the replies kept).
  std::uint64_t runs() const { return runs_.load(); }

 private:
  objdump_runner run_;
  asm_cache_limits limits_;
  lru_bytes<objdump_reply> replies_;
  lru_bytes<std::string> answers_;
  objdump_runner cached_;
  std::atomic<unsigned> busy_{0};
  std::atomic<std::uint64_t> runs_{0};
};

}  // namespace calltree::server::detail

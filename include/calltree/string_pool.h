// string_pool.h — interned strings with dense 32-bit ids.
//
// What it is: the one place names (objects, files, functions) are stored. The reader interns a
// name once, when its line is read; every record after that carries the id. Id 0 is always the
// empty string ("unknown"). What it is not: the format's `(id)` name compression: those ids are
// aliases chosen by the producer and live in the reader's tables; several of them may map to
// one pool id.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace calltree {

using string_id = std::uint32_t;

class string_pool {
 public:
  // full: every name's bytes are kept. digest: a name is known by a 128-bit hash of its bytes
  // and only its first `digest_prefix` bytes are kept (view() gives those): for a reader whose
  // sinks need names' identity and not their text (`calltree check`), in a fraction of the
  // memory. Two different names with one digest would be taken for one name; with 128 bits
  // that takes on the order of 2^64 names.
  enum class mode : std::uint8_t { full, digest };
  static constexpr std::size_t digest_prefix = 40;

  explicit string_pool(mode m = mode::full);
  string_pool(const string_pool&) = delete;
  string_pool& operator=(const string_pool&) = delete;
  string_pool(string_pool&&) noexcept;
  string_pool& operator=(string_pool&&) noexcept;
  ~string_pool();

  string_id intern(std::string_view s);
  // The id of `s` if it was interned, else -1 cast to string_id.
  string_id find(std::string_view s) const;
  std::string_view view(string_id id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }
  std::size_t bytes() const { return bytes_; }
  mode kind() const { return mode_; }

  static constexpr string_id empty = 0;
  static constexpr string_id npos = 0xffffffffu;

 private:
  void grow();
  bool same(string_id id, std::string_view s, std::uint64_t h, std::uint64_t h2) const;
  mode mode_;
  std::vector<std::uint64_t> digests_;  // digest mode: two 64-bit hashes per name
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_used_ = 0, block_size_ = 0;
  std::vector<std::string_view> views_;
  // Open addressing, linear probing: each slot is (32 bits of the name's hash << 32) | (id + 1),
  // 0 when empty. The hash bits place the slot, so growing needs no rehashing of names.
  std::vector<std::uint64_t> slots_;
  std::size_t bytes_ = 0;
};

}  // namespace calltree

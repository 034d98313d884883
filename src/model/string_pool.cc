#include "calltree/string_pool.h"

#include <cstring>

namespace calltree {

std::size_t string_pool::hash::operator()(std::string_view s) const noexcept {
  // FNV-1a over 8-byte words: names are hashed once per definition line, not per cost line.
  std::uint64_t h = 1469598103934665603ull ^ s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

string_pool::string_pool() { intern(std::string_view()); }
string_pool::string_pool(string_pool&&) noexcept = default;
string_pool& string_pool::operator=(string_pool&&) noexcept = default;
string_pool::~string_pool() = default;

string_id string_pool::intern(std::string_view s) {
  if (auto it = index_.find(s); it != index_.end()) return it->second;
  const char* stored = "";
  if (!s.empty()) {
    if (block_size_ - block_used_ < s.size()) {
      std::size_t size = s.size() > (1u << 15) ? s.size() : (1u << 16);
      blocks_.push_back(std::make_unique<char[]>(size));
      block_size_ = size;
      block_used_ = 0;
    }
    char* dst = blocks_.back().get() + block_used_;
    std::memcpy(dst, s.data(), s.size());
    block_used_ += s.size();
    stored = dst;
  }
  std::string_view v(stored, s.size());
  auto id = static_cast<string_id>(views_.size());
  views_.push_back(v);
  index_.emplace(v, id);
  bytes_ += s.size() + sizeof(std::string_view) * 2 + 16;
  return id;
}

string_id string_pool::find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? npos : it->second;
}

}  // namespace calltree

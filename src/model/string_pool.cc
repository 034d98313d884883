// string_pool.cc — interned names: bytes in 64 KB blocks, an open-addressing index.
//
// Names are hashed once per definition line, but a big instr-level profile defines hundreds of
// thousands of them, often hundreds of bytes long (C++ names with `--separate-callers` chains:
// 80 MB of the 260 MB benchmark file), so the hash takes 16 bytes per multiply and the index
// keeps enough hash bits to grow without hashing any name again.
#include "calltree/string_pool.h"

#include <cstring>

namespace calltree {

namespace {

__extension__ using u128 = unsigned __int128;

// The two halves of a 64x64->128 bit product, folded: the mixing step of the wyhash family.
inline std::uint64_t fold_mul(std::uint64_t a, std::uint64_t b) {
  const u128 r = static_cast<u128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

inline std::uint64_t load64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline std::uint64_t load32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
                        k2 = 0x8ebc6af09c88c6e3ull;

std::uint64_t hash_name(std::string_view s, std::uint64_t seed = 0) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = k0 ^ (n * k2) ^ seed;
  for (; n > 16; n -= 16, p += 16) h = fold_mul(load64(p) ^ k1, load64(p + 8) ^ h);
  std::uint64_t a = 0, b = 0;
  if (n >= 8) {
    a = load64(p);
    b = load64(p + n - 8);
  } else if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {
    a = (static_cast<std::uint64_t>(static_cast<unsigned char>(p[0])) << 16) |
        (static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
        static_cast<unsigned char>(p[n - 1]);
  }
  h = fold_mul(a ^ k1, b ^ h);
  return fold_mul(h ^ k2, s.size() ^ k1);
}

}  // namespace

// The second hash of digest mode: with the first, a 128-bit digest.
constexpr std::uint64_t second_seed = 0x589965cc75374cc3ull;

string_pool::string_pool(mode m) : mode_(m) { intern(std::string_view()); }

bool string_pool::same(string_id id, std::string_view s, std::uint64_t h, std::uint64_t h2) const {
  return mode_ == mode::full ? views_[id] == s
                             : digests_[2 * id] == h && digests_[2 * id + 1] == h2;
}
string_pool::string_pool(string_pool&&) noexcept = default;
string_pool& string_pool::operator=(string_pool&&) noexcept = default;
string_pool::~string_pool() = default;

void string_pool::grow() {
  std::vector<std::uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  const std::size_t mask = slots_.size() - 1;
  for (std::uint64_t e : old) {
    if (!e) continue;
    std::size_t i = static_cast<std::size_t>(e >> 32) & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = e;
  }
}

string_id string_pool::intern(std::string_view s) {
  if ((views_.size() + 1) * 4 > slots_.size() * 3) grow();
  const std::uint64_t h = hash_name(s);
  const auto tag = static_cast<std::uint32_t>(h);
  // Digest mode: both hashes, 128 bits.
  const std::uint64_t h2 = mode_ == mode::digest ? hash_name(s, second_seed) : 0;
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = tag & mask;
  for (;; i = (i + 1) & mask) {
    const std::uint64_t e = slots_[i];
    if (!e) break;
    if (static_cast<std::uint32_t>(e >> 32) == tag) {
      const auto id = static_cast<string_id>((e & 0xffffffffu) - 1);
      if (same(id, s, h, h2)) return id;
    }
  }
  if (mode_ == mode::digest) {
    digests_.push_back(h);
    digests_.push_back(h2);
    s = s.substr(0, digest_prefix);
  }
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
  auto id = static_cast<string_id>(views_.size());
  views_.emplace_back(stored, s.size());
  slots_[i] = (static_cast<std::uint64_t>(tag) << 32) | (static_cast<std::uint64_t>(id) + 1);
  bytes_ += s.size() + sizeof(std::string_view) * 2 + 16 + (mode_ == mode::digest ? 16 : 0);
  return id;
}

string_id string_pool::find(std::string_view s) const {
  if (slots_.empty()) return npos;
  const std::uint64_t h = hash_name(s);
  const auto tag = static_cast<std::uint32_t>(h);
  const std::uint64_t h2 = mode_ == mode::digest ? hash_name(s, second_seed) : 0;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
    const std::uint64_t e = slots_[i];
    if (!e) return npos;
    if (static_cast<std::uint32_t>(e >> 32) == tag) {
      const auto id = static_cast<string_id>((e & 0xffffffffu) - 1);
      if (same(id, s, h, h2)) return id;
    }
  }
}

}  // namespace calltree

// string_pool.cc — interned names: bytes in 64 KB blocks, an open-addressing index, and in
// spill mode a temporary file for the text of long names.
//
// Names are hashed once per definition line, but a big instr-level profile defines hundreds of
// thousands of them, often hundreds of bytes long (C++ names with `--separate-callers` chains:
// 80 MB of the 260 MB benchmark file), so the hash takes 16 bytes per multiply and the index
// keeps enough hash bits to grow without hashing any name again.
//
// Spill mode: a name longer than digest_prefix goes whole, in id order, through a write buffer
// into an unlinked temporary file. Its place (string_pool_tables.h) is marked spilled and holds its
// length; where its text starts is the sum of the lengths of the spilled names before it,
// counted from a mark kept every 64 names (the offset where the text of that name on starts):
// 8 bytes per 64 names rather than an offset per name. A failed write turns spilling off for
// good: the names still in the buffer are copied into memory (their places unmarked), and
// every later name stays in memory.
#include "calltree/string_pool.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "model/free_storage.h"
#include "model/string_pool_tables.h"

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

// The last 0 to 16 bytes of a name (p, n: what the 16-byte steps left) as two words.
void last_bytes(const char* p, std::size_t n, std::uint64_t& a, std::uint64_t& b) {
  a = b = 0;
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
}

std::uint64_t hash_name(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = k0 ^ (n * k2);
  for (; n > 16; n -= 16, p += 16) h = fold_mul(load64(p) ^ k1, load64(p + 8) ^ h);
  std::uint64_t a, b;
  last_bytes(p, n, a, b);
  h = fold_mul(a ^ k1, b ^ h);
  return fold_mul(h ^ k2, s.size() ^ k1);
}

// The second hash of digest and spill modes starts from another value: with the first, a
// 128-bit digest.
constexpr std::uint64_t second_seed = 0x589965cc75374cc3ull;

// hash_name(s) and the second hash in one pass over s: the two chains of multiplies are
// independent, so they run side by side in about the time of one.
void hash_name_twice(std::string_view s, std::uint64_t& h1, std::uint64_t& h2) {
  const char* p = s.data();
  std::size_t n = s.size();
  h1 = k0 ^ (n * k2);
  h2 = h1 ^ second_seed;
  for (; n > 16; n -= 16, p += 16) {
    const std::uint64_t a = load64(p) ^ k1, b = load64(p + 8);
    h1 = fold_mul(a, b ^ h1);
    h2 = fold_mul(a, b ^ h2);
  }
  std::uint64_t a, b;
  last_bytes(p, n, a, b);
  h1 = fold_mul(fold_mul(a ^ k1, b ^ h1) ^ k2, s.size() ^ k1);
  h2 = fold_mul(fold_mul(a ^ k1, b ^ h2) ^ k2, s.size() ^ k1);
}

}  // namespace

// Spill mode's temporary file and write buffer.
struct string_pool::tables::spill_file {
  static constexpr std::size_t buffer_size = 1u << 17;

  std::string dir;
  int fd = -1;
  bool broken = false;        // no file could be made, or a write failed: names stay in memory
  std::uint64_t flushed = 0;  // bytes written to the file
  std::vector<char> buffer;   // the bytes [flushed, flushed + buffer.size())
  // The first name whose text is in the buffer (npos: none is).
  string_id first_buffered = string_pool::npos;
  // For names 0, 64, 128, ...: the offset where the text of that name on starts.
  static constexpr std::size_t mark_every = 64;
  paged_array<std::uint64_t> marks;
  // The lengths of spilled names of place_length_mask bytes or more, by id (in id order).
  std::vector<std::pair<string_id, std::uint64_t>> long_names;
  mutable std::atomic<bool> read_failed{false};

  explicit spill_file(std::string d) : dir(std::move(d)) {}
  spill_file(const spill_file&) = delete;
  spill_file& operator=(const spill_file&) = delete;
  ~spill_file() {
    if (fd >= 0) ::close(fd);
  }

  // An unlinked file in `dir` (else $TMPDIR, else /tmp); false if none can be made.
  bool open() {
    std::string d = dir;
    if (d.empty()) {
      const char* t = std::getenv("TMPDIR");
      d = t && *t ? t : "/tmp";
    }
#ifdef O_TMPFILE
    fd = ::open(d.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
      // A file system without O_TMPFILE: a named file, unlinked at once.
      std::string name = d + "/calltree-names-XXXXXX";
      fd = ::mkostemp(name.data(), O_CLOEXEC);
      if (fd >= 0) ::unlink(name.c_str());
    }
    if (fd < 0) return false;
    // Reading back a name need not touch the file's access time (annotate reads 73 k names of
    // the real profile, one pread each: the kernel's atime check was 4 % of that). The file is
    // ours, so the flag is allowed; where it is not, it is not needed.
    if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NOATIME);
    return true;
  }

  bool write_at(const char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      p += w;
      n -= static_cast<std::size_t>(w);
      offset += static_cast<std::uint64_t>(w);
    }
    return true;
  }

  bool read_at(char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      p += r;
      n -= static_cast<std::size_t>(r);
      offset += static_cast<std::uint64_t>(r);
    }
    return true;
  }
};

string_pool::tables::tables(pool_mode m) : mode(m), digests_kept(m != pool_mode::full) {}
string_pool::tables::~tables() = default;

string_pool string_pool::tables::make(pool_mode m, std::string spill_dir) {
  auto t = std::make_unique<tables>(m);
  if (m == pool_mode::spill) t->spill = std::make_unique<spill_file>(std::move(spill_dir));
  string_pool p(std::move(t));
  add(p, std::string_view(), p.t_->hashes_of(std::string_view()));
  return p;
}

string_pool::string_pool(std::unique_ptr<tables> t) : t_(std::move(t)) {}
string_pool::string_pool() : string_pool(tables::make(pool_mode::full, {})) {}

// (A pool moved from holds no name: size() 0.)
string_pool::string_pool(string_pool&& o) noexcept
    : size_(std::exchange(o.size_, 0)), bytes_(std::exchange(o.bytes_, 0)), t_(std::move(o.t_)) {}
string_pool& string_pool::operator=(string_pool&& o) noexcept {
  size_ = std::exchange(o.size_, 0);
  bytes_ = std::exchange(o.bytes_, 0);
  t_ = std::move(o.t_);
  return *this;
}
string_pool::~string_pool() = default;

std::string_view string_pool::view(string_id id) const { return t_->view(id); }

std::string_view string_pool::text(string_id id, std::string& scratch) const {
  return t_->text(id, scratch);
}

string_id string_pool::intern(std::string_view s) {
  return tables::add(*this, s, t_->hashes_of(s));
}

std::optional<string_id> string_pool::find(std::string_view s) {
  return t_->find(s, t_->hashes_of(s));
}

void string_pool::release_index() { t_->release_index(); }

// (The caller has matched 32 bits of h already: the slot's.)
bool string_pool::tables::same(string_id id, std::string_view s, std::uint64_t h,
                               std::uint64_t h2) const {
  switch (mode) {
    case pool_mode::full:
      return view(id) == s;
    case pool_mode::spill:
      return second_halves[id.index()] == h2;
    case pool_mode::digest:
      break;
  }
  return digests[id.index()].h == h && digests[id.index()].h2 == h2;
}

void string_pool::tables::grow() {
  std::vector<std::uint64_t> old = std::move(slots);
  slots.assign(old.empty() ? 1024 : old.size() * 2, 0);
  const std::size_t mask = slots.size() - 1;
  for (std::uint64_t e : old) {
    if (!e) continue;
    std::size_t i = static_cast<std::size_t>(e >> 32) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = e;
  }
}

// Copies `s` into the blocks; the copy's place (0 for an empty s). A name of more than 32 KiB
// that does not fit in the block being filled gets a block of its own, so one of
// place_length_mask bytes or more (4 MiB: more than any block of 64 KiB has left) is always
// alone in its block, at offset 0, and its place says "the whole block".
std::uint64_t string_pool::tables::store(std::string_view s) {
  if (s.empty()) return 0;
  if (block_size - block_used < s.size()) {
    std::size_t size = s.size() > (1u << 15) ? s.size() : (1u << 16);
    // 2^25 blocks (2 TiB of names at the least) is as many as a place can number.
    if (blocks.size() >= (std::size_t{1} << (64 - place_block_shift))) throw std::bad_alloc();
    blocks.push_back({std::make_unique_for_overwrite<char[]>(size), size});  // (not zeroed)
    block_size = size;
    block_used = 0;
  }
  const std::size_t at = block_used;
  std::memcpy(blocks.back().bytes.get() + at, s.data(), s.size());
  block_used += s.size();
  const std::uint64_t length = std::min<std::uint64_t>(s.size(), place_length_mask);
  return (static_cast<std::uint64_t>(blocks.size() - 1) << place_block_shift) |
         (static_cast<std::uint64_t>(at) << place_offset_shift) | length;
}

std::uint64_t string_pool::tables::spilled_length(string_id id) const {
  const std::uint64_t n = places[id.index()] & place_length_mask;
  if (n != place_length_mask) return n;
  const auto& l = spill->long_names;
  const auto it = std::lower_bound(l.begin(), l.end(), std::make_pair(id, std::uint64_t{0}));
  return it != l.end() && it->first == id ? it->second : n;
}

// Where name `id`'s text starts in the file (or its buffer): the mark before it and the lengths
// of the spilled names between.
std::uint64_t string_pool::tables::spill_offset(string_id id) const {
  const spill_file& f = *spill;
  const std::size_t m = id.index() / spill_file::mark_every;
  std::uint64_t at = f.marks[m];
  for (auto j = m * spill_file::mark_every; j < id.index(); ++j)
    if (spilled(string_id{j})) at += spilled_length(string_id{j});
  return at;
}

void string_pool::tables::prefetch_text(string_id id) const {
  const std::uint32_t i = id.index();
  if (i >= places.size()) return;
  if (spill) {
    __builtin_prefetch(&spill->marks[i / spill_file::mark_every]);
    __builtin_prefetch(&places[i / spill_file::mark_every * spill_file::mark_every]);
  }
  __builtin_prefetch(&places[i]);
}

void string_pool::tables::prefetch_view(string_id id) const {
  if (id.index() >= places.size()) return;
  const std::string_view v = view(id);
  const auto first = reinterpret_cast<std::uintptr_t>(v.data()) & ~std::uintptr_t{63};
  const auto end =
      reinterpret_cast<std::uintptr_t>(v.data()) + std::min<std::size_t>(v.size(), 512);
  for (std::uintptr_t line = first; line < end; line += 64)
    __builtin_prefetch(reinterpret_cast<const char*>(line));
}

std::string_view string_pool::tables::read_back(string_id id, std::string& scratch) const {
  const spill_file& f = *spill;
  const std::uint64_t start = spill_offset(id), n = spilled_length(id);
  scratch.resize(static_cast<std::size_t>(n));
  if (start >= f.flushed) {
    std::memcpy(scratch.data(), f.buffer.data() + (start - f.flushed), scratch.size());
  } else if (!f.read_at(scratch.data(), scratch.size(), start)) {
    f.read_failed.store(true, std::memory_order_relaxed);
    return view(id);
  }
  return scratch;
}

// After a failed write: the names whose text is in the write buffer are copied into memory,
// and the file's end is what it holds.
void string_pool::tables::keep_buffered_in_memory() {
  spill_file& f = *spill;
  if (f.first_buffered != npos) {
    std::uint64_t at = f.flushed;  // (where the first buffered name's text starts)
    for (std::size_t i = f.first_buffered.index(); i < places.size(); ++i) {
      const string_id id{i};
      if (!spilled(id)) continue;
      const auto n = static_cast<std::size_t>(spilled_length(id));
      places[i] = store(std::string_view(f.buffer.data() + (at - f.flushed), n));
      at += n;
    }
  }
  f.first_buffered = npos;
  f.buffer.clear();
  f.buffer.shrink_to_fit();
}

// Appends `s`, the text of name `id`, to the spill file (through the buffer); false if it is
// not there (no file, or a write failed: then spilling is off for good).
bool string_pool::tables::spill_name(std::string_view s, string_id id) {
  spill_file& f = *spill;
  if (f.broken) return false;
  if (f.fd < 0) {
    if (!f.open()) {
      f.broken = true;
      return false;
    }
    f.buffer.reserve(spill_file::buffer_size);
  }
  if (f.buffer.size() + s.size() > spill_file::buffer_size) {
    if (!f.buffer.empty() && !f.write_at(f.buffer.data(), f.buffer.size(), f.flushed)) {
      keep_buffered_in_memory();
      f.broken = true;
      return false;
    }
    f.flushed += f.buffer.size();
    f.buffer.clear();
    f.first_buffered = npos;
    if (s.size() > spill_file::buffer_size) {
      // A name bigger than the buffer is written at once.
      if (!f.write_at(s.data(), s.size(), f.flushed)) {
        f.broken = true;
        return false;
      }
      f.flushed += s.size();
      return true;
    }
  }
  if (f.buffer.empty()) f.first_buffered = id;
  f.buffer.insert(f.buffer.end(), s.begin(), s.end());
  return true;
}

bool string_pool::tables::spilling() const { return spill && spill->fd >= 0 && !spill->broken; }
std::uint64_t string_pool::tables::spilled_bytes() const {
  return spill ? spill->flushed + spill->buffer.size() : 0;
}
bool string_pool::tables::read_failed() const {
  return spill && spill->read_failed.load(std::memory_order_relaxed);
}

string_pool::tables::name_digest string_pool::tables::digest_of(std::string_view s) {
  name_digest d;
  hash_name_twice(s, d.h, d.h2);
  return d;
}

void string_pool::tables::keep_digests() {
  if (digests_kept) return;
  digests_kept = true;
  for (std::size_t i = 0; i < places.size(); ++i) digests.push_back(digest_of(view(string_id{i})));
}

// Full mode needs one 64-bit hash; the others (and a pool that keeps digests) both.
string_pool::tables::name_digest string_pool::tables::hashes_of(std::string_view s) const {
  if (digests_kept) return digest_of(s);
  name_digest d;
  d.h = hash_name(s);
  return d;
}

void string_pool::tables::release_index() {
  released = true;
  detail::free_storage(slots);
  // (Digest mode's digests cannot be made again: its names' text is not kept.)
  if (mode == pool_mode::spill) detail::free_storage(second_halves);
}

string_pool::tables::name_digest string_pool::tables::digest_of_text(string_id id) const {
  std::string scratch;
  return digest_of(text(id, scratch));
}

void string_pool::tables::rebuild_index() {
  released = false;
  std::size_t n = 1024;
  while (places.size() * 4 > n * 3) n *= 2;
  slots.assign(n, 0);
  const std::size_t mask = n - 1;
  std::string scratch;
  for (std::size_t k = 0; k < places.size(); ++k) {
    const string_id id{k};
    std::uint32_t tag;
    if (mode == pool_mode::spill) {
      // Both halves again, from the text (read back if spilled): release_index() freed the second.
      const name_digest d = digest_of(text(id, scratch));
      second_halves.push_back(d.h2);
      tag = static_cast<std::uint32_t>(d.h);
    } else {
      tag = static_cast<std::uint32_t>(digests_kept ? digests[k].h : hash_name(view(id)));
    }
    std::size_t i = tag & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = (static_cast<std::uint64_t>(tag) << 32) | (std::uint64_t{id.index()} + 1);
  }
}

string_id string_pool::tables::intern(std::string_view s, const name_digest& d) {
  if (released) rebuild_index();
  if ((places.size() + 1) * 4 > slots.size() * 3) grow();
  const std::uint64_t h = d.h, h2 = d.h2;
  const auto tag = static_cast<std::uint32_t>(h);
  const std::size_t mask = slots.size() - 1;
  std::size_t i = tag & mask;
  for (;; i = (i + 1) & mask) {
    const std::uint64_t e = slots[i];
    if (!e) break;
    if (static_cast<std::uint32_t>(e >> 32) == tag) {
      const auto id = static_cast<string_id>((e & 0xffffffffu) - 1);
      if (same(id, s, h, h2)) return id;
    }
  }
  const string_id id{places.size()};
  std::size_t kept = s.size();  // the bytes counted (bytes())
  if (mode == pool_mode::spill)
    second_halves.push_back(h2);
  else if (digests_kept)
    digests.push_back({h, h2});
  if (mode == pool_mode::digest) {
    s = s.substr(0, digest_prefix);
    kept = s.size() + 16;
  }
  std::uint64_t spilled_len = 0;  // spill mode: the length of the name if it went to the file
  if (mode == pool_mode::spill) {
    // A long name goes to the file and its prefix stays; a short one (or any, once spilling is
    // off) stays whole. Its place says which.
    spill_file& f = *spill;
    if (id.index() % spill_file::mark_every == 0) f.marks.push_back(f.flushed + f.buffer.size());
    if (s.size() > digest_prefix && spill_name(s, id)) {
      spilled_len = s.size();
      if (spilled_len >= place_length_mask) f.long_names.emplace_back(id, spilled_len);
      s = s.substr(0, spill_prefix);
    }
  }
  std::uint64_t place = store(s);
  if (spilled_len)
    place = (place & ~place_length_mask) | place_spilled |
            std::min<std::uint64_t>(spilled_len, place_length_mask);
  places.push_back(place);
  slots[i] = (static_cast<std::uint64_t>(tag) << 32) | (std::uint64_t{id.index()} + 1);
  bytes += kept + sizeof(std::string_view) * 2 + 16;
  return id;
}

std::optional<string_id> string_pool::tables::find(std::string_view s, const name_digest& d) {
  if (released) rebuild_index();
  if (slots.empty()) return std::nullopt;
  const std::uint64_t h = d.h, h2 = d.h2;
  const auto tag = static_cast<std::uint32_t>(h);
  const std::size_t mask = slots.size() - 1;
  for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
    const std::uint64_t e = slots[i];
    if (!e) return std::nullopt;
    if (static_cast<std::uint32_t>(e >> 32) == tag) {
      const auto id = static_cast<string_id>((e & 0xffffffffu) - 1);
      if (same(id, s, h, h2)) return id;
    }
  }
}

}  // namespace calltree

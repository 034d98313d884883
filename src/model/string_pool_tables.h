// string_pool_tables.h — (internal) what a string pool holds: the names' bytes, each name's
// place among them, the index, the digests, and in spill mode its file; and the work on them.
// The public header (calltree/string_pool.h) declares only that the pool has these tables;
// the library's own readers reach them through string_pool_access.h, whose view() and text()
// are inline: the reader's hot path reads a name without a call.
//
// Three modes (share/doc/calltree/performance.md, "Memory"). A pool made through the API is in
// full mode, so every name it gives is whole; the other two are the command-line tool's own,
// for readings that need few names' text (string_pool_access::make):
// * full: every name's bytes are kept in memory; view() is the name.
// * digest: a name is known by a 128-bit hash of its bytes and only its first `digest_prefix`
//   bytes are kept (view() and text() give those): for a reader whose sinks need names'
//   identity and not their text (`calltree check`), in a fraction of the memory.
// * spill: known by the same 128-bit hash as in digest mode; a name of up to `digest_prefix`
//   bytes is kept whole in memory, a longer one is written whole to an unlinked temporary file
//   and only its first `spill_prefix` bytes stay in memory (view()); text() reads a name back
//   (pread) when a sink needs it: the writer once per part, annotate for the functions it prints.
//   For sinks that need the text of few names at a time (`calltree convert`, `calltree annotate`).
//   If no temporary file can be made, or a write to it fails, the names from then on (and those
//   still in its write buffer) are kept in memory instead: text() gives the same bytes either way.
// In digest and spill modes two different names with one digest would be taken for one name;
// with 128 bits that takes on the order of 2^64 names, and with the 96 of them spill mode
// compares (it keeps 64 and the index 32) on the order of 2^48.
// Threads: text() only reads the spill file (pread), so const members stay safe to share.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/string_pool.h"
#include "model/paged_array.h"

namespace calltree {

enum class pool_mode : std::uint8_t { full, digest, spill };

struct string_pool::tables {
  static constexpr std::size_t digest_prefix = 40;
  // Spill mode: what view() keeps of a name written to the file (enough to tell an empty name
  // and an `(id)` look-alike; text() gives the rest).
  static constexpr std::size_t spill_prefix = 8;

  // A name's 128-bit hash, as digest and spill modes know names (full mode uses `h`).
  struct name_digest {
    std::uint64_t h = 0, h2 = 0;
  };

  // A pool in mode `m`; `spill_dir`: where spill mode makes its temporary file (empty: $TMPDIR,
  // else /tmp).
  static string_pool make(pool_mode m, std::string spill_dir);
  // The tables of `p` (a pool not moved from).
  static tables& of(string_pool& p) { return *p.t_; }
  static const tables& of(const string_pool& p) { return *p.t_; }
  // intern() of a name whose digest_of() is `d`, into `p` (its size() and bytes() too).
  static string_id add(string_pool& p, std::string_view s, const name_digest& d) {
    const string_id id = p.t_->intern(s, d);
    p.size_ = p.t_->places.size();
    p.bytes_ = p.t_->bytes;
    return id;
  }

  explicit tables(pool_mode m);
  tables(const tables&) = delete;
  tables& operator=(const tables&) = delete;
  ~tables();

  pool_mode mode;
  std::size_t bytes = 0;      // string_pool::bytes()
  bool digests_kept = false;  // names are known by their digests (digest and spill modes,
                              // keep_digests())
  // The per-name tables are paged: they never copy themselves to grow (paged_array.h).
  // The 128-bit hash of each name, when digests_kept, but in spill mode: there only its second
  // half is kept (second_halves), and the index's slot holds 32 bits of the first; a name is
  // taken for another whose 96 bits agree (about 2^48 names for one such pair).
  paged_array<name_digest> digests;
  paged_array<std::uint64_t> second_halves;
  // The names' bytes, in blocks of 64 KiB (a longer name in one of its own), and each name's
  // place there in one word (a string_view would take two): its block, offset and length, the
  // length all ones for a name as long as its own block (one of 4 MiB or more). In spill mode a
  // bit says the name is in the file: then the place is of its first spill_prefix bytes, and
  // the length is the whole name's (all ones: look in spill_file::long_names).
  struct block {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
  };
  static constexpr unsigned place_offset_shift = 22, place_block_shift = 39;
  static constexpr std::uint64_t place_length_mask = (std::uint64_t{1} << 22) - 1;
  static constexpr std::uint64_t place_spilled = std::uint64_t{1} << 38;
  std::vector<block> blocks;
  std::size_t block_used = 0, block_size = 0;
  paged_array<std::uint64_t> places;
  // Open addressing, linear probing: each slot is (32 bits of the name's hash << 32) | (id + 1),
  // 0 when empty. The hash bits place the slot, so growing needs no rehashing of names.
  std::vector<std::uint64_t> slots;
  bool released = false;  // release_index() freed slots (and in spill mode digests)
  struct spill_file;
  std::unique_ptr<spill_file> spill;  // spill mode only

  // string_pool::view().
  std::string_view view(string_id id) const {
    const std::uint64_t w = places[id.index()];
    std::size_t len = static_cast<std::size_t>(w & place_length_mask);
    if (len == 0) return std::string_view("", 0);
    const block& b = blocks[static_cast<std::size_t>(w >> place_block_shift)];
    if (w & place_spilled)
      len = spill_prefix;
    else if (len == place_length_mask)
      len = b.size;
    return std::string_view(b.bytes.get() + ((w >> place_offset_shift) & 0xffffu), len);
  }
  bool spilled(string_id id) const { return (places[id.index()] & place_spilled) != 0; }
  // string_pool::text().
  std::string_view text(string_id id, std::string& scratch) const {
    if (!spill || !spilled(id)) return view(id);
    return read_back(id, scratch);
  }

  static name_digest digest_of(std::string_view s);
  // Full mode: keep each name's digest too (digest and spill modes always do), for a pool whose
  // names go to another one (the parallel path's speculative readings: the reading thread
  // interns their names without hashing them again).
  void keep_digests();
  // intern() and find() of a name whose digest_of() is `d` (intern: the pool's size() and
  // bytes() are add()'s to set).
  string_id intern(std::string_view s, const name_digest& d);
  std::optional<string_id> find(std::string_view s, const name_digest& d);
  name_digest hashes_of(std::string_view s) const;  // what intern(s) and find(s) hash s into
  name_digest digest_of_text(string_id id) const;   // digest() after release_index()
  void release_index();
  // A hint that text(id) follows soon: the tables it looks in are fetched into the cache (for
  // a reader of many names in an order of its own: annotate reads 73 k of the real profile's
  // names, each from a different page of the tables). Changes nothing. (Defined in the .cc,
  // out of the caller's sight: GCC drops an inlined call it finds free of side effects.)
  void prefetch_text(string_id id) const;
  // A hint that view(id) is read soon: its place, then its first bytes (up to 512), are
  // fetched into the cache. Changes nothing.
  void prefetch_view(string_id id) const;
  // Spill mode: true while names go to the spill file (made at the first name longer than
  // digest_prefix; false before, when none could be made, or after a write to it failed); the
  // bytes of the names in it; whether a read of it failed (some text() gave only the prefix).
  bool spilling() const;
  std::uint64_t spilled_bytes() const;
  bool read_failed() const;

 private:
  void grow();
  void rebuild_index();  // after release_index()
  bool same(string_id id, std::string_view s, std::uint64_t h, std::uint64_t h2) const;
  std::uint64_t store(std::string_view s);
  std::string_view read_back(string_id id, std::string& scratch) const;
  bool spill_name(std::string_view s, string_id id);
  std::uint64_t spilled_length(string_id id) const;
  std::uint64_t spill_offset(string_id id) const;
  void keep_buffered_in_memory();
};

}  // namespace calltree

// string_pool.h — interned strings with dense 32-bit ids.
//
// What it is: the one place names (objects, files, functions) are stored. The reader interns a
// name once, when its line is read; every record after that carries the id. Id 0 is always the
// empty string ("unknown"). What it is not: the format's `(id)` name compression: those ids are
// aliases chosen by the producer and live in the reader's tables; several of them may map to
// one pool id.
//
// Three modes (share/doc/calltree/performance.md, "Memory"). A pool made through this API is in
// full mode, so every name it gives is whole; the other two are the command-line tool's own, for
// readings that need few names' text (the library makes them for it, not for its users):
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
//
// Threads: const members may be called from several threads at once (text() only reads the
// spill file, with pread); intern() needs the pool to itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/export.h"
#include "calltree/id.h"

namespace calltree {

// A name's id in its pool (id.h): `string_id{i}` from an index, `id.index()` back.
using string_id = strong_id<struct string_tag>;

class string_pool {
 public:
  enum class mode : std::uint8_t { full, digest, spill };
  static constexpr std::size_t digest_prefix = 40;
  // Spill mode: what view() keeps of a name written to the file (enough to tell an empty name
  // and an `(id)` look-alike; text() gives the rest).
  static constexpr std::size_t spill_prefix = 8;

  // A pool in full mode: every name's bytes kept.
  CALLTREE_API string_pool();
  string_pool(const string_pool&) = delete;
  string_pool& operator=(const string_pool&) = delete;
  CALLTREE_API string_pool(string_pool&&) noexcept;
  CALLTREE_API string_pool& operator=(string_pool&&) noexcept;
  CALLTREE_API ~string_pool();

  CALLTREE_API string_id intern(std::string_view s);
  // The id of `s` if it was interned, else none.
  CALLTREE_API std::optional<string_id> find(std::string_view s);

  // Frees what intern() and find() need and view(), text() do not: the index, and in spill
  // mode what it keeps of the names' digests (each about 8 bytes a name), for a sink that
  // reports once reading is over (annotate). A later intern() or find() makes them again, hashing
  // every name (a spilled one read back from the file): correct, and as slow as that sounds.
  CALLTREE_API void release_index();

  // The name as kept in memory: the whole name in full mode; in digest mode its first
  // digest_prefix bytes; in spill mode the whole name when it is in memory, else its first
  // spill_prefix bytes.
  // Valid as long as the pool.
  CALLTREE_API std::string_view view(string_id id) const;
  // The whole name (digest mode: what view() gives). A name in memory is returned as view()
  // returns it; a spilled one is read into `scratch` and the view is of `scratch` (valid until
  // it changes). If reading the spill file fails, view() is returned and read_failed() is set.
  CALLTREE_API std::string_view text(string_id id, std::string& scratch) const;
  std::string text(string_id id) const {
    std::string s;
    std::string_view v = text(id, s);
    if (v.data() != s.data()) s.assign(v);
    return s;
  }
  std::size_t size() const { return size_; }
  // The names' bytes as counted for limits (reader_options::max_name_bytes, the builder's
  // max_memory): text, index and views. Spill mode counts as full mode does, so a limit stops
  // at the same name whichever of the two is used; digest mode counts what it keeps.
  std::size_t bytes() const { return bytes_; }
  mode kind() const { return mode_; }

  // Spill mode: true while names go to the spill file (made at the first name longer than
  // digest_prefix; false before, when none could be made, or after a write to it failed); the
  // bytes of the names in it.
  CALLTREE_API bool spilling() const;
  CALLTREE_API std::uint64_t spilled_bytes() const;
  // Spill mode: a read of the spill file failed, so some text() gave only the prefix.
  CALLTREE_API bool read_failed() const;

  static constexpr string_id empty{0};
  // No name: a mark for tables that hold a name or none (no function here returns it).
  static constexpr string_id npos{0xffffffffu};

 private:
  // What the library's own readers and reports use beyond the API (digests of names, cache
  // hints), through a friend that is not installed.
  friend struct string_pool_access;
  // A pool in mode `m`; `spill_dir`: where spill mode makes its temporary file (empty: $TMPDIR,
  // else /tmp).
  string_pool(mode m, std::string spill_dir);
  // A name's 128-bit hash, as digest and spill modes know names (full mode uses `h`).
  struct name_digest {
    std::uint64_t h = 0, h2 = 0;
  };
  static name_digest digest_of(std::string_view s);
  // Full mode: keep each name's digest too (digest and spill modes always do), for a pool whose
  // names go to another one (the parallel path's speculative readings: the reading thread
  // interns their names without hashing them again).
  void keep_digests();
  // intern() and find() of a name whose digest_of() is `d`.
  string_id intern(std::string_view s, const name_digest& d);
  std::optional<string_id> find(std::string_view s, const name_digest& d);
  // A hint that text(id) follows soon: the tables it looks in are fetched into the cache (for
  // a reader of many names in an order of its own: annotate reads 73 k of the real profile's
  // names, each from a different page of the tables). Changes nothing. (Defined in the .cc,
  // out of the caller's sight: GCC drops an inlined call it finds free of side effects.)
  void prefetch_text(string_id id) const;
  // A hint that view(id) is read soon: its place, then its first bytes (up to 512), are
  // fetched into the cache. Changes nothing.
  void prefetch_view(string_id id) const;

  struct spill_file;
  // The names' bytes, their places, the index and the digests (defined in the library: its
  // layout is not part of the API).
  struct tables;
  void grow();
  void rebuild_index();                             // after release_index()
  name_digest digest_of_text(string_id id) const;   // digest() after release_index()
  name_digest hashes_of(std::string_view s) const;  // what intern(s) and find(s) hash s into
  bool same(string_id id, std::string_view s, std::uint64_t h, std::uint64_t h2) const;
  std::uint64_t store(std::string_view s);
  bool spilled(string_id id) const;
  std::string_view read_back(string_id id, std::string& scratch) const;
  bool spill(std::string_view s, string_id id);
  std::uint64_t spilled_length(string_id id) const;
  std::uint64_t spill_offset(string_id id) const;
  void keep_buffered_in_memory();

  mode mode_;
  std::size_t size_ = 0;   // names interned
  std::size_t bytes_ = 0;  // bytes()
  std::unique_ptr<tables> t_;
};

}  // namespace calltree

// string_pool_access.h — what the library's own readers and reports ask of a string pool
// beyond its API (calltree/string_pool.h): pools in digest and spill modes
// (string_pool_tables.h), names known by their 128-bit digests, handed from one pool to
// another without hashing them again (the parallel reader's speculative readings), and hints
// that fetch a name's tables into the cache (reports that read many names in an order of
// their own), and view() and text() inline. Not installed: none of it changes what a pool
// holds.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "calltree/string_pool.h"
#include "model/string_pool_tables.h"

namespace calltree {

struct string_pool_access {
  using tables = string_pool::tables;
  static constexpr std::size_t digest_prefix = tables::digest_prefix;
  static constexpr std::size_t spill_prefix = tables::spill_prefix;
  // string_pool::view() and text(), inline (the public ones are calls into the library): for
  // the reader's and the reports' loops over names.
  static std::string_view view(const string_pool& pool, string_id id) {
    return tables::of(pool).view(id);
  }
  static std::string_view text(const string_pool& pool, string_id id, std::string& scratch) {
    return tables::of(pool).text(id, scratch);
  }
  // A pool in digest or spill mode (or full), which the API does not make: its names come back
  // cut (view(); in digest mode text() too). `spill_dir`: where spill mode makes its temporary
  // file (empty: $TMPDIR, else /tmp).
  static string_pool make(pool_mode m, std::string spill_dir = {}) {
    return tables::make(m, std::move(spill_dir));
  }
  static pool_mode mode(const string_pool& pool) { return tables::of(pool).mode; }
  // A name's 128-bit hash, as digest and spill modes know names (full mode uses `h`).
  using name_digest = tables::name_digest;
  static name_digest digest_of(std::string_view s) { return tables::digest_of(s); }
  // Full mode: keep each name's digest too (digest and spill modes always do), for a pool whose
  // names go to another one (the parallel path's speculative readings: the reading thread
  // interns their names without hashing them again).
  static void keep_digests(string_pool& pool) { tables::of(pool).keep_digests(); }
  // The digest of name `id` (digest and spill modes, or after keep_digests()).
  static name_digest digest(const string_pool& pool, string_id id) {
    const tables& t = tables::of(pool);
    return id.index() < t.digests.size() ? t.digests[id.index()] : t.digest_of_text(id);
  }
  // intern() and find() of a name whose digest_of() is `d`.
  static string_id intern(string_pool& pool, std::string_view s, const name_digest& d) {
    return tables::add(pool, s, d);
  }
  static std::optional<string_id> find(string_pool& pool, std::string_view s,
                                       const name_digest& d) {
    return tables::of(pool).find(s, d);
  }
  // A hint that intern() or find() of a name whose digest is `d` follows soon: the index's
  // slot where its search starts is fetched into the cache. Changes nothing. (Inlined always:
  // GCC 12 finds a call of it free of side effects and drops it whole before inlining it.)
  [[gnu::always_inline]] static void prefetch(const string_pool& pool, const name_digest& d) {
    const auto& slots = tables::of(pool).slots;
    if (!slots.empty())
      __builtin_prefetch(&slots[static_cast<std::uint32_t>(d.h) & (slots.size() - 1)]);
  }
  // A hint that text(id) follows soon: the tables it looks in are fetched into the cache (for
  // a reader of many names in an order of its own: annotate reads 73 k of the real profile's
  // names, each from a different page of the tables). Changes nothing.
  static void prefetch_text(const string_pool& pool, string_id id) {
    tables::of(pool).prefetch_text(id);
  }
  // A hint that view(id) is read soon: its place, then its first bytes (up to 512), are
  // fetched into the cache. Changes nothing.
  static void prefetch_view(const string_pool& pool, string_id id) {
    tables::of(pool).prefetch_view(id);
  }
  // Spill mode: whether names go to the file now, the bytes of those in it, and whether a read
  // of it failed (some text() gave only the prefix).
  static bool spilling(const string_pool& pool) { return tables::of(pool).spilling(); }
  static std::uint64_t spilled_bytes(const string_pool& pool) {
    return tables::of(pool).spilled_bytes();
  }
  static bool read_failed(const string_pool& pool) { return tables::of(pool).read_failed(); }
};

}  // namespace calltree

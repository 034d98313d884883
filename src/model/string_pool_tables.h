// string_pool_tables.h — (internal) what a string pool holds: the names' bytes, each name's
// place among them, the index, the digests, and in spill mode its file. The public header
// (calltree/string_pool.h) keeps this out of the API; the library's own readers reach it
// through string_pool_access.h, whose view() and text() are inline: the reader's hot path
// reads a name without a call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/string_pool.h"
#include "model/paged_array.h"

namespace calltree {

struct string_pool::tables {
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
  bool released = false;              // release_index() freed slots (and in spill mode digests)
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
};

}  // namespace calltree

// id_table.h — one of the format's three shared `(id)` name tables (objects, files, functions).
//
// What it is: the map from a compressed name's id to the name it stands for and the part that
// defined it, as the reader keeps it while it reads. What it is not: the names themselves
// (string_pool.h) or the rules of when an id may be used (parser_body.cc, parse_name).
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <unordered_map>
#include <vector>

#include "calltree/string_pool.h"

namespace calltree::detail {

constexpr std::uint64_t dense_id_limit = 1u << 20;

enum class name_class { object, file, function };

// One of the three shared `(id)` tables. Ids below 2^20 (what producers write: callgrind
// numbers them from 1, up to a million on big profiles) are looked up in pages of 512
// entries allocated as they are first used, so the table never copies itself to grow; larger
// ids go to a hash map. The names of ids below 2^16 are kept in one array as well, for the
// reader's fast path (name_of).
//
// An entry is a name and the part that defined it (a redefinition within one part is a
// warning, across parts it is not). A page keeps the names, and which of them the last part
// to define one of them defined: 4 bytes and a bit per id rather than 8 bytes (the real
// profile's million function ids took 8 MB).
class id_table {
 public:
  struct entry {
    string_id name = string_pool::npos;  // npos: not defined
    // The defining part; other_part (never a part's index) for an earlier part (pages keep
    // only whether it was the last part to define a name in the page) or a placeholder.
    std::uint32_t part = other_part;
    bool defined() const { return name != string_pool::npos; }
  };
  static constexpr std::uint32_t other_part = UINT32_MAX;
  // A speculative reading's tables (speculation.cc) hold the few thousand ids
  // one chunk uses, and are emptied for the next chunk: open addressing, not pages (which a
  // chunk touches all over an id range of a million, and would keep).
  void use_hashing() { hashed_ = true; }
  void clear() {
    // Entry by entry: a chunk fills a few thousand slots of a table grown for the largest.
    for (std::uint32_t i : used_) hash_[i] = hashed{};
    used_.clear();
    pages_.clear();
    flat_.clear();
    sparse_.clear();
  }
  // The entry of `id` (not defined() if there is none).
  [[gnu::always_inline]] entry get(std::uint64_t id) const {  // (in every reading path)
    if (hashed_ && id + 1 != 0) {                             // (2^64-1 goes to sparse_)
      if (hash_.empty()) return {};
      const hashed& h = hash_[probe(id)];
      return h.key == id + 1 ? h.e : entry{};
    }
    if (id < dense_id_limit) {
      const auto pg = static_cast<std::size_t>(id >> page_bits);
      if (pg >= pages_.size() || !pages_[pg]) return {};
      return pages_[pg]->get(static_cast<std::size_t>(id & page_mask));
    }
    auto it = sparse_.find(id);
    return it == sparse_.end() ? entry{} : it->second;
  }
  // get(id).name, without the part (npos if none): for the ids below flat_limit, one
  // compare and one load.
  [[gnu::always_inline]] string_id name_of(std::uint64_t id) const {
    if (id < flat_.size()) return flat_[static_cast<std::size_t>(id)];
    return get(id).name;
  }
  // A hint that get(id) follows soon: its entry is fetched into the cache (dense ids only).
  [[gnu::always_inline]] void prefetch(std::uint64_t id) const {
    const auto pg = static_cast<std::size_t>(id >> page_bits);
    if (!hashed_ && id < dense_id_limit && pg < pages_.size() && pages_[pg]) {
      __builtin_prefetch(&pages_[pg]->names[id & page_mask]);
      __builtin_prefetch(&pages_[pg]->by_last[(id & page_mask) / 64]);
    }
  }
  void set(std::uint64_t id, entry e) {
    if (hashed_ && id + 1 != 0) {
      if ((used_.size() + 1) * 2 > hash_.size()) grow();
      const std::size_t i = probe(id);
      hashed& h = hash_[i];
      if (h.key != id + 1) {
        h.key = id + 1;
        used_.push_back(static_cast<std::uint32_t>(i));
      }
      h.e = e;
      return;
    }
    if (id < dense_id_limit) {
      const auto pg = static_cast<std::size_t>(id >> page_bits);
      if (pg >= pages_.size()) pages_.resize(pg + 1);
      if (!pages_[pg]) pages_[pg] = std::make_unique<page>();
      pages_[pg]->set(static_cast<std::size_t>(id & page_mask), e);
      if (id < flat_limit) {
        const auto i = static_cast<std::size_t>(id);
        if (i >= flat_.size())
          flat_.resize(std::min<std::size_t>(std::max(i + 1, 2 * flat_.size()), flat_limit),
                       string_pool::npos);
        flat_[i] = e.name;
      }
      return;
    }
    sparse_[id] = e;
  }

 private:
  static constexpr unsigned page_bits = 9;
  static constexpr std::uint64_t page_mask = (1u << page_bits) - 1;
  struct page {
    string_id names[page_mask + 1];
    std::uint32_t last_part = 0;                       // the last part to define a name here
    std::uint64_t by_last[(page_mask + 1) / 64] = {};  // the names last_part defined
    page() { std::fill(std::begin(names), std::end(names), string_pool::npos); }
    entry get(std::size_t i) const {
      if (names[i] == string_pool::npos) return {};
      const bool last = (by_last[i / 64] >> (i % 64)) & 1;
      return {names[i], last ? last_part : other_part};
    }
    void set(std::size_t i, entry e) {
      names[i] = e.name;
      const std::uint64_t bit = std::uint64_t{1} << (i % 64);
      if (e.part == other_part) {
        by_last[i / 64] &= ~bit;
        return;
      }
      if (e.part != last_part) {  // parts only go forward: the names of the last one are older
        std::fill(std::begin(by_last), std::end(by_last), 0);
        last_part = e.part;
      }
      by_last[i / 64] |= bit;
    }
  };
  struct hashed {
    std::uint64_t key = 0;  // id + 1; 0: empty
    entry e;
  };
  // The slot of `id`, or the empty one where it would go.
  std::size_t probe(std::uint64_t id) const {
    const std::size_t mask = hash_.size() - 1;
    std::size_t i = static_cast<std::size_t>((id * 0x9e3779b97f4a7c15ull) >> 20) & mask;
    while (hash_[i].key != 0 && hash_[i].key != id + 1) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<hashed> old = std::move(hash_);
    hash_.assign(old.empty() ? 1024 : old.size() * 2, hashed{});
    used_.clear();
    for (const hashed& h : old) {
      if (h.key == 0) continue;
      const std::size_t i = probe(h.key - 1);
      hash_[i] = h;
      used_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  std::vector<std::unique_ptr<page>> pages_;
  // The names of ids below flat_limit again, in one array (name_of, the fast path's lookup of
  // a reference): at most 256 KB, grown by doubling. Empty for a speculative reading's table.
  static constexpr std::uint64_t flat_limit = 1u << 16;
  std::vector<string_id> flat_;
  std::unordered_map<std::uint64_t, entry> sparse_;
  bool hashed_ = false;
  std::vector<hashed> hash_;
  std::vector<std::uint32_t> used_;  // the slots of hash_ in use (clear() empties only these)
};

}  // namespace calltree::detail

// run_index.h — the builder's index of the rows of the function being read, while its rows
// come in one run.
//
// What it is: where profile_builder looks a self row or a jump row up first. Rows of one
// function come in one run on most files (a callgrind dump writes each function context once,
// its cost and jump lines together): a row of a function met in one run only can only equal a
// row of that run, so the lookup is in a small index of the current run, which stays in the
// cache, and those rows need no index of their own (a 14 M-row instruction-level profile spent
// half of its build on the cache misses of one index of every self row, and 268 MB on it; its
// 1.1 M jump rows a fifth of the rest). When a function's rows come back after another's (a
// second run of it, another part folded into the same one), the rows of its runs so far go into
// the index of every row (the caller's row_index), and its rows are looked up there from then
// on; rows that were in the model before the builder: all of them. The same rows either way.
// What it is not: an index of rows of several functions (a run's rows are told apart by what
// `Traits::same` compares, the key being the same).
#pragma once

#include <cstdint>
#include <vector>

#include "model/row_index.h"

namespace calltree::detail {

// Traits: static std::uint64_t hash(const Row&) and static bool same(const Row&, const Row&),
// over what tells apart two rows of one key (part << 32 | function).
template <typename Row, typename Traits>
class run_index {
 public:
  // Whether the row of `key` is looked up here (true: find(), add()) or in the index of every
  // row (false). A key other than the current run's starts a run; a key met in an earlier run
  // has that run's rows put into the other index by `index_row(i)` first.
  template <typename IndexRow>
  bool serves(std::uint64_t key, const std::vector<Row>& rows, IndexRow index_row) {
    if (global_) return false;
    if (key != key_) start(key, rows, index_row);
    return !functions_[run_].indexed;
  }
  // Every row is (and will be) in the index of every row.
  void go_global() { global_ = true; }
  // A run of its own, whatever came before (a builder that hands each run on and keeps no
  // rows across runs): no key is remembered, and none looked up.
  void start_alone(const std::vector<Row>& rows) {
    key_ = ~0ull;
    run_ = none;
    begin_ = static_cast<std::uint32_t>(rows.size());
    fresh_slots();
  }

  // The slot of `row` in the current run: where it is, or the free slot to add() it to.
  std::size_t find(const Row& row, const std::vector<Row>& rows) {
    found_hash_ = Traits::hash(row);
    return find(row, found_hash_, rows);
  }
  // The row in `slot`, or row_index::empty.
  std::uint32_t at(std::size_t slot) const {
    const std::uint64_t e = slots_[slot];
    return e >> 48 == generation_ ? static_cast<std::uint32_t>(e) : row_index::empty;
  }
  // Row `r` (the row find() was last asked for) goes into the free `slot` find() gave. The
  // run's rows before it must all be in the index, and none after it (a builder may add rows
  // to the run first and index them later, in order: profile_builder's on_cost_run).
  void add(std::size_t slot, std::uint32_t r, const std::vector<Row>& rows) {
    slots_[slot] = entry(found_hash_, r);
    if (++count_ * 2 <= std::size_t{1} << bits_) return;
    // Twice the slots, under a new generation: the run's entries are placed again.
    ++bits_;
    if (slots_.size() < std::size_t{1} << bits_) slots_.resize(std::size_t{1} << bits_, 0);
    next_generation();
    for (std::uint32_t i = begin_; i <= r; ++i) {
      const std::uint64_t h = Traits::hash(rows[i]);
      slots_[find(rows[i], h, rows)] = entry(h, i);
    }
  }

 private:
  // A slot: the generation (16 bits), 16 bits of the row's hash, the row (32 bits). A probe
  // reads a row only where those bits are the row's.
  static std::uint64_t tag(std::uint64_t hash) { return (hash >> 24) & 0xffff; }
  std::uint64_t entry(std::uint64_t hash, std::uint32_t r) const {
    return static_cast<std::uint64_t>(generation_) << 48 | tag(hash) << 32 | r;
  }
  std::size_t find(const Row& row, std::uint64_t hash, const std::vector<Row>& rows) const {
    const std::size_t mask = (std::size_t{1} << bits_) - 1;
    const std::uint64_t gen = static_cast<std::uint64_t>(generation_) << 48;
    const std::uint64_t t = tag(hash) << 32;
    for (std::size_t i = hash >> (64 - bits_);; i = (i + 1) & mask) {
      const std::uint64_t e = slots_[i];
      if ((e & 0xffff000000000000ull) != gen) return i;
      if ((e & 0xffff00000000ull) == t && Traits::same(rows[static_cast<std::uint32_t>(e)], row))
        return i;
    }
  }

  // A key met: the rows of its one run so far, or (met again) none here at all. (A key has
  // one run at most before its rows go to the other index.) Kept per function id, for the
  // part it was last met in: keys come part after part (or all of part 0), so a function met
  // in a later part is a new key, and its entry of the earlier part is not wanted again. An
  // array, not a map of keys: a function's entry is one read, near those of the functions
  // made just before it (a map of the real profile's 275 k keys missed the cache on most).
  struct function_run {
    std::uint32_t part = none;         // of the key met last with this function (none: none)
    std::uint32_t begin = 0, end = 0;  // [begin, end) of its rows
    bool indexed = false;              // its rows are in the other index
  };
  static constexpr std::uint32_t none = 0xffffffffu;

  template <typename IndexRow>
  void start(std::uint64_t key, const std::vector<Row>& rows, IndexRow index_row) {
    const auto size = static_cast<std::uint32_t>(rows.size());
    if (run_ != none) functions_[run_].end = size;
    key_ = key;
    begin_ = size;
    const auto part = static_cast<std::uint32_t>(key >> 32);
    run_ = static_cast<std::uint32_t>(key & 0xffffffffu);
    if (run_ >= functions_.size())
      functions_.resize(std::max<std::size_t>(run_ + 1, 2 * functions_.size()));
    function_run& f = functions_[run_];
    if (f.part != part) {
      f = function_run{part, size, size, false};
    } else if (!f.indexed) {
      for (std::uint32_t i = f.begin; i < f.end; ++i) index_row(i);
      f.indexed = true;
    }
    if (f.indexed) return;
    fresh_slots();
  }
  void fresh_slots() {
    count_ = 0;
    bits_ = first_bits;
    if (slots_.empty()) slots_.assign(std::size_t{1} << first_bits, 0);
    next_generation();
  }
  void next_generation() {
    if (++generation_ == 0x10000) {  // (every 2^16 - 1 runs: clear once)
      std::fill(slots_.begin(), slots_.end(), 0);
      generation_ = 1;
    }
  }

  bool global_ = false;                  // every row is in the other index
  std::vector<function_run> functions_;  // by function id: the keys met
  std::uint64_t key_ = ~0ull;            // the current run's
  std::uint32_t run_ = none;             // its function (its entry in functions_)
  std::uint32_t begin_ = 0;              // its first row (the rows after are its)
  // See entry(); 0: none yet. A run uses the first 2^bits_ of them, at most half full: a run of
  // a few rows looks in a few cache lines, whatever the size a long run before it made this.
  std::vector<std::uint64_t> slots_;
  static constexpr unsigned first_bits = 7;
  unsigned bits_ = first_bits;
  std::uint32_t generation_ = 0;  // 1 to 2^16 - 1; slots of another one are empty
  std::uint32_t count_ = 0;
  std::uint64_t found_hash_ = 0;  // the hash of the row find() was last asked for
};

}  // namespace calltree::detail

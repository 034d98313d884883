// views/chunk_ranges.h — a session's index of its input's chunks (internal).
//
// What it is: what serve's first reading leaves so that one function's or one file's lines are
// read from the chunks holding its records alone (session::lines_of_function, lines_of_file):
// the reader's index (reader/chunk_index.h), and per key and per display file the chunks its
// records are in (views/chunk_notes.h), as ranges into one array each. What it is not: the
// reading of the chunks (chunk_ranges.cc) or a cache of its results (session::remembered).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calltree/string_pool.h"
#include "reader/chunk_index.h"
#include "views/chunk_notes.h"

namespace calltree::views {

struct chunk_ranges {
  // One input of the session (a run of several files has one each).
  struct input {
    calltree::detail::chunk_index index;
    std::string path;
    std::pair<std::uint64_t, std::int64_t> stamp;  // (size, mtime) when it was read
    std::uint32_t first_chunk = 0;                 // its chunks' numbers in the notes: from here
    std::uint32_t first_part = 0;                  // its parts' in the run: from here
    // A compressed input's decoded bytes, kept as the first reading decoded them (the index's
    // offsets are theirs): an unnamed file of the user's cache folder, gone when it is closed.
    int bytes_fd = -1;
    std::uint64_t bytes_kept = 0;
    input() = default;
    input(const input&) = delete;
    input& operator=(const input&) = delete;
    ~input();
    // Keeps `bytes` at the end of that file (made on the first call); false when it cannot be.
    bool keep(std::span<const char> bytes);
  };
  std::vector<std::unique_ptr<input>> inputs;
  // Key k's chunks: key_chunk[key_at[k] .. key_at[k + 1]), sorted, numbered across the inputs
  // (input i's from its first_chunk); the same for display files.
  std::vector<std::uint32_t> key_at, key_chunk, file_at, file_chunk;
  // One reading at a time: the indexes' name tables are lent to it.
  std::mutex reading;
  // The pool ids of names written out in full (no `(id)`), made when a chunk first has one.
  std::unordered_map<std::string_view, string_id> plain;
  bool plain_made = false;

  // From the notes of the first reading (in the tables' key numbers) of `keys` keys and
  // `files` display files.
  void take(chunk_notes& notes, std::size_t keys, std::size_t files);
  std::span<const std::uint32_t> of_key(std::uint32_t k) const {
    return k + 1 < key_at.size()
               ? std::span(key_chunk).subspan(key_at[k], key_at[k + 1] - key_at[k])
               : std::span<const std::uint32_t>();
  }
  std::span<const std::uint32_t> of_file(std::uint32_t f) const {
    return f + 1 < file_at.size()
               ? std::span(file_chunk).subspan(file_at[f], file_at[f + 1] - file_at[f])
               : std::span<const std::uint32_t>();
  }
};

// A file's size and modification time, to tell whether a later reading reads what the first
// did ({UINT64_MAX, 0} when it cannot be looked at).
std::pair<std::uint64_t, std::int64_t> file_stamp(const std::string& path);

}  // namespace calltree::views

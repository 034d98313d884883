// views/chunk_notes.h — which chunks of an indexed input each function's and file's records
// are in (internal).
//
// What it is: what the views' first reading notes beside its sums (annotate_direct::
// note_chunks) when the reader indexes the input (reader/chunk_index.h): for each key (a
// function) and each display file, the chunks holding its records, so that one function's or
// one file's lines can later be read from those chunks alone (session::lines_of_function). A
// record belongs to the chunk its line is in (a run of lines ended by the next chunk's first
// line is still its own chunk's). What it is not: the index (the reader's) or the reading of
// the chunks (reader/read_chunks.cc).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "reader/chunk_index.h"

namespace calltree::views {

struct chunk_notes {
  // The chunks' starts, as the reader notes them (records come after their chunk's start).
  const std::vector<calltree::detail::chunk_start>* starts = nullptr;
  std::uint32_t chunk = 0;  // the chunk of the last record (of `starts`)
  // What the chunks of `starts` are numbered from in the notes (a run of several files: the
  // chunks of the files before).
  std::uint32_t base = 0;
  // Per key and per display file: the last chunk noted for it, plus 1 (0: none yet).
  std::vector<std::uint32_t> key_last, file_last;
  // (key, chunk) and (display file, chunk), each once, in the order met.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keys, files;

  // A record of line `line` (1-based), of `key`, whose lines are in display file `file`.
  void note(std::uint64_t line, std::uint32_t key, std::uint32_t file) {
    const std::vector<calltree::detail::chunk_start>& st = *starts;
    std::uint32_t c = chunk;
    while (c + 1 < st.size() && line > st[c + 1].line) ++c;
    while (c > 0 && line <= st[c].line) --c;
    chunk = c;
    mark(key_last, keys, key, base + c);
    mark(file_last, files, file, base + c);
  }

 private:
  static void mark(std::vector<std::uint32_t>& last,
                   std::vector<std::pair<std::uint32_t, std::uint32_t>>& out, std::uint32_t i,
                   std::uint32_t c) {
    if (i >= last.size()) last.resize(i + 1 + i / 2, 0);
    if (last[i] == c + 1) return;
    last[i] = c + 1;
    out.emplace_back(i, c);
  }
};

}  // namespace calltree::views

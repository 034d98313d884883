// views/header_read.h — (internal) what a profile's first block says, without reading the rest.
//
// What it is: the facts `calltree serve DIR` lists of each file, from the reader (the one
// parser) run over the file's first block only: its first part's header (a header ends where
// its first cost line starts: creator:, cmd:, events:, a summary: written there), and, when the
// block is the whole file, what the whole reading says (parts, totals as `calltree check`
// counts them, whether it looks cut short). A file that is not a profile, cannot be opened, or
// holds no cost line in its first MiB has a problem instead. Memory and time: one block (64
// KiB of the file as stored; a compressed file's first 64 KiB, decoded), whatever the file's
// size. What it is not: a loader (views/session.h reads a file whole).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/reader.h"

namespace calltree::views {

struct header_facts {
  std::string problem;  // empty: a profile; else why it is not one (or cannot be read)
  std::string creator;  // the first part's creator:, as written (empty when there is none)
  std::string cmd;      // the first part's cmd:
  std::vector<std::string> events;  // the first part's events:
  compression kind = compression::none;
  std::uint64_t size = 0;   // the file's size as stored, when it was read
  std::uint64_t block = 0;  // bytes of it read (the whole file when equal to size)
  // The block was the whole file: `parts`, `totals` and `state` are the whole file's.
  bool whole = false;
  std::uint64_t parts = 0;  // whole: the file's parts; else the parts begun in the block
  // The total of the first event: the whole file's, as annotate and serve show it (the
  // program total of calltree/totals.h: the stated total, else the sum of the self costs), or,
  // when only the header was read, the first part's `summary:` when its header states one.
  std::optional<std::uint64_t> first_total;
  enum class total_source : std::uint8_t { none, read, summary } source = total_source::none;
  read_state state = read_state::complete;  // whole: how reading ended
  std::uint64_t errors = 0;                 // whole: errors the reader found
};

// Reads the first block of `path` (up to `block_bytes`, then once up to 1 MiB when the first
// block holds no cost line). Never fails: a problem is in header_facts::problem.
header_facts read_header(const std::string& path, std::size_t block_bytes = 64u << 10);

}  // namespace calltree::views

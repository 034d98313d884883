// chunk_feed.h — an input cut into chunks at function boundaries, for the parallel path.
//
// What it is: the chunks the reader's parallel path (speculation.cc) reads,
// each but the first starting at a line that begins with `fn=`, the first at or after each
// `chunk_bytes` step; chunk 0 is the header and what follows it up to the first such line.
// Two kinds:
// - a mapped file (input::mapped) is cut as its chunks are asked for (by whichever thread
//   asks first), and its pages are given back as the reader moves on;
// - a stream (zstd, a pipe; the reader leaves the slower decoders to decode_ahead.h) is decoded
//   on a thread of its own, a few chunks ahead of the reader, into buffers that are reused, so
//   decompression overlaps with parsing and the memory held stays a few chunks whatever the input's
//   size.
// What it is not: a parser. The bytes, their order and the input's error at the end are the
// input's own; where the input has no `fn=` line for a long stretch (16 steps), a chunk ends at
// the last newline instead, or anywhere if there is none: the reader reads such chunks
// directly (its speculative readings need a chunk that starts at `fn=` and ends a line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "calltree/input.h"

namespace calltree::detail {

class chunk_feed {
 public:
  virtual ~chunk_feed() = default;
  struct chunk {
    std::span<const char> bytes;  // empty: k is past the last chunk (no chunk is empty)
    std::uint64_t raw_end = 0;    // the input's (compressed) bytes consumed up to its end
  };
  // The input's first block, at most its first 2 KiB (what the reader sniffs for a binary
  // file, as on the serial path); empty if the input has no bytes.
  virtual std::span<const char> head() = 0;
  // Chunk k, from any thread; waits while it is being decoded. Its bytes stay valid until the
  // reading thread has reached chunk k + 2.
  virtual chunk get(std::size_t k) = 0;
  // Whether get(k) would return without waiting (chunk k is decoded, or the feed has ended).
  virtual bool ready(std::size_t) const { return true; }
  // The reading thread is at chunk k: it is done with every chunk before k - 1 (k - 1 is kept,
  // as later diagnostics may quote its last line).
  virtual void reached(std::size_t k) = 0;
  // No more chunks are wanted: get() returns empty from now on, also to threads waiting in it.
  virtual void cancel() {}
  // After get() returned empty: the input's error, if it failed (bytes before it were given).
  virtual std::optional<error> failure() const { return std::nullopt; }
  virtual bool truncated() const { return false; }
  virtual std::uint64_t raw_size() const = 0;
};

// `all`: an input's bytes all in memory (in_memory(), reader/in_memory.h); they must outlive
// the feed.
std::unique_ptr<chunk_feed> mapped_chunks(std::span<const char> all, std::size_t chunk_bytes);
// Decodes `in` on a thread of its own, at most `ahead` chunks past the one reached.
std::unique_ptr<chunk_feed> decoded_chunks(input& in, std::size_t chunk_bytes, std::size_t ahead);

}  // namespace calltree::detail

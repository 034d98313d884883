// input.h — bytes from a file, stdin, or a gzip/zstd/xz/bzip2 stream, in blocks.
//
// What it is: the bottom layer. `open_input` looks at the first bytes (not the name) to pick a
// decoder; a plain file is memory-mapped and handed over in 1 MiB windows, each given back
// once the next is asked for (or whole, see mapped()). What it is not: a line splitter (see
// the reader) or anything that knows the format.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "calltree/result.h"

namespace calltree {

enum class compression : std::uint8_t { none, gzip, zstd, xz, bzip2 };
std::string_view to_string(compression c);

class input {
 public:
  virtual ~input() = default;
  // The next block of bytes; an empty span at the end. An error for I/O failures and for a
  // compressed stream that ends early (`truncated()` tells which); bytes before it were given.
  virtual result<std::span<const char>> next() = 0;
  // The same bytes, end and error as next() gives, written into `out` (not empty) as far as it
  // goes: the number written, 0 at the end. A decoder writes straight into `out`, without the
  // copy from its own buffer, which it then never makes (for a reader that keeps the bytes in
  // buffers of its own). An input is read with one of next() and read_into(), not both.
  virtual result<std::size_t> read_into(std::span<char> out);
  virtual compression kind() const = 0;
  // Bytes of the underlying (compressed) file consumed so far, and its size if known (0 if not).
  virtual std::uint64_t raw_consumed() const = 0;
  virtual std::uint64_t raw_size() const = 0;
  bool truncated() const { return truncated_; }
  // A plain file (or memory buffer) whose bytes are all in memory already, for a reader that
  // cuts it up itself instead of calling next(): all of them; empty for anything else, and
  // once next() has been called.
  virtual std::span<const char> mapped() const { return {}; }
  // The reader of mapped() is done with its first `bytes`: their pages may be given back.
  virtual void release(std::uint64_t bytes) { (void)bytes; }
  // The reader of mapped() looked at [from, to) ahead of its time (the parallel path looks for
  // chunk starts all over the file): those pages may be given back now, and are read again
  // when it comes to them.
  virtual void drop(std::uint64_t from, std::uint64_t to) {
    (void)from;
    (void)to;
  }

 protected:
  bool truncated_ = false;

 private:
  std::span<const char> pending_;  // read_into(): what is left of next()'s block
};

// `path` "-" is standard input.
result<std::unique_ptr<input>> open_input(const std::string& path);
// An in-memory buffer (tests, fuzzers); detects compression like a file.
std::unique_ptr<input> memory_input(std::string bytes);

}  // namespace calltree

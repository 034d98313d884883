// input.h — bytes from a file, stdin, or a gzip/zstd/xz/bzip2 stream, in blocks; a UTF-16
// text (with its byte-order mark, as PowerShell's `>` writes one) as the UTF-8 it stands for.
//
// What it is: the bottom layer. `open_input` looks at the first bytes (not the name) to pick a
// decoder; a regular file is read (read(2), not mapped: a mapped file that shrinks under the
// reader ends the process with SIGBUS) in 1 MiB blocks up to the size it had when opened, and
// a file that shrinks or ends early meanwhile is an error (changed()). What it is not: a line
// splitter (see the reader) or anything that knows the format.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "calltree/export.h"
#include "calltree/result.h"

namespace calltree {

// Threads and lifetime: a value.
// (utf16le, utf16be: no compression but an encoding, decoded the same way: a text that starts
// with UTF-16's byte-order mark is given as UTF-8, the mark left out.)
enum class compression : std::uint8_t { none, gzip, zstd, xz, bzip2, utf16le, utf16be };
CALLTREE_API std::string_view to_string(compression c);

// Threads: one thread at a time (a stream). Lifetime: the bytes next() gives are valid until the
// next call.
class CALLTREE_API input {
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
  // The file shrank while it was read (it ended before the size it had when it was opened, or
  // was smaller than that at the end): next()'s error is "the file changed while it was read",
  // after the bytes read before. (A regular file only; a stream has no size to hold to.)
  bool changed() const { return changed_; }
  // The file grew while it was read: it was read to the size it had when it was opened, and
  // what was added after is not read. Known once next() gave its empty span.
  bool grew() const { return grew_; }
  // The size the file had when it was opened (what grew() read to); 0 for a stream.
  std::uint64_t size_at_open() const { return size_at_open_; }

 protected:
  bool truncated_ = false;
  bool changed_ = false;
  bool grew_ = false;
  std::uint64_t size_at_open_ = 0;

 private:
  std::span<const char> pending_;  // read_into(): what is left of next()'s block
};

// `path` "-" is standard input.
CALLTREE_API result<std::unique_ptr<input>> open_input(const std::string& path);
// An in-memory buffer (tests, fuzzers); detects compression like a file.
CALLTREE_API std::unique_ptr<input> memory_input(std::string bytes);

}  // namespace calltree

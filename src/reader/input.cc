// input.cc — files (memory-mapped), stdin, and decompressing wrappers, chosen by magic bytes.
#include "calltree/input.h"

#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "reader/in_memory.h"

namespace calltree {

std::string_view to_string(compression c) {
  switch (c) {
    case compression::none:
      return "none";
    case compression::gzip:
      return "gzip";
    case compression::zstd:
      return "zstd";
    case compression::xz:
      return "xz";
    case compression::bzip2:
      return "bzip2";
    case compression::utf16le:
      return "UTF-16LE";
    case compression::utf16be:
      return "UTF-16BE";
  }
  return "none";
}

result<std::size_t> input::read_into(std::span<char> out) {
  if (pending_.empty()) {
    auto r = next();
    if (!r) return r.error();
    pending_ = *r;
  }
  const std::size_t n = std::min(out.size(), pending_.size());
  if (n) std::memcpy(out.data(), pending_.data(), n);
  pending_ = pending_.subspan(n);
  return n;
}

namespace {

// `prefix` and strerror(e), with the code errno `e` makes.
error io_failure(const std::string& prefix, int e) {
  const error_code c = e == ENOENT                 ? error_code::not_found
                       : e == EACCES || e == EPERM ? error_code::permission_denied
                       : e == EISDIR               ? error_code::is_directory
                                                   : error_code::io_error;
  return error{prefix + std::strerror(e), c, e};
}

constexpr std::size_t block_size = 1u << 20;

// A source of raw (possibly compressed) bytes.
class raw_source {
 public:
  virtual ~raw_source() = default;
  virtual result<std::span<const char>> next() = 0;
  // next()'s bytes written into `out`: straight from the file where the source reads one.
  virtual result<std::size_t> read_into(std::span<char> out) {
    if (pending_.empty()) {
      auto r = next();
      if (!r) return r.error();
      pending_ = *r;
    }
    const std::size_t n = std::min(out.size(), pending_.size());
    if (n) std::memcpy(out.data(), pending_.data(), n);
    pending_ = pending_.subspan(n);
    return n;
  }
  virtual std::uint64_t size() const = 0;
  // All the bytes, if they are in memory (see detail::in_memory).
  virtual std::span<const char> whole() const { return {}; }
  std::uint64_t consumed = 0;
  bool changed = false;  // see input::changed
  bool grew = false;     // see input::grew

 private:
  std::span<const char> pending_;
};

// A regular file, read in blocks up to the size it had when it was opened. Not mapped: the
// pages of a mapping that the file's producer truncates meanwhile (callgrind_control -d, a rerun
// writing the same name, a network file system) end the process with SIGBUS wherever they are
// touched, on any thread, which a library cannot catch without owning the process's signal
// handling. read(2) instead ends early, which is said: "the file changed while it was read".
// (What reading costs against mapping, measured: docs/reliability.md.)
// The size at the end is looked at once more: smaller, the file changed too; larger, it grew
// (input::grew), and what was added is not read.
class file_source final : public raw_source {
 public:
  file_source(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
  ~file_source() override { ::close(fd_); }
  result<std::span<const char>> next() override {
    if (buf_.empty()) buf_.resize(block_size);
    auto n = read_into(buf_);
    if (!n) return n.error();
    return std::span<const char>(buf_.data(), *n);
  }
  result<std::size_t> read_into(std::span<char> out) override {
    if (consumed >= size_) {
      if (!checked_end_) {
        checked_end_ = true;
        struct stat st {};
        if (::fstat(fd_, &st) == 0) {
          if (static_cast<std::uint64_t>(st.st_size) < size_) return changed_file();
          grew = static_cast<std::uint64_t>(st.st_size) > size_;
        }
      }
      return std::size_t{0};
    }
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), size_ - consumed));
    for (;;) {
      const ssize_t n = ::read(fd_, out.data(), want);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return io_failure("read failed: ", errno);
      if (n == 0) return changed_file();
      consumed += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
  }
  std::uint64_t size() const override { return size_; }

 private:
  error changed_file() {
    changed = true;
    checked_end_ = true;
    consumed = size_;  // (nothing more is read)
    return error{"the file changed while it was read", error_code::io_error};
  }
  int fd_;
  std::uint64_t size_;
  bool checked_end_ = false;
  std::vector<char> buf_;
};

class fd_source final : public raw_source {
 public:
  fd_source(int fd, bool owned, std::uint64_t size) : fd_(fd), owned_(owned), size_(size) {}
  ~fd_source() override {
    if (owned_) ::close(fd_);
  }
  result<std::span<const char>> next() override {
    buf_.resize(block_size);
    auto n = read_into(buf_);
    if (!n) return n.error();
    return std::span<const char>(buf_.data(), *n);
  }
  result<std::size_t> read_into(std::span<char> out) override {
    for (;;) {
      ssize_t n = ::read(fd_, out.data(), out.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return io_failure("read failed: ", errno);
      consumed += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
  }
  std::uint64_t size() const override { return size_; }

 private:
  int fd_;
  bool owned_;
  std::uint64_t size_;
  std::vector<char> buf_;
};

class memory_source final : public raw_source {
 public:
  explicit memory_source(std::string bytes) : bytes_(std::move(bytes)) {}
  result<std::span<const char>> next() override {
    if (done_) return std::span<const char>();
    done_ = true;
    consumed = bytes_.size();
    return std::span<const char>(bytes_.data(), bytes_.size());
  }
  std::uint64_t size() const override { return bytes_.size(); }
  std::span<const char> whole() const override { return {bytes_.data(), bytes_.size()}; }

 private:
  std::string bytes_;
  bool done_ = false;
};

// Gives back a peeked prefix before the rest of a raw source.
class peeked_source final : public raw_source {
 public:
  peeked_source(std::unique_ptr<raw_source> inner, std::string prefix)
      : inner_(std::move(inner)), prefix_(std::move(prefix)) {}
  result<std::span<const char>> next() override {
    if (!prefix_done_) {
      prefix_done_ = true;
      if (!prefix_.empty()) {
        consumed = inner_->consumed;
        return std::span<const char>(prefix_.data(), prefix_.size());
      }
    }
    auto r = inner_->next();
    take_news();
    return r;
  }
  result<std::size_t> read_into(std::span<char> out) override {
    if (!prefix_done_) {
      // The prefix, in as many calls as `out` needs.
      const std::size_t n = std::min(out.size(), prefix_.size() - prefix_at_);
      if (n) std::memcpy(out.data(), prefix_.data() + prefix_at_, n);
      prefix_at_ += n;
      if (prefix_at_ == prefix_.size()) prefix_done_ = true;
      consumed = inner_->consumed;
      if (n) return n;
    }
    auto r = inner_->read_into(out);
    take_news();
    return r;
  }
  std::uint64_t size() const override { return inner_->size(); }

 private:
  void take_news() {
    consumed = inner_->consumed;
    changed = inner_->changed;
    grew = inner_->grew;
  }
  std::unique_ptr<raw_source> inner_;
  std::string prefix_;
  std::size_t prefix_at_ = 0;
  bool prefix_done_ = false;
};

class plain_input final : public input {
 public:
  explicit plain_input(std::unique_ptr<raw_source> src, std::uint64_t size_at_open)
      : src_(std::move(src)) {
    size_at_open_ = size_at_open;
  }
  result<std::span<const char>> next() override {
    auto r = src_->next();
    take_news();
    return r;
  }
  // Straight into `out`: a file is read into the caller's buffers (the parallel path's
  // chunks), with no copy from a block of its own.
  result<std::size_t> read_into(std::span<char> out) override {
    auto r = src_->read_into(out);
    take_news();
    return r;
  }
  compression kind() const override { return compression::none; }
  std::uint64_t raw_consumed() const override { return src_->consumed; }
  std::uint64_t raw_size() const override { return src_->size(); }
  std::span<const char> in_memory() const {
    return src_->consumed ? std::span<const char>() : src_->whole();
  }

 private:
  void take_news() {
    changed_ = src_->changed;
    grew_ = src_->grew;
  }
  std::unique_ptr<raw_source> src_;
};

// Common driver for streaming decoders: feed raw blocks, collect output blocks.
class decoding_input : public input {
 public:
  explicit decoding_input(std::unique_ptr<raw_source> src) : src_(std::move(src)) {}
  void set_size_at_open(std::uint64_t n) { size_at_open_ = n; }
  // What the decoder has taken, not all that was mapped or read for it (a 1 MiB window of a
  // compressed file is a lot of output): progress displays move smoothly.
  std::uint64_t raw_consumed() const override { return src_->consumed - in_.size(); }
  std::uint64_t raw_size() const override { return src_->size(); }

  // The decoder's output buffer is made at the first next(): a reader that decodes into
  // buffers of its own (read_into) never has one.
  result<std::span<const char>> next() override {
    if (out_.empty()) out_.resize(block_size);
    auto r = read_into(out_);
    if (!r) return r.error();
    return std::span<const char>(out_.data(), *r);
  }

  result<std::size_t> read_into(std::span<char> out) override {
    if (failure_) {
      // The bytes decoded in the call that failed went first; now the error, once.
      error e{std::move(*failure_)};
      failure_.reset();
      return e;
    }
    if (finished_ || out.empty()) return std::size_t{0};
    for (;;) {
      if (in_.empty() && !eof_) {
        auto r = src_->next();
        take_news();
        if (!r) return r.error();
        in_ = *r;
        if (in_.empty()) eof_ = true;
      }
      std::size_t produced = 0;
      std::size_t used = 0;
      auto st = step(in_, out, used, produced);
      in_ = in_.subspan(used);
      if (st == step_status::failed || st == step_status::out_of_memory) {
        // A decoder may have written bytes before it failed in the same call: they come first
        // (bytes before an error are given, whatever the size of `out`).
        finished_ = true;
        std::string message =
            st == step_status::failed
                ? std::string(to_string(kind())) + " stream is corrupt: " + message_
                : "out of memory in the " + std::string(to_string(kind())) + " decoder";
        if (!produced) return error{std::move(message), error_code::io_error};
        failure_ = std::move(message);
        return produced;
      }
      if (st == step_status::stream_end && in_.empty() && eof_) finished_ = true;
      if (produced) return produced;
      if (finished_) return std::size_t{0};
      if (eof_ && in_.empty()) {
        if (st != step_status::stream_end && !ended_cleanly()) {
          truncated_ = true;
          finished_ = true;
          return error{std::string(to_string(kind())) + " stream ends early (truncated file?)",
                       error_code::io_error};
        }
        finished_ = true;
        return std::size_t{0};
      }
    }
  }

 protected:
  enum class step_status { more, stream_end, failed, out_of_memory };
  // Decodes from `in` into `out`; sets used/produced.
  virtual step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                           std::size_t& produced) = 0;
  // At end of input with no output: did the last stream end?
  virtual bool ended_cleanly() const = 0;
  std::vector<char> out_;
  std::string message_;

 private:
  void take_news() {
    changed_ = src_->changed;
    grew_ = src_->grew;
  }
  std::unique_ptr<raw_source> src_;
  std::span<const char> in_;
  bool eof_ = false;
  bool finished_ = false;
  std::optional<std::string> failure_;  // the error after the bytes of the call that failed
};

class gzip_input final : public decoding_input {
 public:
  explicit gzip_input(std::unique_ptr<raw_source> src) : decoding_input(std::move(src)) {
    std::memset(&z_, 0, sizeof z_);
    inflateInit2(&z_, 15 + 32);
  }
  ~gzip_input() override { inflateEnd(&z_); }
  compression kind() const override { return compression::gzip; }

 protected:
  step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                   std::size_t& produced) override {
    // (With no input left, inflate is still called: output it holds back for want of room in
    // `out` comes then, before a truncated stream's error.)
    if (in.empty() && stream_ended_) {
      used = produced = 0;
      return step_status::stream_end;
    }
    if (stream_ended_) {
      // Concatenated gzip members (as `cat a.gz b.gz` makes): start the next one.
      inflateReset(&z_);
      stream_ended_ = false;
    }
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), 1u << 30));
    const auto room = static_cast<uInt>(std::min<std::size_t>(out.size(), 1u << 30));
    z_.next_out = reinterpret_cast<Bytef*>(out.data());
    z_.avail_out = room;
    int rc = inflate(&z_, Z_NO_FLUSH);
    used = static_cast<std::size_t>(reinterpret_cast<const char*>(z_.next_in) - in.data());
    produced = room - z_.avail_out;
    if (rc == Z_STREAM_END) {
      stream_ended_ = true;
      return step_status::stream_end;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR) return step_status::more;
    if (rc == Z_MEM_ERROR) return step_status::out_of_memory;
    message_ = z_.msg ? z_.msg : "inflate error";
    return step_status::failed;
  }
  bool ended_cleanly() const override { return stream_ended_; }

 private:
  z_stream z_;
  bool stream_ended_ = false;
};

class zstd_input final : public decoding_input {
 public:
  explicit zstd_input(std::unique_ptr<raw_source> src)
      : decoding_input(std::move(src)), d_(ZSTD_createDStream()) {
    ZSTD_initDStream(d_);
  }
  ~zstd_input() override { ZSTD_freeDStream(d_); }
  compression kind() const override { return compression::zstd; }

 protected:
  step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                   std::size_t& produced) override {
    ZSTD_inBuffer ib{in.data(), in.size(), 0};
    ZSTD_outBuffer ob{out.data(), out.size(), 0};
    std::size_t rc = ZSTD_decompressStream(d_, &ob, &ib);
    used = ib.pos;
    produced = ob.pos;
    if (ZSTD_isError(rc)) {
      if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation) return step_status::out_of_memory;
      message_ = ZSTD_getErrorName(rc);
      return step_status::failed;
    }
    // With no new input and no output, a finished frame stays finished (the call then only
    // asks for the next frame's header).
    if (!in.empty() || produced) frame_done_ = rc == 0;
    return step_status::more;
  }
  bool ended_cleanly() const override { return frame_done_; }

 private:
  ZSTD_DStream* d_;
  bool frame_done_ = true;
};

class xz_input final : public decoding_input {
 public:
  explicit xz_input(std::unique_ptr<raw_source> src) : decoding_input(std::move(src)) {
    init_ok_ = lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
  }
  ~xz_input() override { lzma_end(&s_); }
  compression kind() const override { return compression::xz; }

 protected:
  step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                   std::size_t& produced) override {
    if (!init_ok_) {
      used = produced = 0;
      message_ = "cannot start the xz decoder";
      return step_status::failed;
    }
    s_.next_in = reinterpret_cast<const uint8_t*>(in.data());
    s_.avail_in = in.size();
    s_.next_out = reinterpret_cast<uint8_t*>(out.data());
    s_.avail_out = out.size();
    lzma_ret rc = lzma_code(&s_, in.empty() ? LZMA_FINISH : LZMA_RUN);
    used = in.size() - s_.avail_in;
    produced = out.size() - s_.avail_out;
    if (rc == LZMA_STREAM_END) {
      ended_ = true;
      return step_status::stream_end;
    }
    if (rc == LZMA_OK || rc == LZMA_BUF_ERROR) return step_status::more;
    if (rc == LZMA_MEM_ERROR) return step_status::out_of_memory;
    message_ = "lzma error " + std::to_string(static_cast<int>(rc));
    return step_status::failed;
  }
  bool ended_cleanly() const override { return ended_; }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool init_ok_ = false;
  bool ended_ = false;
};

class bzip2_input final : public decoding_input {
 public:
  explicit bzip2_input(std::unique_ptr<raw_source> src) : decoding_input(std::move(src)) {
    std::memset(&s_, 0, sizeof s_);
    BZ2_bzDecompressInit(&s_, 0, 0);
  }
  ~bzip2_input() override { BZ2_bzDecompressEnd(&s_); }
  compression kind() const override { return compression::bzip2; }

 protected:
  step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                   std::size_t& produced) override {
    // (As for gzip: with no input left the decoder still gives what it held back.)
    if (in.empty() && ended_) {
      used = produced = 0;
      return step_status::stream_end;
    }
    if (ended_) {
      BZ2_bzDecompressEnd(&s_);
      std::memset(&s_, 0, sizeof s_);
      BZ2_bzDecompressInit(&s_, 0, 0);
      ended_ = false;
    }
    s_.next_in = const_cast<char*>(in.data());
    s_.avail_in = static_cast<unsigned>(std::min<std::size_t>(in.size(), 1u << 30));
    const auto room = static_cast<unsigned>(std::min<std::size_t>(out.size(), 1u << 30));
    s_.next_out = out.data();
    s_.avail_out = room;
    int rc = BZ2_bzDecompress(&s_);
    used = in.size() - s_.avail_in;
    produced = room - s_.avail_out;
    if (rc == BZ_STREAM_END) {
      ended_ = true;
      return step_status::stream_end;
    }
    if (rc == BZ_OK) return step_status::more;
    if (rc == BZ_MEM_ERROR) return step_status::out_of_memory;
    message_ = "bzip2 error " + std::to_string(rc);
    return step_status::failed;
  }
  bool ended_cleanly() const override { return ended_; }

 private:
  bz_stream s_;
  bool ended_ = false;
};

// A UTF-16 text with its byte-order mark, given as UTF-8 (the mark left out). Windows tools
// write profiles so (PowerShell 5's `>` and Out-File: UTF-16LE with FF FE), and speedscope reads
// them. A unit pair cut by a block boundary waits in `carry_`; an unpaired surrogate, and an odd
// byte at the end, are U+FFFD. NUL stays NUL (the reader then says the input is binary).
class utf16_input final : public decoding_input {
 public:
  utf16_input(std::unique_ptr<raw_source> src, bool big_endian)
      : decoding_input(std::move(src)), big_(big_endian) {}
  compression kind() const override { return big_ ? compression::utf16be : compression::utf16le; }

 protected:
  step_status step(std::span<const char> in, std::span<char> out, std::size_t& used,
                   std::size_t& produced) override {
    used = produced = 0;
    // What an earlier step encoded and had no room for goes first.
    auto give = [&] {
      const std::size_t n = std::min(pending_.size() - given_, out.size() - produced);
      std::memcpy(out.data() + produced, pending_.data() + given_, n);
      produced += n;
      given_ += n;
      if (given_ == pending_.size()) pending_.clear(), given_ = 0;
    };
    give();
    if (in.empty()) {
      // The end: what waits in the carry is a unit cut short or a surrogate with no pair.
      if (!carry_.empty()) {
        carry_.clear();
        put(0xFFFD);
        give();
      }
      return pending_.empty() ? step_status::stream_end : step_status::more;
    }
    while (pending_.empty() && produced < out.size() && used < in.size()) {
      // The next byte into the carry: a unit is 2 bytes, a pair 4.
      carry_.push_back(in[used++]);
      if (carry_.size() % 2) continue;
      if (!mark_skipped_) {
        mark_skipped_ = true;  // (the byte-order mark detect() saw)
        carry_.clear();
        continue;
      }
      const char16_t u = unit(0);
      if (carry_.size() == 2) {
        if (u >= 0xD800 && u < 0xDC00) continue;  // (a high surrogate: its pair next)
        carry_.clear();
        put(u >= 0xDC00 && u < 0xE000 ? char32_t{0xFFFD} : char32_t{u});
      } else {
        const char16_t low = unit(2);
        if (low >= 0xDC00 && low < 0xE000) {
          carry_.clear();
          put(0x10000 + ((char32_t{u} - 0xD800) << 10) + (char32_t{low} - 0xDC00));
        } else {
          // A high surrogate with no low one after it: U+FFFD, and the unit after it anew.
          put(0xFFFD);
          carry_.erase(0, 2);
          if (!(low >= 0xD800 && low < 0xDC00)) {
            carry_.clear();
            put(low >= 0xDC00 && low < 0xE000 ? char32_t{0xFFFD} : char32_t{low});
          }
        }
      }
      give();
    }
    return step_status::more;
  }
  bool ended_cleanly() const override { return true; }

 private:
  char16_t unit(std::size_t at) const {
    const auto a = static_cast<unsigned char>(carry_[at]);
    const auto b = static_cast<unsigned char>(carry_[at + 1]);
    return static_cast<char16_t>(big_ ? (a << 8 | b) : (b << 8 | a));
  }
  // `c` as UTF-8, into pending_.
  void put(char32_t c) {
    auto add = [&](unsigned v) { pending_.push_back(static_cast<char>(v)); };
    if (c < 0x80) {
      add(c);
    } else if (c < 0x800) {
      add(0xC0 | (c >> 6));
      add(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      add(0xE0 | (c >> 12));
      add(0x80 | ((c >> 6) & 0x3F));
      add(0x80 | (c & 0x3F));
    } else {
      add(0xF0 | (c >> 18));
      add(0x80 | ((c >> 12) & 0x3F));
      add(0x80 | ((c >> 6) & 0x3F));
      add(0x80 | (c & 0x3F));
    }
  }
  bool big_;
  bool mark_skipped_ = false;
  std::string carry_;    // bytes of a unit or pair not yet whole
  std::string pending_;  // encoded, not yet given
  std::size_t given_ = 0;
};

compression detect(std::span<const char> head) {
  auto b = [&](std::size_t i) {
    return i < head.size() ? static_cast<unsigned char>(head[i]) : 0u;
  };
  if (b(0) == 0x1f && b(1) == 0x8b) return compression::gzip;
  if (b(0) == 0x28 && b(1) == 0xb5 && b(2) == 0x2f && b(3) == 0xfd) return compression::zstd;
  if (b(0) == 0xfd && b(1) == '7' && b(2) == 'z' && b(3) == 'X' && b(4) == 'Z' && b(5) == 0)
    return compression::xz;
  if (b(0) == 'B' && b(1) == 'Z' && b(2) == 'h') return compression::bzip2;
  if (b(0) == 0xff && b(1) == 0xfe) return compression::utf16le;
  if (b(0) == 0xfe && b(1) == 0xff) return compression::utf16be;
  return compression::none;
}

std::unique_ptr<input> wrap(std::unique_ptr<raw_source> src, compression c,
                            std::uint64_t size_at_open = 0) {
  std::unique_ptr<decoding_input> d;
  switch (c) {
    case compression::gzip:
      d = std::make_unique<gzip_input>(std::move(src));
      break;
    case compression::zstd:
      d = std::make_unique<zstd_input>(std::move(src));
      break;
    case compression::xz:
      d = std::make_unique<xz_input>(std::move(src));
      break;
    case compression::bzip2:
      d = std::make_unique<bzip2_input>(std::move(src));
      break;
    case compression::utf16le:
    case compression::utf16be:
      d = std::make_unique<utf16_input>(std::move(src), c == compression::utf16be);
      break;
    case compression::none:
      return std::make_unique<plain_input>(std::move(src), size_at_open);
  }
  d->set_size_at_open(size_at_open);
  return d;
}

// The first bytes of `src` (up to 8, fewer at its end), to choose a decoder, then `src` behind
// them.
result<std::unique_ptr<input>> sniffed(std::unique_ptr<raw_source> src,
                                       std::uint64_t size_at_open) {
  std::string prefix;
  while (prefix.size() < 8) {
    auto r = src->next();
    if (!r) return r.error();
    if (r->empty()) break;
    prefix.append(r->data(), r->size());
  }
  compression c = detect(std::span<const char>(prefix.data(), prefix.size()));
  return wrap(std::make_unique<peeked_source>(std::move(src), std::move(prefix)), c, size_at_open);
}

}  // namespace

result<std::unique_ptr<input>> open_input(const std::string& path) {
  // Standard input: the first block tells the decoder.
  if (path == "-") return sniffed(std::make_unique<fd_source>(0, false, 0), 0);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_failure(path + ": ", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return io_failure(path + ": ", e);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return error{path + ": is a directory", error_code::is_directory, EISDIR};
  }
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    // Read to the size it has now. Sequential: the kernel reads ahead in bigger steps.
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    return sniffed(std::make_unique<file_source>(fd, size), size);
  }
  // Pipes, FIFOs, character devices, and regular files of no size (some of /proc): read in
  // blocks to their end.
  return sniffed(std::make_unique<fd_source>(fd, true, S_ISREG(st.st_mode) ? st.st_size : 0), 0);
}

std::span<const char> detail::in_memory(const input& in) {
  const auto* plain = dynamic_cast<const plain_input*>(&in);
  return plain ? plain->in_memory() : std::span<const char>();
}

std::unique_ptr<input> memory_input(std::string bytes) {
  compression c = detect(std::span<const char>(bytes.data(), bytes.size()));
  return wrap(std::make_unique<memory_source>(std::move(bytes)), c);
}

}  // namespace calltree

// streamed_input.h — a test input that hands a text over in blocks, as a pipe or a decoder does.
//
// What it is: an `input` that is not mapped, so the reader's parallel path cuts it as the
// blocks come (chunk_feed.h, decoded_chunks), and that can break off like a truncated
// compressed stream. What it is not: a decoder; kind() is always `none`.
#pragma once

#include <algorithm>
#include <functional>
#include <string>

#include "calltree/input.h"

namespace calltree::test {

// `text` in blocks of the sizes `next_size` returns (at least 1 byte), or all of `block`
// bytes; after `fail_at` bytes, if that is short of its end, an error, with truncated() set.
// With overwrite_blocks(), every block is handed out of one buffer, which the next block
// overwrites (as a reading of a file into one buffer does): what a reader keeps of a line
// after its block must be a copy.
class streamed_input final : public input {
 public:
  streamed_input(std::string text, std::function<std::size_t()> next_size,
                 std::size_t fail_at = std::string::npos)
      : text_(std::move(text)),
        next_size_(std::move(next_size)),
        fail_at_(std::min(fail_at, text_.size())) {}
  streamed_input(std::string text, std::size_t block, std::size_t fail_at)
      : streamed_input(
            std::move(text), [block] { return block; }, fail_at) {}
  result<std::span<const char>> next() override {
    if (at_ == fail_at_ && fail_at_ < text_.size()) {
      truncated_ = true;
      return error{"stream ends early"};
    }
    const std::size_t n = std::min(std::max<std::size_t>(1, next_size_()), fail_at_ - at_);
    std::span<const char> b(text_.data() + at_, n);
    if (overwrite_) {
      buffer_.assign(text_.size(), '#');  // (the last block's bytes are gone)
      std::copy(b.begin(), b.end(), buffer_.begin());
      b = std::span<const char>(buffer_.data(), n);
    }
    at_ += n;
    return b;
  }
  void overwrite_blocks() { overwrite_ = true; }
  compression kind() const override { return compression::none; }
  std::uint64_t raw_consumed() const override { return at_; }
  std::uint64_t raw_size() const override { return text_.size(); }

 private:
  std::string text_;
  std::function<std::size_t()> next_size_;
  std::size_t fail_at_, at_ = 0;
  bool overwrite_ = false;
  std::string buffer_;  // (overwrite_blocks)
};

}  // namespace calltree::test

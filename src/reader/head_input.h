// head_input.h — an input whose first block was taken to look at, given again first.
//
// What it is: the reader looks at an input's first bytes to tell its format (import/formats.h)
// before it knows how it will read it; head_input holds that first block (the inner input's
// next()), hands it out first — whole from next(), in pieces from read_into() — then passes
// every call on to the inner input, straight (a regular file still reads into the caller's
// buffers). Its state (truncated, changed, grew, its size) is the inner input's. What it is not:
// a buffer: the block is the inner input's own, valid until the inner input is called again,
// which happens only once it was all given.
#pragma once

#include <algorithm>
#include <cstring>
#include <optional>

#include "calltree/input.h"

namespace calltree::detail {

class head_input final : public input {
 public:
  explicit head_input(input& inner) : inner_(inner), first_(inner.next()) {
    if (const auto& r = *first_; r && !(*r).empty()) head_ = *r;
    size_at_open_ = inner.size_at_open();
    take_state();
  }
  // The first block (empty after an error or at the end of an empty input).
  std::span<const char> head() const { return head_; }
  // Whether the head is all the input holds (known of a file of that size; a stream may hold more).
  bool head_is_whole() const {
    return !*first_ || (inner_.size_at_open() && inner_.size_at_open() == head_.size());
  }

  result<std::span<const char>> next() override {
    if (first_) {
      result<std::span<const char>> r = std::move(*first_);
      if (r && started_) r = left_;  // (what read_into() left of it)
      first_.reset();
      return r;
    }
    return pass(inner_.next());
  }
  result<std::size_t> read_into(std::span<char> out) override {
    if (first_) {
      if (!*first_) {
        error e = (*first_).error();
        first_.reset();
        return result<std::size_t>(std::move(e));
      }
      if (!started_) left_ = head_, started_ = true;
      if (!left_.empty()) {
        const std::size_t n = std::min(out.size(), left_.size());
        std::memcpy(out.data(), left_.data(), n);
        left_ = left_.subspan(n);
        return n;
      }
      first_.reset();
    }
    return pass(inner_.read_into(out));
  }
  compression kind() const override { return inner_.kind(); }
  std::uint64_t raw_consumed() const override { return inner_.raw_consumed(); }
  std::uint64_t raw_size() const override { return inner_.raw_size(); }

 private:
  template <typename R>
  R pass(R r) {
    take_state();
    return r;
  }
  void take_state() {
    truncated_ = inner_.truncated();
    changed_ = inner_.changed();
    grew_ = inner_.grew();
  }
  input& inner_;
  std::optional<result<std::span<const char>>> first_;
  std::span<const char> head_, left_;
  bool started_ = false;
};

}  // namespace calltree::detail

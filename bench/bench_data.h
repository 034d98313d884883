// bench_data.h — the input text shared by the micro-benchmarks, loaded once.
//
// CALLTREE_BENCH_FILE names it (any compression calltree reads); the default is the corpus's
// 24 MB instr-level callgrind file. `view_input` hands the text to the reader without copying
// it, as a memory-mapped file would.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "calltree/input.h"

namespace calltree::bench {

// The uncompressed text; empty (and a message on stderr) if it could not be read.
const std::string& bench_text();

// One block: the whole text, like a memory-mapped plain file.
class view_input final : public input {
 public:
  explicit view_input(std::string_view text) : text_(text) {}
  result<std::span<const char>> next() override {
    if (done_) return std::span<const char>();
    done_ = true;
    return std::span<const char>(text_.data(), text_.size());
  }
  compression kind() const override { return compression::none; }
  std::uint64_t raw_consumed() const override { return done_ ? text_.size() : 0; }
  std::uint64_t raw_size() const override { return text_.size(); }

 private:
  std::string_view text_;
  bool done_ = false;
};

}  // namespace calltree::bench

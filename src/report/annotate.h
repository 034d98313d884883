// report/annotate.h — callgrind_annotate's report (text and JSON) from a profile.
//
// What it is: `calltree annotate`, a drop-in for Valgrind 3.19's callgrind_annotate: the same
// sections, layout and number formatting (header, PROGRAM TOTALS, the `file:function [object]`
// table, caller/callee trees, auto- and user-annotated source), computed from the profile
// model, with right numbers where callgrind_annotate is wrong (docs/annotate.md lists every
// difference). Functions are grouped as callgrind_annotate groups them: by "file:name" where
// file is the fl=/fi=/fe= file in force (cost of inlined code is a separate pseudo-function
// under its fi= file), with the current directory stripped from the front of file names.
// What it is not: a reader (the CLI streams the input into the model) or a printer (text
// comes back as a string; only cli/ prints).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/records.h"
#include "calltree/result.h"

namespace calltree {

// A key -> count table for cost_presence: open addressing with the keys in the slots (no
// node per entry: a profile has millions of call keys), find() as a map's (an entry, or end()).
// References from operator[] stay valid until the next operator[].
template <typename Key, typename Hash>
class count_table {
 public:
  struct entry {
    Key first{};
    std::uint32_t second = 0;
  };
  const entry* find(const Key& k) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(k);; i = (i + 1) & (slots_.size() - 1)) {
      if (!used_[i]) return nullptr;
      if (slots_[i].first == k) return &slots_[i];
    }
  }
  const entry* end() const { return nullptr; }
  // The count of `k`, 0 when new.
  std::uint32_t& operator[](const Key& k) {
    if ((count_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = home(k);
    for (; used_[i]; i = (i + 1) & (slots_.size() - 1))
      if (slots_[i].first == k) return slots_[i].second;
    used_[i] = 1;
    slots_[i] = entry{k, 0};
    ++count_;
    return slots_[i].second;
  }
  std::size_t size() const { return count_; }

 private:
  std::size_t home(const Key& k) const {
    // Fibonacci hashing: the top bits of the key's hash times 2^64/phi.
    const std::uint64_t h = static_cast<std::uint64_t>(Hash{}(k)) * 0x9e3779b97f4a7c15ull;
    return static_cast<std::size_t>(h >> shift_);
  }
  void grow() {
    std::vector<entry> old = std::move(slots_);
    std::vector<std::uint8_t> old_used = std::move(used_);
    const std::size_t n = old.empty() ? 64 : old.size() * 2;
    slots_.assign(n, entry{});
    used_.assign(n, 0);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    for (std::size_t j = 0; j < old.size(); ++j) {
      if (!old_used[j]) continue;
      std::size_t i = home(old[j].first);
      while (used_[i]) i = (i + 1) & (n - 1);
      used_[i] = 1;
      slots_[i] = old[j];
    }
  }
  std::vector<entry> slots_;
  std::vector<std::uint8_t> used_;
  std::size_t count_ = 0;
  unsigned shift_ = 64;
};

// Which cost columns a file actually wrote. callgrind_annotate prints "." for a column no cost
// line of a function ever gave a value for (callgrind omits trailing zero costs) and "0" for
// one given as 0; the model pads missing costs with 0, so this sink, teed beside the profile
// builder, keeps the difference: per function context, call and source line, the largest
// number of cost values given on one line.
class cost_presence final : public record_sink {
 public:
  // `by_line = false` when no source line will be annotated: `lines` is not kept and calls are
  // keyed by line 0 (the largest count over every line of the pair), to match a profile built
  // with no position columns (builder_options::keep_positions = 0).
  explicit cost_presence(bool by_line = true) : by_line_(by_line) {}
  // By line: every line; else sums per context. No jumps.
  record_needs needs() const override {
    record_needs n;
    if (!by_line_) n.costs = record_needs::grain::sums_per_context;
    n.jumps = false;
    return n;
  }

  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;

  // Keys are string ids of the profile's pool; values are "leading columns given", in the
  // order of the part's events: line.
  struct fn_key {
    string_id file, function;
    friend bool operator==(const fn_key&, const fn_key&) = default;
  };
  struct call_key {
    string_id file, function, callee_file, callee_function;
    std::uint64_t line;
    friend bool operator==(const call_key&, const call_key&) = default;
  };
  struct line_key {
    string_id file;
    std::uint64_t line;
    friend bool operator==(const line_key&, const line_key&) = default;
  };
  struct hash {
    std::size_t operator()(const fn_key& k) const noexcept;
    std::size_t operator()(const call_key& k) const noexcept;
    std::size_t operator()(const line_key& k) const noexcept;
  };
  // Only parts with more than one event are tracked (with one event "." needs a line with no
  // cost at all, which no producer writes).
  count_table<fn_key, hash> functions;
  count_table<call_key, hash> calls;
  count_table<line_key, hash> lines;
  std::vector<std::uint32_t> part_events;  // event count of each part seen
  bool tracking() const { return tracking_; }
  bool by_line() const { return by_line_; }

 private:
  bool tracking_ = false;
  bool by_line_ = true;
  // The entries the last records went to: records come in runs of one function.
  fn_key last_fn_{string_pool::npos, string_pool::npos};
  std::uint32_t* last_fn_value_ = nullptr;
  line_key last_line_{string_pool::npos, 0};
  std::uint32_t* last_line_value_ = nullptr;
  call_key last_call_{string_pool::npos, string_pool::npos, string_pool::npos, string_pool::npos,
                      0};
  std::uint32_t* last_call_value_ = nullptr;
};

struct annotate_options {
  // callgrind_annotate's options.
  std::vector<std::string> show;             // --show (empty = every recorded event)
  std::vector<std::string> sort;             // --sort event names (empty = recorded order)
  std::vector<std::string> sort_thresholds;  // per --sort event "N" or "" ; empty = none given
  std::string threshold = "99";              // --threshold, as written
  bool show_percs = true;
  bool auto_annotate = true;
  std::uint64_t context = 8;
  bool inclusive = false;
  bool tree_caller = false, tree_calling = false;
  std::vector<std::string> include_dirs;  // -I, as given (a trailing '/' is trimmed)
  std::vector<std::string> user_files;    // source files named after the profile
  // The profile's name as given on the command line (printed in the header).
  std::string input_name;
  std::int64_t input_mtime = 0;  // seconds; 0 = unknown (no "more recent" warning)
  // calltree's additions.
  std::optional<part_id> part;  // --part=N (0-based here); default: all parts summed
  bool raw = false;             // --raw: callgrind_annotate 3.19's inclusive and calls=0 sums
  std::string cwd;              // stripped from the front of file names (with a '/')
  std::vector<std::pair<std::string, std::string>> source_roots;  // --source-root OLD=NEW
  std::vector<std::string> event_definitions;                     // --event "NAME = formula"
  // Threads the report may use (--threads): with 2 or more, the names it prints are read back
  // from a spilling pool on a thread of their own while it formats.
  std::size_t threads = 1;
  // The memory limit of annotate's tables built while reading (annotate_direct: the
  // limit_exceeded error past it; --max-memory), as builder_options::max_memory. 0 = none.
  std::uint64_t max_memory = machine_memory_limit();
  // Called for each function row the text report's table prints (not cycle rows), in order:
  // its file as shown, its name and its object ("" if none). (`annotate --asm` picks those.)
  std::function<void(std::string_view file, std::string_view name, std::string_view object)>
      on_function_row;
};

// The annotate report as text, byte for byte in callgrind_annotate's layout. An error for what
// callgrind_annotate dies on (an unknown --show/--sort event, a user file not found).
// `presence` (optional) gives the "." columns; `warnings` receives notes for stderr.
result<std::string> annotate_text(const profile& p, const annotate_options& options,
                                  const cost_presence* presence = nullptr,
                                  std::vector<std::string>* warnings = nullptr);

// The same text handed to `write` in pieces as it is made (about 1 MB each), so a large report
// (28 MB for a 260 MB profile) is never held whole. The errors are annotate_text's; when one
// is returned nothing has been written.
status annotate_text_to(const profile& p, const annotate_options& options,
                        const std::function<void(std::string_view)>& write,
                        const cost_presence* presence = nullptr,
                        std::vector<std::string>* warnings = nullptr);

// The same, for a caller done with the profile: its self, call and jump rows are freed as soon
// as the report has taken from them what it needs (before it is printed, and while its own
// tables grow), so the two are not held at once; its names and parts stay.
status annotate_text_to(profile&& p, const annotate_options& options,
                        const std::function<void(std::string_view)>& write,
                        const cost_presence* presence = nullptr,
                        std::vector<std::string>* warnings = nullptr);

// The same report as JSON (schema "calltree-annotate", version 1, docs/json.md).
result<std::string> annotate_json(const profile& p, const annotate_options& options,
                                  const cost_presence* presence = nullptr,
                                  std::vector<std::string>* warnings = nullptr);

}  // namespace calltree

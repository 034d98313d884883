// reader.cc — the streaming Callgrind-format reader.
//
// How a file is read (our reading of the spec; docs/format.md has the reasons):
//
// * Lines. Split on LF; one trailing CR is dropped; a missing final newline is fine. Blank
//   lines and lines whose first non-blank character is '#' are skipped everywhere, even between
//   `calls=` and its cost line. A line that starts with white space gets a warning and is read
//   without it. Tabs separate tokens like spaces.
// * Parts. A part is a header followed by a body. The header ends at the first body line
//   (a `key=` line or a cost line). A header line (`version:`, `events:`, `part:`, ...) that
//   comes after body lines starts a new part; so does Xdebug's "==== NEW PROFILING FILE"
//   separator. `summary:` and `totals:` may stand in the header or after the body; after the
//   body they belong to the part's end. A new part inherits `events:`, `positions:`, `event:`
//   definitions, version, creator, cmd and pid from the part before unless it restates them
//   (callgrind's combined dumps restate events, but not cmd).
// * Names. Three id tables shared by all keys of a class and kept across parts: objects
//   (ob, cob), files (fl, fi, fe, cfi, cfl, jfi), functions (fn, cfn, jfn). `(id) name`
//   defines, `(id)` references; only `(` followed by a digit is compressed, so `(below main)`
//   is a plain name. A redefinition with another name replaces the old one; inside one part it
//   is also a warning. An undefined reference is an error and names the function
//   "(unknown id N)" so its costs are kept.
// * Positions. One column per `positions:` kind. `+N`, `-N` (decimal or hex) and `*` are
//   relative to the same column of the last line that carried positions: self cost lines,
//   call cost lines and jump source lines; not the targets of `calls=`/`jump=`/`jcnd=`. The
//   base is not reset at `fn=` (pprof relies on that), only at a new part.
// * Calls. `calls=COUNT TARGET` is followed by exactly one cost line: the call site and the
//   inclusive cost. `cob=`/`cfi=`/`cfn=` apply to the next call only; the callee's object and
//   file default to the current object and the current (possibly inlined) source file.
// * Jumps. `jump=COUNT TARGET` and `jcnd=FOLLOWED/EXECUTED TARGET` (callgrind) or
//   `jcnd=EXECUTED FOLLOWED TARGET` (the spec, with a warning) are followed by a position line:
//   the jump's source. `jfi=`/`jfn=` apply to the next jump only.
// * Costs. Fewer costs than events: the rest are 0. More: an error, the line is skipped.
//   Negative costs (old Xdebug, SPX) are clamped to 0 with a warning; hex costs are read with a
//   warning; numbers above 2^64-1 are errors; sums above 2^64-1 saturate with an error.
#include "calltree/reader.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "calltree/cost_matrix.h"
#include "reader/chunk_feed.h"
#include "reader/decode_ahead.h"
#include "reader/fast_tokens.h"
#include "reader/read_hooks.h"
#include "reader/record_batch.h"

namespace calltree {
namespace {

namespace fast = detail::fast;

constexpr std::size_t max_line_text = 240;
constexpr std::size_t max_positions = 3;  // instr, bb, line
constexpr std::uint64_t dense_id_limit = 1u << 20;

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// The first character of a cost line (a position: decimal, hex, +N, -N or *).
bool starts_cost_line(char c) { return is_digit(c) || c == '+' || c == '-' || c == '*'; }

// Names and header values lose surrounding blanks, and stray CRs (a line ending in "\r\r"):
// a writer cannot write a name that ends in CR so that it reads back the same.
bool is_blank_or_cr(char c) { return is_space(c) || c == '\r'; }
std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank_or_cr(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank_or_cr(s.back())) s.remove_suffix(1);
  return s;
}

// Splits on spaces and tabs.
struct tokenizer {
  std::string_view s;
  std::size_t pos = 0;
  bool next(std::string_view& tok, std::size_t& col) {
    while (pos < s.size() && is_space(s[pos])) ++pos;
    if (pos >= s.size()) return false;
    std::size_t start = pos;
    while (pos < s.size() && !is_space(s[pos])) ++pos;
    tok = s.substr(start, pos - start);
    col = start;
    return true;
  }
};

// A decimal token of fewer than 20 digits (it cannot overflow); false if a character is no digit.
bool short_decimal(std::string_view tok, std::uint64_t& v) {
  v = 0;
  for (char ch : tok) {
    if (!is_digit(ch)) return false;
    v = v * 10 + static_cast<unsigned>(ch - '0');
  }
  return true;
}

enum class num_status { ok, malformed, overflow };

// Decimal or 0x-hex unsigned number filling the whole token.
num_status parse_u64(std::string_view t, std::uint64_t& out, bool* was_hex = nullptr) {
  if (t.empty()) return num_status::malformed;
  std::uint64_t v = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    if (was_hex) *was_hex = true;
    for (std::size_t i = 2; i < t.size(); ++i) {
      char c = t[i];
      unsigned d;
      if (c >= '0' && c <= '9')
        d = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        d = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        d = static_cast<unsigned>(c - 'A' + 10);
      else
        return num_status::malformed;
      if (v >> 60) return num_status::overflow;
      v = (v << 4) | d;
    }
    out = v;
    return num_status::ok;
  }
  if (was_hex) *was_hex = false;
  for (char c : t) {
    if (!is_digit(c)) return num_status::malformed;
    if (__builtin_mul_overflow(v, 10u, &v) ||
        __builtin_add_overflow(v, static_cast<unsigned>(c - '0'), &v))
      return num_status::overflow;
  }
  out = v;
  return num_status::ok;
}

enum class name_class { object, file, function };

// One of the three shared `(id)` tables. Ids below 2^20 (what producers write: callgrind
// numbers them from 1, up to a million on big profiles) are looked up in pages of 512
// entries allocated as they are first used, so the table never copies itself to grow; larger
// ids go to a hash map.
//
// An entry is a name and the part that defined it (a redefinition within one part is a
// warning, across parts it is not). A page keeps the names, and which of them the last part
// to define one of them defined: 4 bytes and a bit per id rather than 8 bytes (the real
// profile's million function ids took 8 MB).
class id_table {
 public:
  struct entry {
    string_id name = string_pool::npos;  // npos: not defined
    // The defining part; other_part (never a part's index) for an earlier part (pages keep
    // only whether it was the last part to define a name in the page) or a placeholder.
    std::uint32_t part = other_part;
    bool defined() const { return name != string_pool::npos; }
  };
  static constexpr std::uint32_t other_part = UINT32_MAX;
  // A speculative reading's tables (reader.cc, "The parallel path") hold the few thousand ids
  // one chunk uses, and are emptied for the next chunk: open addressing, not pages (which a
  // chunk touches all over an id range of a million, and would keep).
  void use_hashing() { hashed_ = true; }
  void clear() {
    // Entry by entry: a chunk fills a few thousand slots of a table grown for the largest.
    for (std::uint32_t i : used_) hash_[i] = hashed{};
    used_.clear();
    pages_.clear();
    sparse_.clear();
  }
  // The entry of `id` (not defined() if there is none).
  entry get(std::uint64_t id) const {
    if (hashed_ && id + 1 != 0) {  // (2^64-1 goes to sparse_)
      if (hash_.empty()) return {};
      const hashed& h = hash_[probe(id)];
      return h.key == id + 1 ? h.e : entry{};
    }
    if (id < dense_id_limit) {
      const auto pg = static_cast<std::size_t>(id >> page_bits);
      if (pg >= pages_.size() || !pages_[pg]) return {};
      return pages_[pg]->get(static_cast<std::size_t>(id & page_mask));
    }
    auto it = sparse_.find(id);
    return it == sparse_.end() ? entry{} : it->second;
  }
  // A hint that get(id) follows soon: its entry is fetched into the cache (dense ids only).
  [[gnu::always_inline]] void prefetch(std::uint64_t id) const {
    const auto pg = static_cast<std::size_t>(id >> page_bits);
    if (!hashed_ && id < dense_id_limit && pg < pages_.size() && pages_[pg]) {
      __builtin_prefetch(&pages_[pg]->names[id & page_mask]);
      __builtin_prefetch(&pages_[pg]->by_last[(id & page_mask) / 64]);
    }
  }
  void set(std::uint64_t id, entry e) {
    if (hashed_ && id + 1 != 0) {
      if ((used_.size() + 1) * 2 > hash_.size()) grow();
      const std::size_t i = probe(id);
      hashed& h = hash_[i];
      if (h.key != id + 1) {
        h.key = id + 1;
        used_.push_back(static_cast<std::uint32_t>(i));
      }
      h.e = e;
      return;
    }
    if (id < dense_id_limit) {
      const auto pg = static_cast<std::size_t>(id >> page_bits);
      if (pg >= pages_.size()) pages_.resize(pg + 1);
      if (!pages_[pg]) pages_[pg] = std::make_unique<page>();
      pages_[pg]->set(static_cast<std::size_t>(id & page_mask), e);
      return;
    }
    sparse_[id] = e;
  }

 private:
  static constexpr unsigned page_bits = 9;
  static constexpr std::uint64_t page_mask = (1u << page_bits) - 1;
  struct page {
    string_id names[page_mask + 1];
    std::uint32_t last_part = 0;                       // the last part to define a name here
    std::uint64_t by_last[(page_mask + 1) / 64] = {};  // the names last_part defined
    page() { std::fill(std::begin(names), std::end(names), string_pool::npos); }
    entry get(std::size_t i) const {
      if (names[i] == string_pool::npos) return {};
      const bool last = (by_last[i / 64] >> (i % 64)) & 1;
      return {names[i], last ? last_part : other_part};
    }
    void set(std::size_t i, entry e) {
      names[i] = e.name;
      const std::uint64_t bit = std::uint64_t{1} << (i % 64);
      if (e.part == other_part) {
        by_last[i / 64] &= ~bit;
        return;
      }
      if (e.part != last_part) {  // parts only go forward: the names of the last one are older
        std::fill(std::begin(by_last), std::end(by_last), 0);
        last_part = e.part;
      }
      by_last[i / 64] |= bit;
    }
  };
  struct hashed {
    std::uint64_t key = 0;  // id + 1; 0: empty
    entry e;
  };
  // The slot of `id`, or the empty one where it would go.
  std::size_t probe(std::uint64_t id) const {
    const std::size_t mask = hash_.size() - 1;
    std::size_t i = static_cast<std::size_t>((id * 0x9e3779b97f4a7c15ull) >> 20) & mask;
    while (hash_[i].key != 0 && hash_[i].key != id + 1) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<hashed> old = std::move(hash_);
    hash_.assign(old.empty() ? 1024 : old.size() * 2, hashed{});
    used_.clear();
    for (const hashed& h : old) {
      if (h.key == 0) continue;
      const std::size_t i = probe(h.key - 1);
      hash_[i] = h;
      used_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  std::vector<std::unique_ptr<page>> pages_;
  std::unordered_map<std::uint64_t, entry> sparse_;
  bool hashed_ = false;
  std::vector<hashed> hash_;
  std::vector<std::uint32_t> used_;  // the slots of hash_ in use (clear() empties only these)
};

class reader_impl {
 public:
  reader_impl(input& in, string_pool& names, record_sink& sink, diagnostic_sink& diags,
              const detail::read_config& options)
      : in_(in), names_(names), sink_(sink), diags_(diags), opt_(options) {
    unknown_function_ = string_pool::npos;
    reset_header(true);
  }

  result<read_stats> run();

 private:
  // ---- diagnostics -------------------------------------------------------------------
  // (The message is a view: a literal costs nothing when the sink counts the diagnostic
  // without its text, as it does after the first few of a code. A message put together from
  // pieces is built only if `detailed(code)`.)
  void report(severity s, diag_code code, std::size_t col, std::size_t len,
              std::string_view message) {
    if (spec_) {
      // A speculative reading stands only if it has nothing to say, but for the notes that
      // say something of one line alone: those it keeps, and the reading thread sends them on
      // when it adopts the chunk (Xdebug writes one on every calls= line).
      if (kept_on_speculation(s, code))
        keep_spec_note(code, col, len, message);
      else
        spec_failed_ = true;
      return;
    }
    if (s == severity::error) ++stats_.errors;
    if (s == severity::warning) ++stats_.warnings;
    deliver(s, code, line_no_, col, len, message,
            line_no_ ? raw_line_.substr(0, max_line_text) : std::string_view());
  }
  void deliver(severity s, diag_code code, std::uint64_t line, std::size_t col, std::size_t len,
               std::string_view message, std::string_view line_text) {
    if (!diags_.wants(code)) {
      diags_.count_only(code, s);
      return;
    }
    diagnostic d;
    d.severity = s;
    d.code = code;
    d.file = opt_.display_name;
    d.line = line;
    d.column = col ? static_cast<std::uint32_t>(col) : 0;
    d.length = static_cast<std::uint32_t>(std::min<std::size_t>(len, 1u << 20));
    d.message = std::string(message);
    d.line_text = std::string(line_text);
    diags_.report(std::move(d));
  }
  // Notes about the tokens of their own line, whatever came before: a speculative reading
  // keeps them (the others need the real state, or change it).
  static bool kept_on_speculation(severity s, diag_code code) {
    return s == severity::note &&
           (code == diag_code::extra_call_target || code == diag_code::zero_call_count);
  }
  // Whether a diagnostic of `code` would reach the sink whole (its message is wanted).
  bool detailed(diag_code code) const {
    return spec_ ? kept_on_speculation(severity::note, code) : diags_.wants(code);
  }
  // Column (1-based) of a view into the current line.
  std::size_t col_of(std::string_view part) const {
    if (part.data() >= raw_line_.data() && part.data() <= raw_line_.data() + raw_line_.size())
      return static_cast<std::size_t>(part.data() - raw_line_.data()) + 1;
    return 0;
  }
  void skip_line() { ++stats_.skipped_lines; }

  // ---- lines -------------------------------------------------------------------------
  void process_line(std::string_view line);
  void process_header(std::string_view key, std::string_view value, std::string_view line);
  void process_body_key(std::string_view key, std::string_view value);
  void process_cost_line(std::string_view line);
  bool fast_cost_line(const char*& p, const char* end, std::size_t max_len);
  // The part's position columns, for the fast paths (other: anything but these three).
  enum class layout : std::uint8_t { line, instr, instr_line, other };
  template <layout L>
  bool fast_cost_line_as(const char*& p, const char* end, std::size_t max_len);
  bool fast_key_line(const char*& p, const char* end, std::size_t max_len);
  // The run loop: self-cost lines that continue the open run (reader_options::sum_cost_runs),
  // summed in registers; returns at the first line it does not take, which it leaves unread.
  static constexpr std::size_t run_loop_events = 16;
  bool run_continues() const {
    return opt_.sum_cost_runs && run_open_ && !pending_call_ && !pending_jump_ &&
           !drop_call_cost_ && !spec_unknown_ && n_events_ <= run_loop_events && run_in_context();
  }
  // The open run (if any) is of the context in force.
  bool run_in_context() const {
    return run_.ctx.function == ctx_.function && run_.ctx.source_file == ctx_.source_file &&
           run_.ctx.file == ctx_.file && run_.ctx.object == ctx_.object;
  }
  // With merge_cost_lines, on speculation: the lines go to the chunk's record_batch as they
  // are read (record_batch::merge_in_run), not through on_cost.
  bool merge_run_continues() const {
    return spec_batch_ && !pending_call_ && !pending_jump_ && !drop_call_cost_ && !spec_unknown_ &&
           n_events_ <= run_loop_events && spec_batch_->open_run_of(ctx_);
  }
  template <bool merging>
  [[gnu::noinline]] void fast_cost_run(const char*& p, const char* end);
  template <layout L, bool one_event, bool merging>
  void fast_cost_run_as(const char*& p, const char* end);
  bool fast_target(const char*& p, const char* end, position& out, const char** extra = nullptr);
  void fast_commit(const char*& p_io, const char* nl) {
    ++line_no_;
    ++stats_.lines;
    raw_line_ = std::string_view(p_io, static_cast<std::size_t>(nl - p_io));
    body_started_ = true;
    p_io = nl + 1;
  }
  [[gnu::always_inline]] void finish_cost_line(std::uint64_t instr, std::uint64_t bb,
                                               std::uint64_t line, std::size_t ncost);
  [[gnu::noinline]] void cost_line_problems(std::size_t ncost);

  // ---- parts -------------------------------------------------------------------------
  void reset_header(bool first);
  void begin_body();
  void end_part();
  void finish_pending(bool at_eof);
  bool header_has_content() const { return header_dirty_; }

  std::optional<std::vector<std::uint64_t>> parse_cost_list(std::string_view value,
                                                            std::string_view what);

  // ---- names -------------------------------------------------------------------------
  id_table& table(name_class c) {
    return c == name_class::object ? objects_ : c == name_class::file ? files_ : functions_;
  }
  bool parse_name(std::string_view value, name_class c, string_id& out);

  // ---- positions ---------------------------------------------------------------------
  enum class pos_result { ok, error };
  pos_result parse_position(std::string_view tok, std::uint64_t base, std::uint64_t& out);
  void set_column(position& p, std::size_t col, std::uint64_t v) const {
    switch (columns_[col]) {
      case pos_instr:
        p.instr = v;
        break;
      case pos_bb:
        p.bb = v;
        break;
      default:
        p.line = v;
        break;
    }
  }
  std::uint64_t get_column(const position& p, std::size_t col) const {
    switch (columns_[col]) {
      case pos_instr:
        return p.instr;
      case pos_bb:
        return p.bb;
      default:
        return p.line;
    }
  }
  // Parses up to columns_.size() position tokens; returns tokens used or -1 on error.
  bool parse_target(tokenizer& tk, position& out, bool& has_target, std::string_view key);

  string_id unknown_function() {
    if (unknown_function_ == string_pool::npos) unknown_function_ = names_.intern("???");
    return unknown_function_;
  }

  // ---- the loop -----------------------------------------------------------------------
  void too_long(std::size_t len);
  bool binary_input(std::span<const char> b);
  void process_block(const char* p, const char* end);
  // A blank line: what process_line does with one, without finding its end.
  void blank_line(const char*& p) {
    ++line_no_;
    ++stats_.lines;
    raw_line_ = std::string_view(p, 0);
    ++p;
  }
  void run_chunked(detail::chunk_feed& feed, std::size_t ring);

  // ---- the parallel path: speculative readings of chunks ------------------------------
 public:
  // What a speculative reading of a chunk needs of the part it is in.
  struct part_state {
    part_header header;
    std::size_t n_events = 0;
    std::vector<std::uint8_t> columns;
    std::uint8_t column_index[max_positions] = {2, 2, 2};
    layout lay = layout::line;
    std::uint32_t part_index = 0, current_part = 0;
  };
  struct speculation;

 private:
  part_state snapshot() const;
  void begin_speculation(const part_state& ps);
  bool spec_ok() const;
  // Threads that read chunks on speculation, and the chunks in flight at once (the ring): a
  // speculation holds its chunk's records and names until it is adopted. A mapped file's ring
  // leaves the workers room to read far ahead while this thread reads the chunks between
  // directly (run_chunked): four more than the workers (1.2-1.5 MB more resident than two on
  // the real profile); six more held 3 MB more, for no more speed. A decoded stream's ring is two
  // more: there the decoder is the slower half, and each chunk of the ring is two more decoded
  // chunks held (decoded_chunks' `ahead`).
  std::size_t spec_workers() const { return std::min<std::size_t>(opt_.threads - 1, 8); }
  std::size_t spec_ring(bool mapped) const { return spec_workers() + (mapped ? 4 : 2); }
  // Whether sums of records of source file `sf` are per line (reader_options::sum_per_line).
  bool lines_wanted(string_id sf) {
    if (!opt_.sum_per_line) return false;
    if (!opt_.lines_of) return true;
    if (sf >= lines_known_.size()) lines_known_.resize(sf + 1, 0);
    std::uint8_t& k = lines_known_[sf];
    if (!k) {
      std::string scratch;
      const std::string_view name = names_.text(sf, scratch);
      if (!name.empty() && name.front() == '\n') {
        // A speculation's placeholder (no name has a newline): a file named before the chunk.
        // Taken as one whose lines are not looked at; adopt() checks it against the real name
        // and reads the chunk again if they are.
        k = 1;
        spec_no_lines_.push_back(sf);
      } else {
        k = opt_.lines_of(name) ? 2 : 1;
      }
    }
    return k == 2;
  }
  bool spec_guard(const char* p, const char* end);
  string_id placeholder(name_class c, std::uint64_t id);
  bool adopt(speculation& s);
  struct spec_def {
    name_class c;
    std::uint64_t id;
    string_id sid;
    bool first;  // the chunk's first definition of this id
  };
  struct spec_ref {  // a placeholder: the name of an id the chunk uses without defining it
    string_id sid;
    name_class c;
    std::uint64_t id;
  };
  // The tables of an earlier speculative reading, emptied: reused, rather than allocated
  // again per chunk.
  void reuse_tables(reader_impl& old);
  bool spec_ = false;  // this reader reads a chunk ahead, on speculation
  // reader_options::sum_per_line and lines_of, per pool id of a source file: 0 not asked yet,
  // 1 sums per key alone, 2 per key and line.
  std::vector<std::uint8_t> lines_known_;
  std::vector<string_id> spec_no_lines_;  // placeholders taken as files of no lines
  bool spec_failed_ = false;              // ... and met something only the real state can read
  std::uint8_t spec_unknown_ = 0;    // fields (1 instr, 2 bb, 4 line) whose base is unknown yet
  std::vector<spec_def> spec_defs_;  // names the chunk defines, in order
  std::vector<spec_ref> spec_refs_;  // placeholders, in the order they were made
  std::uint64_t adopted_ = 0;        // chunks adopted (their number: merged_chunk)
 public:
  std::uint64_t speculated_chunks_ = 0;  // adopted, for read_hooks::speculated_chunks

 private:
  // The speculation's records, where it keeps its notes in their place among them.
  detail::record_batch* spec_batch_ = nullptr;
  void keep_spec_note(diag_code code, std::size_t col, std::size_t len, std::string_view message) {
    spec_batch_->keep_note({code, line_no_, col, len, raw_line_.substr(0, max_line_text), message});
  }
  string_id spec_object_ = 0, spec_file_ = 0;  // placeholders for the ob= and fl= in force

  std::size_t max_len_ = SIZE_MAX;
  std::string carry_;  // the start of a line that goes on in the next block
  // A part of a producer that ends every line and part (writes_totals) was read: a last line
  // without its newline is then a sign of a cut.
  bool ends_lines_ = false;
  std::string carried_line_;  // the last line that was carried over a block end
  bool skipping_ = false;     // inside a line longer than the limit
  bool stop_ = false;

  input& in_;
  string_pool& names_;
  record_sink& sink_;
  // record_sink::wants_no_more: reading stops (incomplete, no diagnostic).
  bool sink_gave_up() {
    if (!sink_.wants_no_more()) return false;
    stats_.complete = false;
    stop_ = true;
    return true;
  }
  diagnostic_sink& diags_;
  const detail::read_config& opt_;
  read_stats stats_;

  std::uint64_t line_no_ = 0;
  std::string_view raw_line_;

  id_table objects_, files_, functions_;
  string_id unknown_function_;

  // Header of the part being read.
  part_header header_;
  bool header_dirty_ = false;  // any header line since the last part ended
  bool body_started_ = false;
  bool part_open_ = false;  // on_part_begin sent, on_part_end not yet
  std::uint32_t part_index_ = 0;
  std::uint32_t current_part_ = 0;  // index of the part whose ids count as "this part"
  bool seen_events_in_header_ = false;
  bool seen_positions_in_header_ = false;
  std::vector<std::string> deferred_summary_;  // summary: before events:
  std::uint64_t deferred_summary_line_ = 0;
  std::vector<std::uint8_t> columns_{pos_line};
  std::uint8_t column_index_[max_positions] = {2, 2, 2};  // 0 instr, 1 bb, 2 line
  layout layout_ = layout::line;
  std::vector<std::uint8_t> header_order_;  // positions: in a non-spec order, as written
  bool limit_hit_ = false;
  std::size_t n_events_ = 0;
  part_end end_;
  std::vector<std::uint64_t> computed_;
  std::vector<bool> overflow_reported_;
  bool any_events_ = false;
  bool any_cost_ = false;

  // Body state.
  context ctx_;
  bool have_function_ = false;
  position base_;
  string_id callee_object_ = 0, callee_file_ = 0, callee_function_ = 0;
  bool callee_object_set_ = false, callee_file_set_ = false, have_cfn_ = false;
  bool have_any_cfn_ = false;
  string_id jump_file_ = 0, jump_function_ = 0;
  bool jump_file_set_ = false, jump_function_set_ = false;

  // calls= waiting for its cost line.
  bool pending_call_ = false;
  // A calls= line was dropped: its cost line (the inclusive cost of the call) is skipped too,
  // not read as self cost.
  bool drop_call_cost_ = false;
  call_record call_;
  std::uint64_t call_line_ = 0;
  std::string call_line_text_;
  // jump=/jcnd= waiting for its source line.
  bool pending_jump_ = false;
  jump_record jump_;

  std::vector<std::uint64_t> costs_;

  // reader_options::sum_cost_runs: the run of self-cost lines of one context not yet sent.
  void flush_run() {
    if (!run_open_) return;
    run_open_ = false;
    run_.costs = std::span<const std::uint64_t>(run_costs_.data(), run_costs_.size());
    sink_.on_cost(run_);
  }
  bool run_open_ = false;
  cost_record run_;
  std::vector<std::uint64_t> run_costs_;
};

// ---------------------------------------------------------------------------------------
// Parts
// ---------------------------------------------------------------------------------------

// Whether the producer named by `creator:` closes every part with `totals:`: callgrind does
// (format-semantics.md F14), and so does calltree's own writer (merge names itself).
bool writes_totals(std::string_view creator) {
  return creator.starts_with("callgrind") || creator.starts_with("calltree");
}

void reader_impl::reset_header(bool first) {
  part_header next;
  if (!first) {
    // Inherited from the part before unless restated.
    next.version = header_.version;
    next.creator = header_.creator;
    next.cmd = header_.cmd;
    next.pid = header_.pid;
    next.positions = header_.positions;
    next.events = header_.events;
    next.event_definitions = header_.event_definitions;
  }
  header_ = std::move(next);
  header_dirty_ = false;
  body_started_ = false;
  seen_events_in_header_ = false;
  seen_positions_in_header_ = false;
  deferred_summary_.clear();
  end_ = part_end{};
}

void reader_impl::begin_body() {
  if (part_open_) return;
  header_.index = part_index_++;
  current_part_ = header_.index;
  if (header_.line == 0) header_.line = line_no_;
  n_events_ = header_.events.size();
  any_events_ |= n_events_ > 0;
  columns_.clear();
  for (std::uint8_t k : {pos_instr, pos_bb, pos_line})
    if (header_.positions & k) columns_.push_back(k);
  // Keep the written order when it differs from the spec's (positions: line instr).
  if (!header_order_.empty()) columns_ = header_order_;
  for (std::size_t c = 0; c < columns_.size() && c < max_positions; ++c)
    column_index_[c] = columns_[c] == pos_instr ? 0 : columns_[c] == pos_bb ? 1 : 2;
  const std::vector<std::uint8_t> instr_line{pos_instr, pos_line};
  layout_ = columns_ == std::vector<std::uint8_t>{pos_line}    ? layout::line
            : columns_ == std::vector<std::uint8_t>{pos_instr} ? layout::instr
            : columns_ == instr_line                           ? layout::instr_line
                                                               : layout::other;
  if (!deferred_summary_.empty()) {
    auto saved_line = line_no_;
    auto saved_raw = raw_line_;
    line_no_ = deferred_summary_line_;
    raw_line_ = deferred_summary_.back();
    header_.summary = parse_cost_list(deferred_summary_.back(), "summary");
    line_no_ = saved_line;
    raw_line_ = saved_raw;
  }
  // A summary: read before the header restated events: was fitted to the old event count.
  if (header_.summary && header_.summary->size() != n_events_)
    header_.summary->resize(n_events_, 0);
  costs_.assign(n_events_, 0);
  computed_.assign(n_events_, 0);
  overflow_reported_.assign(n_events_, false);
  base_ = position{};
  ctx_ = context{};
  have_function_ = false;
  callee_object_set_ = callee_file_set_ = have_cfn_ = have_any_cfn_ = false;
  jump_file_set_ = jump_function_set_ = false;
  part_open_ = true;
  ++stats_.parts;
  flush_run();
  sink_.on_part_begin(header_);
}

void reader_impl::end_part() {
  finish_pending(false);
  if (!part_open_) {
    if (!header_has_content()) return;
    begin_body();
  }
  end_.computed = computed_;
  if (end_.totals) {
    const auto& t = *end_.totals;
    for (std::size_t i = 0; i < n_events_; ++i) {
      if (t[i] != computed_[i]) {
        report(severity::warning, diag_code::totals_mismatch, 0, 0,
               "totals: says " + std::to_string(t[i]) + " " + header_.events[i] +
                   " but the self costs of this part sum to " + std::to_string(computed_[i]));
        break;
      }
    }
  }
  const auto* summary = end_.summary      ? &*end_.summary
                        : header_.summary ? &*header_.summary
                                          : nullptr;
  if (summary) {
    for (std::size_t i = 0; i < n_events_; ++i) {
      if ((*summary)[i] < computed_[i]) {
        report(severity::warning, diag_code::summary_mismatch, 0, 0,
               "summary: says " + std::to_string((*summary)[i]) + " " + header_.events[i] +
                   ", less than the sum of this part's self costs, " +
                   std::to_string(computed_[i]));
        break;
      }
    }
  }
  // A file cut short (a copy stopped, a disk full, a process killed while it wrote) reads as a
  // smaller profile of its own: nothing in the lines that remain is wrong. Only a producer that
  // always writes an end says what is missing: callgrind (and calltree's writer) close every
  // part with `totals:`. Where it is absent the part was cut short; callgrind's `summary:`
  // (written in the header, before the body) is then the sum of the costs that were to come,
  // so the sum that was read falls short of it by what is lost. (Xdebug's and
  // pyprof2calltree's summaries are not sums and they write no totals:, docs/format.md: their
  // files are not judged. With totals: present a summary: above the sum is not a cut: callgrind
  // 3.19 writes a wrapped negative summary for a part dumped after a client request zeroed the
  // counts, with a right totals:, corpus/vg-clientreq-instr-atstart-no-combined.)
  if (writes_totals(header_.creator) && !end_.totals) {
    const auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::likely_truncated, 0, 0,
           "no 'totals:' line ends part " + std::to_string(stats_.parts) + ", though " +
               std::string(header_.creator.substr(0, header_.creator.find(' '))) +
               " ends every part with one: the file was likely cut short (truncated)");
    if (summary && header_.creator.starts_with("callgrind")) {
      for (std::size_t i = 0; i < n_events_; ++i) {
        if ((*summary)[i] > computed_[i]) {
          const double pct =
              100.0 * static_cast<double>(computed_[i]) / static_cast<double>((*summary)[i]);
          char read_share[32];
          std::snprintf(read_share, sizeof read_share, pct >= 1 ? "%.1f" : "%.2g", pct);
          report(severity::warning, diag_code::likely_truncated, 0, 0,
                 "summary: says " + std::to_string((*summary)[i]) + " " + header_.events[i] +
                     " but the self costs read sum to " + std::to_string(computed_[i]) + " (" +
                     read_share +
                     " %): callgrind's summary is their sum, so the file was likely cut short "
                     "(truncated)");
          break;
        }
      }
    }
    line_no_ = saved;
  }
  if (writes_totals(header_.creator)) ends_lines_ = true;
  end_.line = line_no_;
  flush_run();
  sink_.on_part_end(end_);
  part_open_ = false;
  reset_header(false);
}

void reader_impl::finish_pending(bool at_eof) {
  if (pending_call_) {
    pending_call_ = false;
    auto saved_line = line_no_;
    auto saved_raw = raw_line_;
    line_no_ = call_line_;
    raw_line_ = call_line_text_;
    report(severity::error, diag_code::call_without_cost, 1, 0,
           at_eof ? "'calls=' at the end of the input, without its cost line; the call is dropped"
                  : "'calls=' not followed by its cost line; the call is dropped");
    ++stats_.skipped_lines;
    line_no_ = saved_line;
    raw_line_ = saved_raw;
    have_cfn_ = callee_object_set_ = callee_file_set_ = false;
  }
  if (pending_jump_) {
    pending_jump_ = false;
    report(severity::warning, diag_code::jump_without_source, 0, 0,
           "jump not followed by its source position line; the last position is used");
    jump_.source = base_;
    if (!opt_.skip_jump_records) {
      flush_run();
      sink_.on_jump(jump_);
    }
    ++stats_.jump_lines;
    jump_file_set_ = jump_function_set_ = false;
  }
}

std::optional<std::vector<std::uint64_t>> reader_impl::parse_cost_list(std::string_view value,
                                                                       std::string_view what) {
  std::vector<std::uint64_t> v;
  tokenizer tk{value};
  std::string_view tok;
  std::size_t col;
  while (tk.next(tok, col)) {
    std::uint64_t n = 0;
    auto st = parse_u64(tok, n);
    if (st != num_status::ok) {
      report(severity::warning, diag_code::bad_summary, col_of(tok), tok.size(),
             std::string(what) + ": value '" + std::string(tok.substr(0, 40)) +
                 (st == num_status::overflow ? "' does not fit in 64 bits" : "' is not a number") +
                 "; the line is ignored");
      return std::nullopt;
    }
    v.push_back(n);
  }
  if (v.size() > n_events_) {
    report(severity::warning, diag_code::bad_summary, 0, 0,
           std::string(what) + ": has " + std::to_string(v.size()) + " values for " +
               std::to_string(n_events_) + " events; the extra values are ignored");
    v.resize(n_events_);
  }
  if (v.size() < n_events_) v.resize(n_events_, 0);
  return v;
}

// ---------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------

void reader_impl::process_line(std::string_view line) {
  ++stats_.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  raw_line_ = line;
  if (line.empty()) return;
  char c0 = line[0];
  // The hot path: a cost line starting in column 1.
  if (starts_cost_line(c0)) {
    process_cost_line(line);
    drop_call_cost_ = false;
    return;
  }
  if (c0 == '#') return;
  if (is_space(c0)) {
    std::string_view t = trim(line);
    if (t.empty() || t[0] == '#') return;
    report(severity::warning, diag_code::leading_space, 1, 1,
           "line starts with white space; read without it");
    line = line.substr(static_cast<std::size_t>(t.data() - line.data()));
    c0 = line[0];
    if (starts_cost_line(c0)) {
      process_cost_line(line);
      drop_call_cost_ = false;
      return;
    }
  }
  drop_call_cost_ = false;  // no cost line came for the dropped call
  if (line.find('\0') != std::string_view::npos) {
    report(severity::error, diag_code::nul_byte, col_of(line.substr(line.find('\0'))), 1,
           "NUL byte in line; the line is skipped");
    skip_line();
    return;
  }
  if (line.starts_with("====")) {
    if (line.find("NEW PROFILING FILE") != std::string_view::npos) {
      report(severity::warning, diag_code::part_separator, 1, line.size(),
             "Xdebug's part separator; a new part begins");
      end_part();
      return;
    }
  }
  std::size_t sep = line.find_first_of("=:");
  if (sep != std::string_view::npos && sep > 0) {
    std::string_view key = line.substr(0, sep);
    std::string_view value = line.substr(sep + 1);
    if (line[sep] == '=') {
      if (pending_call_) finish_pending(false);
      if (pending_jump_) finish_pending(false);
      if (!part_open_) begin_body();
      body_started_ = true;
      process_body_key(key, value);
    } else {
      process_header(key, value, line);
    }
    return;
  }
  report(severity::warning, diag_code::unknown_line, 1, line.size(),
         "not a header line, a key=value line or a cost line; ignored");
  skip_line();
}

void reader_impl::process_header(std::string_view key, std::string_view value,
                                 std::string_view line) {
  if (spec_) {  // a part ends or begins: not for a speculative reading
    spec_failed_ = true;
    return;
  }
  static constexpr std::string_view known[] = {"version", "creator", "pid",     "thread",
                                               "part",    "cmd",     "desc",    "positions",
                                               "event",   "events",  "summary", "totals"};
  bool is_known = std::find(std::begin(known), std::end(known), key) != std::end(known);
  if (!is_known) {
    report(severity::warning, diag_code::unknown_header, 1, key.size(),
           "unknown header line '" + std::string(key.substr(0, 40)) + ":'; ignored");
    header_.unknown_lines.emplace_back(line);
    skip_line();
    return;
  }
  if (pending_call_ || pending_jump_) finish_pending(false);
  // summary: and totals: close a part; they do not start a new one.
  if (key == "totals") {
    if (!part_open_) begin_body();
    end_.totals = parse_cost_list(value, "totals");
    return;
  }
  if (key == "summary") {
    if (part_open_ && body_started_) {
      end_.summary = parse_cost_list(value, "summary");
    } else if (part_open_ || seen_events_in_header_ || !header_.events.empty()) {
      if (!part_open_) {
        // Parse now with the header's events.
        n_events_ = header_.events.size();
        header_.summary = parse_cost_list(value, "summary");
      } else {
        header_.summary = parse_cost_list(value, "summary");
      }
      header_dirty_ = true;
    } else {
      deferred_summary_.emplace_back(value);
      deferred_summary_line_ = line_no_;
      header_dirty_ = true;
    }
    return;
  }
  // Any other header line after body lines (or after a part's data) starts a new part.
  if (part_open_) end_part();
  if (!header_dirty_) header_.line = line_no_;
  header_dirty_ = true;
  std::string_view v = trim(value);
  if (key == "version") {
    header_.version = std::string(v);
    std::uint64_t major = 0;
    std::size_t i = 0;
    while (i < v.size() && is_digit(v[i])) {
      major = major * 10 + static_cast<unsigned>(v[i] - '0');
      if (major > 1000) break;
      ++i;
    }
    if (i == 0) {
      report(severity::warning, diag_code::unsupported_version, col_of(value), value.size(),
             "version: is not a number; read as version 1");
    } else if (major >= 2) {
      report(severity::error, diag_code::unsupported_version, col_of(v), v.size(),
             "unsupported format major version " + std::string(v.substr(0, i)) +
                 "; reading on as version 1");
    }
  } else if (key == "creator") {
    header_.creator = std::string(v);
  } else if (key == "cmd") {
    header_.cmd = std::string(v);
  } else if (key == "pid" || key == "thread" || key == "part") {
    std::uint64_t n = 0;
    if (parse_u64(v, n) != num_status::ok) {
      report(
          severity::warning, diag_code::malformed_number, col_of(v), v.size(),
          std::string(key) + ": '" + std::string(v.substr(0, 40)) + "' is not a number; ignored");
      return;
    }
    (key == "pid" ? header_.pid : key == "thread" ? header_.thread : header_.part_number) = n;
  } else if (key == "desc") {
    std::size_t lead = value.find_first_not_of(" \t");
    header_.description_lines.emplace_back(lead == std::string_view::npos ? std::string_view()
                                                                          : value.substr(lead));
    std::size_t colon = v.find(':');
    if (colon == std::string_view::npos) {
      header_.descriptions.emplace_back(std::string(v), std::string());
    } else {
      header_.descriptions.emplace_back(std::string(trim(v.substr(0, colon))),
                                        std::string(trim(v.substr(colon + 1))));
    }
  } else if (key == "positions") {
    std::uint8_t bits = 0;
    std::vector<std::uint8_t> order;
    tokenizer tk{v};  // (trimmed: a stray CR at the end is no part of the last kind)
    std::string_view tok;
    std::size_t col;
    while (tk.next(tok, col)) {
      std::uint8_t k = tok == "line"                       ? pos_line
                       : (tok == "instr" || tok == "addr") ? pos_instr
                       : tok == "bb"                       ? pos_bb
                                                           : 0;
      if (!k) {
        report(severity::error, diag_code::bad_positions, col_of(tok), tok.size(),
               "unknown position kind '" + std::string(tok.substr(0, 40)) +
                   "' (known: instr, bb, line); ignored");
        continue;
      }
      if (bits & k) continue;
      bits |= k;
      order.push_back(k);
    }
    if (!bits) {
      report(severity::error, diag_code::bad_positions, col_of(value), value.size(),
             "positions: names no position kind; 'line' assumed");
      bits = pos_line;
      order = {pos_line};
    }
    header_.positions = bits;
    // The spec's order is instr bb line; another written order is kept as written.
    std::vector<std::uint8_t> spec_order;
    for (std::uint8_t k : {pos_instr, pos_bb, pos_line})
      if (bits & k) spec_order.push_back(k);
    header_order_ = order == spec_order ? std::vector<std::uint8_t>{} : order;
    seen_positions_in_header_ = true;
  } else if (key == "events") {
    std::vector<std::string> events;
    std::unordered_set<std::string_view> seen;  // a hostile line may name a million events
    tokenizer tk{v};  // (trimmed: a stray CR at the end is no part of the last name)
    std::string_view tok;
    std::size_t col;
    std::unordered_set<std::string> renamed;
    while (tk.next(tok, col)) {
      if (!renamed.count(std::string(tok)) && seen.insert(tok).second) {
        events.emplace_back(tok);
        continue;
      }
      // A second column of one name is kept apart under a new name: its costs are neither
      // lost nor added to the first column's (which would count them twice on writing).
      std::string alt;
      for (unsigned k = 2;; ++k) {
        alt = std::string(tok) + "#" + std::to_string(k);
        if (!seen.count(alt) && !renamed.count(alt)) break;
      }
      report(severity::error, diag_code::duplicate_event, col_of(tok), tok.size(),
             "duplicate event '" + std::string(tok.substr(0, 40)) + "'; its costs are read as '" +
                 alt.substr(0, 50) + "'");
      events.push_back(alt);
      renamed.insert(std::move(alt));
    }
    if (events.empty()) {
      report(severity::error, diag_code::no_events, col_of(value), 0, "events: names no event");
    }
    if (seen_events_in_header_) {
      report(severity::warning, diag_code::redefined_events, 1, key.size(),
             "events: given twice in one header; the second one is used");
    }
    header_.events = std::move(events);
    seen_events_in_header_ = true;
  } else if (key == "event") {
    // event: NAME [= FORMULA] [: LONG NAME]
    event_definition def;
    std::size_t colon = v.find(':');
    std::string_view head = colon == std::string_view::npos ? v : v.substr(0, colon);
    if (colon != std::string_view::npos) def.long_name = std::string(trim(v.substr(colon + 1)));
    std::size_t eq = head.find('=');
    std::string_view name = trim(head.substr(0, eq));
    if (eq != std::string_view::npos) def.formula = std::string(trim(head.substr(eq + 1)));
    bool bad_name = name.empty() || std::any_of(name.begin(), name.end(), is_space);
    if (bad_name) {
      report(severity::warning, diag_code::bad_event_definition, col_of(value), value.size(),
             "event: needs one event name before '=' or ':'; ignored");
      return;
    }
    def.name = std::string(name);
    if (!def.formula.empty()) {
      // Terms: [+|-] [INT [*]] NAME, joined by + or -.
      std::string_view f = def.formula;
      std::size_t i = 0;
      bool ok = true;
      bool expect_term = true;
      while (i < f.size() && ok) {
        while (i < f.size() && is_space(f[i])) ++i;
        if (i >= f.size()) break;
        if (f[i] == '+' || f[i] == '-') {
          ++i;
          expect_term = true;
          continue;
        }
        if (!expect_term) ok = false;
        while (i < f.size() && is_digit(f[i])) ++i;
        while (i < f.size() && (is_space(f[i]) || f[i] == '*')) ++i;
        std::size_t s = i;
        while (i < f.size() && (std::isalnum(static_cast<unsigned char>(f[i])) || f[i] == '_')) ++i;
        if (i == s) ok = false;
        expect_term = false;
      }
      if (!ok || expect_term) {
        report(severity::warning, diag_code::bad_event_definition, col_of(value), value.size(),
               "event: formula '" + def.formula.substr(0, 60) +
                   "' cannot be read (terms are [N [*]] NAME joined by + or -); formula ignored");
        def.formula.clear();
      }
    }
    auto it = std::find_if(header_.event_definitions.begin(), header_.event_definitions.end(),
                           [&](const event_definition& d) { return d.name == def.name; });
    if (it != header_.event_definitions.end())
      *it = std::move(def);
    else
      header_.event_definitions.push_back(std::move(def));
  }
}

bool reader_impl::parse_name(std::string_view value, name_class c, string_id& out) {
  if (value.size() >= 2 && value[0] == '(' && is_digit(value[1])) {
    std::size_t close = value.find(')');
    std::uint64_t id = 0;
    if (close == std::string_view::npos ||
        parse_u64(value.substr(1, close - 1), id) != num_status::ok) {
      bool overflow = close != std::string_view::npos;
      report(severity::error, diag_code::bad_compressed_name, col_of(value),
             close == std::string_view::npos ? value.size() : close + 1,
             overflow ? "name id does not fit in 64 bits or is not a number; the line is skipped"
                      : "compressed name without ')'; the line is skipped");
      skip_line();
      return false;
    }
    std::string_view rest = trim(value.substr(close + 1));
    auto& tab = table(c);
    if (rest.empty()) {
      if (const auto e = tab.get(id); e.defined()) {
        out = e.name;
        return true;
      }
      if (spec_) {  // defined before the chunk, we hope: the real table will tell
        out = placeholder(c, id);
        // In the table, so the next references take the fast path; as if from another part,
        // so that a definition in the chunk replaces it without a word.
        tab.set(id, {out, id_table::other_part});
        return true;
      }
      static constexpr std::string_view kinds[] = {"object", "file", "function"};
      report(severity::error, diag_code::undefined_name, col_of(value), close + 1,
             std::string(kinds[static_cast<int>(c)]) + " id (" + std::to_string(id) +
                 ") used before it was defined");
      out = names_.intern("(unknown id " + std::to_string(id) + ")");
      return true;
    }
    if (rest.find('\0') != std::string_view::npos) {
      report(severity::error, diag_code::nul_byte, col_of(rest), rest.size(), "NUL byte in name");
    }
    string_id sid = names_.intern(rest);
    const auto e = tab.get(id);
    const bool first = !e.defined() || e.part != current_part_;
    if (e.defined() && e.name != sid && e.part == current_part_ && part_open_) {
      std::string scratch;  // (a spilling pool reads the old name back)
      const std::string_view old_name = names_.text(e.name, scratch);
      report(severity::warning, diag_code::redefined_name, col_of(value), close + 1,
             "id (" + std::to_string(id) + ") redefined from '" +
                 std::string(old_name.substr(0, string_pool::digest_prefix)) + "' to '" +
                 std::string(rest.substr(0, string_pool::digest_prefix)) + "'");
    }
    tab.set(id, {sid, current_part_});
    if (spec_) spec_defs_.push_back({c, id, sid, first});
    if (opt_.max_name_bytes && names_.bytes() > opt_.max_name_bytes) {
      limit_hit_ = true;
    }
    out = sid;
    return true;
  }
  std::string_view name = trim(value);
  out = names_.intern(name);
  if (opt_.max_name_bytes && names_.bytes() > opt_.max_name_bytes) limit_hit_ = true;
  return true;
}

bool reader_impl::parse_target(tokenizer& tk, position& out, bool& has_target,
                               std::string_view key) {
  out = base_;
  has_target = false;
  std::string_view tok;
  std::size_t col;
  std::size_t n = 0;
  while (n < columns_.size() && tk.next(tok, col)) {
    std::uint64_t v = 0;
    if (parse_position(tok, get_column(base_, n), v) != pos_result::ok) return false;
    set_column(out, n, v);
    ++n;
  }
  has_target = n > 0;
  // (Messages built only when wanted: Xdebug writes an extra token on every calls= line.)
  if (n == 0) {
    const auto code = diag_code::call_without_target;
    report(
        severity::warning, code, col_of(raw_line_.substr(key.size())), 0,
        detailed(code) ? "'" + std::string(key) + "=' without a target position" : std::string());
  } else if (n < columns_.size()) {
    const auto code = diag_code::missing_position;
    report(severity::warning, code, 0, 0,
           detailed(code) ? "'" + std::string(key) + "=' target has " + std::to_string(n) + " of " +
                                std::to_string(columns_.size()) +
                                " position columns; the rest are taken as '*'"
                          : std::string());
  }
  if (tk.next(tok, col)) {
    const auto code = diag_code::extra_call_target;
    report(severity::note, code, col_of(tok), tok.size(),
           detailed(code)
               ? "'" + std::string(key) + "=' has more target tokens than position columns; ignored"
               : std::string());
  }
  return true;
}

void reader_impl::process_body_key(std::string_view key, std::string_view value) {
  const std::size_t klen = key.size();
  auto k2 = [&](char a, char b) { return klen == 2 && key[0] == a && key[1] == b; };
  auto k3 = [&](char a, char b, char c) {
    return klen == 3 && key[0] == a && key[1] == b && key[2] == c;
  };
  string_id id = 0;
  if (k2('f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    if (id == string_pool::empty) {
      report(severity::warning, diag_code::empty_name, col_of(key), 3, "empty function name");
    }
    ctx_.function = id;
    ctx_.source_file = ctx_.file;
    have_function_ = true;
    have_cfn_ = callee_object_set_ = callee_file_set_ = false;
    jump_file_set_ = jump_function_set_ = false;
  } else if (k2('f', 'l')) {
    if (!parse_name(value, name_class::file, id)) return;
    ctx_.file = ctx_.source_file = id;
  } else if (k2('f', 'i') || k2('f', 'e')) {
    if (!parse_name(value, name_class::file, id)) return;
    if (!have_function_) {
      report(severity::warning, diag_code::inline_without_function, 1, 2,
             "'" + std::string(key) + "=' before any 'fn='");
    }
    ctx_.source_file = id;
  } else if (k2('o', 'b')) {
    if (!parse_name(value, name_class::object, id)) return;
    ctx_.object = id;
  } else if (k3('c', 'f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    callee_function_ = id;
    have_cfn_ = have_any_cfn_ = true;
  } else if (k3('c', 'f', 'i') || k3('c', 'f', 'l')) {
    if (!parse_name(value, name_class::file, id)) return;
    if (have_cfn_) {
      report(severity::note, diag_code::callee_file_after_cfn, 1, 3,
             "'" + std::string(key) + "=' after 'cfn='; it applies to this call");
    }
    callee_file_ = id;
    callee_file_set_ = true;
  } else if (k3('c', 'o', 'b')) {
    if (!parse_name(value, name_class::object, id)) return;
    if (have_cfn_) {
      report(severity::note, diag_code::callee_file_after_cfn, 1, 3,
             "'cob=' after 'cfn='; it applies to this call");
    }
    callee_object_ = id;
    callee_object_set_ = true;
  } else if (k3('j', 'f', 'i')) {
    if (!parse_name(value, name_class::file, id)) return;
    jump_file_ = id;
    jump_file_set_ = true;
  } else if (k3('j', 'f', 'n')) {
    if (!parse_name(value, name_class::function, id)) return;
    jump_function_ = id;
    jump_function_set_ = true;
  } else if (key == "calls") {
    tokenizer tk{value};
    std::string_view tok;
    std::size_t col;
    std::uint64_t count = 0;
    if (!tk.next(tok, col)) {
      report(severity::error, diag_code::bad_call_count, col_of(value), 0,
             "'calls=' without a call count; the call and its cost line are dropped");
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    auto st = parse_u64(tok, count);
    if (st != num_status::ok) {
      report(severity::error, diag_code::bad_call_count, col_of(tok), tok.size(),
             st == num_status::overflow
                 ? "call count does not fit in 64 bits; the call and its cost line are dropped"
                 : "invalid call count '" + std::string(tok.substr(0, 40)) +
                       "'; the call and its cost line are dropped");
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    call_ = call_record{};
    call_.line = line_no_;
    call_.count = count;
    if (!parse_target(tk, call_.target, call_.has_target, "calls")) {
      skip_line();
      drop_call_cost_ = true;
      return;
    }
    if (count == 0) {
      report(severity::note, diag_code::zero_call_count, col_of(tok), tok.size(),
             "call count 0 (a call begun before this dump, or a sampling profile); its cost is "
             "inclusive cost of the call, not self cost");
    }
    if (!have_function_) {
      report(severity::warning, diag_code::cost_without_function, 1, klen,
             "'calls=' before any 'fn='; the caller is '???'");
      ctx_.function = unknown_function();
      have_function_ = true;
    }
    if (!have_cfn_) {
      report(severity::warning, diag_code::call_without_callee, 1, klen,
             have_any_cfn_ ? "'calls=' without 'cfn=' before it; the previous callee is used"
                           : "'calls=' without 'cfn=' before it; the callee is '???'");
      if (!have_any_cfn_) callee_function_ = unknown_function();
    }
    call_.ctx = ctx_;
    call_.callee_object = callee_object_set_ ? callee_object_ : ctx_.object;
    call_.callee_file = callee_file_set_ ? callee_file_ : ctx_.source_file;
    call_.callee_function = callee_function_;
    call_line_ = line_no_;
    call_line_text_ = std::string(raw_line_.substr(0, max_line_text));
    pending_call_ = true;
  } else if (key == "jump" || key == "jcnd") {
    bool cond = key == "jcnd";
    tokenizer tk{value};
    std::string_view tok;
    std::size_t col;
    jump_ = jump_record{};
    jump_.line = line_no_;
    jump_.conditional = cond;
    if (!tk.next(tok, col)) {
      report(severity::error, diag_code::bad_jump, col_of(value), 0,
             "'" + std::string(key) + "=' without counts; ignored");
      skip_line();
      return;
    }
    auto bad = [&](std::string_view t) {
      report(severity::error, diag_code::bad_jump, col_of(t), t.size(),
             "invalid jump count '" + std::string(t.substr(0, 40)) + "'; the jump is ignored");
      skip_line();
    };
    if (!cond) {
      if (parse_u64(tok, jump_.executed) != num_status::ok) return bad(tok);
      jump_.followed = jump_.executed;
    } else if (std::size_t slash = tok.find('/'); slash != std::string_view::npos) {
      if (parse_u64(tok.substr(0, slash), jump_.followed) != num_status::ok ||
          parse_u64(tok.substr(slash + 1), jump_.executed) != num_status::ok)
        return bad(tok);
    } else {
      std::string_view second;
      std::size_t col2;
      if (parse_u64(tok, jump_.executed) != num_status::ok) return bad(tok);
      if (!tk.next(second, col2) || parse_u64(second, jump_.followed) != num_status::ok)
        return bad(second.empty() ? tok : second);
      report(severity::warning, diag_code::jcnd_space_form, col_of(tok), tok.size(),
             "'jcnd=' in the spec's form 'EXECUTED FOLLOWED' (callgrind writes "
             "'FOLLOWED/EXECUTED'); read as executed " +
                 std::to_string(jump_.executed) + ", followed " + std::to_string(jump_.followed));
    }
    if (cond && jump_.followed > jump_.executed) {
      report(severity::warning, diag_code::jump_followed_exceeds, col_of(tok), tok.size(),
             "'jcnd=' says the jump was followed more often than executed");
    }
    bool has_target = false;
    if (!parse_target(tk, jump_.target, has_target, key)) {
      skip_line();
      return;
    }
    if (!have_function_) {
      report(severity::warning, diag_code::cost_without_function, 1, klen,
             "jump before any 'fn='; the function is '???'");
      ctx_.function = unknown_function();
      have_function_ = true;
    }
    jump_.ctx = ctx_;
    jump_.target_file = jump_file_set_ ? jump_file_ : ctx_.source_file;
    jump_.target_function = jump_function_set_ ? jump_function_ : ctx_.function;
    pending_jump_ = true;
  } else {
    report(severity::warning, diag_code::unknown_key, 1, klen,
           "unknown key '" + std::string(key.substr(0, 40)) + "='; the line is ignored");
    skip_line();
  }
}

reader_impl::pos_result reader_impl::parse_position(std::string_view tok, std::uint64_t base,
                                                    std::uint64_t& out) {
  char c = tok[0];
  if (c == '*') {
    if (tok.size() != 1) {
      report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
             "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
      return pos_result::error;
    }
    out = base;
    return pos_result::ok;
  }
  std::uint64_t v = 0;
  bool rel = c == '+' || c == '-';
  auto st = parse_u64(rel ? tok.substr(1) : tok, v);
  if (st != num_status::ok) {
    report(severity::error,
           st == num_status::overflow ? diag_code::number_overflow : diag_code::malformed_number,
           col_of(tok), tok.size(),
           st == num_status::overflow
               ? "position '" + std::string(tok.substr(0, 40)) +
                     "' does not fit in 64 bits; the line is skipped"
               : "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
    return pos_result::error;
  }
  if (!rel) {
    out = v;
  } else if (c == '+') {
    if (__builtin_add_overflow(base, v, &out)) {
      report(severity::error, diag_code::position_overflow, col_of(tok), tok.size(),
             "relative position goes above 2^64-1; the line is skipped");
      return pos_result::error;
    }
  } else if (v > base) {
    report(severity::warning, diag_code::position_below_zero, col_of(tok), tok.size(),
           "relative position goes below 0 (" + std::to_string(base) + " - " + std::to_string(v) +
               "); 0 is used");
    out = 0;
  } else {
    out = base - v;
  }
  return pos_result::ok;
}

void reader_impl::process_cost_line(std::string_view line) {
  if (!part_open_) begin_body();
  body_started_ = true;
  // Positions.
  position pos = base_;
  const std::size_t ncol = columns_.size();
  std::size_t i = 0;
  const std::size_t n = line.size();
  std::size_t col = 0;
  for (; col < ncol; ++col) {
    while (i < n && is_space(line[i])) ++i;
    if (i >= n) break;
    std::size_t s = i;
    while (i < n && !is_space(line[i])) ++i;
    std::string_view tok = line.substr(s, i - s);
    std::uint64_t v;
    // Fast path: plain decimal.
    if (is_digit(tok[0]) && (tok.size() < 2 || tok[1] != 'x') && tok.size() < 20) {
      if (!short_decimal(tok, v)) {
        report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
               "invalid position '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
    } else if (parse_position(tok, get_column(base_, col), v) != pos_result::ok) {
      skip_line();
      return;
    }
    set_column(pos, col, v);
  }
  if (col < ncol) {
    report(severity::error, diag_code::missing_position, static_cast<std::size_t>(n) + 1, 0,
           "cost line has " + std::to_string(col) + " of " + std::to_string(ncol) +
               " position columns; the line is skipped");
    skip_line();
    return;
  }
  // Costs.
  std::size_t ncost = 0;
  std::uint64_t* costs = costs_.data();
  while (true) {
    while (i < n && is_space(line[i])) ++i;
    if (i >= n) break;
    std::size_t s = i;
    while (i < n && !is_space(line[i])) ++i;
    std::string_view tok = line.substr(s, i - s);
    if (ncost >= n_events_) {
      if (n_events_ == 0) {
        report(severity::error, diag_code::cost_before_events, col_of(tok), tok.size(),
               "cost line before 'events:'; the line is skipped");
      } else {
        std::size_t extra = 0;
        tokenizer tk{line.substr(s)};
        std::string_view t2;
        std::size_t c2;
        while (tk.next(t2, c2)) ++extra;
        report(severity::error, diag_code::too_many_costs, col_of(tok), line.size() - s,
               std::to_string(ncost + extra) + " costs but " + std::to_string(n_events_) +
                   (n_events_ == 1 ? " event" : " events") + "; the line is skipped");
      }
      skip_line();
      return;
    }
    std::uint64_t v = 0;
    char c = tok[0];
    if (is_digit(c) && tok.size() < 20 && (tok.size() < 2 || tok[1] != 'x')) {
      if (!short_decimal(tok, v)) {
        report(severity::error, diag_code::malformed_number, col_of(tok), tok.size(),
               "invalid cost '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
    } else if (c == '+' || c == '*' || (c == '-' && tok.size() == 1)) {
      report(severity::error, diag_code::relative_cost, col_of(tok), tok.size(),
             "relative value '" + std::string(tok.substr(0, 40)) + "' in cost column " +
                 std::to_string(ncost + 1) + "; the line is skipped");
      skip_line();
      return;
    } else {
      bool neg = c == '-';
      bool hex = false;
      auto st = parse_u64(neg ? tok.substr(1) : tok, v, &hex);
      if (st != num_status::ok) {
        report(
            severity::error,
            st == num_status::overflow ? diag_code::number_overflow : diag_code::malformed_number,
            col_of(tok), tok.size(),
            st == num_status::overflow
                ? "cost '" + std::string(tok.substr(0, 40)) +
                      "' does not fit in 64 bits; the line is skipped"
                : "invalid cost '" + std::string(tok.substr(0, 40)) + "'; the line is skipped");
        skip_line();
        return;
      }
      if (neg) {
        report(severity::warning, diag_code::negative_cost, col_of(tok), tok.size(),
               "negative cost " + std::string(tok.substr(0, 40)) + "; 0 is used");
        v = 0;
      } else if (hex) {
        report(severity::warning, diag_code::hex_cost, col_of(tok), tok.size(),
               "cost written in hex; read as " + std::to_string(v));
      }
    }
    costs[ncost++] = v;
  }
  finish_cost_line(pos.instr, pos.bb, pos.line, ncost);
}

// The hot path. Most lines of a big profile are cost lines like `+3 * 11` or `0x4a2f10 12 3 0
// 1`: positions as decimal, 0x-hex, +N, -N or *, then decimal costs, one space between tokens
// (and perhaps one after the last), ending in '\n' inside the current block. This reads such a
// line in one pass, finding its end as it goes (no memchr, no tokenizer, no overflow checks:
// at most 19 decimal or 16 hex digits cannot overflow). It changes nothing and returns false
// for anything else (tabs, CR, hex or signed costs, too many costs, a position going below 0,
// a line that goes on into the next block), and the general path reads that line and reports
// what is wrong with it; for the lines it takes, the result is the general path's.
bool reader_impl::fast_cost_line(const char*& p_io, const char* end, std::size_t max_len) {
  switch (layout_) {
    case layout::line:
      return fast_cost_line_as<layout::line>(p_io, end, max_len);
    case layout::instr:
      return fast_cost_line_as<layout::instr>(p_io, end, max_len);
    case layout::instr_line:
      return fast_cost_line_as<layout::instr_line>(p_io, end, max_len);
    default:
      return fast_cost_line_as<layout::other>(p_io, end, max_len);
  }
}

// Positions as scalars in registers, one function per column layout: an array indexed by
// column would be stored and loaded back, and a load that spans two stores (the compiler
// likes to read two positions at once) waits for both to reach the cache, on every line.
template <reader_impl::layout L>
bool reader_impl::fast_cost_line_as(const char*& p_io, const char* end, std::size_t max_len) {
  const char* p = p_io;
  std::uint64_t instr = base_.instr, bb = base_.bb, line = base_.line;
  auto pos = [&](std::uint64_t & v) __attribute__((always_inline)) {
    return fast::position_token(p, end, v, v) && fast::separator(p, end);
  };
  // Fewer positions than columns: the general path says so.
  auto more = [&]() __attribute__((always_inline)) { return p != end && *p != '\n'; };
  if constexpr (L == layout::line) {
    if (!pos(line)) return false;
  } else if constexpr (L == layout::instr) {
    if (!pos(instr)) return false;
  } else if constexpr (L == layout::instr_line) {
    if (!pos(instr) || !more() || !pos(line)) return false;
  } else {
    std::uint64_t val[max_positions] = {instr, bb, line};
    const std::size_t ncol = columns_.size();
    if (ncol > max_positions) return false;
    for (std::size_t col = 0; col < ncol; ++col) {
      if (!pos(val[column_index_[col]])) return false;
      if (col + 1 < ncol && !more()) return false;
    }
    instr = val[0];
    bb = val[1];
    line = val[2];
  }
  std::size_t ncost = 0;
  std::uint64_t* costs = costs_.data();
  while (p != end && *p != '\n') {
    if (ncost >= n_events_) return false;
    std::uint64_t v;
    if (!fast::decimal_wide(p, end, v)) return false;
    costs[ncost++] = v;  // scratch: the general path rewrites it if we give up
    if (!fast::separator(p, end)) return false;
  }
  if (p == end || static_cast<std::size_t>(p - p_io) > max_len) return false;
  fast_commit(p_io, p);
  finish_cost_line(instr, bb, line, ncost);
  return true;
}

// A call or jump target: exactly one token per position column, relative to the base (which
// it does not move), then the line end (one trailing space allowed).
// With `extra`, one more decimal token may follow (Xdebug's `calls=1 0 0`): it is skipped
// and *extra points at it, for the note the general path gives.
bool reader_impl::fast_target(const char*& p_io, const char* end, position& out,
                              const char** extra) {
  const char* p = p_io;  // a local, so it stays in a register
  const std::size_t ncol = columns_.size();
  if (ncol == 0 || ncol > max_positions) return false;
  std::uint64_t instr = base_.instr, bb = base_.bb, line = base_.line;
  auto pos = [&](std::uint64_t & v) __attribute__((always_inline)) {
    return fast::position_token(p, end, v, v) && fast::separator(p, end);
  };
  auto more = [&]() __attribute__((always_inline)) { return p != end && *p != '\n'; };
  switch (layout_) {  // as in fast_cost_line_as: positions stay in registers
    case layout::line:
      if (!pos(line)) return false;
      break;
    case layout::instr:
      if (!pos(instr)) return false;
      break;
    case layout::instr_line:
      if (!pos(instr) || !more() || !pos(line)) return false;
      break;
    default: {
      std::uint64_t val[max_positions] = {instr, bb, line};
      for (std::size_t col = 0; col < ncol; ++col) {
        if (col > 0 && !more()) return false;
        if (!pos(val[column_index_[col]])) return false;
      }
      instr = val[0];
      bb = val[1];
      line = val[2];
    }
  }
  if (!fast::at_line_end(p, end)) {
    if (!extra) return false;
    const char* token = p;
    std::uint64_t ignored;
    if (!fast::decimal(p, end, ignored) || !fast::at_line_end(p, end)) return false;
    *extra = token;
  }
  p_io = p;
  out.instr = instr;
  out.bb = bb;
  out.line = line;
  return true;
}

// The other lines that fill instr-level profiles: `calls=`, `jcnd=`, `jump=`, and name
// references like `cfn=(123)`, in callgrind's form, when nothing about them calls for a
// diagnostic (the callee is known, counts are sane, targets complete, the id is defined). As
// fast_cost_line: all or nothing, and the general path's result for the lines it takes.
bool reader_impl::fast_key_line(const char*& p_io, const char* end, std::size_t max_len) {
  if (pending_call_ || pending_jump_ || !part_open_) return false;
  const char* p = p_io;
  const std::size_t avail = static_cast<std::size_t>(end - p);
  // The key's length is a constant, so the compare is a load or two, not a memcmp call.
  auto key = [&]<std::size_t n>(const char(&k)[n]) {
    if (avail <= n - 1 || std::memcmp(p, k, n - 1) != 0) return false;
    p += n - 1;
    return true;
  };
  // Most lines fail every key: look at the first letter first.
  const char c0 = *p;
  if (c0 != 'c' && c0 != 'j' && c0 != 'f' && c0 != 'o') return false;
  auto fits = [&](const char* nl) { return static_cast<std::size_t>(nl - p_io) <= max_len; };
  std::uint64_t a = 0, b = 0;
  if (key("calls=")) {
    // The target goes straight into the record (the general path rewrites it if we give up):
    // a copy from a local, which fast_target wrote field by field, would be one wide load
    // waiting for three stores to reach the cache (store forwarding fails), on every call.
    const char* extra = nullptr;
    const char* count = p;
    if (!have_function_ || !have_cfn_ || !fast::decimal_wide(p, end, a) || p == end || *p != ' ')
      return false;
    const auto count_len = static_cast<std::size_t>(p - count);
    if (!fast_target(++p, end, call_.target, &extra) || !fits(p)) return false;
    fast_commit(p_io, p);
    // The general path's notes, in its order.
    if (extra) {
      const auto code = diag_code::extra_call_target;
      report(severity::note, code, static_cast<std::size_t>(extra - raw_line_.data()) + 1,
             static_cast<std::size_t>(p_io - 1 - extra),
             "'calls=' has more target tokens than position columns; ignored");
    }
    if (a == 0)
      report(severity::note, diag_code::zero_call_count, 7, count_len,
             "call count 0 (a call begun before this dump, or a sampling profile); its cost is "
             "inclusive cost of the call, not self cost");
    // Every field, as call_record{} and then these would (site, costs and given are set again
    // by the cost line that completes the call).
    call_.site = position{};
    call_.costs = {};
    call_.given = UINT32_MAX;
    call_.line = line_no_;
    call_.count = a;
    call_.has_target = true;
    call_.ctx = ctx_;
    call_.callee_object = callee_object_set_ ? callee_object_ : ctx_.object;
    call_.callee_file = callee_file_set_ ? callee_file_ : ctx_.source_file;
    call_.callee_function = callee_function_;
    call_line_ = line_no_;
    call_line_text_.assign(raw_line_.substr(0, max_line_text));
    pending_call_ = true;
    return true;
  }
  const bool jcnd = key("jcnd=");
  if (jcnd || key("jump=")) {
    // jcnd=FOLLOWED/EXECUTED TARGET, jump=COUNT TARGET
    if (!have_function_ || !fast::decimal_wide(p, end, a)) return false;
    if (jcnd && (p == end || *p != '/' || !fast::decimal_wide(++p, end, b) || a > b)) return false;
    if (p == end || *p != ' ' || !fast_target(++p, end, jump_.target) || !fits(p)) return false;
    fast_commit(p_io, p);
    jump_.source = position{};  // every other field is set below
    jump_.line = line_no_;
    jump_.conditional = jcnd;
    jump_.executed = jcnd ? b : a;
    jump_.followed = a;
    jump_.ctx = ctx_;
    jump_.target_file = jump_file_set_ ? jump_file_ : ctx_.source_file;
    jump_.target_function = jump_function_set_ ? jump_function_ : ctx_.function;
    pending_jump_ = true;
    return true;
  }
  // KEY=(ID): a reference to a defined name; KEY=(ID) NAME: a definition.
  enum class k { fn, fl, fi, ob, cfn, cfi, cob, jfi, jfn } which;
  name_class c;
  if (key("fn=("))
    which = k::fn, c = name_class::function;
  else if (key("cfn=("))
    which = k::cfn, c = name_class::function;
  else if (key("cfi=(") || key("cfl=("))
    which = k::cfi, c = name_class::file;
  else if (key("cob=("))
    which = k::cob, c = name_class::object;
  else if (key("fi=(") || key("fe=("))
    which = k::fi, c = name_class::file;
  else if (key("fl=("))
    which = k::fl, c = name_class::file;
  else if (key("ob=("))
    which = k::ob, c = name_class::object;
  else if (key("jfi=("))
    which = k::jfi, c = name_class::file;
  else if (key("jfn=("))
    which = k::jfn, c = name_class::function;
  else
    return false;
  if (!fast::decimal_wide(p, end, a) || p == end || *p != ')' || ++p == end) return false;
  // What the general path would warn about: an inlined file before any function, a callee
  // object or file after the callee's name.
  if ((which == k::fi && !have_function_) || ((which == k::cfi || which == k::cob) && have_cfn_))
    return false;
  auto& table_c = table(c);
  const auto e = table_c.get(a);
  string_id id;
  if (*p == '\n') {  // a reference
    if (!fits(p)) return false;
    if (e.defined()) {
      if (which == k::fn && e.name == string_pool::empty) return false;
      id = e.name;
    } else {
      if (!spec_) return false;  // used before it was defined: the general path says so
      id = placeholder(c, a);    // defined before the chunk, we hope (as in parse_name)
      table_c.set(a, {id, id_table::other_part});
    }
  } else {  // a definition, in callgrind's form: one space, a name with nothing to trim
    if (*p != ' ') return false;
    const char* name_at = ++p;
    p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!p || !fits(p) || p == name_at) return false;
    const std::string_view name(name_at, static_cast<std::size_t>(p - name_at));
    if (is_blank_or_cr(name.front()) || is_blank_or_cr(name.back()) ||
        std::memchr(name.data(), 0, name.size()))
      return false;
    // The general path reports a name limit reached and a redefinition in this part.
    if (opt_.max_name_bytes && names_.bytes() + name.size() + 256 > opt_.max_name_bytes)
      return false;
    if (e.defined() && e.part == current_part_ && names_.find(name) != e.name) return false;
    id = names_.intern(name);
    const bool first = !e.defined() || e.part != current_part_;
    table_c.set(a, {id, current_part_});
    if (spec_) spec_defs_.push_back({c, a, id, first});
  }
  switch (which) {
    case k::fn:
      ctx_.function = id;
      ctx_.source_file = ctx_.file;
      have_function_ = true;
      have_cfn_ = callee_object_set_ = callee_file_set_ = false;
      jump_file_set_ = jump_function_set_ = false;
      break;
    case k::fl:
      ctx_.file = ctx_.source_file = id;
      break;
    case k::fi:
      ctx_.source_file = id;
      break;
    case k::ob:
      ctx_.object = id;
      break;
    case k::cfn:
      callee_function_ = id;
      have_cfn_ = have_any_cfn_ = true;
      break;
    case k::cfi:
      callee_file_ = id;
      callee_file_set_ = true;
      break;
    case k::cob:
      callee_object_ = id;
      callee_object_set_ = true;
      break;
    case k::jfi:
      jump_file_ = id;
      jump_file_set_ = true;
      break;
    case k::jfn:
      jump_function_ = id;
      jump_function_set_ = true;
      break;
  }
  fast_commit(p_io, p);
  return true;
}

// The run loop. With sum_cost_runs a run of self-cost lines of one context is one record, and
// most lines of an instr-level profile continue the run the line before opened: positions, one
// or a few costs, nothing else. Reading them one by one through fast_cost_line and
// finish_cost_line keeps every piece of state in the reader's fields (line numbers, base,
// totals, the run's sums), stored and loaded again on every line; here they stay in registers
// and are written back once, where the run ends. The lines taken are exactly those
// finish_cost_line would add to the open run: cost lines with nothing to report (the fast
// path's grammar), no part total going above 2^64-1, the same line where the sink wants sums
// per line. Position-only lines move the base. Anything else ends the loop before that line,
// which the per-line paths then read as before.
// Merging (reader_options::merge_cost_lines, a chunk read ahead), the loop hands each cost
// line to the chunk's batch as it is read, where the line before would have handed its
// cost_record through on_cost: same lines, same merging (record_batch.h), no record made.
template <bool merging>
void reader_impl::fast_cost_run(const char*& p, const char* end) {
  const bool one = n_events_ == 1;
  switch (layout_) {
    case layout::line:
      return one ? fast_cost_run_as<layout::line, true, merging>(p, end)
                 : fast_cost_run_as<layout::line, false, merging>(p, end);
    case layout::instr:
      return one ? fast_cost_run_as<layout::instr, true, merging>(p, end)
                 : fast_cost_run_as<layout::instr, false, merging>(p, end);
    case layout::instr_line:
      return one ? fast_cost_run_as<layout::instr_line, true, merging>(p, end)
                 : fast_cost_run_as<layout::instr_line, false, merging>(p, end);
    default:
      return;
  }
}

template <reader_impl::layout L, bool one_event, bool merging>
void reader_impl::fast_cost_run_as(const char*& p_io, const char* end) {
  const char* p = p_io;
  std::uint64_t instr = base_.instr, line = base_.line;
  const std::uint64_t run_line = run_.pos.line;
  const bool per_line = !merging && lines_wanted(ctx_.source_file);
  const std::size_t n = n_events_;
  const std::size_t max_len = max_len_;
  std::uint64_t total1 = computed_[0], sum1 = merging ? 0 : run_costs_[0];  // (merging: none)
  std::uint64_t lines = 0, cost_lines = 0;
  std::uint32_t given = run_.given;
  const char* last = nullptr;
  std::uint64_t c[run_loop_events];
  while (p != end) {
    const char* q = p;
    std::uint64_t i2 = instr, l2 = line;
    auto pos = [&](std::uint64_t & v) __attribute__((always_inline)) {
      return fast::position_token(q, end, v, v) && fast::separator(q, end);
    };
    // The commonest start of an instr-level line, an instr delta of one digit (`+4 `), then a
    // line of 0 (code without line numbers) or the same line (`+4 0 `, `+4 * `): read from one
    // load at fixed offsets, where the token scanner's loops branch on every byte. (12 M of
    // the real profile's 19.4 M lines are `+D 0 C`.) Any other second token is scanned.
    std::uint64_t head = 0;
    if constexpr (L != layout::line && std::endian::native == std::endian::little) {
      if (end - q >= 8) std::memcpy(&head, q, 8);
    }
    const unsigned delta = static_cast<unsigned>((head >> 8) & 0xff) - '0';
    const bool plus_digit = (head & 0xff00ff) == 0x20002b && delta < 10 && i2 < UINT64_MAX - 9;
    if constexpr (L == layout::line) {
      if (!pos(l2)) break;
    } else if constexpr (L == layout::instr) {
      if (plus_digit) {
        i2 += delta;
        q += 3;
      } else if (!pos(i2)) {
        break;
      }
    } else if (plus_digit) {
      i2 += delta;
      q += 3;
      const auto line_token = static_cast<unsigned>(head >> 24) & 0xffffu;
      if (line_token == 0x2030) {  // "0 "
        l2 = 0;
        q += 2;
      } else if (line_token == 0x202a) {  // "* "
        q += 2;
      } else if (*q == '\n' || !pos(l2)) {
        break;
      }
    } else if (!pos(i2) || q == end || *q == '\n' || !pos(l2)) {
      break;
    }
    std::size_t ncost = 0;
    bool ok = true;
    while (q != end && *q != '\n') {
      if (ncost >= n || !fast::decimal_wide(q, end, c[ncost]) || !fast::separator(q, end)) {
        ok = false;
        break;
      }
      ++ncost;
    }
    if (!ok || q == end || static_cast<std::size_t>(q - p) > max_len) break;
    if (ncost) {
      if (per_line && l2 != run_line) break;
      if constexpr (one_event) {
        std::uint64_t t;
        if (__builtin_add_overflow(total1, c[0], &t)) break;  // per line: reported there
        total1 = t;
        if constexpr (!merging) add_saturating(sum1, c[0]);
      } else {
        bool overflow = false;
        std::uint64_t t[run_loop_events];
        for (std::size_t k = 0; k < ncost; ++k)
          overflow |= __builtin_add_overflow(computed_[k], c[k], &t[k]);
        if (overflow) break;
        for (std::size_t k = 0; k < ncost; ++k) {
          computed_[k] = t[k];
          if constexpr (!merging) add_saturating(run_costs_[k], c[k]);
        }
      }
      if constexpr (merging) {
        for (std::size_t k = ncost; k < n; ++k) c[k] = 0;
        position at;
        at.instr = i2;
        at.bb = base_.bb;
        at.line = l2;
        spec_batch_->merge_in_run(line_no_ + lines + 1, at, c, static_cast<std::uint32_t>(ncost));
      }
      given = std::max(given, static_cast<std::uint32_t>(ncost));
      ++cost_lines;
    }
    instr = i2;
    line = l2;
    ++lines;
    last = p;
    p = q + 1;
  }
  if (!lines) return;
  if constexpr (one_event) computed_[0] = total1;
  if constexpr (!merging) {
    if constexpr (one_event) run_costs_[0] = sum1;
    run_.given = given;
  }
  base_.instr = instr;
  base_.line = line;
  line_no_ += lines;
  stats_.lines += lines;
  stats_.cost_lines += cost_lines;
  raw_line_ = std::string_view(last, static_cast<std::size_t>(p - 1 - last));
  p_io = p;
}

// A cost line's positions and costs are read: the base moves, and the line is a call's cost,
// a jump's source or a self cost.
inline void reader_impl::finish_cost_line(std::uint64_t instr, std::uint64_t bb, std::uint64_t line,
                                          std::size_t ncost) {
  std::uint64_t* costs = costs_.data();
  for (std::size_t k = ncost; k < n_events_; ++k) costs[k] = 0;
  // Field by field, from scalars: a position written in parts and then read whole would stall
  // on store forwarding, once per line.
  auto set = [&](position& to) {
    to.instr = instr;
    to.bb = bb;
    to.line = line;
  };
  set(base_);
  std::span<const std::uint64_t> cost_span(costs, n_events_);

  if (drop_call_cost_) {  // the cost line of a dropped calls=: it moves the base, nothing else
    drop_call_cost_ = false;
    skip_line();
    return;
  }
  if (pending_call_) {
    pending_call_ = false;
    set(call_.site);
    call_.costs = cost_span;
    call_.given = static_cast<std::uint32_t>(ncost);
    ++stats_.call_lines;
    flush_run();
    sink_.on_call(call_);
    have_cfn_ = callee_object_set_ = callee_file_set_ = false;
    return;
  }
  if (pending_jump_) {
    pending_jump_ = false;
    set(jump_.source);
    ++stats_.jump_lines;
    if (!opt_.skip_jump_records) {
      flush_run();
      sink_.on_jump(jump_);
    }
    jump_file_set_ = jump_function_set_ = false;
    if (ncost == 0) return;
  }
  if (ncost == 0) return;  // a position-only line: moves the base, costs nothing
  bool overflow = false;
  for (std::size_t k = 0; k < ncost; ++k)
    overflow |= __builtin_add_overflow(computed_[k], costs[k], &computed_[k]);
  if (!have_function_ || overflow) [[unlikely]]
    cost_line_problems(ncost);
  ++stats_.cost_lines;
  any_cost_ = true;
  if (opt_.sum_cost_runs) {
    const bool same =
        run_open_ && run_in_context() && (run_.pos.line == line || !lines_wanted(ctx_.source_file));
    if (same) {
      for (std::size_t k = 0; k < ncost; ++k) add_saturating(run_costs_[k], costs[k]);
      run_.given = std::max(run_.given, static_cast<std::uint32_t>(ncost));
      return;
    }
    flush_run();
    run_open_ = true;
    run_.line = line_no_;
    run_.ctx = ctx_;
    set(run_.pos);
    run_costs_.assign(costs, costs + n_events_);
    run_.given = static_cast<std::uint32_t>(ncost);
    return;
  }
  cost_record r;
  r.line = line_no_;
  r.ctx = ctx_;
  set(r.pos);
  r.costs = cost_span;
  r.given = static_cast<std::uint32_t>(ncost);
  sink_.on_cost(r);
}

// The rare cases of a self cost line, out of the hot path: no function yet; a sum that went
// above 2^64-1 (held there; reported once per event and part).
void reader_impl::cost_line_problems(std::size_t ncost) {
  if (!have_function_) {
    report(severity::warning, diag_code::cost_without_function, 1, 0,
           "cost line before any 'fn='; the function is '???'");
    ctx_.function = unknown_function();
    have_function_ = true;
  }
  for (std::size_t k = 0; k < ncost; ++k) {
    // A sum that wrapped is below the addend; add_saturating in the loop before would have
    // stopped at 2^64-1: put it there.
    if (computed_[k] < costs_[k]) {
      computed_[k] = UINT64_MAX;
      if (!overflow_reported_[k]) {
        overflow_reported_[k] = true;
        report(severity::error, diag_code::cost_overflow, 1, 0,
               "the sum of " + header_.events[k] +
                   " costs in this part goes above 2^64-1; it is "
                   "held at 2^64-1");
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// The loop
// ---------------------------------------------------------------------------------------

void reader_impl::too_long(std::size_t len) {
  ++line_no_;
  raw_line_ = {};
  report(severity::error, diag_code::line_too_long, 1, 0,
         "line longer than " + std::to_string(max_len_) + " bytes (" +
             (len ? std::to_string(len) + " bytes" : std::string("and more")) +
             "); the line is skipped");
  ++stats_.lines;
  skip_line();
}

// Binary garbage: NUL bytes or mostly control characters in the first bytes. Reported here.
bool reader_impl::binary_input(std::span<const char> b) {
  std::size_t probe = std::min<std::size_t>(b.size(), 1024);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < probe; ++k) {
    auto ch = static_cast<unsigned char>(b[k]);
    if (ch == 0 || (ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t' && ch != '\f')) ++bad;
  }
  // Callgrind's first line, or an events: line near the top (what KCachegrind sniffs),
  // makes it a profile whatever bytes its names hold: names may be any bytes.
  std::string_view head(b.data(), std::min<std::size_t>(b.size(), 2048));
  const bool profile_like = head.starts_with("# callgrind format") || head.starts_with("events:") ||
                            head.find("\nevents:") != std::string_view::npos;
  if (!profile_like && probe &&
      (bad * 10 > probe ||
       (probe >= 4 && bad * 100 > probe * 3 && std::memchr(b.data(), 0, probe)))) {
    line_no_ = 0;
    report(severity::error, diag_code::binary_input, 0, 0,
           "the input is binary, not a Callgrind-format profile; nothing was read");
    stats_.complete = false;
    return true;
  }
  return false;
}

// The lines of [p, end). The last one may go on in the next call (it is carried over).
void reader_impl::process_block(const char* p, const char* end) {
  const char* guarded = nullptr;  // the line spec_guard passed (speculative readings only)
  while (p < end) {
    if (spec_unknown_ && p != guarded) [[unlikely]] {
      if (!spec_guard(p, end)) {
        spec_failed_ = true;
        return;
      }
      guarded = p;
    }
    if (*p == '\n' && !skipping_ && carry_.empty()) {
      blank_line(p);
      continue;
    }
    if (part_open_ && !skipping_ && carry_.empty() && !drop_call_cost_) {
      // The fast paths change none of these conditions: stay with them while they take lines.
      while (p < end) {
        const char c0 = *p;
        if (spec_unknown_ && p != guarded) [[unlikely]]
          break;  // the outer loop guards the line
        if (c0 == '\n') {
          blank_line(p);
          continue;
        }
        if (starts_cost_line(c0)) {
          if (!fast_cost_line(p, end, max_len_)) break;
          // (Only if the next line is a cost line too: Xdebug writes one a block.)
          if (p != end && starts_cost_line(*p)) {
            if (run_continues())
              fast_cost_run<false>(p, end);
            else if (merge_run_continues())
              fast_cost_run<true>(p, end);
          }
        } else if (!fast_key_line(p, end, max_len_)) {
          break;
        }
      }
      if (p == end) return;
      if (spec_unknown_ && p != guarded) continue;
    }
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!nl) {
      // The line continues in the next block.
      std::size_t len = static_cast<std::size_t>(end - p);
      if (!skipping_) {
        if (carry_.size() + len > max_len_) {
          too_long(0);
          skipping_ = true;
          carry_.clear();
          carry_.shrink_to_fit();
        } else {
          carry_.append(p, len);
        }
      }
      return;
    }
    std::size_t len = static_cast<std::size_t>(nl - p);
    if (skipping_) {
      skipping_ = false;
    } else if (!carry_.empty()) {
      if (carry_.size() + len > max_len_) {
        too_long(carry_.size() + len);
      } else {
        carry_.append(p, len);
        ++line_no_;
        // raw_line_, the text later diagnostics quote (a part's end is reported after its
        // last line), points into the line: keep it intact until the next carried line, as
        // a line inside a block is.
        carried_line_.swap(carry_);
        process_line(carried_line_);
      }
      carry_.clear();
    } else if (len > max_len_) {
      too_long(len);
    } else {
      ++line_no_;
      process_line(std::string_view(p, len));
    }
    p = nl + 1;
    if (spec_failed_) return;
    if (limit_hit_) {
      report(severity::error, diag_code::limit_exceeded, 0, 0,
             "names take more than the memory limit (" + std::to_string(opt_.max_name_bytes) +
                 " bytes); reading stopped here");
      stats_.complete = false;
      stop_ = true;
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------
// The parallel path
// ---------------------------------------------------------------------------------------
//
// The input is cut into chunks (chunk_feed.h: a plain file mapped whole, as they are asked
// for; a zstd stream or a pipe by its decoding thread, as the bytes come), each starting at a
// line that begins with `fn=`: there callgrind's output starts a function block afresh (its
// first position line is absolute, no `calls=` or `jump=` is pending, the callee and jump keys
// are reset). Other threads read chunks ahead "on speculation": a reader of their own, with the
// part's header as the first chunk left it, its own name pool, and placeholders for what it
// cannot know: the `ob=` and `fl=` in force at the chunk's start, and every `(id)` the chunk
// uses without defining. Its records are kept (record_batch.h). The first thing it meets that
// only the real state could read makes the speculation fail: any diagnostic (but the notes
// about their own line's tokens alone, `extra-call-target` and `zero-call-count`, which it keeps
// in their place among its records: Xdebug writes one on every `calls=` line), a header line
// (a part ends or begins), a relative position (`+N`, `-N`, `*`) before the chunk has given
// that column an absolute value, a `calls=` or `jump=` left open at the chunk's end.
//
// This thread takes the chunks in file order. A chunk no one has started it reads itself,
// directly; a speculated one it adopts only if the speculation holds against the real state
// at that point (same part, nothing pending, every placeholder id defined, no name redefined
// within the part, the name limit and the cost totals not reached); then it interns the
// chunk's names in the order the chunk introduced them (the order a direct reading interns
// them, so every id is the same), sends the records with their names mapped, and takes the
// state at the chunk's end. Anything else, and the chunk is read again, directly. So records,
// diagnostics, names and statistics are those of the serial reading, whatever happens
// (tests/unit/reader_parallel_test.cc reads every corpus, golden and malformed file both ways
// with chunks of a few bytes up; fuzz_reader does the same on its inputs). A decoded stream's
// chunks are read on speculation only while the decoder is ahead of this thread (run_chunked):
// where decoding is the slower half, a speculation would only take the decoder's core.
//
// When it pays. Handing a record from one core to the other (copying it, and the other core
// reading memory it did not write) costs about what reading its line costs, so with a record
// per line (convert, a report by source line) the two cores together do twice the work and
// finish no sooner: measured, 40 -> 84 ms of CPU for check on the 24 MB corpus file, and
// 41 -> 49 ms of wall time, when check took a record per line. Only when the sinks take few
// records per line does it pay: with reader_options::sum_cost_runs (a run of cost lines of one
// context is one record) the path is taken. With sum_by_context as well (annotate with no
// source lines, check), a chunk hands over one record per key, not per line or run: per
// context for self costs, per context and callee for calls, per context and target for jumps
// (record_batch.h), each where its key first appeared, so the sink creates its rows in the
// order a direct reading would. On the 24 MB file that is 67k records instead of 190k for
// annotate; the two threads then execute 5-12 % more instructions than one (check and
// annotate, 24 MB and 260 MB files). The runs' split and the sums' grouping differ from a
// direct reading's, which those options allow: sums per key are the same
// (tests/unit/reader_parallel_test.cc).
//
// It pays too where the sink's work per line is more than the reading's, and a run of lines
// can be handed over in one piece: with reader_options::cost_run_records (export --to=json, a
// self row of the model per line) a chunk's cost lines go over as runs of one context
// (record_batch.h), each with its context mapped once, and the builder adds a run's rows
// without looking them up when they start its function's rows in increasing order
// (profile_builder::on_cost_run). The lines are all still there; only calls and jumps between
// a run's lines come after it.
//
// Which chunks a worker takes. A speculated chunk costs more in all than a direct reading of
// it: a third more on the worker (names in a pool of their own, records kept, placeholders),
// then its adoption and its records on this thread. So the chunks worth giving a worker are
// only as many as keep both cores busy, and the rest are best read here, directly. A worker
// takes the farthest free chunk of the ring (the ring - 1 chunks after the one this thread is
// at); this thread reads its own chunk directly whenever no worker has taken it. The split
// then follows the costs by itself: where adopting is cheap this thread moves on fast,
// reaches chunks no one has taken, and reads them; where it is dear the workers' chunks come
// nearer. Taking the nearest chunk instead (as an earlier version did) left this thread
// nothing to read directly: every chunk was speculated, by a worker or by this thread while it
// waited, and this thread adopted them all while the worker, its ring full, waited for it. On
// the real profile, check: 1,920 of 1,956 chunks adopted, against ~850 now (docs/performance.md,
// "The parallel path").
//
// A speculative reading's tables are not allocated afresh for each chunk: the next one in the
// same slot takes them, emptied entry by entry of what the chunk defined or made placeholders
// for (a chunk uses ids spread over a range of a hundred thousand: pages of them were
// allocated and zeroed per chunk).

struct reader_impl::speculation {
  string_pool names;  // full text always: the names are interned again in the real pool
  detail::record_batch records;
  detail::null_diagnostics diagnostics;
  std::unique_ptr<reader_impl> reader;
  bool ok = false;
};

reader_impl::part_state reader_impl::snapshot() const {
  part_state ps;
  ps.header = header_;
  ps.n_events = n_events_;
  ps.columns = columns_;
  std::copy(std::begin(column_index_), std::end(column_index_), ps.column_index);
  ps.lay = layout_;
  ps.part_index = part_index_;
  ps.current_part = current_part_;
  return ps;
}

void reader_impl::begin_speculation(const part_state& ps) {
  spec_ = true;
  objects_.use_hashing();
  files_.use_hashing();
  functions_.use_hashing();
  header_ = ps.header;
  n_events_ = ps.n_events;
  columns_ = ps.columns;
  std::copy(std::begin(ps.column_index), std::end(ps.column_index), column_index_);
  layout_ = ps.lay;
  part_index_ = ps.part_index;
  current_part_ = ps.current_part;
  part_open_ = body_started_ = any_events_ = true;
  costs_.assign(n_events_, 0);
  computed_.assign(n_events_, 0);
  overflow_reported_.assign(n_events_, false);
  for (std::size_t c = 0; c < columns_.size() && c < max_positions; ++c)
    spec_unknown_ |= static_cast<std::uint8_t>(1u << column_index_[c]);
  // Names no line can hold (a name never contains a newline).
  spec_object_ = names_.intern("\nob");
  spec_file_ = names_.intern("\nfl");
  ctx_.object = spec_object_;
  ctx_.file = ctx_.source_file = spec_file_;
}

string_id reader_impl::placeholder(name_class c, std::uint64_t id) {
  // "\n<class>:<id>": no name holds a newline. Written by hand: a chunk makes thousands.
  char buf[32];
  char* e = buf + sizeof buf;
  std::uint64_t v = id;
  do {
    *--e = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  *--e = ':';
  *--e = static_cast<char>('0' + static_cast<int>(c));
  *--e = '\n';
  const string_id sid =
      names_.intern(std::string_view(e, static_cast<std::size_t>(buf + sizeof buf - e)));
  spec_refs_.push_back({sid, c, id});
  return sid;
}

void reader_impl::reuse_tables(reader_impl& old) {
  old.objects_.clear();
  old.files_.clear();
  old.functions_.clear();
  objects_ = std::move(old.objects_);
  files_ = std::move(old.files_);
  functions_ = std::move(old.functions_);
}

bool reader_impl::spec_ok() const {
  return !spec_failed_ && !stop_ && !limit_hit_ && carry_.empty() && !skipping_ && !pending_call_ &&
         !pending_jump_ && !drop_call_cost_ && have_function_;
}

// A line of a speculative reading while some position column has no known base: positions
// that are relative to it cannot be read. Cost lines with an absolute value give the column
// its base; `calls=`, `jump=` and `jcnd=` targets are relative to it but do not move it.
bool reader_impl::spec_guard(const char* p, const char* end) {
  auto positions = [&](const char* q, bool moves) {
    for (std::size_t col = 0; col < columns_.size() && col < max_positions; ++col) {
      fast::tok k;
      std::uint64_t v;
      if (!fast::position_lexeme(q, end, k, v) || q == end || (*q != ' ' && *q != '\n'))
        return false;
      if (*q == ' ') ++q;
      const auto bit = static_cast<std::uint8_t>(1u << column_index_[col]);
      const bool absolute = k == fast::tok::dec || k == fast::tok::hex;
      if (!absolute && (spec_unknown_ & bit)) return false;
      if (absolute && moves) spec_unknown_ = static_cast<std::uint8_t>(spec_unknown_ & ~bit);
    }
    return true;
  };
  const char c0 = *p;
  if (starts_cost_line(c0)) return positions(p, true);
  const std::string_view line(p, static_cast<std::size_t>(end - p));
  for (std::string_view key : {"calls=", "jump=", "jcnd="}) {
    if (!line.starts_with(key)) continue;
    const std::size_t sp = line.find_first_of(" \n", key.size());
    if (sp == std::string_view::npos || line[sp] != ' ') return false;
    return positions(p + sp + 1, false);
  }
  return true;
}

bool reader_impl::adopt(speculation& s) {
  // (A chunk that was not worth a reading has no reader: s.ok is false.)
  if (!s.ok || s.records.part_records() || s.records.overflowed()) return false;
  reader_impl& w = *s.reader;
  if (!part_open_ || current_part_ != w.current_part_ || pending_call_ || pending_jump_ ||
      drop_call_cost_ || !carry_.empty() || skipping_ || stop_ || limit_hit_ ||
      n_events_ != w.n_events_ || columns_ != w.columns_)
    return false;
  if (opt_.max_name_bytes && names_.bytes() + s.names.bytes() > opt_.max_name_bytes) return false;
  // The placeholders, against the real tables; nothing is changed before all is known good.
  std::vector<string_id> map(s.names.size(), string_pool::npos);
  map[string_pool::empty] = string_pool::empty;
  map[w.spec_object_] = ctx_.object;
  map[w.spec_file_] = ctx_.file;
  // Both loops over the chunk's ids and names below miss the cache on nearly every item (ids
  // used before the chunk are all over the tables; each new name's first look into the index):
  // each fetches the entry of the item `ahead` places on, so the misses overlap.
  constexpr std::size_t ahead = 8;
  const auto& refs = w.spec_refs_;
  for (std::size_t k = 0; k < refs.size(); ++k) {
    if (k + ahead < refs.size()) table(refs[k + ahead].c).prefetch(refs[k + ahead].id);
    const auto& ref = refs[k];
    const auto e = table(ref.c).get(ref.id);
    if (!e.defined()) return false;  // used before it was defined: the direct reading says so
    map[ref.sid] = e.name;
  }
  // A name the chunk defines first for an id that this part already defined otherwise.
  for (const auto& d : w.spec_defs_) {
    if (!d.first) continue;
    const auto e = table(d.c).get(d.id);
    if (e.defined() && e.part == current_part_ &&
        names_.find(s.names.view(d.sid), s.names.digest(d.sid)) != e.name)
      return false;
  }
  // A file named before the chunk, taken there as one whose lines are not looked at.
  for (string_id sf : w.spec_no_lines_)
    if (lines_wanted(map[sf])) return false;
  std::vector<std::uint64_t> sum = computed_;
  for (std::size_t k = 0; k < sum.size() && k < w.computed_.size(); ++k)
    if (__builtin_add_overflow(sum[k], w.computed_[k], &sum[k])) return false;

  // Good: the chunk's names in the order it met them, its records, then its end state.
  for (string_id sid = 1; sid < s.names.size(); ++sid) {
    if (sid + ahead < s.names.size()) names_.prefetch(s.names.digest(sid + ahead));
    if (map[sid] == string_pool::npos)
      map[sid] = names_.intern(s.names.view(sid), s.names.digest(sid));
  }
  computed_ = std::move(sum);
  flush_run();
  const std::uint64_t line_base = line_no_;
  // Merged lines whose places the map would join (merge_cost_lines) go on unmarked: the sink
  // then sums them as lines read directly. (Exact either way: no sum of a part's self costs
  // goes above its total, which fits, so no line number of an overflow is lost.)
  ++adopted_;
  const std::uint64_t chunk = s.records.map_keeps_places(map) ? adopted_ : 0;
  s.records.replay(
      sink_, map, line_base,
      [&](const detail::record_batch::note& n) {
        deliver(severity::note, n.code, line_base + n.line, n.col, n.len, n.message, n.line_text);
      },
      chunk);
  line_no_ += w.line_no_;
  stats_.lines += w.stats_.lines;
  stats_.cost_lines += w.stats_.cost_lines;
  stats_.call_lines += w.stats_.call_lines;
  stats_.jump_lines += w.stats_.jump_lines;
  stats_.skipped_lines += w.stats_.skipped_lines;
  ++speculated_chunks_;
  raw_line_ = w.raw_line_;
  body_started_ = true;
  any_cost_ = any_cost_ || w.any_cost_;
  ctx_ =
      context{map[w.ctx_.object], map[w.ctx_.file], map[w.ctx_.source_file], map[w.ctx_.function]};
  have_function_ = true;
  if (!(w.spec_unknown_ & 1)) base_.instr = w.base_.instr;
  if (!(w.spec_unknown_ & 2)) base_.bb = w.base_.bb;
  if (!(w.spec_unknown_ & 4)) base_.line = w.base_.line;
  callee_object_ = map[w.callee_object_];
  callee_file_ = map[w.callee_file_];
  // The callee a `calls=` with no `cfn=` falls back to outlives function blocks: only a chunk
  // that named one replaces it.
  if (w.have_any_cfn_) callee_function_ = map[w.callee_function_];
  callee_object_set_ = w.callee_object_set_;
  callee_file_set_ = w.callee_file_set_;
  have_cfn_ = w.have_cfn_;
  have_any_cfn_ = have_any_cfn_ || w.have_any_cfn_;
  jump_file_ = map[w.jump_file_];
  jump_function_ = map[w.jump_function_];
  jump_file_set_ = w.jump_file_set_;
  jump_function_set_ = w.jump_function_set_;
  for (const auto& d : w.spec_defs_) {
    table(d.c).set(d.id, {map[d.sid], current_part_});
  }
  return true;
}

void reader_impl::run_chunked(detail::chunk_feed& feed, std::size_t ring) {
  std::uint64_t shown = 0, raw_end = 0;  // at the last progress report, and now
  auto show = [&] {
    shown = stats_.bytes;
    opt_.progress(read_progress{stats_.bytes, raw_end, feed.raw_size()});
  };
  auto direct = [&](const detail::chunk_feed::chunk& c) {
    process_block(c.bytes.data(), c.bytes.data() + c.bytes.size());
  };
  auto done_with = [&](std::size_t k, const detail::chunk_feed::chunk& c) {
    stats_.bytes += c.bytes.size();
    raw_end = c.raw_end;
    feed.reached(k + 1);
    if (opt_.progress && stats_.bytes >= shown + (1u << 20)) show();
  };
  // The first chunk holds the header: read it here, then the others know their part.
  const auto first = feed.get(0);
  if (first.bytes.empty()) return;
  direct(first);
  done_with(0, first);
  if (!part_open_) {
    for (std::size_t k = 1; !stop_ && !sink_gave_up(); ++k) {
      const auto c = feed.get(k);
      if (c.bytes.empty()) break;
      direct(c);
      done_with(k, c);
    }
    if (opt_.progress && stats_.bytes != shown) show();
    return;
  }
  const part_state ps = snapshot();
  const std::size_t workers = spec_workers();
  // Chunk k's state is in slot k % ring, tagged with k: a thread that looks at a slot with an
  // old idea of where this thread is cannot take it for another chunk.
  enum : std::uint8_t { free_chunk, reading, read, taken };
  auto tag = [](std::size_t k, std::uint8_t st) { return std::uint64_t{k} << 2 | st; };
  std::vector<std::atomic<std::uint64_t>> state(ring);
  for (std::size_t i = 0; i < ring; ++i)  // (chunk 0 was read here: slot 0's first is `ring`)
    state[i].store(tag(i == 0 ? ring : i, free_chunk), std::memory_order_relaxed);
  std::vector<speculation> slots(ring);
  std::atomic<std::size_t> current{1};  // the chunk this thread is at; earlier ones are done
  std::atomic<bool> quit{false};
  // A decoded feed's chunk is read on speculation only when it is decoded already and the
  // decoder is at least two chunks ahead of this thread: while the decoder is the slower half
  // (zstd, check), this thread reads each chunk as it comes, directly, and a speculation (which
  // costs a third more CPU than a direct reading, and a core the decoder wants) would only slow
  // the decoder down; when the reading is the slower half the decoded chunks pile up and the
  // other threads help. A mapped file's chunks are all ready: every one may be. (Measured on the
  // real profile's `.zst`, docs/performance.md, "Compressed input".) (Chunks are decoded in order:
  // the later of the two being ready says both are, in one look under the feed's lock.)
  auto wanted = [&](std::size_t at, std::size_t k) { return feed.ready(std::max(k, at + 2)); };
  auto claim = [&](std::size_t k) {
    std::uint64_t expect = tag(k, free_chunk);
    return state[k % ring].compare_exchange_strong(expect, tag(k, reading),
                                                   std::memory_order_acq_rel);
  };
  // Reads chunk `c` on speculation into slot `s`.
  auto read_ahead = [&](speculation& s, const auto& c) {
    // A decoded input's chunk may start where no function does (chunk_feed.h): not worth a
    // reading, as adopt() would refuse it (no function known, or a line carried into it).
    const std::string_view text(c.bytes.data(), c.bytes.size());
    if (!text.starts_with("fn=")) return;
    s.names = string_pool();
    s.names.keep_digests();  // hashed here, not again by the reading thread (adopt)
    s.records.clear(opt_.sum_by_context, opt_.cost_run_records && !opt_.sum_cost_runs,
                    opt_.merge_cost_lines);
    auto fresh = std::make_unique<reader_impl>(in_, s.names, s.records, s.diagnostics, opt_);
    if (s.reader) fresh->reuse_tables(*s.reader);
    s.reader = std::move(fresh);
    s.reader->max_len_ = max_len_;
    s.reader->spec_batch_ = &s.records;
    if (opt_.sum_per_line) {
      reader_impl* r = s.reader.get();
      s.records.sum_per_line([r](string_id sf) { return r->lines_wanted(sf); });
    }
    s.reader->begin_speculation(ps);
    s.reader->process_block(text.data(), text.data() + text.size());
    s.reader->flush_run();
    s.ok = s.reader->spec_ok();
  };
  auto speculate = [&](std::size_t k) {
    speculation& s = slots[k % ring];
    s.ok = false;
    try {
      read_ahead(s, feed.get(k));
    } catch (const std::bad_alloc&) {
      // Out of memory on speculation: the chunk is read where it is adopted, directly, and a
      // failure there reaches read_callgrind's caller. (Thrown on a worker, it would end the
      // process; and the chunk's state must be set below either way, or the reading thread
      // waits for it for ever.)
      s.ok = false;
      s.reader.reset();
    }
    state[k % ring].store(tag(k, read), std::memory_order_release);
    state[k % ring].notify_all();
  };
  auto worker = [&] {
    for (;;) {
      // `quit` is looked at after `current`, which this thread moves past the end after setting
      // `quit`: a worker that sees the last `current` sees `quit` too, and one that saw an
      // earlier `current` does not wait on it. (Looked at before, a worker could read the last
      // `current` after the notify and wait for it to move again, for ever: fuzz_annotate.)
      const std::size_t c = current.load(std::memory_order_acquire);
      if (quit.load(std::memory_order_acquire)) return;
      // The farthest chunk of the ring first, so this thread finds the nearer ones free and
      // reads them directly (see "Which chunks a worker takes" above).
      std::size_t k = c + ring - 1;
      while (k > c && !(wanted(c, k) && claim(k))) --k;
      if (k > c)
        speculate(k);  // past the last chunk: nothing to read
      else
        current.wait(c, std::memory_order_acquire);
    }
  };
  std::vector<std::thread> threads;
  try {
    for (std::size_t i = 0; i < workers; ++i) threads.emplace_back(worker);
  } catch (...) {  // no thread: every chunk is read here
  }
  std::size_t k = 1;
  auto end_workers = [&] {
    quit.store(true, std::memory_order_release);
    feed.cancel();  // (a worker may wait in get() for a chunk that will not come)
    current.store(k + ring, std::memory_order_release);
    current.notify_all();
    for (auto& t : threads) t.join();
  };
  try {
    for (; !stop_ && !sink_gave_up(); ++k) {
      current.store(k, std::memory_order_release);
      current.notify_all();
      const auto c = feed.get(k);
      if (c.bytes.empty()) break;
      if (opt_.speculate_every_chunk && claim(k))
        speculate(k);  // tests: this chunk too on speculation, so every chunk is
      std::uint64_t expect = tag(k, free_chunk);
      if (state[k % ring].compare_exchange_strong(expect, tag(k, taken),
                                                  std::memory_order_acq_rel)) {
        direct(c);
      } else {
        // While a worker reads chunk k, read a later one ahead rather than wait.
        while (state[k % ring].load(std::memory_order_acquire) == tag(k, reading)) {
          std::size_t j = k + 1;
          while (j < k + ring && !(wanted(k, j) && claim(j))) ++j;
          if (j < k + ring)
            speculate(j);
          else
            state[k % ring].wait(tag(k, reading), std::memory_order_acquire);
        }
        speculation& s = slots[k % ring];
        if (!adopt(s)) direct(c);  // (the worker that reuses the slot frees the reader)
      }
      done_with(k, c);
      state[k % ring].store(tag(k + ring, free_chunk), std::memory_order_release);
    }
  } catch (...) {
    // Out of memory here (the reading's own tables, or the sink's) reaches the caller, after
    // the workers: a thread still joinable when `threads` goes would end the process.
    end_workers();
    throw;
  }
  if (opt_.progress && stats_.bytes != shown) show();
  end_workers();
}

// Inputs not mapped whose parsing is worth cutting into chunks: plain ones (a pipe) and zstd.
bool parallel_decoding(compression c) { return c == compression::none || c == compression::zstd; }

result<read_stats> reader_impl::run() {
  max_len_ = opt_.max_line_length ? opt_.max_line_length : SIZE_MAX;
  std::optional<error> io_error;
  bool truncated = false;
  bool first_block = true;
  // The parallel path pays only when records are few for the lines read (sum_cost_runs), or
  // the sink's work per line is more than the reading's (cost_run_records): handing a record
  // from one core to the other costs about what reading its line does.
  // (The feed outlives the reading: diagnostics at the end quote the last line, in its chunk.)
  std::unique_ptr<detail::chunk_feed> feed;
  std::size_t ring = 0;  // run_chunked's, for the kind of feed made
  if (opt_.threads > 1 && (opt_.sum_cost_runs || opt_.cost_run_records)) {
    // A speculation in flight holds its chunk's names, sums and tables (a ring of five on two
    // cores, three for a decoded stream): 128 KiB chunks hold 3.3 MB less than 512 KiB ones on the
    // real profile, in the same time (docs/performance.md, "Memory").
    const std::size_t chunk = opt_.chunk_bytes ? opt_.chunk_bytes : std::size_t{128} << 10;
    const auto whole = in_.mapped();
    if (whole.size() >= 2 * chunk) {
      feed = detail::mapped_chunks(in_, whole, chunk);
      ring = spec_ring(true);
    } else if (whole.empty() && parallel_decoding(in_.kind())) {
      // Decoded chunks are held in memory until read: 256 KiB, twice as many of them
      // ahead of this thread (run_chunked's ring, twice, and 4), so the decoding thread does
      // not wait on the others' turns for the cores (3 threads on 2 cores). Measured on the
      // zstd real profile: 5 chunks ahead ran 10-15 % slower than 10, and 10 of 256 KB as 10
      // of 512 KB; each MB ahead is a MB of the resident size (docs/performance.md).
      // (128 KiB decoded chunks: 2 MB less, 5-10 % slower in turn on the real profile.)
      const std::size_t decoded = opt_.chunk_bytes ? chunk : std::size_t{256} << 10;
      ring = spec_ring(false);
      try {
        feed = detail::decoded_chunks(in_, decoded, 2 * ring + 4);
      } catch (const std::system_error&) {
        // No thread to decode on (a process or address-space limit): read on this one.
      }
    }
  }
  if (feed) {
    const auto head = feed->head();
    if (!head.empty() && binary_input(head)) return stats_;
    run_chunked(*feed, ring);
    if (!stop_) {
      io_error = feed->failure();
      truncated = feed->truncated();
    }
  }
  while (!feed && !stop_ && !sink_gave_up()) {
    auto blk = in_.next();
    if (!blk) {
      io_error = blk.error();
      truncated = in_.truncated();
      break;
    }
    std::span<const char> b = *blk;
    if (b.empty()) break;
    stats_.bytes += b.size();
    if (opt_.progress)
      opt_.progress(read_progress{stats_.bytes, in_.raw_consumed(), in_.raw_size()});
    if (first_block) {
      first_block = false;
      if (binary_input(b)) return stats_;
    }
    process_block(b.data(), b.data() + b.size());
  }
  // A last line without its newline is a line, unless the input broke off inside it: then its
  // end is lost (a cost "1234" cut to "12"), so it is skipped rather than read wrong.
  const bool cut_line = io_error && !carry_.empty() && !stop_;
  if (!carry_.empty() && !stop_) {
    ++line_no_;
    if (cut_line) {
      ++stats_.lines;
      skip_line();
      raw_line_ = carry_;
    } else {
      process_line(carry_);
    }
  }
  const bool unterminated = !carry_.empty() && !stop_ && !io_error;
  if (io_error) {
    stats_.complete = false;
    report(severity::error, truncated ? diag_code::truncated_input : diag_code::io_error, 0, 0,
           io_error->message + (cut_line ? "; this last line was cut short and is skipped, "
                                           "everything before it was read"
                                         : "; everything before this point was read"));
  }
  finish_pending(true);
  flush_run();
  if (part_open_ || header_has_content()) end_part();
  raw_line_ = {};
  if (unterminated && ends_lines_) {
    const auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::likely_truncated, 0, 0,
           "the last line has no newline, though its producer ends every line with one: the file "
           "was likely cut short (truncated)");
    line_no_ = saved;
  }
  if (!any_events_ && stats_.errors == 0) {
    auto saved = line_no_;
    line_no_ = 0;
    report(severity::error, diag_code::no_events, 0, 0,
           stats_.lines == 0 ? "empty input: no 'events:' line, no profile data"
                             : "no 'events:' line: this is not a Callgrind-format profile");
    line_no_ = saved;
  } else if (any_events_ && !any_cost_) {
    auto saved = line_no_;
    line_no_ = 0;
    report(severity::warning, diag_code::no_data, 0, 0, "no cost lines: the profile is empty");
    line_no_ = saved;
  }
  return stats_;
}

}  // namespace

namespace detail {

read_config::read_config(const reader_options& o, const record_needs& n, const read_hooks& h)
    : reader_options(o) {
  using grain = record_needs::grain;
  sum_by_context = n.costs == grain::sums_per_context;
  sum_cost_runs = n.sums();  // (sums per context allow sums per run)
  sum_per_line = n.sums() && n.per_line;
  if (sum_per_line) lines_of = n.lines_of;
  cost_run_records = n.costs == grain::runs_of_lines || n.costs == grain::runs_merged_by_place;
  merge_cost_lines = n.costs == grain::runs_merged_by_place;
  skip_jump_records = !n.jumps;
  chunk_bytes = h.chunk_bytes;
  speculate_every_chunk = h.speculate_every_chunk;
}

result<read_stats> read_with_hooks(input& in, string_pool& names, record_sink& records,
                                   diagnostic_sink& diagnostics, const reader_options& given,
                                   const read_hooks& hooks) {
  const read_config options(given, hooks.needs ? *hooks.needs : records.needs(), hooks);
  if (hooks.speculated_chunks) *hooks.speculated_chunks = 0;
  auto read = [&](input& from) {
    reader_impl r(from, names, records, diagnostics, options);
    auto stats = r.run();
    if (hooks.speculated_chunks) *hooks.speculated_chunks = r.speculated_chunks_;
    return stats;
  };
  // Where parsing on more than one core pays (sum_cost_runs), a zstd input is decoded and cut
  // into chunks on a thread of its own (chunk_feed.h). gzip, xz and bzip2 decode slower than
  // one core parses: another thread parsing would only take the decoder's core from it
  // (measured with gzip, the real 260 MB profile: 5-7 % slower).
  const bool chunked =
      (options.sum_cost_runs || options.cost_run_records) && parallel_decoding(in.kind());
  if (options.threads > 1 && !chunked && in.kind() != compression::none) {
    std::unique_ptr<input> ahead;
    try {
      ahead = decode_ahead(in);
    } catch (const std::system_error&) {
      // No thread to decode on: decode on this one, below.
    }
    if (ahead) return read(*ahead);
  }
  return read(in);
}

}  // namespace detail

result<read_stats> read_callgrind(input& in, string_pool& names, record_sink& records,
                                  diagnostic_sink& diagnostics, const reader_options& options) {
  return detail::read_with_hooks(in, names, records, diagnostics, options, {});
}

}  // namespace calltree

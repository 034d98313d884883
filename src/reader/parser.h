// parser.h — the Callgrind format's parser: its state and the paths that read lines into it.
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
//
// What it is: one parser, reading blocks of lines (process_block) into records for its sink and
// diagnostics for its diagnostic sink; the general path of each kind of line
// (parser_header.cc: parts and header lines; parser_body.cc: body lines), the fast paths for
// the commonest lines (fast_paths.cc), and what a reading of a chunk ahead needs of it
// (speculation.h). What it is not: where the bytes come from and on which thread
// (reader.cc: the serial loop; parallel.cc: the chunks read ahead).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"
#include "reader/chunk_feed.h"
#include "reader/chunk_index.h"
#include "reader/fast_tokens.h"
#include "reader/id_table.h"
#include "reader/read_hooks.h"
#include "reader/record_batch.h"
#include "reader/speculation.h"

namespace calltree::detail {

constexpr std::size_t max_line_text = 240;

inline bool is_space(char c) { return c == ' ' || c == '\t'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
// The first character of a cost line (a position: decimal, hex, +N, -N or *).
inline bool starts_cost_line(char c) { return is_digit(c) || c == '+' || c == '-' || c == '*'; }

// Names and header values lose surrounding blanks, and stray CRs (a line ending in "\r\r"):
// a writer cannot write a name that ends in CR so that it reads back the same.
inline bool is_blank_or_cr(char c) { return is_space(c) || c == '\r'; }
inline std::string_view trim(std::string_view s) {
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
inline bool short_decimal(std::string_view tok, std::uint64_t& v) {
  v = 0;
  for (char ch : tok) {
    if (!is_digit(ch)) return false;
    v = v * 10 + static_cast<unsigned>(ch - '0');
  }
  return true;
}

enum class num_status { ok, malformed, overflow };

// Decimal or 0x-hex unsigned number filling the whole token.
inline num_status parse_u64(std::string_view t, std::uint64_t& out, bool* was_hex = nullptr) {
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

// The keys of `(id)` names the fast paths read (parser::fast_key_line).
enum class parser_name_key : std::uint8_t { fl, fn, fi, ob, cfn, cfi, cob, jfi, jfn };

class parser {
 public:
  parser(input& in, string_pool& names, record_sink& sink, diagnostic_sink& diags,
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
    if (spec_) [[unlikely]] {  // a chunk read ahead: the speculation keeps it or fails
      spec_->diagnostic(s, code, line_no_, col, len, raw_line_.substr(0, max_line_text), message);
      return;
    }
    if (s == severity::error) ++errors_;
    if (code == diag_code::likely_truncated && stats_.state == read_state::complete)
      stats_.state = read_state::likely_truncated;
    deliver(s, code, line_no_, col, len, message,
            line_no_ ? raw_line_.substr(0, max_line_text) : std::string_view());
  }
  // report() of a note, inline (a note is no error, nor likely_truncated): the fast path's
  // notes, given on every calls= line of Xdebug output.
  [[gnu::always_inline]] void note(diag_code code, std::size_t col, std::size_t len,
                                   std::string_view message) {
    if (spec_) [[unlikely]]
      return report(severity::note, code, col, len, message);
    deliver(severity::note, code, line_no_, col, len, message,
            line_no_ ? raw_line_.substr(0, max_line_text) : std::string_view());
  }
  // (Asking the sink inline: Xdebug's note on every calls= line is counted, after the first
  // few, at the cost of the sink's two calls.)
  void deliver(severity s, diag_code code, std::uint64_t line, std::size_t col, std::size_t len,
               std::string_view message, std::string_view line_text) {
    if (!diags_.wants(code)) {
      diags_.count_only(code, s);
      return;
    }
    deliver_whole(s, code, line, col, len, message, line_text);
  }
  [[gnu::noinline]] void deliver_whole(severity s, diag_code code, std::uint64_t line,
                                       std::size_t col, std::size_t len, std::string_view message,
                                       std::string_view line_text) {
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
  // Whether a diagnostic of `code` would reach the sink whole (its message is wanted).
  bool detailed(diag_code code) const {
    return spec_ ? speculation::keeps(severity::note, code) : diags_.wants(code);
  }
  // Column (1-based) of a view into the current line.
  std::size_t col_of(std::string_view part) const {
    if (part.data() >= raw_line_.data() && part.data() <= raw_line_.data() + raw_line_.size())
      return static_cast<std::size_t>(part.data() - raw_line_.data()) + 1;
    return 0;
  }
  void skip_line() { ++stats_.skipped_lines; }
  // A number of this file as text (signed in a file of differences).
  std::string number_text(std::uint64_t v) const {
    return signed_ ? std::to_string(as_signed(v)) : std::to_string(v);
  }
  // Signed costs (parser_body.cc).
  bool signed_value(std::string_view tok, std::uint64_t& v);
  void become_signed(std::string_view tok);
  bool unsigned_value_fits(std::string_view tok);

  // ---- lines -------------------------------------------------------------------------
  void process_line(std::string_view line);
  void process_header(std::string_view key, std::string_view value, std::string_view line);
  void process_body_key(std::string_view key, std::string_view value);
  void process_cost_line(std::string_view line);
  // (Inlined into process_block, as they were when the reader was one file: GCC's inlining
  // budget grows with the file, and in fast_paths.cc alone it inlined neither, 3 % more
  // instructions for check. Only fast_paths.cc calls them.)
  [[gnu::always_inline]] inline bool fast_cost_line(const char*& p, const char* end,
                                                    std::size_t max_len);
  template <layout L>
  [[gnu::always_inline]] inline bool fast_cost_line_as(const char*& p, const char* end,
                                                       std::size_t max_len);
  [[gnu::always_inline]] inline bool fast_key_line(const char*& p, const char* end,
                                                   std::size_t max_len);
  // The keys of `(id)` names the fast path reads.
  using name_key = parser_name_key;
  static name_class class_of(name_key k) {
    switch (k) {
      case name_key::fn:
      case name_key::cfn:
      case name_key::jfn:
        return name_class::function;
      case name_key::ob:
      case name_key::cob:
        return name_class::object;
      default:
        return name_class::file;
    }
  }
  // What a `KEY=(ID)` line of `which` sets, the id standing for `id`; false (and nothing set)
  // where the general path would say something: name_key_allowed, or a function named "".
  [[gnu::always_inline]] bool set_name_key(name_key which, string_id id);
  // Not what the general path warns about: an inlined file before any function, a callee
  // object or file after the callee's name.
  bool name_key_allowed(name_key which) const {
    return !((which == name_key::fi && !have_function_) ||
             ((which == name_key::cfi || which == name_key::cob) && have_cfn_));
  }
  [[gnu::noinline]] bool fast_call_line(const char*& p_io, const char* end, std::size_t max_len);
  [[gnu::noinline]] bool fast_jump_line(const char*& p_io, const char* end, std::size_t max_len,
                                        bool jcnd);
  [[gnu::noinline]] bool fast_undefined_reference(const char*& p_io, const char* nl, name_key which,
                                                  std::uint64_t id);
  [[gnu::noinline]] bool fast_name_definition(const char*& p_io, const char* p, const char* end,
                                              std::size_t max_len, name_key which,
                                              std::uint64_t id);
  // The run loop: self-cost lines that continue the open run (sums per run),
  // summed in registers; returns at the first line it does not take, which it leaves unread.
  static constexpr std::size_t run_loop_events = 16;
  bool run_continues() const {
    return opt_.sum_cost_runs && run_open_ && !pending_call_ && !pending_jump_ &&
           !drop_call_cost_ && !unknown_bases() && n_events_ <= run_loop_events && run_in_context();
  }
  // The open run (if any) is of the context in force.
  bool run_in_context() const {
    return run_.ctx.function == ctx_.function && run_.ctx.source_file == ctx_.source_file &&
           run_.ctx.file == ctx_.file && run_.ctx.object == ctx_.object;
  }
  // With merge_cost_lines, on speculation: the lines go to the chunk's record_batch as they
  // are read (record_batch::merge_in_run), not through on_cost.
  bool merge_run_continues() const {
    return spec_ && !pending_call_ && !pending_jump_ && !drop_call_cost_ && !spec_->unknown &&
           n_events_ <= run_loop_events && spec_->records.open_run_of(ctx_);
  }
  template <bool merging>
  [[gnu::noinline]] void fast_cost_run(const char*& p, const char* end);
  template <layout L, bool one_event, bool merging>
  void fast_cost_run_as(const char*& p, const char* end);
  [[gnu::always_inline]] inline bool fast_target(const char*& p, const char* end, position& out,
                                                 const char** extra = nullptr);
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
    if (unknown_function_ == string_pool::npos)
      unknown_function_ = range_names_ ? range_name("???") : names_.intern("???");
    return unknown_function_;
  }

  // ---- the loop -----------------------------------------------------------------------
  void too_long(std::size_t len);
  bool binary_input(std::span<const char> b);
  void process_block(const char* p, const char* end) {
    process_lines(p, end);
    if (!call_line_in_block_.empty()) {  // the block's bytes go: keep the text
      call_line_text_.assign(call_line_in_block_);
      call_line_in_block_ = {};
    }
  }
  void process_lines(const char* p, const char* end);
  // A blank line: what process_line does with one, without finding its end.
  void blank_line(const char*& p) {
    ++line_no_;
    ++stats_.lines;
    raw_line_ = std::string_view(p, 0);
    ++p;
  }
  void run_chunked(detail::chunk_feed& feed, std::size_t ring);

  // ---- chunks read again (chunk_index.h) ------------------------------------------------
  friend status read_chunks(chunk_index&, std::span<const std::uint32_t>,
                            const std::function<std::span<const char>(std::uint32_t)>&,
                            string_pool&, const std::function<string_id(std::string_view)>&,
                            part_order&, const reader_options&, const read_needs&);
  // The state at chunk k's start, with `ix`'s tables lent to this parser (end_range gives them
  // back); names resolve as chunk_index.h says, through `plain_name` for names written out.
  void begin_range(chunk_index& ix, std::size_t k,
                   const std::function<string_id(std::string_view)>& plain_name);
  void end_range(chunk_index& ix);
  // The pool id of a name met in a chunk read again: an `(id)`'s final name, or the text's.
  string_id range_name(std::string_view text);
  // The reader's state where chunk k starts (run_chunked, with read_hooks::index).
  void note_chunk_start();
  const std::function<string_id(std::string_view)>* range_names_ = nullptr;
  const chunk_index* range_index_ = nullptr;
  bool range_failed_ = false;  // a name the first reading did not know
  // The ids given several names that this reading of chunks defined, and their names.
  std::unordered_map<std::uint64_t, string_id> range_defined_;
  static std::uint64_t range_key(name_class c, std::uint64_t id) {
    return id * 3 + static_cast<std::uint64_t>(c);
  }
  // The name of an id given several names, on this line of a reading of chunks: a reference's,
  // its last definition in the chunks read, else the index's renaming in force
  // (chunk_index::renamed); a definition's (`defines`), the index's.
  string_id range_renamed(name_class c, std::uint64_t id, bool defines = false);
  // An id given another name than its own at `line` (read_hooks::index: kept).
  void note_rename(name_class c, std::uint64_t id, string_id was, string_id now, std::uint64_t line) {
    if (opt_.index) opt_.index->renamed.push_back({range_key(c, id), line, was, now});
  }

  // ---- the parallel path: chunks read ahead (speculation.h) ----------------------------
  friend class speculation;
  part_state snapshot() const;
  // The body of the part `ps` snapshot() took is open, as where it was taken (its header,
  // events and position columns; its sums from 0).
  void enter_part(const part_state& ps);
  // This parser reads a chunk ahead for `s`, from the state of the part `ps`.
  void begin_speculation(speculation& s, const part_state& ps);
  // Its reading holds so far (nothing only the real state could read was met).
  bool spec_ok() const;
  // Threads that read chunks on speculation, and the chunks in flight at once (the ring): a
  // speculation holds its chunk's records and names until it is adopted. A mapped file's ring
  // leaves the workers room to read far ahead while this thread reads the chunks between
  // directly (run_chunked): four more than the workers (1.2-1.5 MB more resident than two on
  // the real profile); six more held 3 MB more, for no more speed. A plain file read in blocks
  // has the same ring: reading is a copy, never the slower half. (With two more, this thread
  // came to the worker's chunk while it was read, read the next one on speculation, and so
  // speculated every other chunk or all: check --threads=2 on the real profile took 0.93-1.00
  // s of CPU against 0.72-0.76 s with this ring, which holds 3 MB more.) A decompressed
  // stream's ring is two more: there the decoder is the slower half, and each chunk of the
  // ring is two more decoded chunks held (decoded_chunks' `ahead`).
  std::size_t spec_workers() const { return std::min<std::size_t>(opt_.threads - 1, 8); }
  std::size_t spec_ring(bool fast_source) const { return spec_workers() + (fast_source ? 4 : 2); }
  // Whether sums of records of source file `sf` are per line (record_needs::per_line).
  bool lines_wanted(string_id sf) {
    if (!opt_.sum_per_line) return false;
    if (!opt_.lines_of) return true;
    if (sf.index() >= lines_known_.size()) lines_known_.resize(sf.index() + 1, 0);
    std::uint8_t& k = lines_known_[sf.index()];
    if (!k) {
      std::string scratch;
      const std::string_view name = names_.text(sf, scratch);
      if (!name.empty() && name.front() == '\n') {
        // A speculation's placeholder (no name has a newline): a file named before the chunk.
        // Taken as one whose lines are not looked at; adopt() checks it against the real name
        // and reads the chunk again if they are.
        k = 1;
        if (spec_) spec_->no_lines.push_back(sf);
      } else {
        k = opt_.lines_of(name) ? 2 : 1;
      }
    }
    return k == 2;
  }
  bool spec_guard(const char* p, const char* end);
  bool adopt(speculation& s);
  // The tables of an earlier speculative reading, emptied: reused, rather than allocated
  // again per chunk.
  void reuse_tables(parser& old);
  // The speculation this parser reads a chunk ahead for (null: the real reading).
  speculation* spec_ = nullptr;
  // Position columns whose base a chunk read ahead has not seen yet.
  bool unknown_bases() const { return spec_ && spec_->unknown; }
  // Sums per line (read_config::sum_per_line and lines_of), per pool id of a source file: 0 not
  // asked yet, 1 sums per key alone, 2 per key and line.
  std::vector<std::uint8_t> lines_known_;
  std::uint64_t adopted_ = 0;  // chunks adopted (their number: merged_chunk)
 public:
  std::uint64_t speculated_chunks_ = 0;  // adopted, for read_hooks::speculated_chunks
  // Once run() is over: empty if the input holds a profile (an events: line), else why not.
  std::string no_profile_;
  // What the input plainly is when it holds no profile ("this is Python source, not a
  // profile: ...", not_a_profile.h), set before run(): said in its no-events or binary-input
  // error. Empty: the error says what it always said.
  std::string not_a_profile_;

 private:
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
    stats_.state = read_state::stopped;
    stop_ = true;
    return true;
  }
  diagnostic_sink& diags_;
  const detail::read_config& opt_;
  read_stats stats_;
  std::uint64_t errors_ = 0;  // errors reported

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
  // A negative number was read: costs are signed (two's-complement patterns, cost_matrix.h).
  bool signed_ = false;
  bool huge_seen_ = false;  // a cost of 2^63 or more, unsigned, before that
  std::vector<bool> overflow_reported_;
  bool any_events_ = false;
  bool any_cost_ = false;

  // Body state.
  context ctx_;
  bool have_function_ = false;
  position base_;
  string_id callee_object_, callee_file_, callee_function_;
  bool callee_object_set_ = false, callee_file_set_ = false, have_cfn_ = false;
  bool have_any_cfn_ = false;
  string_id jump_file_, jump_function_;
  bool jump_file_set_ = false, jump_function_set_ = false;

  // calls= waiting for its cost line.
  bool pending_call_ = false;
  // A calls= line was dropped: its cost line (the inclusive cost of the call) is skipped too,
  // not read as self cost.
  bool drop_call_cost_ = false;
  call_record call_;
  std::uint64_t call_line_ = 0;
  std::string call_line_text_;
  // The fast path's calls= line, in the block being read: copied to call_line_text_ only if
  // the block ends before its cost line (process_block); empty otherwise.
  std::string_view call_line_in_block_;
  // jump=/jcnd= waiting for its source line.
  bool pending_jump_ = false;
  jump_record jump_;

  std::vector<std::uint64_t> costs_;

  // Sums per run (read_config::sum_cost_runs): the run of self-cost lines of one context not yet
  // sent.
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

// A cost line's positions and costs are read: the base moves, and the line is a call's cost,
// a jump's source or a self cost.
inline void parser::finish_cost_line(std::uint64_t instr, std::uint64_t bb, std::uint64_t line,
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
  if (!have_function_ || overflow || signed_) [[unlikely]]
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

inline bool parser::set_name_key(name_key which, string_id id) {
  switch (which) {
    case name_key::fn:
      if (id == string_pool::empty) return false;
      ctx_.function = id;
      ctx_.source_file = ctx_.file;
      have_function_ = true;
      have_cfn_ = callee_object_set_ = callee_file_set_ = false;
      jump_file_set_ = jump_function_set_ = false;
      break;
    case name_key::fl:
      ctx_.file = ctx_.source_file = id;
      break;
    case name_key::fi:
      if (!have_function_) return false;
      ctx_.source_file = id;
      break;
    case name_key::ob:
      ctx_.object = id;
      break;
    case name_key::cfn:
      callee_function_ = id;
      have_cfn_ = have_any_cfn_ = true;
      break;
    case name_key::cfi:
      if (have_cfn_) return false;
      callee_file_ = id;
      callee_file_set_ = true;
      break;
    case name_key::cob:
      if (have_cfn_) return false;
      callee_object_ = id;
      callee_object_set_ = true;
      break;
    case name_key::jfi:
      jump_file_ = id;
      jump_file_set_ = true;
      break;
    case name_key::jfn:
      jump_function_ = id;
      jump_function_set_ = true;
      break;
  }
  return true;
}

}  // namespace calltree::detail

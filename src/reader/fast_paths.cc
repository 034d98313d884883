// fast_paths.cc — the parser's fast paths, and its loop over a block of lines.
//
// What it is: the lines that fill big profiles (cost lines, runs of them summed in registers,
// calls=, jump=/jcnd=, `(id)` name references and callgrind-style definitions), each read in
// one pass, all or nothing: a fast path either takes a line exactly as the general path would
// (same records, state and statistics) or changes nothing and leaves it to the general path
// (parser_body.cc), which reports what is wrong with it. process_block, the loop over a
// block, tries them first. What it is not: a second reading of the format: it gives up on
// anything that needs a word said.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "import/formats.h"
#include "reader/parser.h"

namespace calltree::detail {

// The hot path. Most lines of a big profile are cost lines like `+3 * 11` or `0x4a2f10 12 3 0
// 1`: positions as decimal, 0x-hex, +N, -N or *, then decimal costs, one space between tokens
// (and perhaps one after the last), ending in '\n' inside the current block. This reads such a
// line in one pass, finding its end as it goes (no memchr, no tokenizer, no overflow checks:
// at most 19 decimal or 16 hex digits cannot overflow). It changes nothing and returns false
// for anything else (tabs, CR, hex or signed costs, too many costs, a position going below 0,
// a line that goes on into the next block), and the general path reads that line and reports
// what is wrong with it; for the lines it takes, the result is the general path's.
inline bool parser::fast_cost_line(const char*& p_io, const char* end, std::size_t max_len) {
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
template <layout L>
inline bool parser::fast_cost_line_as(const char*& p_io, const char* end, std::size_t max_len) {
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
    // (2^63 and above: the general path, which knows whether the file is signed.)
    if (!fast::decimal_wide(p, end, v) || (v >> 63)) return false;
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
inline bool parser::fast_target(const char*& p_io, const char* end, position& out,
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

// The other lines that fill instr-level profiles and Xdebug's: `calls=`, `jcnd=`, `jump=`,
// and name references like `cfn=(123)`, in callgrind's form, when nothing about them calls for
// a diagnostic (the callee is known, counts are sane, targets complete, the id is defined). As
// fast_cost_line: all or nothing, and the general path's result for the lines it takes.
//
// The key is told by the line's first 8 bytes, loaded at once, looked up in a table (below):
// comparing key by key, as memcmp calls, took a third of the key lines' instructions on Xdebug
// output, five eighths of whose lines are key lines. The commonest lines, `(id)` references,
// are read here, inlined into the loop (process_lines); calls, jumps, name definitions and
// undefined ids in functions of their own, out of line. On the Xdebug bench file, check
// --threads=1: 1,814 M -> 1,432 M instructions (callgrind's count), 273 -> 216 a line.
namespace {
// The first n bytes of `k` as a little-endian word: what an 8-byte load of a line starting
// with them holds in its low n bytes.
template <std::size_t n>
constexpr std::uint64_t key_word(const char (&k)[n]) {
  std::uint64_t w = 0;
  for (std::size_t i = n - 1; i-- > 0;) w = w << 8 | static_cast<unsigned char>(k[i]);
  return w;
}

// The keys, in a table of 16 slots indexed by a hash of their first four bytes (which tell
// them apart): a slot is the key's bytes, the mask of its length, and what it is (a name key,
// or a call or jump after them). One load and one compare tell a line's key, or that it has
// none of these.
enum class line_key : std::uint8_t { calls = 9, jump, jcnd };
struct key_slot {
  std::uint64_t bytes = 1, mask = 0;  // (an empty slot matches nothing)
  std::uint8_t kind = 0, len = 0;     // a name_key or line_key; the key's length
};
constexpr unsigned key_slot_of(std::uint64_t w) {
  return static_cast<std::uint32_t>(static_cast<std::uint32_t>(w) * 0x8f3c3cd3u) >> 28;
}
struct key_table {
  key_slot slot[16];
  template <std::size_t n>
  constexpr void add(const char (&k)[n], std::uint8_t kind) {
    const std::uint64_t w = key_word(k);
    key_slot& s = slot[key_slot_of(w)];
    if (s.mask) throw "two keys in one slot: choose another multiplier";  // (not constant)
    s = {w, (std::uint64_t{1} << (8 * (n - 1))) - 1, kind, static_cast<std::uint8_t>(n - 1)};
  }
  constexpr key_table() {
    using nk = parser_name_key;
    add("fl=(", static_cast<std::uint8_t>(nk::fl));
    add("fn=(", static_cast<std::uint8_t>(nk::fn));
    add("fi=(", static_cast<std::uint8_t>(nk::fi));
    add("fe=(", static_cast<std::uint8_t>(nk::fi));
    add("ob=(", static_cast<std::uint8_t>(nk::ob));
    add("cfn=(", static_cast<std::uint8_t>(nk::cfn));
    add("cfl=(", static_cast<std::uint8_t>(nk::cfi));
    add("cfi=(", static_cast<std::uint8_t>(nk::cfi));
    add("cob=(", static_cast<std::uint8_t>(nk::cob));
    add("jfi=(", static_cast<std::uint8_t>(nk::jfi));
    add("jfn=(", static_cast<std::uint8_t>(nk::jfn));
    add("calls=", static_cast<std::uint8_t>(line_key::calls));
    add("jump=", static_cast<std::uint8_t>(line_key::jump));
    add("jcnd=", static_cast<std::uint8_t>(line_key::jcnd));
  }
};
constexpr key_table keys;
}  // namespace

inline bool parser::fast_key_line(const char*& p_io, const char* end, std::size_t max_len) {
  if (pending_call_ || pending_jump_ || !part_open_) return false;
  const char* p = p_io;
  std::uint64_t w;  // the line's first 8 bytes (zeros past the block's end)
  if (end - p >= 8) [[likely]] {
    std::memcpy(&w, p, 8);
  } else {
    w = 0;
    std::memcpy(&w, p, static_cast<std::size_t>(end - p));
  }
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  const key_slot& k = keys.slot[key_slot_of(w)];
  if ((w & k.mask) != k.bytes) return false;
  if (k.kind >= static_cast<std::uint8_t>(line_key::calls)) {
    if (k.kind == static_cast<std::uint8_t>(line_key::calls))
      return fast_call_line(p_io, end, max_len);
    return fast_jump_line(p_io, end, max_len, k.kind == static_cast<std::uint8_t>(line_key::jcnd));
  }
  const auto which = static_cast<name_key>(k.kind);
  p += k.len;
  std::uint64_t a;
  if (!fast::decimal_wide(p, end, a) || p == end || *p != ')' || ++p == end) return false;
  if (*p != '\n') return fast_name_definition(p_io, p, end, max_len, which, a);
  // A reference.
  if (static_cast<std::size_t>(p - p_io) > max_len) return false;
  const string_id id = table(class_of(which)).name_of(a);
  if (id == string_pool::npos) return fast_undefined_reference(p_io, p, which, a);
  if (!set_name_key(which, id)) return false;
  fast_commit(p_io, p);
  return true;
}

// A reference to an id not defined: on speculation, defined before the chunk, we hope (as in
// parse_name); else the general path says so.
bool parser::fast_undefined_reference(const char*& p_io, const char* nl, name_key which,
                                      std::uint64_t a) {
  if (!spec_ || !name_key_allowed(which)) return false;
  const name_class c = class_of(which);
  const string_id id = spec_->placeholder(c, a);
  table(c).set(a, {id, id_table::other_part});
  (void)set_name_key(which, id);  // (allowed: looked at above)
  fast_commit(p_io, nl);
  return true;
}

// `calls=COUNT TARGET`, the target straight into the record (the general path rewrites it if
// we give up): a copy from a local, which fast_target wrote field by field, would be one wide
// load waiting for three stores to reach the cache (store forwarding fails), on every call.
bool parser::fast_call_line(const char*& p_io, const char* end, std::size_t max_len) {
  const char* p = p_io + 6;
  const char* extra = nullptr;
  const char* count = p;
  std::uint64_t a;
  if (!have_function_ || !have_cfn_ || !fast::decimal_wide(p, end, a) || p == end || *p != ' ')
    return false;
  const auto count_len = static_cast<std::size_t>(p - count);
  if (!fast_target(++p, end, call_.target, &extra) || static_cast<std::size_t>(p - p_io) > max_len)
    return false;
  fast_commit(p_io, p);
  // The general path's notes, in its order.
  if (extra) {
    const auto code = diag_code::extra_call_target;
    note(code, static_cast<std::size_t>(extra - raw_line_.data()) + 1,
         static_cast<std::size_t>(p_io - 1 - extra),
         "'calls=' has more target tokens than position columns; ignored");
  }
  if (a == 0)
    note(diag_code::zero_call_count, 7, count_len,
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
  call_line_in_block_ = raw_line_.substr(0, max_line_text);  // (copied if the block ends first)
  pending_call_ = true;
  return true;
}

// jcnd=FOLLOWED/EXECUTED TARGET, jump=COUNT TARGET
bool parser::fast_jump_line(const char*& p_io, const char* end, std::size_t max_len, bool jcnd) {
  const char* p = p_io + 5;
  std::uint64_t a, b = 0;
  if (!have_function_ || !fast::decimal_wide(p, end, a)) return false;
  if (jcnd && (p == end || *p != '/' || !fast::decimal_wide(++p, end, b) || a > b)) return false;
  if (p == end || *p != ' ' || !fast_target(++p, end, jump_.target) ||
      static_cast<std::size_t>(p - p_io) > max_len)
    return false;
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

// KEY=(ID) NAME, a definition in callgrind's form (one space, a name with nothing to trim);
// `p` is past the `)`.
bool parser::fast_name_definition(const char*& p_io, const char* p, const char* end,
                                  std::size_t max_len, name_key which, std::uint64_t a) {
  if (*p != ' ' || !name_key_allowed(which)) return false;
  const char* name_at = ++p;
  p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
  if (!p || static_cast<std::size_t>(p - p_io) > max_len || p == name_at) return false;
  const std::string_view name(name_at, static_cast<std::size_t>(p - name_at));
  if (is_blank_or_cr(name.front()) || is_blank_or_cr(name.back()) ||
      std::memchr(name.data(), 0, name.size()))
    return false;
  // The general path reports a name limit reached and a redefinition in this part.
  if (opt_.max_name_bytes && names_.bytes() + name.size() + 256 > opt_.max_name_bytes) return false;
  const name_class c = class_of(which);
  id_table& t = table(c);
  const auto e = t.get(a);
  if (range_names_) {  // a chunk read again: the name the first reading ended with
    if (!e.defined()) return false;
    (void)set_name_key(which, e.name);
    fast_commit(p_io, p);
    return true;
  }
  if (e.defined() && e.part == current_part_ && names_.find(name) != e.name) return false;
  const string_id id = names_.intern(name);
  if (e.defined() && e.name != id) note_rename(c, a, e.name, id, line_no_ + 1);
  const bool first = !e.defined() || e.part != current_part_;
  t.set(a, {id, current_part_});
  if (spec_) spec_->defs.push_back({c, a, id, first, line_no_ + 1});
  (void)set_name_key(which, id);  // (allowed: looked at above)
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
// Merging (runs merged by place, a chunk read ahead), the loop hands each cost
// line to the chunk's batch as it is read, where the line before would have handed its
// cost_record through on_cost: same lines, same merging (record_batch.h), no record made.
template <bool merging>
void parser::fast_cost_run(const char*& p, const char* end) {
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

template <layout L, bool one_event, bool merging>
void parser::fast_cost_run_as(const char*& p_io, const char* end) {
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
      if (ncost >= n || !fast::decimal_wide(q, end, c[ncost]) || (c[ncost] >> 63) ||
          !fast::separator(q, end)) {
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
        spec_->records.merge_in_run(line_no_ + lines + 1, at, c, static_cast<std::uint32_t>(ncost));
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

// ---------------------------------------------------------------------------------------
// The loop
// ---------------------------------------------------------------------------------------

void parser::too_long(std::size_t len) {
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
bool parser::binary_input(std::span<const char> b) {
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
    no_profile_ = not_a_profile_.empty()
                      ? "the input is binary, not a Callgrind-format profile nor any other "
                        "format calltree reads (" +
                            std::string(detail::other_formats) + "); nothing was read"
                      : "the input is binary: " + not_a_profile_;
    report(severity::error, diag_code::binary_input, 0, 0, no_profile_);
    stats_.state = read_state::stopped;
    return true;
  }
  return false;
}

// The lines of [p, end). The last one may go on in the next call (it is carried over).
void parser::process_lines(const char* p, const char* end) {
  const char* guarded = nullptr;  // the line spec_guard passed (speculative readings only)
  while (p < end) {
    if (unknown_bases() && p != guarded) [[unlikely]] {
      if (!spec_guard(p, end)) {
        spec_->failed = true;
        return;
      }
      guarded = p;
    }
    if (*p == '\n' && !skipping_ && carry_.empty()) {
      blank_line(p);
      continue;
    }
    if (part_open_ && !skipping_ && carry_.empty() && !drop_call_cost_) {
      // The fast paths change none of these conditions, nor whether some base is unknown
      // (only spec_guard does): stay with them while they take lines.
      const bool guard = unknown_bases();
      while (p < end) {
        const char c0 = *p;
        if (guard && p != guarded) [[unlikely]]
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
      if (unknown_bases() && p != guarded) continue;
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
    if (spec_ && spec_->failed) return;
    if (limit_hit_) {
      report(severity::error, diag_code::limit_exceeded, 0, 0,
             "names take more than the memory limit (" + std::to_string(opt_.max_name_bytes) +
                 " bytes); reading stopped here");
      stats_.state = read_state::stopped;
      stop_ = true;
      return;
    }
  }
}

}  // namespace calltree::detail

// speculation.cc — reading a chunk ahead, on speculation, and adopting it.
//
// What it is: the state a parser reading a chunk ahead starts from (the part's header, as the
// first chunk left it), the placeholders for what it cannot know, the guard on positions
// relative to a base it has not seen, and the adoption of its reading by the real parser when
// it holds against the real state. What it is not: which chunks are read ahead, by which
// thread (parallel.cc), nor what is kept of their records (record_batch.h).
//
#include "reader/speculation.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/string_pool_access.h"
#include "reader/parser.h"

namespace calltree::detail {

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
// A speculative reading's tables are not allocated afresh for each chunk: the next one in the
// same slot takes them, emptied entry by entry of what the chunk defined or made placeholders
// for (a chunk uses ids spread over a range of a hundred thousand: pages of them were
// allocated and zeroed per chunk).

part_state parser::snapshot() const {
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

void parser::enter_part(const part_state& ps) {
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
}

speculation::speculation() = default;
speculation::~speculation() = default;

void speculation::read(input& in, const read_config& options, const part_state& ps,
                       std::string_view chunk, std::size_t max_len) {
  ok = false;
  // A decoded input's chunk may start where no function does (chunk_feed.h): not worth a
  // reading, as adopt() would refuse it (no function known, or a line carried into it).
  if (!chunk.starts_with("fn=")) return;
  names = string_pool();
  string_pool_access::keep_digests(names);  // hashed here, not again by the reading thread (adopt)
  records.clear(options.sum_by_context, options.cost_run_records && !options.sum_cost_runs,
                options.merge_cost_lines);
  failed = false;
  unknown = 0;
  defs.clear();
  refs.clear();
  no_lines.clear();
  auto fresh = std::make_unique<parser>(in, names, records, diagnostics, options);
  if (reader) fresh->reuse_tables(*reader);
  reader = std::move(fresh);
  reader->max_len_ = max_len;
  if (options.sum_per_line) {
    parser* r = reader.get();
    records.sum_per_line([r](string_id sf) { return r->lines_wanted(sf); });
  }
  reader->begin_speculation(*this, ps);
  reader->process_block(chunk.data(), chunk.data() + chunk.size());
  reader->flush_run();
  ok = reader->spec_ok();
}

void speculation::diagnostic(severity s, diag_code code, std::uint64_t line, std::size_t col,
                             std::size_t len, std::string_view line_text,
                             std::string_view message) {
  if (keeps(s, code))
    records.keep_note({code, line, col, len, line_text, message});
  else
    failed = true;
}

void parser::begin_speculation(speculation& s, const part_state& ps) {
  spec_ = &s;
  objects_.use_hashing();
  files_.use_hashing();
  functions_.use_hashing();
  enter_part(ps);
  for (std::size_t c = 0; c < columns_.size() && c < max_positions; ++c)
    s.unknown |= static_cast<std::uint8_t>(1u << column_index_[c]);
  // Names no line can hold (a name never contains a newline).
  s.object = names_.intern("\nob");
  s.file = names_.intern("\nfl");
  ctx_.object = s.object;
  ctx_.file = ctx_.source_file = s.file;
}

string_id speculation::placeholder(name_class c, std::uint64_t id) {
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
      names.intern(std::string_view(e, static_cast<std::size_t>(buf + sizeof buf - e)));
  refs.push_back({sid, c, id});
  return sid;
}

void parser::reuse_tables(parser& old) {
  old.objects_.clear();
  old.files_.clear();
  old.functions_.clear();
  objects_ = std::move(old.objects_);
  files_ = std::move(old.files_);
  functions_ = std::move(old.functions_);
}

bool parser::spec_ok() const {
  return !spec_->failed && !stop_ && !limit_hit_ && carry_.empty() && !skipping_ &&
         !pending_call_ && !pending_jump_ && !drop_call_cost_ && have_function_;
}

// A line of a speculative reading while some position column has no known base: positions
// that are relative to it cannot be read. Cost lines with an absolute value give the column
// its base; `calls=`, `jump=` and `jcnd=` targets are relative to it but do not move it.
bool parser::spec_guard(const char* p, const char* end) {
  auto positions = [&](const char* q, bool moves) {
    for (std::size_t col = 0; col < columns_.size() && col < max_positions; ++col) {
      fast::tok k;
      std::uint64_t v;
      if (!fast::position_lexeme(q, end, k, v) || q == end || (*q != ' ' && *q != '\n'))
        return false;
      if (*q == ' ') ++q;
      const auto bit = static_cast<std::uint8_t>(1u << column_index_[col]);
      const bool absolute = k == fast::tok::dec || k == fast::tok::hex;
      if (!absolute && (spec_->unknown & bit)) return false;
      if (absolute && moves) spec_->unknown = static_cast<std::uint8_t>(spec_->unknown & ~bit);
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

bool parser::adopt(speculation& s) {
  // (A chunk that was not worth a reading has no reader: s.ok is false.)
  if (!s.ok || s.records.part_records() || s.records.overflowed()) return false;
  parser& w = *s.reader;
  if (!part_open_ || current_part_ != w.current_part_ || pending_call_ || pending_jump_ ||
      drop_call_cost_ || !carry_.empty() || skipping_ || stop_ || limit_hit_ ||
      n_events_ != w.n_events_ || columns_ != w.columns_)
    return false;
  if (opt_.max_name_bytes && names_.bytes() + s.names.bytes() > opt_.max_name_bytes) return false;
  // The placeholders, against the real tables; nothing is changed before all is known good.
  record_batch::name_map map(s.names.size(), string_pool::npos);
  map[string_pool::empty] = string_pool::empty;
  map[s.object] = ctx_.object;
  map[s.file] = ctx_.file;
  // Both loops over the chunk's ids and names below miss the cache on nearly every item (ids
  // used before the chunk are all over the tables; each new name's first look into the index):
  // each fetches the entry of the item `ahead` places on, so the misses overlap.
  constexpr std::size_t ahead = 8;
  const auto& refs = s.refs;
  for (std::size_t k = 0; k < refs.size(); ++k) {
    if (k + ahead < refs.size()) table(refs[k + ahead].c).prefetch(refs[k + ahead].id);
    const auto& ref = refs[k];
    const auto e = table(ref.c).get(ref.id);
    if (!e.defined()) return false;  // used before it was defined: the direct reading says so
    map[ref.sid] = e.name;
  }
  // A name the chunk defines first for an id that this part already defined otherwise.
  for (const auto& d : s.defs) {
    if (!d.first) continue;
    const auto e = table(d.c).get(d.id);
    if (e.defined() && e.part == current_part_ &&
        string_pool_access::find(names_, string_pool_access::view(s.names, d.sid),
                                 string_pool_access::digest(s.names, d.sid)) != e.name)
      return false;
  }
  // A file named before the chunk, taken there as one whose lines are not looked at.
  for (string_id sf : s.no_lines)
    if (lines_wanted(map[sf])) return false;
  std::vector<std::uint64_t> sum = computed_;
  for (std::size_t k = 0; k < sum.size() && k < w.computed_.size(); ++k)
    if (__builtin_add_overflow(sum[k], w.computed_[k], &sum[k])) return false;

  // Good: the chunk's names in the order it met them, its records, then its end state.
  for (std::size_t i = 1; i < s.names.size(); ++i) {
    const string_id sid{i};
    if (i + ahead < s.names.size())
      string_pool_access::prefetch(names_,
                                   string_pool_access::digest(s.names, string_id{i + ahead}));
    if (map[sid] == string_pool::npos)
      map[sid] = string_pool_access::intern(names_, string_pool_access::view(s.names, sid),
                                            string_pool_access::digest(s.names, sid));
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
  if (!(s.unknown & 1)) base_.instr = w.base_.instr;
  if (!(s.unknown & 2)) base_.bb = w.base_.bb;
  if (!(s.unknown & 4)) base_.line = w.base_.line;
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
  for (const auto& d : s.defs) {
    const auto e = table(d.c).get(d.id);
    if (e.defined() && e.name != map[d.sid]) note_rename(d.c, d.id, e.name, map[d.sid], line_base + d.line);
    table(d.c).set(d.id, {map[d.sid], current_part_});
  }
  return true;
}

}  // namespace calltree::detail

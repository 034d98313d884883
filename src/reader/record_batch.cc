// record_batch.cc — records copied field by field, replayed with their names mapped.
#include "reader/record_batch.h"

#include <algorithm>

namespace calltree::detail {

namespace {

// Field by field, each with a load of its own size. The reader has just written the record a
// field at a time; a copy by wide loads (which the compiler likes) would read two fields in one
// load, and such a load waits until both stores reach the cache: a stall on every record. The
// empty asm statements keep the compiler from merging the loads again.
#define CALLTREE_FIELD(x) \
  d.x = s.x;              \
  asm volatile("" ::: "memory")
void copy_context(context& d, const context& s) {
  CALLTREE_FIELD(object);
  CALLTREE_FIELD(file);
  CALLTREE_FIELD(source_file);
  CALLTREE_FIELD(function);
}
void copy_position(position& d, const position& s) {
  CALLTREE_FIELD(instr);
  CALLTREE_FIELD(bb);
  CALLTREE_FIELD(line);
}
#undef CALLTREE_FIELD

std::span<const std::uint64_t> keep(std::vector<std::uint64_t>& values,
                                    std::span<const std::uint64_t> v) {
  for (std::uint64_t x : v) values.push_back(x);  // mostly one or two: no range insert
  return {static_cast<const std::uint64_t*>(nullptr), v.size()};
}

void map_context(context& c, const record_batch::name_map& map) {
  c.object = map[c.object];
  c.file = map[c.file];
  c.source_file = map[c.source_file];
  c.function = map[c.function];
}

std::uint64_t hash_context(const context& c) {
  return mix(mix(mix(mix(0, c.object), c.file), c.source_file), c.function);
}

std::uint64_t hash_position(std::uint64_t h, const position& p) {
  return mix(mix(mix(h, p.instr), p.bb), p.line);
}

}  // namespace

void record_batch::clear(bool summing, bool runs, bool merging) {
  runs_mode_ = runs && !summing;
  merging_ = runs_mode_ && merging;
  if (!functions_.empty()) function_index_.reset();
  if (!places_.empty()) place_index_.reset();
  functions_.clear();
  places_.clear();
  apart_.clear();
  last_function_ = row_index::empty;
  runs_.clear();
  lines_.clear();
  run_values_.clear();
  run_open_ = false;
  order_.clear();
  notes_.clear();
  messages_.clear();
  costs_.clear();
  calls_.clear();
  jumps_.clear();
  values_.clear();
  cost_at_.clear();
  call_at_.clear();
  cost_index_.reset();
  call_index_.reset();
  jump_index_.reset();
  summing_ = summing;
  last_cost_ = last_call_ = last_jump_ = row_index::empty;
  per_line_ = nullptr;
  part_records_ = false;
  overflowed_ = false;
}

void record_batch::add(std::size_t at, std::span<const std::uint64_t> v) {
  for (std::size_t k = 0; k < v.size(); ++k)
    overflowed_ |= __builtin_add_overflow(values_[at + k], v[k], &values_[at + k]);
}

void record_batch::add_line(const cost_record& r, std::uint32_t function) {
  if (!run_open_ || !same_context(runs_.back().ctx, r.ctx) ||
      runs_.back().width != r.costs.size()) {
    order_.push_back(item::run);
    run& u = runs_.emplace_back();
    copy_context(u.ctx, r.ctx);
    u.begin = lines_.size();
    u.values = run_values_.size();
    u.width = r.costs.size();
    u.function = function;
    run_open_ = true;
  }
  ++runs_.back().count;
  cost_line& l = lines_.emplace_back();
  l.line = r.line;
  copy_position(l.pos, r.pos);
  l.given = r.given;
  keep(run_values_, r.costs);
}

// Merging
// -------
//
// The model has one self row per (function, source file, position), its costs the sum of the
// lines there, in the place of the first (profile_builder.h). A chunk read ahead merges its
// lines so already, on the thread that reads it, so that the thread building the model looks
// nothing up for them (only a function seen before the chunk needs its rows looked at).
// Two patterns make it cheap. Callgrind writes one place again mostly right after itself: a
// call's or a jump's instruction has its cost line before the `calls=` or `jump=` line and
// another after (1.2 M of the real 260 MB profile's 15.9 M cost lines), which go to the line
// before. And it writes most functions' other lines in increasing positions (82 % of the
// real profile's blocks, once those are merged): while a function's lines do, no two share a
// place, and nothing is looked up. From a function's first line that is not after its line
// before, its lines are indexed by place (places_), and each later one looked up there.
// Positions compare by instr, then line, then bb (any order would do: a strict one).
void record_batch::merge_cost(const cost_record& r) {
  if (run_open_ && !runs_.empty() && runs_.back().count && same_context(runs_.back().ctx, r.ctx) &&
      lines_.back().pos == r.pos)
    return add_to_line(place{static_cast<std::uint32_t>(lines_.size() - 1),
                             static_cast<std::uint32_t>(runs_.size() - 1)},
                       r);
  const std::uint32_t f = function_of(r.ctx);
  function_lines& fl = functions_[f];
  if (!fl.indexed) {
    if (fl.lines == 0 || after(fl.last, r.pos)) {
      ++fl.lines;
      fl.last = r.pos;
      return add_line(r, f);
    }
    index_places(f);
  }
  // Lines at the function's position in another of the chunk's source files are apart here;
  // the two files must be two in the real pool too (map_keeps_places).
  const std::uint64_t h = hash_position(mix(4, f), r.pos);
  std::size_t slot;
  const std::uint32_t i = place_index_.find(
      h,
      [&](std::uint32_t j) {
        const place& q = places_[j];
        const run& u = runs_[q.run];
        if (lines_[q.line].pos != r.pos || u.function != f) return false;
        if (u.ctx.source_file == r.ctx.source_file) return true;
        apart_.push_back({u.ctx.source_file, r.ctx.source_file});
        return false;
      },
      slot);
  if (i != row_index::empty) return add_to_line(places_[i], r);
  add_line(r, f);
  place_index_.insert(h, static_cast<std::uint32_t>(places_.size()), slot);
  places_.push_back(place{static_cast<std::uint32_t>(lines_.size() - 1),
                          static_cast<std::uint32_t>(runs_.size() - 1)});
}

void record_batch::merge_slow(std::uint64_t line, const position& pos, const std::uint64_t* costs,
                              std::uint32_t given) {
  cost_record r;
  r.line = line;
  r.ctx = runs_.back().ctx;
  r.pos = pos;
  r.costs = {costs, runs_.back().width};
  r.given = given;
  merge_cost(r);
}

std::uint32_t record_batch::function_of(const context& c) {
  if (last_function_ != row_index::empty) {
    const function_lines& g = functions_[last_function_];
    if (g.name == c.function && g.file == c.file && g.object == c.object) return last_function_;
  }
  const std::uint64_t h = mix(mix(mix(5, c.object), c.file), c.function);
  std::size_t slot;
  std::uint32_t i = function_index_.find(
      h,
      [&](std::uint32_t j) {
        const function_lines& g = functions_[j];
        return g.name == c.function && g.file == c.file && g.object == c.object;
      },
      slot);
  if (i == row_index::empty) {
    i = static_cast<std::uint32_t>(functions_.size());
    function_index_.insert(h, i, slot);
    function_lines& g = functions_.emplace_back();
    g.object = c.object;
    g.file = c.file;
    g.name = c.function;
  }
  last_function_ = i;
  return i;
}

// Function f's lines so far (at distinct places: they came in increasing positions) into the
// index, each under its run's source file.
void record_batch::index_places(std::uint32_t f) {
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const run& u = runs_[k];
    if (u.function != f) continue;
    for (std::size_t i = u.begin; i < u.begin + u.count; ++i) {
      const std::uint64_t h = hash_position(mix(4, f), lines_[i].pos);
      std::size_t slot;
      place_index_.find(
          h, [](std::uint32_t) { return false; }, slot);
      place_index_.insert(h, static_cast<std::uint32_t>(places_.size()), slot);
      places_.push_back(place{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k)});
    }
  }
  functions_[f].indexed = true;
}

void record_batch::add_to_line(const place& at, const cost_record& r) {
  const run& u = runs_[at.run];
  if (u.width != r.costs.size()) {  // (one part, one width: never)
    overflowed_ = true;
    return;
  }
  std::uint64_t* v = run_values_.data() + u.values + (at.line - u.begin) * u.width;
  for (std::size_t k = 0; k < u.width; ++k)
    overflowed_ |= __builtin_add_overflow(v[k], r.costs[k], &v[k]);
  cost_line& l = lines_[at.line];
  l.given = std::max(l.given, r.given);
}

void record_batch::on_cost(const cost_record& r) {
  if (merging_) return merge_cost(r);
  if (runs_mode_) return add_line(r, 0);
  if (summing_) {
    auto add_to = [&](std::uint32_t i) {
      cost_record& d = costs_[i];
      overflowed_ |= d.costs.size() != r.costs.size();  // one part: never
      if (!overflowed_) add(cost_at_[i], r.costs);
      d.given = std::max(d.given, r.given);
    };
    // The key of the record before, mostly: a run of one context is cut by each jump and
    // call in it, and its pieces come one after another.
    if (last_cost_ != row_index::empty) {
      const cost_record& d = costs_[last_cost_];
      if (same_context(d.ctx, r.ctx) && (!last_cost_by_line_ || d.pos.line == r.pos.line))
        return add_to(last_cost_);
    }
    const bool by_line = per_line(r.ctx.source_file);
    last_cost_by_line_ = by_line;
    const std::uint64_t h = mix(hash_context(r.ctx), by_line ? r.pos.line : 0);
    std::size_t slot;
    const std::uint32_t i = cost_index_.find(
        h,
        [&](std::uint32_t j) {
          return same_context(costs_[j].ctx, r.ctx) &&
                 (!by_line || costs_[j].pos.line == r.pos.line);
        },
        slot);
    if (i != row_index::empty) {
      last_cost_ = i;
      return add_to(i);
    }
    last_cost_ = static_cast<std::uint32_t>(costs_.size());
    cost_index_.insert(h, static_cast<std::uint32_t>(costs_.size()), slot);
    cost_at_.push_back(values_.size());
  }
  order_.push_back(item::cost);
  cost_record& d = costs_.emplace_back();
  d.line = r.line;
  copy_context(d.ctx, r.ctx);
  copy_position(d.pos, r.pos);
  d.given = r.given;
  d.costs = keep(values_, r.costs);
}

void record_batch::on_call(const call_record& r) {
  if (summing_) {
    auto add_to = [&](std::uint32_t i) {
      call_record& d = calls_[i];
      overflowed_ |= __builtin_add_overflow(d.count, r.count, &d.count);
      overflowed_ |= d.costs.size() != r.costs.size();
      if (!overflowed_) add(call_at_[i], r.costs);
      d.given = std::max(d.given, r.given);
    };
    auto same_key = [&](const call_record& o, bool by_line) {
      return o.callee_function == r.callee_function && same_context(o.ctx, r.ctx) &&
             o.callee_file == r.callee_file && o.callee_object == r.callee_object &&
             o.has_target == r.has_target && (!by_line || o.site.line == r.site.line);
    };
    // The key of the call before, often: a loop's calls of one callee (two thirds of the
    // Xdebug bench file's calls). (Its source file is this one's: by_line is the same.)
    if (last_call_ != row_index::empty && same_key(calls_[last_call_], last_call_by_line_))
      return add_to(last_call_);
    const bool by_line = per_line(r.ctx.source_file);
    last_call_by_line_ = by_line;
    const std::uint64_t line = by_line ? r.site.line : 0;
    const std::uint64_t h = mix(
        mix(mix(mix(mix(hash_context(r.ctx), r.callee_object), r.callee_file), r.callee_function),
            r.has_target),
        line);
    std::size_t slot;
    const std::uint32_t i = call_index_.find(
        h, [&](std::uint32_t j) { return same_key(calls_[j], by_line); }, slot);
    if (i != row_index::empty) {
      last_call_ = i;
      return add_to(i);
    }
    last_call_ = static_cast<std::uint32_t>(calls_.size());
    call_index_.insert(h, static_cast<std::uint32_t>(calls_.size()), slot);
    call_at_.push_back(values_.size());
  }
  order_.push_back(item::call);
  call_record& d = calls_.emplace_back();
  d.line = r.line;
  copy_context(d.ctx, r.ctx);
  d.callee_object = r.callee_object;
  d.callee_file = r.callee_file;
  d.callee_function = r.callee_function;
  d.count = r.count;
  copy_position(d.site, r.site);
  copy_position(d.target, r.target);
  d.has_target = r.has_target;
  d.given = r.given;
  d.costs = keep(values_, r.costs);
}

void record_batch::on_jump(const jump_record& r) {
  if (summing_) {
    // Per source and target line too for a file whose lines are looked at (sum_per_line).
    const bool by_line = per_line(r.ctx.source_file);
    auto same_key = [&](const jump_record& o) {
      return o.target_function == r.target_function && same_context(o.ctx, r.ctx) &&
             o.target_file == r.target_file && o.conditional == r.conditional &&
             (!by_line || (o.source.line == r.source.line && o.target.line == r.target.line));
    };
    auto add_to = [&](jump_record& d) {
      overflowed_ |= __builtin_add_overflow(d.executed, r.executed, &d.executed);
      overflowed_ |= __builtin_add_overflow(d.followed, r.followed, &d.followed);
    };
    // As for costs: the jumps of a function mostly have the key of the jump before.
    if (last_jump_ != row_index::empty && same_key(jumps_[last_jump_]))
      return add_to(jumps_[last_jump_]);
    const std::uint64_t h =
        mix(mix(mix(mix(mix(hash_context(r.ctx), r.target_file), r.target_function), r.conditional),
                by_line ? r.source.line : 0),
            by_line ? r.target.line : 0);
    std::size_t slot;
    const std::uint32_t i = jump_index_.find(
        h, [&](std::uint32_t j) { return same_key(jumps_[j]); }, slot);
    if (i != row_index::empty) {
      last_jump_ = i;
      return add_to(jumps_[i]);
    }
    last_jump_ = static_cast<std::uint32_t>(jumps_.size());
    jump_index_.insert(h, static_cast<std::uint32_t>(jumps_.size()), slot);
  }
  order_.push_back(item::jump);
  jump_record& d = jumps_.emplace_back();
  d.line = r.line;
  copy_context(d.ctx, r.ctx);
  d.conditional = r.conditional;
  d.executed = r.executed;
  d.followed = r.followed;
  copy_position(d.source, r.source);
  d.target_file = r.target_file;
  d.target_function = r.target_function;
  copy_position(d.target, r.target);
}

void record_batch::keep_note(const note& n) {
  if (messages_.empty() || messages_.back() != n.message) messages_.emplace_back(n.message);
  run_open_ = false;  // (a note stays between the cost lines around it)
  order_.push_back(item::note);
  notes_.push_back(n);
  notes_.back().message = messages_.back();
}

// The places a chunk merged by are (function, source file, position), in its own names.
// Mapped into the real pool, two of the chunk's names may become one (a name the chunk wrote
// out in full that an id from before it also stands for, say, or the file in force at the
// chunk's start and an id for it later: callgrind's `fe=(3)` back to the function's `fl=(3)`
// from before the chunk): then two places the chunk kept apart may be one of the model's. So
// each function (object, file, name) must map to a function no other of the chunk's maps to,
// and the source files of lines kept apart at one position of a function must stay two (the
// pairs merge_cost met: few, where positions are instruction addresses). The functions' check
// is a table of their mapped keys, open addressing over a few hundred entries: each entry a
// key's hash beside the index of its first owner.
bool record_batch::map_keeps_places(const name_map& map) {
  if (!merging_) return true;
  for (const auto& [a, b] : apart_)
    if (map[a] == map[b]) return false;
  std::size_t size = 64;
  while (size < 2 * functions_.size()) size *= 2;
  distinct_.assign(size, 0);
  for (std::size_t i = 0; i < functions_.size(); ++i) {
    const function_lines& f = functions_[i];
    const std::uint64_t tag = mix(mix(mix(6, map[f.object]), map[f.file]), map[f.name]) >> 32;
    for (std::size_t s = tag & (size - 1);; s = (s + 1) & (size - 1)) {
      const std::uint64_t e = distinct_[s];
      if (e == 0) {
        distinct_[s] = tag << 32 | (i + 1);
        break;
      }
      const function_lines& g = functions_[static_cast<std::size_t>(e & 0xffffffff) - 1];
      if ((e >> 32) == tag && map[g.name] == map[f.name] && map[g.file] == map[f.file] &&
          map[g.object] == map[f.object])
        return false;
    }
  }
  return true;
}

void record_batch::replay(record_sink& sink, const name_map& map, std::uint64_t line_base,
                          const std::function<void(const note&)>& on_note, std::uint64_t chunk) {
  std::size_t ic = 0, il = 0, ij = 0, iv = 0, in = 0, iu = 0;
  // (Runs only come to a sink that asked for them, a run_sink, but for a test's read_hooks.)
  run_sink* const runs = dynamic_cast<run_sink*>(&sink);
  auto values = [&](std::span<const std::uint64_t> s) {
    std::span<const std::uint64_t> v(values_.data() + iv, s.size());
    iv += s.size();
    return v;
  };
  for (item it : order_) {
    switch (it) {
      case item::cost: {
        cost_record& r = costs_[ic++];
        r.line += line_base;
        map_context(r.ctx, map);
        r.costs = values(r.costs);
        sink.on_cost(r);
        break;
      }
      case item::call: {
        call_record& r = calls_[il++];
        r.line += line_base;
        map_context(r.ctx, map);
        r.callee_object = map[r.callee_object];
        r.callee_file = map[r.callee_file];
        r.callee_function = map[r.callee_function];
        r.costs = values(r.costs);
        sink.on_call(r);
        break;
      }
      case item::jump: {
        jump_record& r = jumps_[ij++];
        r.line += line_base;
        map_context(r.ctx, map);
        r.target_file = map[r.target_file];
        r.target_function = map[r.target_function];
        sink.on_jump(r);
        break;
      }
      case item::note:
        on_note(notes_[in++]);
        break;
      case item::run: {
        const run& u = runs_[iu++];
        cost_run_record r;
        r.ctx = u.ctx;
        map_context(r.ctx, map);
        for (std::size_t k = u.begin; k < u.begin + u.count; ++k) lines_[k].line += line_base;
        r.lines = {lines_.data() + u.begin, u.count};
        r.costs = {run_values_.data() + u.values, u.count * u.width};
        r.merged_chunk = merging_ ? chunk : 0;
        if (runs)
          runs->on_cost_run(r);
        else
          send_lines(sink, r);
        break;
      }
    }
  }
}

}  // namespace calltree::detail

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

void map_context(context& c, const std::vector<string_id>& map) {
  c.object = map[c.object];
  c.file = map[c.file];
  c.source_file = map[c.source_file];
  c.function = map[c.function];
}

bool same_context(const context& a, const context& b) {
  return a.function == b.function && a.source_file == b.source_file && a.file == b.file &&
         a.object == b.object;
}

std::uint64_t hash_context(const context& c) {
  return mix(mix(mix(mix(0, c.object), c.file), c.source_file), c.function);
}

}  // namespace

void record_batch::clear(bool summing, bool runs) {
  runs_mode_ = runs && !summing;
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
  last_cost_ = last_jump_ = row_index::empty;
  per_line_ = nullptr;
  part_records_ = false;
  overflowed_ = false;
}

void record_batch::add(std::size_t at, std::span<const std::uint64_t> v) {
  for (std::size_t k = 0; k < v.size(); ++k)
    overflowed_ |= __builtin_add_overflow(values_[at + k], v[k], &values_[at + k]);
}

void record_batch::on_cost(const cost_record& r) {
  if (runs_mode_) {
    if (!run_open_ || !same_context(runs_.back().ctx, r.ctx) ||
        runs_.back().width != r.costs.size()) {
      order_.push_back(item::run);
      run& u = runs_.emplace_back();
      copy_context(u.ctx, r.ctx);
      u.begin = lines_.size();
      u.values = run_values_.size();
      u.width = r.costs.size();
      run_open_ = true;
    }
    ++runs_.back().count;
    cost_line& l = lines_.emplace_back();
    l.line = r.line;
    copy_position(l.pos, r.pos);
    l.given = r.given;
    keep(run_values_, r.costs);
    return;
  }
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
    const bool by_line = per_line(r.ctx.source_file);
    const std::uint64_t line = by_line ? r.site.line : 0;
    const std::uint64_t h = mix(
        mix(mix(mix(mix(hash_context(r.ctx), r.callee_object), r.callee_file), r.callee_function),
            r.has_target),
        line);
    std::size_t slot;
    const std::uint32_t i = call_index_.find(
        h,
        [&](std::uint32_t j) {
          const call_record& o = calls_[j];
          return o.callee_function == r.callee_function && same_context(o.ctx, r.ctx) &&
                 o.callee_file == r.callee_file && o.callee_object == r.callee_object &&
                 o.has_target == r.has_target && (!by_line || o.site.line == line);
        },
        slot);
    if (i != row_index::empty) {
      call_record& d = calls_[i];
      overflowed_ |= __builtin_add_overflow(d.count, r.count, &d.count);
      overflowed_ |= d.costs.size() != r.costs.size();
      if (!overflowed_) add(call_at_[i], r.costs);
      d.given = std::max(d.given, r.given);
      return;
    }
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

void record_batch::replay(record_sink& sink, const std::vector<string_id>& map,
                          std::uint64_t line_base,
                          const std::function<void(const note&)>& on_note) {
  std::size_t ic = 0, il = 0, ij = 0, iv = 0, in = 0, iu = 0;
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
        sink.on_cost_run(r);
        break;
      }
    }
  }
}

}  // namespace calltree::detail

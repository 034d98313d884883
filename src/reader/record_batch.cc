// record_batch.cc — records copied field by field, replayed with their names mapped.
#include "reader/record_batch.h"

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

}  // namespace

void record_batch::clear() {
  order_.clear();
  costs_.clear();
  calls_.clear();
  jumps_.clear();
  values_.clear();
  part_records_ = false;
}

void record_batch::on_cost(const cost_record& r) {
  order_.push_back(item::cost);
  cost_record& d = costs_.emplace_back();
  d.line = r.line;
  copy_context(d.ctx, r.ctx);
  copy_position(d.pos, r.pos);
  d.given = r.given;
  d.costs = keep(values_, r.costs);
}

void record_batch::on_call(const call_record& r) {
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

void record_batch::replay(record_sink& sink, const std::vector<string_id>& map,
                          std::uint64_t line_base) {
  std::size_t ic = 0, il = 0, ij = 0, iv = 0;
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
    }
  }
}

}  // namespace calltree::detail

// model/renaming_sink.h — (internal) records passed on with their names in another pool.
//
// What it is: a record sink that hands every record to the next one with each string id of
// `from` replaced by the id of the same name in `to`, interned there once per id: for records
// whose names are of one pool going to a sink that interns into another (serve's chunks, read
// with the session's names, into the machine code view's small model; a profile replayed into
// another, tests/fuzz). What it is not: a filter, nor a change of anything but names.
#pragma once

#include <string>
#include <unordered_map>

#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree::detail {

class renaming_sink final : public record_sink {
 public:
  renaming_sink(const string_pool& from, string_pool& to, record_sink& next)
      : from_(from), to_(to), next_(next) {}
  record_needs needs() const override { return next_.needs(); }
  void on_part_begin(const part_header& h) override { next_.on_part_begin(h); }
  void on_part_end(const part_end& e) override { next_.on_part_end(e); }
  void on_cost(const cost_record& r) override {
    cost_record c = r;
    c.ctx = in(r.ctx);
    next_.on_cost(c);
  }
  void on_call(const call_record& r) override {
    call_record c = r;
    c.ctx = in(r.ctx);
    c.callee_object = in(r.callee_object);
    c.callee_file = in(r.callee_file);
    c.callee_function = in(r.callee_function);
    next_.on_call(c);
  }
  void on_jump(const jump_record& r) override {
    jump_record j = r;
    j.ctx = in(r.ctx);
    j.target_file = in(r.target_file);
    j.target_function = in(r.target_function);
    next_.on_jump(j);
  }

 private:
  string_id in(string_id id) {
    auto [it, fresh] = map_.try_emplace(id, string_pool::empty);
    if (fresh) it->second = to_.intern(from_.text(id, scratch_));
    return it->second;
  }
  context in(const context& c) {
    return {in(c.object), in(c.file), in(c.source_file), in(c.function)};
  }
  const string_pool& from_;
  string_pool& to_;
  record_sink& next_;
  std::unordered_map<string_id, string_id> map_;
  std::string scratch_;
};

}  // namespace calltree::detail

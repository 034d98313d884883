// instructions.cc — a function's instructions as the profile gives them (its self, call and
// jump rows by instruction address), and the record filter that keeps only some functions.
#include <map>

#include "calltree/asm.h"
#include "calltree/cost_matrix.h"

namespace calltree {

namespace {

// Adds `src` (profile event order) into `dst`, saturating.
void add_into(std::vector<std::uint64_t>& dst, std::span<const std::uint64_t> src) {
  if (dst.size() < src.size()) dst.resize(src.size(), 0);
  add_saturating(std::span<std::uint64_t>(dst), src);
}

}  // namespace

std::vector<function_instrs> collect_instructions(const profile& p,
                                                  std::span<const function_id> functions,
                                                  std::span<const part_id> parts) {
  const std::size_t nev = p.events.size();
  std::vector<function_instrs> out(functions.size());
  // Which request each function is (the first, if asked twice), and which parts count.
  id_vector<function_id, std::int64_t> slot(p.functions.size(), -1);
  for (std::size_t i = 0; i < functions.size(); ++i) {
    out[i].function = functions[i];
    out[i].self.assign(nev, 0);
    if (slot.contains(functions[i]) && slot[functions[i]] < 0)
      slot[functions[i]] = static_cast<std::int64_t>(i);
  }
  id_vector<part_id, char> part_on(p.parts.size(), parts.empty() ? 1 : 0);
  for (part_id q : parts)
    if (part_on.contains(q)) part_on[q] = 1;
  auto wanted = [&](part_id part, function_id f) -> std::int64_t {
    if (!part_on.contains(part) || !part_on[part] || !slot.contains(f)) return -1;
    return slot[f];
  };

  // Per request: address -> its data, built in maps (a few functions' rows), then flattened.
  std::vector<std::map<std::uint64_t, instr_data>> by_address(functions.size());
  auto at = [&](std::size_t i, std::uint64_t address) -> instr_data& {
    auto [it, fresh] = by_address[i].try_emplace(address);
    if (fresh) {
      it->second.address = address;
      it->second.self.assign(nev, 0);
    }
    return it->second;
  };

  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    const self_row& row = p.self_rows[r];
    const std::int64_t i = wanted(row.part, row.function);
    if (i < 0) continue;
    instr_data& d = at(static_cast<std::size_t>(i), row.pos.instr);
    // One address has one line; should rows disagree, the first with a line is kept.
    if (d.line == 0 && row.pos.line != 0) {
      d.line = row.pos.line;
      d.source_file = row.source_file;
    } else if (d.source_file == file_id{}) {
      d.source_file = row.source_file;
    }
    add_into(d.self, p.self_costs.row(r));
    add_into(out[static_cast<std::size_t>(i)].self, p.self_costs.row(r));
  }
  for (std::size_t r = 0; r < p.calls.size(); ++r) {
    const call_row& c = p.calls[r];
    const std::int64_t i = wanted(c.part, c.caller);
    if (i < 0) continue;
    instr_data& d = at(static_cast<std::size_t>(i), c.site.instr);
    if (d.line == 0 && c.site.line != 0) {
      d.line = c.site.line;
      d.source_file = c.caller_source_file;
    }
    instr_call* into = nullptr;
    for (auto& e : d.calls)
      if (e.callee == c.callee && e.has_target == c.has_target && e.target == c.target.instr)
        into = &e;
    if (!into) {
      into = &d.calls.emplace_back();
      into->callee = c.callee;
      into->has_target = c.has_target;
      into->target = c.target.instr;
      into->inclusive.assign(nev, 0);
    }
    add_saturating(into->count, c.count);
    add_into(into->inclusive, p.call_costs.row(r));
  }
  for (const jump_row& j : p.jumps) {
    const std::int64_t i = wanted(j.part, j.function);
    if (i < 0) continue;
    instr_data& d = at(static_cast<std::size_t>(i), j.source.instr);
    if (d.line == 0 && j.source.line != 0) {
      d.line = j.source.line;
      d.source_file = j.source_file;
    }
    instr_jump* into = nullptr;
    for (auto& e : d.jumps)
      if (e.conditional == j.conditional && e.target == j.target.instr &&
          e.target_function == j.target_function)
        into = &e;
    if (!into) {
      into = &d.jumps.emplace_back();
      into->conditional = j.conditional;
      into->target = j.target.instr;
      into->target_function = j.target_function;
    }
    add_saturating(into->executed, j.executed);
    add_saturating(into->followed, j.followed);
  }
  for (std::size_t i = 0; i < functions.size(); ++i) {
    out[i].instrs.reserve(by_address[i].size());
    for (auto& [address, d] : by_address[i]) out[i].instrs.push_back(std::move(d));
  }
  // A function asked twice gets the first one's data.
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (slot.contains(functions[i]) && slot[functions[i]] != static_cast<std::int64_t>(i))
      out[i] = out[static_cast<std::size_t>(slot[functions[i]])];
  return out;
}

function_filter::function_filter(const string_pool& names,
                                 std::function<bool(std::string_view)> keep, record_sink& next)
    : names_(names), keep_(std::move(keep)), next_(next) {}

bool function_filter::kept(string_id function) {
  if (function.index() >= decided_.size()) decided_.resize(std::size_t{function.index()} + 1, 0);
  std::int8_t& d = decided_[function.index()];
  if (d == 0) d = keep_(names_.text(function, scratch_)) ? 1 : -1;
  return d > 0;
}

void function_filter::on_cost(const cost_record& r) {
  if (kept(r.ctx.function)) next_.on_cost(r);
}
void function_filter::on_call(const call_record& r) {
  if (kept(r.ctx.function)) next_.on_call(r);
}
void function_filter::on_jump(const jump_record& r) {
  if (kept(r.ctx.function)) next_.on_jump(r);
}

}  // namespace calltree

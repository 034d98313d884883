// replay.cc — a profile back into records, so any record sink can take a profile.
//
// Order: parts in order; for each, its header as read, then function by function the
// function's self rows, then its call rows, then its jump rows; then the part's end. Functions
// and rows come in model order (function id order, each function's rows in row order: the
// order the input named them) or in the canonical order of model/canonical_order.h (by names
// and positions: the same facts give the same records whatever order they were read in). Costs go
// back from the profile's event order to the part's own `events:` order. The end record carries a
// `summary:` only when the part's summary is not the header's (it was written after the body), the
// `totals:` line as stated, and the computed totals (the sum of the part's self costs). Records
// have line 0: they come from no input line.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "calltree/profile_builder.h"
#include "model/canonical_order.h"

namespace calltree {

namespace {

// v in profile event order -> the part's event order.
void to_part_order(const part& pt, std::span<const std::uint64_t> v,
                   std::vector<std::uint64_t>& out) {
  out.assign(pt.events.size(), 0);
  for (std::size_t i = 0; i < pt.events.size(); ++i)
    if (pt.events[i].index() < v.size()) out[i] = v[pt.events[i].index()];
}

std::optional<std::vector<std::uint64_t>> to_part_order(
    const part& pt, const std::optional<std::vector<std::uint64_t>>& v) {
  if (!v) return std::nullopt;
  std::vector<std::uint64_t> out;
  to_part_order(pt, *v, out);
  return out;
}

}  // namespace

void replay(const profile& p, record_sink& sink, replay_order order) {
  const detail::row_order rows =
      order == replay_order::canonical ? detail::canonical_order(p) : detail::model_order(p);
  const auto& self_order = rows.self;
  const auto& call_order = rows.calls;
  const auto& jump_order = rows.jumps;
  const auto& function_key = rows.function_key;
  std::size_t si = 0, ci = 0, ji = 0;

  auto object_of = [&](function_id f) { return p.objects[p.functions[f].object].name; };
  auto file_of = [&](function_id f) { return p.files[p.functions[f].file].name; };
  auto context_of = [&](function_id f, file_id source) {
    context c;
    c.object = object_of(f);
    c.file = file_of(f);
    c.source_file = p.files[source].name;
    c.function = p.functions[f].name;
    return c;
  };

  std::vector<std::uint64_t> costs;
  for (part_id pi : p.parts.ids()) {
    const part& pt = p.parts[pi];
    sink.on_part_begin(pt.header);

    // Skip rows of parts before this one (none unless rows name a part that does not exist).
    auto part_of_self = [&](std::size_t k) { return p.self_rows[self_order[k]].part; };
    auto part_of_call = [&](std::size_t k) { return p.calls[call_order[k]].part; };
    auto part_of_jump = [&](std::size_t k) { return p.jumps[jump_order[k]].part; };
    while (si < self_order.size() && part_of_self(si) < pi) ++si;
    while (ci < call_order.size() && part_of_call(ci) < pi) ++ci;
    while (ji < jump_order.size() && part_of_jump(ji) < pi) ++ji;

    for (;;) {
      // The next function of this part: the one with the smallest key that has rows left.
      std::optional<function_id> next;
      auto consider = [&](function_id g) {
        if (!next || function_key[g.index()] < function_key[next->index()]) next = g;
      };
      if (si < self_order.size() && part_of_self(si) == pi)
        consider(p.self_rows[self_order[si]].function);
      if (ci < call_order.size() && part_of_call(ci) == pi)
        consider(p.calls[call_order[ci]].caller);
      if (ji < jump_order.size() && part_of_jump(ji) == pi)
        consider(p.jumps[jump_order[ji]].function);
      if (!next) break;
      const function_id f = *next;

      for (; si < self_order.size() && part_of_self(si) == pi &&
             p.self_rows[self_order[si]].function == f;
           ++si) {
        const self_row& r = p.self_rows[self_order[si]];
        to_part_order(pt, p.self_costs.row(self_order[si]), costs);
        cost_record rec;
        rec.ctx = context_of(f, r.source_file);
        rec.pos = r.pos;
        rec.costs = costs;
        sink.on_cost(rec);
      }
      for (;
           ci < call_order.size() && part_of_call(ci) == pi && p.calls[call_order[ci]].caller == f;
           ++ci) {
        const call_row& r = p.calls[call_order[ci]];
        to_part_order(pt, p.call_costs.row(call_order[ci]), costs);
        call_record rec;
        rec.ctx = context_of(f, r.caller_source_file);
        rec.callee_object = object_of(r.callee);
        rec.callee_file = file_of(r.callee);
        rec.callee_function = p.functions[r.callee].name;
        rec.count = r.count;
        rec.site = r.site;
        rec.target = r.target;
        rec.has_target = r.has_target;
        rec.costs = costs;
        sink.on_call(rec);
      }
      for (; ji < jump_order.size() && part_of_jump(ji) == pi &&
             p.jumps[jump_order[ji]].function == f;
           ++ji) {
        const jump_row& r = p.jumps[jump_order[ji]];
        jump_record rec;
        rec.ctx = context_of(f, r.source_file);
        rec.conditional = r.conditional;
        rec.executed = r.executed;
        rec.followed = r.followed;
        rec.source = r.source;
        rec.target_file = p.files[r.target_file].name;
        rec.target_function = p.functions[r.target_function].name;
        rec.target = r.target;
        sink.on_jump(rec);
      }
    }

    part_end e;
    e.signed_costs = p.signed_costs;
    // The model keeps one summary: the one after the body if there was one, else the
    // header's. It goes to the end record unless it is the header's.
    e.summary = to_part_order(pt, pt.summary);
    if (e.summary && pt.header.summary && *e.summary == *pt.header.summary) e.summary.reset();
    e.totals = to_part_order(pt, pt.totals_line);
    to_part_order(pt, pt.totals, e.computed);
    sink.on_part_end(e);
  }
}

}  // namespace calltree

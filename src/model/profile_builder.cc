// profile_builder.cc — aggregates records into the profile model: each cost, call and jump
// record (or run of cost lines) into its row, found through the builder's state
// (model/builder_state.h). What it does not do: read (the reader sends the records), or look
// at a row after it is summed (analyses, reports).
#include "calltree/profile_builder.h"

#include "model/builder_access.h"
#include "model/builder_state.h"

namespace calltree {

using detail::call_in_run;
using detail::jump_in_run;
using detail::mix;
using detail::row_index;
using detail::self_in_run;
using impl = profile_builder::impl;

profile_builder::profile_builder(profile& p, diagnostic_sink* diagnostics, std::string display_name,
                                 builder_options options)
    : impl_(std::make_unique<impl>(p, diagnostics, std::move(display_name), options)) {}

profile_builder::~profile_builder() = default;

void profile_builder::set_display_name(std::string name) { impl_->display_name = std::move(name); }

bool profile_builder::limit_hit() const { return impl_->limit_hit; }

bool profile_builder::wants_no_more() const {
  return impl_->self_rows_to && impl_->self_rows_to->given_up();
}

void builder_access::stream_self_rows(profile_builder& b, self_row_stream* stream) {
  impl::of(b).self_rows_to = stream;
}

void builder_access::finish_stream(profile_builder& b) {
  auto& m = impl::of(b);
  if (m.self_rows_to) m.hand_on();
}

void builder_access::expect_input_bytes(profile_builder& b, std::uint64_t bytes) {
  impl::of(b).expect_input_bytes(bytes);
}

read_needs builder_access::streaming_sink::reader_needs() const {
  read_needs n = b_.needs();
  if (impl::of(b_).self_rows_to) n.costs = read_needs::grain::runs_merged_by_place;
  return n;
}

record_needs profile_builder::needs() const {
  const builder_options& o = impl_->opt;
  record_needs n;
  n.costs = o.keep_positions == 0 && !impl_->self_rows_to ? record_needs::grain::sums_per_context
                                                          : record_needs::grain::each_line;
  n.jumps = o.keep_jumps;
  return n;
}

void profile_builder::on_part_begin(const part_header& h) {
  auto& m = *impl_;
  if (m.limit_hit || !m.room(h.line, m.header_bytes(h))) {
    m.skip_part = true;
    return;
  }
  m.header_summary = h.summary;
  m.begin(h);
}

void profile_builder::on_cost(const cost_record& r) {
  auto& m = *impl_;
  // The row of the line before (in the same context, at the same kept position): consecutive
  // instructions of one source line when only lines are kept (annotate), every line of a
  // function when no position is, or a line written twice. Anything else, and the memory
  // limit, takes the slow path.
  if (m.last_self != row_index::empty &&
      (((r.pos.line & m.mask_line) ^ m.last_self_pos.line) |
       ((r.pos.instr & m.mask_instr) ^ m.last_self_pos.instr) |
       ((r.pos.bb & m.mask_bb) ^ m.last_self_pos.bb)) == 0 &&
      r.ctx.function == m.last_ctx.function && r.ctx.source_file == m.last_ctx.source_file &&
      r.ctx.file == m.last_ctx.file && r.ctx.object == m.last_ctx.object) {
    if (m.single_column != impl::no_column && r.costs.size() == 1) {
      std::uint64_t& dst = m.p.self_costs.row(m.last_self)[m.single_column];
      std::uint64_t sum;
      if (!__builtin_add_overflow(dst, r.costs[0], &sum)) {
        dst = sum;
        return;
      }
    }
    m.add_last(r);
    return;
  }
  m.cost_slow(r);
}

// A run of one context's cost lines (read_needs::grain::runs_of_lines): with self_rows_to,
// each line as cost_slow would take it, with the context resolved and the run's key looked at
// once. A run that starts the function's rows with its positions in increasing order (most:
// callgrind writes a block's instructions so) has a row a line, none to look up: its rows are
// added as they are, and indexed only if a later line of the function's run looks one up.
// Otherwise (the memory guard's states included) a line at a time.
void builder_access::streaming_sink::on_cost_run(const cost_run_record& r) {
  auto& m = impl::of(b_);
  if (!m.self_rows_to || m.limit_hit) return send_lines(b_, r);
  self_row row;
  row.part = m.part;
  m.resolve_context(r.ctx, row.function, row.source_file);
  const std::size_t columns = m.event_map.size();
  if (r.merged_chunk && m.rows_as_read && r.costs.size() == r.lines.size() * columns) {
    // Merged by place where it was read: the rows as they are, to the stream.
    m.hand_on();
    m.stream_key = ~0ull;
    m.self_rows_to->take_lines(m.p, row, r.lines, r.costs.data(), columns, r.merged_chunk);
    return;
  }
  const std::uint64_t key = std::uint64_t{row.part.index()} << 32 | row.function.index();
  if (key != m.stream_key) m.stream_run(key);
  auto& rows = m.p.self_rows;
  auto& costs = m.p.self_costs;
  std::size_t i = 0;
  const std::size_t n = r.lines.size();
  if (rows.empty()) {
    auto before = [](const position& a, const position& b) {
      if (a.instr != b.instr) return a.instr < b.instr;
      if (a.line != b.line) return a.line < b.line;
      return a.bb < b.bb;
    };
    rows.reserve(n);
    for (; i < n; ++i) {
      row.pos = m.keep(r.lines[i].pos);
      if (i && !before(rows.back().pos, row.pos)) break;
      rows.push_back(row);
    }
    costs.add_rows(i);  // (zeros: no sum into them overflows)
    if (m.single_column != impl::no_column && r.costs.size() == n)
      for (std::size_t k = 0; k < i; ++k) costs.row(k)[m.single_column] = r.costs[k];
    else
      for (std::size_t k = 0; k < i; ++k) m.add_costs(costs.row(k), r.costs_of(k), 0);
    if (i == n) {
      m.last_self = row_index::empty;  // (on_cost's fast path: the row of the line before)
      return;
    }
  }
  for (; i < n; ++i) {
    row.pos = m.keep(r.lines[i].pos);
    m.add_costs(costs.row(m.stream_row(row)), r.costs_of(i), r.lines[i].line);
  }
  m.last_self = row_index::empty;
}

void profile_builder::on_call(const call_record& r) {
  auto& m = *impl_;
  if (m.limit_hit) return;
  auto& p = m.p;
  call_row row;
  row.part = m.part;
  m.resolve_context(r.ctx, row.caller, row.caller_source_file);
  row.site = m.keep(r.site);
  row.callee = m.callee_for(r.callee_object, r.callee_file, r.callee_function);
  row.target = m.keep(r.target);
  row.has_target = r.has_target;
  auto same = [&](const call_row& o) {
    return o.caller == row.caller && o.part == row.part && call_in_run::same(o, row);
  };
  std::uint32_t found;
  const std::uint64_t key = std::uint64_t{row.part.index()} << 32 | row.caller.index();
  if (m.last_call != row_index::empty && same(p.calls[m.last_call])) {
    // The row of the call before: with no positions kept, a caller's calls to one callee.
    found = m.last_call;
  } else if (m.call_runs.serves(key, p.calls, [&m](std::uint32_t i) { m.index_call(i); })) {
    const std::size_t slot = m.call_runs.find(row, p.calls);
    found = m.call_runs.at(slot);
    if (found == row_index::empty) {
      if (!m.room_for_row(p.calls, &p.call_costs, r.line)) return;
      found = static_cast<std::uint32_t>(p.calls.size());
      p.calls.push_back(row);
      p.call_costs.add_row();
      m.call_runs.add(slot, found, p.calls);
    }
    m.last_call = found;
  } else {
    auto h = impl::hash_call(row);
    std::size_t slot;
    found = m.call_index.find(
        h, [&](std::uint32_t i) { return same(p.calls[i]); }, slot);
    if (found == row_index::empty) {
      if (!m.room_for_row(p.calls, &p.call_costs, r.line)) return;
      found = static_cast<std::uint32_t>(p.calls.size());
      p.calls.push_back(row);
      p.call_costs.add_row();
      m.call_index.insert(h, found, slot);
    }
    m.last_call = found;
  }
  if (!add_saturating(p.calls[found].count, r.count)) m.overflow(r.line);
  auto dst = p.call_costs.row(found);
  const auto& map = m.event_map;
  for (std::size_t i = 0; i < r.costs.size() && i < map.size(); ++i)
    if (r.costs[i] && !add_saturating(dst[map[i].index()], r.costs[i])) m.overflow(r.line);
}

void profile_builder::on_jump(const jump_record& r) {
  auto& m = *impl_;
  if (!m.opt.keep_jumps || m.limit_hit) return;
  auto& p = m.p;
  jump_row row;
  row.part = m.part;
  m.resolve_context(r.ctx, row.function, row.source_file);
  row.source = m.keep(r.source);
  row.conditional = r.conditional;
  row.target_file = m.file_for(r.target_file);
  // A jump within the function (no jfn=) targets the function itself.
  row.target_function = r.target_function == r.ctx.function
                            ? row.function
                            : m.function_for(r.ctx.object, r.target_file, r.target_function);
  row.target = m.keep(r.target);
  row.executed = row.followed = 0;
  std::uint32_t found;
  const std::uint64_t key = std::uint64_t{row.part.index()} << 32 | row.function.index();
  if (m.jump_runs.serves(key, p.jumps, [&m](std::uint32_t i) { m.index_jump(i); })) {
    const std::size_t slot = m.jump_runs.find(row, p.jumps);
    found = m.jump_runs.at(slot);
    if (found == row_index::empty) {
      if (!m.room_for_row(p.jumps, nullptr, r.line)) return;
      found = static_cast<std::uint32_t>(p.jumps.size());
      p.jumps.push_back(row);
      m.jump_runs.add(slot, found, p.jumps);
    }
  } else {
    auto h = impl::hash_jump(row);
    std::size_t slot;
    found = m.jump_index.find(
        h,
        [&](std::uint32_t i) {
          const auto& o = p.jumps[i];
          return o.part == row.part && o.function == row.function && jump_in_run::same(o, row);
        },
        slot);
    if (found == row_index::empty) {
      if (!m.room_for_row(p.jumps, nullptr, r.line)) return;
      found = static_cast<std::uint32_t>(p.jumps.size());
      p.jumps.push_back(row);
      m.jump_index.insert(h, found, slot);
    }
  }
  if (!add_saturating(p.jumps[found].executed, r.executed) ||
      !add_saturating(p.jumps[found].followed, r.followed))
    m.overflow(r.line);
}

void profile_builder::on_part_end(const part_end& e) {
  auto& m = *impl_;
  if (m.skip_part) {
    m.skip_part = false;
    return;
  }
  m.end(e);
  if (m.self_rows_to) {
    m.hand_on();
    m.stream_key = ~0ull;  // (with sum_parts, the next part's run of this function is another)
  }
  if (m.limit_in_part) {
    m.limit_in_part = false;
    m.recompute_totals(m.part);
  }
}

}  // namespace calltree

// views/annotate_sums_lines.h — (internal) annotate_direct's sums per source line: the line
// rows, call lines and sites, jumps, and each key's lines (annotate_sums.h declares them).
//
// What it is: the members of annotate_direct::impl that sum what a source or machine-code view
// shows line by line, inline (each record's path calls them). What it is not: included alone;
// annotate_sums.h includes it after the class.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "views/annotate_sums.h"

namespace calltree {

inline std::uint32_t annotate_direct::impl::line_of(std::uint32_t file, std::uint64_t line,
                                                    std::uint64_t at) {
  if (last_line_row != none && line_rows[last_line_row].file == file &&
      line_rows[last_line_row].line == line)
    return last_line_row;
  const std::uint64_t h = mix(mix(8, file), line);
  std::size_t slot;
  std::uint32_t i = line_index.find(
      h, [&](std::uint32_t j) { return line_rows[j].file == file && line_rows[j].line == line; },
      slot);
  if (i == row_index::empty) {
    if (!room(at)) return none;
    i = static_cast<std::uint32_t>(line_rows.size());
    line_index.insert(h, i, slot);
    line_rows.push_back({file, line});
    line_costs.add_row();
    if (tracking) line_given.push_back(0);
    if (layouts.size() > 1) line_layouts.push_back(0);
  }
  return last_line_row = i;
}

inline std::uint32_t annotate_direct::impl::call_line_of(std::uint32_t ck, std::uint32_t ek,
                                                         std::uint64_t line, std::uint64_t at) {
  const std::uint32_t file = source_file_of(ck);
  const std::uint64_t sh = mix(mix(9, file), line);
  std::size_t slot;
  std::uint32_t site = site_index.find(
      sh, [&](std::uint32_t i) { return sites[i].file == file && sites[i].line == line; }, slot);
  if (site == row_index::empty) {
    if (!room(at)) return none;
    site = static_cast<std::uint32_t>(sites.size());
    site_index.insert(sh, site, slot);
    sites.push_back({file, line, ck});
  }
  site_callees.note(site, ek);
  const std::uint64_t lh = mix(mix(mix(11, ck), ek), line);
  std::uint32_t li = call_line_index.find(
      lh,
      [&](std::uint32_t i) {
        const views::ann_call_line& c = call_lines[i];
        return c.caller == ck && c.callee == ek && c.line == line && c.file == file;
      },
      slot);
  if (li == row_index::empty) {
    if (!room(at)) return none;
    li = static_cast<std::uint32_t>(call_lines.size());
    call_line_index.insert(lh, li, slot);
    call_lines.push_back({ck, ek, line, 0, file});
    call_line_costs.add_row();
    if (tracking) call_line_given.push_back(0);
    if (layouts.size() > 1) call_line_layouts.push_back(0);
  }
  return li;
}

inline void annotate_direct::impl::add_quietly(std::span<std::uint64_t> dst,
                                               std::span<const std::uint64_t> costs) {
  const std::size_t n = std::min(costs.size(), event_map.size());
  for (std::size_t i = 0; i < n; ++i)
    if (costs[i]) add_saturating(dst[event_map[i].index()], costs[i]);
}

inline void annotate_direct::impl::note_key_line(std::uint32_t k, std::uint32_t file,
                                                 std::uint64_t line,
                                                 std::span<const std::uint64_t> costs) {
  if (line == 0) return;
  if (file != keys[k].file) {
    const std::uint64_t at = std::uint64_t{k} << 32 | file;
    if (at != last_span_key) {
      auto [it, fresh] = inlined_spans.try_emplace(at);
      if (fresh) it->second.row = static_cast<std::uint32_t>(span_costs.add_row());
      last_span = &it->second;
      last_span_key = at;
    }
    line_span& sp = *last_span;
    if (!costs.empty()) add_quietly(span_costs.row(sp.row), costs);
    if (sp.first == 0 || line < sp.first) sp.first = line;
    sp.last = std::max(sp.last, line);
    return;
  }
  if (k >= key_first_line.size()) {
    key_first_line.resize(keys.size(), 0);
    key_last_line.resize(keys.size(), 0);
  }
  if (key_first_line[k] == 0 || line < key_first_line[k]) key_first_line[k] = line;
  key_last_line[k] = std::max(key_last_line[k], line);
}

inline void annotate_direct::impl::jump(const jump_record& r) {
  if (!views || skip || limit_hit || !resolve(r.ctx, r.line)) return;
  const std::uint32_t k = last_key;
  if (!lines_of(k)) {
    // (Without lines, a view's function-level reading still numbers the files its jumps
    // name where a reading with lines does: its files are that reading's, one for one.)
    if (!lines) display_file(r.target_file);
    return;
  }
  const std::uint32_t file = source_file_of(k);
  const std::uint32_t target = display_file(r.target_file);
  const std::uint64_t line = r.source.line, target_line = r.target.line;
  const std::uint64_t h =
      mix(mix(mix(mix(mix(12, file), line), target), target_line), r.conditional ? 1 : 0);
  auto same = [&](std::uint32_t i) {
    const jump_entry& e = jump_rows[i];
    return e.file == file && e.line == line && e.target_file == target &&
           e.target_line == target_line && e.conditional == r.conditional;
  };
  std::size_t slot = 0;
  std::uint32_t i = jump_index.find(h, same, slot);
  if (i == row_index::empty) {
    if (!room(r.line)) return;
    i = static_cast<std::uint32_t>(jump_rows.size());
    jump_index.insert(h, i, slot);
    jump_entry e;
    e.file = file;
    e.line = line;
    e.target_file = target;
    e.target_line = target_line;
    e.conditional = r.conditional;
    jump_rows.push_back(e);
  }
  jump_entry& e = jump_rows[i];
  add_saturating(e.executed, r.executed);
  add_saturating(e.followed, r.followed);
}

}  // namespace calltree

// views/source.cc — per-line costs, calls and jumps of one source file (see source.h).
#include "views/source.h"

#include <algorithm>
#include <map>

#include "views/session.h"

namespace calltree::views {

result<source_view> annotate_source(const session& s, std::uint64_t file, const source_query& q) {
  const views::annotate_data& t = s.t;
  // (The source-line tables: t's own, or read from the file's chunks or by a second reading
  // when first asked for.)
  const std::vector<std::string>& files = s.file_names();
  if (file >= files.size())
    return error{"no file has id " + std::to_string(file) + " (there are " +
                 std::to_string(files.size()) + ")"};
  source_view out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  auto weight_col = out.columns.weight_column(q.weight_event);
  if (!weight_col) return weight_col.error();
  out.weight_column = *weight_col;
  out.file = static_cast<std::uint32_t>(file);
  if (!q.with_lines && s.lines_by_chunks()) {
    // (No lines asked for: none read. A reading of chunks has every file's lines.)
    out.has_lines = true;
    return out;
  }
  auto line_tables = s.lines_of_file(static_cast<std::uint32_t>(file));
  if (!line_tables) return line_tables.error();
  const views::annotate_data& lt = *line_tables->t;
  // (The views' sessions keep the lines of every file, found or not: annotate_direct.cc,
  // keep_view_tables.)
  out.has_lines = lt.lines && file < lt.file_lines.size();
  if (!out.has_lines || !q.with_lines) return out;
  const std::size_t ncol = out.columns.size();
  const auto& columns = out.columns.columns;
  auto values = [&](const std::uint64_t* row) {
    std::vector<std::uint64_t> v(ncol);
    for (std::size_t c = 0; c < ncol; ++c) v[c] = columns[c].value(row);
    return v;
  };
  // One part's lines: their costs, calls and jumps from a reading of that part alone, its
  // functions' spans lines()'s.
  std::shared_ptr<const part_lines> one;
  if (q.part) {
    one = s.lines_of_part(*q.part);
    if (!one->error.empty())
      return error{"the lines of part " + std::to_string(*q.part + 1) + ": " + one->error};
  }
  const annotate_data& lc = one ? one->t : lt;
  const std::vector<std::uint64_t> part_total =
      q.part ? s.part_totals(*q.part) : std::vector<std::uint64_t>();
  const std::uint64_t total =
      ncol ? columns[out.weight_column].value(q.part ? part_total.data() : t.totals.values(0)) : 0;
  const auto hot_from = static_cast<std::uint64_t>(static_cast<double>(total) * q.hot_share);

  std::map<std::uint64_t, source_line> lines;
  for (const auto& [line, row] : lc.file_lines[file]) {
    source_line& l = lines[line];
    l.line = line;
    l.self = values(lc.line_cc.values(row));
    l.hot = ncol && l.self[out.weight_column] > 0 && l.self[out.weight_column] >= hot_from;
  }
  for (std::size_t i = 0; i < lc.call_lines.size(); ++i) {
    const ann_call_line& c = lc.call_lines[i];
    if (c.file != file) continue;
    source_line& l = lines[c.line];
    l.line = c.line;
    if (l.self.empty()) l.self.assign(ncol, 0);
    const bool recursive =
        c.caller == c.callee ||
        (c.caller < t.cycle_of.size() && c.callee < t.cycle_of.size() &&
         t.cycle_of[c.caller] != 0 && t.cycle_of[c.caller] == t.cycle_of[c.callee]);
    l.calls.push_back({c.caller, c.callee, c.count, values(lc.call_line_cc.values(i)), recursive});
  }
  auto lo = std::lower_bound(lc.jumps.begin(), lc.jumps.end(), file,
                             [](const ann_jump& j, std::uint64_t f) { return j.file < f; });
  for (auto it = lo; it != lc.jumps.end() && it->file == file; ++it) {
    source_line& l = lines[it->line];
    l.line = it->line;
    if (l.self.empty()) l.self.assign(ncol, 0);
    l.jumps.push_back(
        {it->target_file, it->target_line, it->conditional, it->executed, it->followed});
  }
  for (auto& [n, l] : lines) {
    std::sort(l.calls.begin(), l.calls.end(), [&](const source_call& a, const source_call& b) {
      const std::uint64_t x = ncol ? a.cost[out.weight_column] : 0;
      const std::uint64_t y = ncol ? b.cost[out.weight_column] : 0;
      return x != y ? x > y : a.callee < b.callee;
    });
    out.lines.push_back(std::move(l));
  }
  if (line_tables->ranged) {
    for (const ann_span& own : line_tables->ranged->own)
      out.functions.push_back({own.key, own.first, own.last});
  } else {
    for (std::uint32_t k = 0; k < s.keys(); ++k)
      if (t.key_file[k] == file && k < lt.key_first_line.size() && lt.key_first_line[k])
        out.functions.push_back({k, lt.key_first_line[k], lt.key_last_line[k]});
  }
  for (const ann_span& sp : lt.key_spans)
    if (sp.file == file) out.functions.push_back({sp.key, sp.first, sp.last});
  std::sort(out.functions.begin(), out.functions.end(),
            [](const source_function& a, const source_function& b) {
              return a.first_line != b.first_line ? a.first_line < b.first_line : a.id < b.id;
            });
  return out;
}

}  // namespace calltree::views

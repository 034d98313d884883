// export/folded.cc — collapsed stacks, as flamegraph.pl, inferno and speedscope read them.
//
// One line per frame of the estimate's tree with a self cost in the event: the names from
// the root to the frame joined by ';' (without the caller context the stack shows:
// stack_frame_name), a space, the frame's exact self cost. Summed per last frame (its full
// name read back from the stack), the numbers are the functions' self costs; summed, the
// event's total. A name's own ';'
// becomes ':' and its line breaks spaces (the format has no escapes); the count is the last
// space-separated field, so spaces in names are kept.
#include <charconv>
#include <climits>
#include <string>
#include <vector>

#include "export/formats.h"
#include "export/ordered_chunks.h"
#include "export/stacks.h"
#include "views/session.h"

namespace calltree::exporting {

result<export_report> write_folded(const views::session& s, const export_options& o,
                                   const export_sink& out) {
  if (o.events.size() > 1)
    return error{"folded stacks hold one event: name one with --show (one file per event)"};
  auto made = make_stacks(s, o);
  if (!made) return made.error();
  const path_tree& tree = made->tree;
  export_report report;
  report.frames = tree.frames();
  report.estimated = tree.estimated;
  report.warnings = made->columns.warnings;
  note_filtered(report, *made);
  // (make_stacks weighs by the first column: the one written.)
  // A frame's text: its key's name, or its name without the caller context its parent shows
  // (stack_frame_name). Chunks of frames are formatted on threads (ordered_chunks.h), each
  // starting from its first frame's ancestors.
  auto format = [&](std::size_t begin, std::size_t end, chunk_text& chunk) {
    std::string path;
    std::vector<std::size_t> prefix_end;  // by depth: where the path text ends in `path`
    std::vector<std::uint32_t> key_at;    // by depth: the key of the path's frame
    auto enter = [&](std::size_t f) {
      const std::uint32_t d = tree.depth[f], k = tree.node[f];
      prefix_end.resize(d);
      key_at.resize(d);
      path.resize(d ? prefix_end[d - 1] : 0);
      if (d) path += ';';
      const std::string_view shown = stack_frame_name(
          made->name(s, k), d ? made->name(s, key_at[d - 1]) : std::string_view());
      const std::size_t at = path.size();
      path += shown;
      for (std::size_t i = at; i < path.size(); ++i) {
        const char c = path[i];
        if (c == ';')
          path[i] = ':';
        else if (c == '\n' || c == '\r')
          path[i] = ' ';
      }
      if (shown.empty()) path += '?';
      prefix_end.push_back(path.size());
      key_at.push_back(k);
    };
    for (const std::uint32_t a : ancestors(tree, begin)) enter(a);
    char num[24];
    for (std::size_t f = begin; f < end; ++f) {
      // The names are 79 MB of the real profile's pool, a frame's anywhere in it: asked for 16
      // frames ahead, the formatting waits less on them.
      if (f + 16 < end) s.prefetch_name(tree.node[f + 16]);
      enter(f);
      const std::uint64_t self = tree.self.row(f)[0];
      if (!self) continue;
      chunk.text += path;
      chunk.text += ' ';
      auto [e, ec] = std::to_chars(num, num + sizeof num, self);
      chunk.text.append(num, e);
      chunk.text += '\n';
    }
  };
  format_in_order(tree.frames(), o.threads, format, [&](chunk_text& c) {
    if (!c.text.empty()) out(c.text);
  });
  return report;
}

}  // namespace calltree::exporting

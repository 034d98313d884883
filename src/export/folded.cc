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

#include "export/formats.h"
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
  // (make_stacks weighs by the first column: the one written.)
  // A frame's text: its key's name, or its name without the caller context its parent
  // shows (stack_frame_name); each form made once per key.
  std::vector<std::string> full(s.keys()), shortened(s.keys());
  auto text_of = [&](std::uint32_t k, std::uint32_t parent) -> const std::string& {
    const std::string_view name = s.name(k);
    const std::string_view shown =
        stack_frame_name(name, parent == UINT32_MAX ? std::string_view() : s.name(parent));
    std::string& n = shown.size() == name.size() ? full[k] : shortened[k];
    if (n.empty()) {
      n = std::string(shown);
      for (char& c : n)
        if (c == ';')
          c = ':';
        else if (c == '\n' || c == '\r')
          c = ' ';
      if (n.empty()) n.push_back('?');
    }
    return n;
  };
  buffered_sink b(out);
  std::vector<std::size_t> prefix_end;  // by depth: where the path text ends in `path`
  std::vector<std::uint32_t> key_at;    // by depth: the key of the path's frame
  std::string path;
  char num[24];
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t d = tree.depth[f];
    prefix_end.resize(d);
    key_at.resize(d);
    path.resize(d ? prefix_end[d - 1] : 0);
    if (d) path += ';';
    path += text_of(tree.node[f], d ? key_at[d - 1] : UINT32_MAX);
    prefix_end.push_back(path.size());
    key_at.push_back(tree.node[f]);
    const std::uint64_t self = tree.self.row(f)[0];
    if (!self) continue;
    std::string& buf = b.buf();
    buf += path;
    buf += ' ';
    auto [end, ec] = std::to_chars(num, num + sizeof num, self);
    buf.append(num, end);
    buf += '\n';
    b.maybe_flush();
  }
  return report;
}

}  // namespace calltree::exporting

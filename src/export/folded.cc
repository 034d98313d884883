// export/folded.cc — collapsed stacks, as flamegraph.pl, inferno and speedscope read them.
//
// One line per frame of the estimate's tree with a self cost in the event: the names from
// the root to the frame joined by ';', a space, the frame's exact self cost. Summed per last
// name, the numbers are the functions' self costs; summed, the event's total. A name's own ';'
// becomes ':' and its line breaks spaces (the format has no escapes); the count is the last
// space-separated field, so spaces in names are kept.
#include <charconv>

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
  std::vector<std::string> names(s.keys());
  auto name_of = [&](std::uint32_t k) -> const std::string& {
    std::string& n = names[k];
    if (n.empty()) {
      n = std::string(frame_name(s, k));
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
  std::string path;
  char num[24];
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t d = tree.depth[f];
    prefix_end.resize(d);
    path.resize(d ? prefix_end[d - 1] : 0);
    if (d) path += ';';
    path += name_of(tree.node[f]);
    prefix_end.push_back(path.size());
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

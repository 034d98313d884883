// export/flamegraph.cc — a standalone interactive flame graph SVG, as flamegraph.pl draws one.
//
// The estimate's exact tree of the first event (docs/estimate.md), roots at the bottom, each
// frame a box whose width is its total (a frame's children side by side on top of it, the
// heaviest first, its self cost the part of its width they leave), coloured by a hash of its
// name in flamegraph.pl's "hot" tones, labelled with its name without the caller context its
// parent shows (stack_frame_name, as the folded export writes it). Each box's <title> (the browser's tooltip) says the
// function, its file, its total and its share; boxes narrower than 0.1 px are not drawn (their
// cost stays inside their parent's width), as flamegraph.pl's --minwidth. The script
// (flamegraph_script.h) zooms on click and searches by regular expression. No Perl, no
// network: one file that any browser opens.
#include <charconv>
#include <cstdio>

#include "export/flamegraph_script.h"
#include "export/formats.h"
#include "export/stacks.h"
#include "views/session.h"

namespace calltree::exporting {

namespace {

constexpr double plot_width = 1180, pad = 10, frame_height = 16, min_width = 0.1;

void append_xml(std::string& out, std::string_view s) {
  for (unsigned char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // (XML 1.0 has no control characters but tab, newline and carriage return)
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += '?';
        else
          out += static_cast<char>(c);
    }
  }
}

std::string with_thousands(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

std::uint32_t fnv(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

std::string fmt(const char* f, double v) {
  char b[48];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

}  // namespace

result<export_report> write_flamegraph(const views::session& s, const export_options& o,
                                       const export_sink& out) {
  auto made = make_stacks(s, o);
  if (!made) return made.error();
  const path_tree& tree = made->tree;
  const std::string& event = made->columns.columns[0].name;
  export_report report;
  report.frames = tree.frames();
  report.estimated = tree.estimated;
  note_filtered(report, *made);
  report.warnings = made->columns.warnings;
  std::uint64_t total = 0;
  std::uint32_t max_depth = 0;
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    if (tree.depth[f] == 0) total += tree.total.row(f)[0];
  }
  const double scale = total ? plot_width / static_cast<double>(total) : 0;
  // Which frames are drawn, and their x (in cost units, from the left).
  std::vector<std::uint64_t> start(tree.frames(), 0), next(1, 0);
  std::vector<char> drawn(tree.frames(), 0);
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t d = tree.depth[f];
    const std::uint64_t t = tree.total.row(f)[0];
    start[f] = next[d];
    next[d] += t;
    next.resize(d + 1);
    next.push_back(start[f]);
    const bool parent_drawn = tree.parent[f] == path_tree::no_frame || drawn[tree.parent[f]];
    drawn[f] = parent_drawn && t && static_cast<double>(t) * scale >= min_width;
    if (drawn[f]) max_depth = std::max(max_depth, d);
  }
  const double height = (max_depth + 2) * frame_height + 3 * frame_height + 2 * pad;
  const std::string title = o.title.empty() ? s.input_name : o.title;
  buffered_sink b(out);
  std::string& buf = b.buf();
  buf += "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" width=\"" +
         fmt("%.0f", plot_width + 2 * pad) + "\" height=\"" + fmt("%.0f", height) +
         "\" viewBox=\"0 0 " + fmt("%.0f", plot_width + 2 * pad) + " " + fmt("%.0f", height) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" data-plot-width=\"" + fmt("%.0f", plot_width) +
         "\" data-total=\"" + std::to_string(total) + "\" data-event=\"";
  append_xml(buf, event);
  buf +=
      "\">\n<style>text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; } "
      "#frames g:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; } "
      "#reset, #search { cursor: pointer; }</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n"
      "<text x=\"" +
      fmt("%.0f", (plot_width + 2 * pad) / 2) +
      "\" y=\"20\" text-anchor=\"middle\" style=\"font-size: 16px\">";
  append_xml(buf, title);
  buf += " — ";
  append_xml(buf, event);
  buf +=
      "</text>\n<text id=\"reset\" x=\"10\" y=\"20\" style=\"opacity: 0\">Reset Zoom</text>\n"
      "<text id=\"search\" x=\"" +
      fmt("%.0f", plot_width - 90) + "\" y=\"20\">Search</text>\n<text id=\"matched\" x=\"" +
      fmt("%.0f", plot_width - 90) + "\" y=\"" + fmt("%.0f", height - 8) +
      "\"></text>\n<text x=\"10\" y=\"" + fmt("%.0f", height - 8) + "\">";
  buf += tree.estimated ? "Stacks estimated from the call graph (calltree docs/estimate.md); "
                          "self costs exact. Click to zoom, Ctrl-F to search."
                        : "Click to zoom, Ctrl-F to search.";
  buf += "</text>\n<g id=\"frames\">\n";
  // flamegraph.pl's "all": the whole program at the bottom, the roots on it.
  const double base_y = height - 2 * frame_height - pad - frame_height;
  buf += "<g data-d=\"0\" data-x=\"0\" data-w=\"";
  buf += fmt("%.4f", plot_width);
  buf += "\" data-total=\"";
  buf += std::to_string(total);
  buf += "\" data-self=\"0\" data-name=\"all\"><title>all: ";
  buf += with_thousands(total);
  buf += ' ';
  append_xml(buf, event);
  buf += ", 100%</title><rect x=\"";
  buf += fmt("%.4f", pad);
  buf += "\" y=\"";
  buf += fmt("%.1f", base_y);
  buf += "\" width=\"";
  buf += fmt("%.4f", total ? plot_width : 0);
  buf += "\" height=\"";
  buf += fmt("%.1f", frame_height - 1);
  buf += "\" rx=\"2\" fill=\"rgb(250,120,60)\"/><text x=\"";
  buf += fmt("%.4f", pad + 3);
  buf += "\" y=\"";
  buf += fmt("%.1f", base_y + frame_height - 4);
  buf += "\">all</text></g>\n";
  std::vector<std::uint32_t> key_at;  // by depth: the key of the current path's frame
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t k = tree.node[f];
    key_at.resize(tree.depth[f]);
    key_at.push_back(k);
    if (!drawn[f]) continue;
    const std::uint64_t t = tree.total.row(f)[0];
    const double x = static_cast<double>(start[f]) * scale;
    const double w = static_cast<double>(t) * scale;
    const double y = base_y - (tree.depth[f] + 1) * frame_height;
    const std::string_view name = made->name(s, k);
    // The box shows the name without the caller context its parent shows (as the folded
    // export writes it); the tooltip and the search keep the full name.
    const std::string_view shown =
        stack_frame_name(name, tree.depth[f] ? made->name(s, key_at[tree.depth[f] - 1]) : "");
    const std::uint32_t h = fnv(name);
    buf += "<g data-d=\"" + std::to_string(tree.depth[f] + 1) + "\" data-x=\"" + fmt("%.4f", x) +
           "\" data-w=\"" + fmt("%.4f", w) + "\" data-total=\"" + std::to_string(t) +
           "\" data-self=\"" + std::to_string(tree.self.row(f)[0]) + "\" data-name=\"";
    append_xml(buf, name);
    if (shown.size() != name.size()) {
      buf += "\" data-label=\"";
      append_xml(buf, shown);
    }
    buf += "\"><title>";
    append_xml(buf, name);
    buf += " (";
    append_xml(buf, s.file(k));
    buf += "): " + with_thousands(t) + " ";
    append_xml(buf, event);
    buf += ", " + fmt("%.2f", 100.0 * static_cast<double>(t) / static_cast<double>(total)) +
           "%</title><rect x=\"" + fmt("%.4f", pad + x) + "\" y=\"" + fmt("%.1f", y) +
           "\" width=\"" + fmt("%.4f", w) + "\" height=\"" + fmt("%.1f", frame_height - 1) +
           "\" rx=\"2\" fill=\"rgb(" + std::to_string(205 + h % 51) + "," +
           std::to_string((h >> 8) % 230) + "," + std::to_string((h >> 16) % 56) +
           ")\"/><text x=\"" + fmt("%.4f", pad + x + 3) + "\" y=\"" +
           fmt("%.1f", y + frame_height - 4) + "\">";
    // (the script's label(): as many characters as fit at 7 px each)
    const std::size_t chars = static_cast<std::size_t>(w / 7);
    if (chars >= 3) {
      if (shown.size() <= chars)
        append_xml(buf, shown);
      else {
        append_xml(buf, shown.substr(0, chars - 2));
        buf += "..";
      }
    }
    buf += "</text></g>\n";
    b.maybe_flush();
  }
  buf += "</g>\n<script type=\"text/ecmascript\"><![CDATA[";
  buf += flamegraph_script;
  buf += "]]></script>\n</svg>\n";
  b.flush();
  return report;
}

}  // namespace calltree::exporting

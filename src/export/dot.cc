// export/dot.cc — the call graph in Graphviz DOT, drawn the way gprof2dot draws it.
//
// gprof2dot's defaults (https://github.com/jrfonseca/gprof2dot): one box per function whose
// inclusive cost is at least node_thres % (0.5) of the total, labelled with its name, its
// inclusive % and, in brackets, its self %, and the number of calls into it ("N×"); one arrow
// per call of at least edge_thres % (0.1) between two shown functions, labelled with its
// inclusive % and its count; colours from gprof2dot's temperature map (dark blue at 0 %,
// saturated red at 100 %, interpolated in HSL), arrows wider with their share. Costs are the
// weight event's (the first exported), for the parts chosen; inclusive costs are annotate's
// (recursion and cycles counted once). No estimate is involved: nodes and arrows are the
// file's own functions and calls.
#include <cmath>
#include <cstdio>

#include "export/formats.h"
#include "export/stacks.h"
#include "views/session.h"

namespace calltree::exporting {

namespace {

double hue_to_rgb(double m1, double m2, double h) {
  if (h < 0.0)
    h += 1.0;
  else if (h > 1.0)
    h -= 1.0;
  if (h * 6 < 1.0) return m1 + (m2 - m1) * h * 6.0;
  if (h * 2 < 1.0) return m2;
  if (h * 3 < 2.0) return m1 + (m2 - m1) * (2.0 / 3.0 - h) * 6.0;
  return m1;
}

// gprof2dot's TEMPERATURE_COLORMAP: hsl from (2/3, 0.80, 0.25) to (0.0, 1.0, 0.5).
std::string heat_colour(double weight) {
  weight = std::min(std::max(weight, 0.0), 1.0);
  double h = 2.0 / 3.0 + weight * (0.0 - 2.0 / 3.0);
  const double s = 0.80 + weight * (1.0 - 0.80);
  const double l = 0.25 + weight * (0.5 - 0.25);
  h = std::fmod(h, 1.0);
  const double m2 = l <= 0.5 ? l * (s + 1.0) : l + s - l * s;
  const double m1 = l * 2.0 - m2;
  const double rgb[3] = {hue_to_rgb(m1, m2, h + 1.0 / 3.0), hue_to_rgb(m1, m2, h),
                         hue_to_rgb(m1, m2, h - 1.0 / 3.0)};
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x",
                static_cast<unsigned>(std::lround(std::min(std::max(rgb[0], 0.0), 1.0) * 255)),
                static_cast<unsigned>(std::lround(std::min(std::max(rgb[1], 0.0), 1.0) * 255)),
                static_cast<unsigned>(std::lround(std::min(std::max(rgb[2], 0.0), 1.0) * 255)));
  return out;
}

// A DOT double-quoted string's contents.
void append_dot_text(std::string& out, std::string_view s) {
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
}

std::string percent(std::uint64_t v, double total) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f%%", total > 0 ? 100.0 * static_cast<double>(v) / total : 0.0);
  return b;
}

std::string fixed2(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

}  // namespace

result<export_report> write_dot(const views::session& s, const export_options& o,
                                const export_sink& out) {
  auto cols = export_columns(s, o);
  if (!cols) return cols.error();
  export_report report;
  report.warnings = cols->warnings;
  auto pc = s.costs_of(o.parts);
  const views::column& w = cols->columns[0];
  const double total = static_cast<double>(w.value(pc->totals()));
  const std::size_t nk = s.keys();
  std::vector<char> shown(nk, 0);
  for (std::uint32_t k = 0; k < nk; ++k)
    shown[k] = pc->present(k) && total > 0 &&
               100.0 * static_cast<double>(w.value(pc->inclusive(k))) >= o.node_thres * total;
  // Calls into each function (gprof2dot's "N×"): its callers' counts, self-calls left out.
  std::vector<std::uint64_t> calls_in(nk, 0);
  for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
    const auto& c = s.t.calls[ci];
    if (pc->call_present(ci) && c.caller != c.callee) calls_in[c.callee] += pc->count(ci);
  }
  buffered_sink b(out);
  std::string& buf = b.buf();
  buf += "digraph {\n\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25, label=\"";
  append_dot_text(buf, o.title.empty() ? s.input_name : o.title);
  buf += " (";
  append_dot_text(buf, w.name);
  buf +=
      ")\", labelloc=t];\n"
      "\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=filled, "
      "width=0];\n\tedge [fontname=Arial];\n";
  for (std::uint32_t k = 0; k < nk; ++k) {
    if (!shown[k]) continue;
    const std::uint64_t incl = w.value(pc->inclusive(k));
    const double weight = static_cast<double>(incl) / total;
    const std::string colour = heat_colour(weight);
    buf += "\t\"k" + std::to_string(k) + "\" [color=\"" + colour +
           "\", fontcolor=\"#ffffff\", fontsize=\"10.00\", tooltip=\"";
    append_dot_text(buf, s.file(k));
    buf += "\", label=\"";
    append_dot_text(buf, s.name(k));
    buf += "\\n" + percent(incl, total) + "\\n(" + percent(w.value(pc->self(k)), total) + ")";
    if (calls_in[k]) buf += "\\n" + std::to_string(calls_in[k]) + "×";
    buf += "\"];\n";
    b.maybe_flush();
  }
  for (std::uint32_t ci = 0; ci < s.t.calls.size(); ++ci) {
    if (!pc->call_present(ci)) continue;
    const auto& c = s.t.calls[ci];
    if (c.caller == c.callee || !shown[c.caller] || !shown[c.callee]) continue;
    const std::uint64_t cost = w.value(pc->call(ci));
    if (100.0 * static_cast<double>(cost) < o.edge_thres * total) continue;
    const double weight = static_cast<double>(cost) / total;
    const double pen = std::max(weight * 4.0, 0.5);
    const std::string colour = heat_colour(weight);
    buf += "\t\"k" + std::to_string(c.caller) + "\" -> \"k" + std::to_string(c.callee) +
           "\" [arrowsize=\"" + fixed2(std::sqrt(pen) * 0.5) + "\", color=\"" + colour +
           "\", fontcolor=\"" + colour + "\", fontsize=\"10.00\", label=\"" + percent(cost, total) +
           "\\n" + std::to_string(pc->count(ci)) + "×\", labeldistance=\"" +
           fixed2(std::max(weight * 4.0 / 4.0, 0.5)) + "\", penwidth=\"" + fixed2(pen) + "\"];\n";
    b.maybe_flush();
  }
  buf += "}\n";
  b.flush();
  return report;
}

}  // namespace calltree::exporting

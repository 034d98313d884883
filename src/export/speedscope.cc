// export/speedscope.cc — speedscope's file format
// (https://www.speedscope.app/file-format-schema.json).
//
// One "sampled" profile per event and part (a file of one part: per event): its samples are
// the frames of that part's estimate tree with a self cost (each a stack of indexes into the
// shared frames, root first) and its weights their exact self costs, in the event's unit
// (speedscope's units: Xdebug's Time_(10ns) in nanoseconds, each count times 10; counts are
// "none"). Summed per frame, the weights are the functions' self costs; summed, the total.
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "calltree/version.h"
#include "export/formats.h"
#include "export/ordered_chunks.h"
#include "export/stacks.h"
#include "report/json.h"
#include "views/session.h"

namespace calltree::exporting {

namespace {

// speedscope's units: bytes, microseconds, milliseconds, nanoseconds, none, seconds.
// (The unit is returned as a copy: `u` is often a temporary.)
std::pair<std::string, std::uint64_t> speedscope_unit(const event_unit& u) {
  if (u.unit == "bytes" || u.unit == "microseconds" || u.unit == "milliseconds" ||
      u.unit == "nanoseconds" || u.unit == "seconds")
    return {u.unit, u.scale};
  if (u.unit == "kilobytes") return {"bytes", u.scale * 1000};
  return {"none", u.scale};
}

}  // namespace

result<export_report> write_speedscope(const views::session& s, const export_options& o,
                                       const export_sink& out) {
  auto cols = export_columns(s, o);
  if (!cols) return cols.error();
  const auto selections = part_selections(s, o);
  export_report report;
  report.warnings = cols->warnings;
  std::vector<std::uint32_t> frame_of(s.keys(), UINT32_MAX);
  std::vector<std::uint32_t> frame_keys;
  bool first_profile = true;
  char num[24];
  auto append_number = [&](std::string& to, std::uint64_t v) {
    auto [end, ec] = std::to_chars(num, num + sizeof num, v);
    to.append(num, end);
  };
  buffered_sink b(out);
  std::string& buf = b.buf();
  buf += "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":";
  append_json_string(buf, std::string("calltree ") + CALLTREE_VERSION);
  buf += ",\"name\":";
  append_json_string(buf, o.title.empty() ? s.input_name : o.title);
  buf += ",\"activeProfileIndex\":0,\"profiles\":[";
  std::map<std::uint32_t, std::string> renamed;
  for (const auto& parts : selections) {
    for (std::size_t c = 0; c < cols->size(); ++c) {
      // One tree per event, weighed by it (each profile is the estimate of its own event).
      export_options one = o;
      one.parts = parts;
      one.events = {cols->columns[c].name};
      auto made = make_stacks(s, one);
      if (!made) return made.error();
      const path_tree& tree = made->tree;
      report.frames += tree.frames();
      report.estimated |= tree.estimated;
      note_filtered(report, *made);
      for (const auto& r : made->renamed) renamed.insert(r);  // (a transform's names)
      for (auto& w : made->columns.warnings) report.warnings.push_back(std::move(w));
      const auto [unit, unit_scale] = speedscope_unit(unit_of(cols->columns[c].name));
      const std::uint64_t scale = unit_scale;  // (clang 14 captures no structured binding)
      // The header needs the total: the sum of the frames' self costs, first.
      std::uint64_t total = 0;
      for (std::size_t f = 0; f < tree.frames(); ++f) total += scaled(tree.self.row(f)[0], scale);
      if (!first_profile) buf += ',';
      first_profile = false;
      buf += "{\"type\":\"sampled\",\"name\":";
      std::string name = cols->columns[c].name;
      if (!parts.empty()) name += ", part " + std::to_string(parts[0] + 1);
      append_json_string(buf, name);
      buf += ",\"unit\":\"";
      buf += unit;
      buf += "\",\"startValue\":0,\"endValue\":";
      append_number(buf, total);
      // The frames' indexes in order of first use, in a first pass; then chunks of samples
      // are formatted on threads (ordered_chunks.h), each stack's text its parent's and one
      // index (kept by depth), not every index again. The weights wait in their own string.
      for (const std::uint32_t k : tree.node)
        if (frame_of[k] == UINT32_MAX) {
          frame_of[k] = static_cast<std::uint32_t>(frame_keys.size());
          frame_keys.push_back(k);
        }
      auto format = [&](std::size_t begin, std::size_t end, chunk_text& chunk) {
        std::string path;                     // "i,j,k" of the current frame's stack
        std::vector<std::size_t> prefix_end;  // by depth: where that frame's text ends in `path`
        char digits[24];
        auto enter = [&](std::size_t f) {
          const std::uint32_t d = tree.depth[f];
          prefix_end.resize(d);
          path.resize(d ? prefix_end[d - 1] : 0);
          if (d) path += ',';
          auto [e, ec] = std::to_chars(digits, digits + sizeof digits, frame_of[tree.node[f]]);
          path.append(digits, e);
          prefix_end.push_back(path.size());
        };
        for (const std::uint32_t a : ancestors(tree, begin)) enter(a);
        for (std::size_t f = begin; f < end; ++f) {
          enter(f);
          const std::uint64_t self = scaled(tree.self.row(f)[0], scale);
          if (!self) continue;
          chunk.text += ",[";
          chunk.text += path;
          chunk.text += ']';
          chunk.side += ',';
          auto [e, ec] = std::to_chars(digits, digits + sizeof digits, self);
          chunk.side.append(digits, e);
        }
      };
      buf += ",\"samples\":[";
      b.flush();
      std::string weights = "[";
      bool started = false, weighed = false;
      format_in_order(tree.frames(), o.threads, format, [&](chunk_text& chunk) {
        if (!chunk.text.empty()) out(without_first_separator(chunk.text, started));
        weights += without_first_separator(chunk.side, weighed);
      });
      weights += ']';
      buf += "],\"weights\":";
      b.flush();
      out(weights);
      buf += '}';
    }
  }
  buf += "],\"shared\":{\"frames\":[";
  b.flush();
  // (the names, 76 MB of JSON on the real profile, in chunks on threads as the samples)
  auto format_frames = [&](std::size_t begin, std::size_t end, chunk_text& chunk) {
    std::string& text = chunk.text;
    char digits[24];
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t k = frame_keys[i];
      text += ",{\"name\":";
      const auto re = renamed.find(k);
      append_json_string(text, re == renamed.end() ? s.name(k) : std::string_view(re->second));
      text += ",\"file\":";
      append_json_string(text, s.file(k));
      if (k < s.t.key_first_line.size() && s.t.key_first_line[k]) {
        text += ",\"line\":";
        auto [e, ec] = std::to_chars(digits, digits + sizeof digits, s.t.key_first_line[k]);
        text.append(digits, e);
      }
      text += '}';
    }
  };
  bool started = false;
  format_in_order(frame_keys.size(), o.threads, format_frames, [&](chunk_text& chunk) {
    if (!chunk.text.empty()) out(without_first_separator(chunk.text, started));
  });
  buf += "]}}\n";
  b.flush();
  return report;
}

}  // namespace calltree::exporting

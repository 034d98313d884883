// export/chrome.cc — Chrome / Perfetto trace-event JSON of the estimate's tree.
//
// The trace-event format (chrome://tracing, ui.perfetto.dev) is a timeline; a profile has
// none, so the tree is laid out as a flame graph is: each frame of the estimate's tree (of
// the first event) is one complete event ("ph":"X") whose duration is the frame's total, its
// children placed one after another from its start (heaviest first), its own self cost after
// them. Each part is a thread of its own (tid = part number; a file of one part: tid 1).
// Durations are in microseconds, the trace format's unit: a count event is taken as one count
// per µs; a time event is converted (Xdebug's Time_(10ns): one count is 0.01 µs). A fraction
// of a µs is written in steps of 1/1024 µs, not as the exact decimal: the readers add `ts` and
// `dur` in binary floating point (Chrome DevTools' trace engine does), and 0.001-steps do not
// add up exactly there, so a child ending where its sibling starts (21921.654 + 3.728) seemed to
// overlap it and was hung under the wrong parent. Multiples of 1/1024 add exactly in a double
// (below 2^43 µs); each frame's start and end are rounded to the nearest step and its
// duration is their difference, so frames still nest and tile exactly, within half a
// nanosecond of the true times. Each event's args carry the frame's file and its exact self
// cost in every exported event, so summed per function they are `annotate`'s self costs.
#include <algorithm>
#include <charconv>
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

// A time in µs as the trace's ticks: whole µs (div 1), or 1/1024 µs when a count is a
// fraction of a µs (div 1000 for ns, 100 for Time_(10ns)); see the comment at the top.
__extension__ using u128 = unsigned __int128;

struct to_micros {
  std::uint64_t mul = 1, div = 1;
  static constexpr unsigned frac_bits = 10;
  std::uint64_t ticks(std::uint64_t v) const {
    v = scaled(v, mul);
    if (div == 1) return v;
    const u128 t = ((static_cast<u128>(v) << frac_bits) + div / 2) / div;
    return static_cast<std::uint64_t>(t);
  }
  void append(std::string& out, std::uint64_t t) const {
    char num[24];
    const std::uint64_t whole = div == 1 ? t : t >> frac_bits;
    auto [end, ec] = std::to_chars(num, num + sizeof num, whole);
    out.append(num, end);
    const std::uint64_t frac = div == 1 ? 0 : t & ((1u << frac_bits) - 1);
    if (frac) {  // frac/1024 = frac * 9765625 / 10^10, exactly
      std::string digits = std::to_string(frac * 9765625 + 10000000000ull).substr(1);
      while (digits.back() == '0') digits.pop_back();
      out += '.';
      out += digits;
    }
  }
};

to_micros micros_of(const event_unit& u) {
  to_micros m;
  m.mul = u.scale;
  if (u.unit == "nanoseconds")
    m.div = 1000;
  else if (u.unit == "milliseconds")
    m.mul = scaled(m.mul, 1000);
  else if (u.unit == "seconds")
    m.mul = scaled(m.mul, 1000000);
  return m;
}

}  // namespace

result<export_report> write_chrome(const views::session& s, const export_options& o,
                                   const export_sink& out) {
  auto cols = export_columns(s, o);
  if (!cols) return cols.error();
  const auto selections = part_selections(s, o);
  export_report report;
  report.warnings = cols->warnings;
  const to_micros micros = micros_of(unit_of(cols->columns[0].name));
  buffered_sink b(out);
  std::string& buf = b.buf();
  char num[24];
  auto number = [&](std::uint64_t v) {
    auto [end, ec] = std::to_chars(num, num + sizeof num, v);
    buf.append(num, end);
  };
  buf += "{\"displayTimeUnit\":\"";
  buf += micros.div > 1 ? "ns" : "ms";
  buf += "\",\"otherData\":{\"exporter\":";
  append_json_string(buf, std::string("calltree ") + CALLTREE_VERSION);
  buf += ",\"input\":";
  append_json_string(buf, s.input_name);
  buf += ",\"weight_event\":";
  append_json_string(buf, cols->columns[0].name);
  // (A file that records its stacks, in every part exported: they are drawn, not estimated.)
  const bool recorded = s.stacks.any() && s.stacks.missing(o.parts).empty();
  buf += recorded ? ",\"note\":\"durations are the stacks the file records; exact\"}"
                  : ",\"note\":\"durations are the call paths estimated from the call graph "
                    "(docs/estimate.md); self costs exact\"}";
  buf += ",\"traceEvents\":[";
  buf += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":";
  append_json_string(buf, o.title.empty() ? s.input_name : o.title);
  buf += "}}";
  for (const auto& parts : selections) {
    export_options one = o;
    one.parts = parts;
    auto made = make_stacks(s, one);
    if (!made) return made.error();
    const path_tree& tree = made->tree;
    const std::size_t ncol = made->columns.size();
    report.frames += tree.frames();
    report.estimated |= tree.estimated;
    note_filtered(report, *made);
    const std::uint64_t tid = parts.empty() ? 1 : parts[0] + 1;
    buf += ",{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":";
    number(tid);
    buf += ",\"args\":{\"name\":";
    append_json_string(buf, parts.empty() ? cols->columns[0].name
                                          : "part " + std::to_string(parts[0] + 1) + " (" +
                                                cols->columns[0].name + ")");
    buf += "}}";
    // Start of each frame: its parent's start plus its earlier siblings' totals (a first
    // pass); then chunks of frames are formatted on threads (ordered_chunks.h).
    // A frame's interval is cut to its parent's end: the estimate may leave the children of a
    // frame a few units more than it (rounding, docs/estimate.md), and a trace's events must
    // nest (a reader that finds a child ending after its parent takes it for a root).
    std::vector<std::uint64_t> start(tree.frames()), span(tree.frames());
    std::vector<std::uint64_t> next_start;  // by depth: where the next child starts
    std::vector<std::uint64_t> end_of;      // by depth: where that frame ends
    std::uint64_t root_start = 0;
    for (std::size_t f = 0; f < tree.frames(); ++f) {
      const std::uint32_t d = tree.depth[f];
      const std::uint64_t total = tree.total.row(f)[0];
      if (d == 0) {
        start[f] = root_start;
        span[f] = total;
        root_start += total;
      } else {
        start[f] = std::min(next_start[d - 1], end_of[d - 1]);
        span[f] = std::min(total, end_of[d - 1] - start[f]);
        next_start[d - 1] = start[f] + span[f];
      }
      next_start.resize(d);
      end_of.resize(d);
      next_start.push_back(start[f]);
      end_of.push_back(start[f] + span[f]);
    }
    auto format = [&](std::size_t begin, std::size_t end, chunk_text& chunk) {
      std::string& text = chunk.text;
      char digits[24];
      auto append_number = [&](std::uint64_t v) {
        auto [e, ec] = std::to_chars(digits, digits + sizeof digits, v);
        text.append(digits, e);
      };
      for (std::size_t f = begin; f < end; ++f) {
        const std::uint64_t total = tree.total.row(f)[0];
        bool any = total != 0;
        for (std::size_t c = 0; c < ncol && !any; ++c) any = tree.self.row(f)[c] != 0;
        if (!any) continue;  // (a frame of no cost in any event)
        const std::uint32_t k = tree.node[f];
        text += ",{\"name\":";
        append_json_string(text, s.name(k));
        text += ",\"cat\":\"function\",\"ph\":\"X\",\"pid\":1,\"tid\":";
        append_number(tid);
        const std::uint64_t first = micros.ticks(start[f]), last = micros.ticks(start[f] + span[f]);
        text += ",\"ts\":";
        micros.append(text, first);
        text += ",\"dur\":";
        micros.append(text, last - first);
        text += ",\"args\":{\"file\":";
        append_json_string(text, s.file(k));
        text += ",\"self\":{";
        for (std::size_t c = 0; c < ncol; ++c) {
          if (c) text += ',';
          append_json_string(text, made->columns.columns[c].name);
          text += ':';
          append_number(tree.self.row(f)[c]);
        }
        text += "}}}";
      }
    };
    b.flush();
    format_in_order(tree.frames(), o.threads, format, [&](chunk_text& chunk) {
      if (!chunk.text.empty()) out(chunk.text);
    });
  }
  buf += "]}\n";
  b.flush();
  return report;
}

}  // namespace calltree::exporting

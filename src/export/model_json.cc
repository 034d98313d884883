// export/model_json.cc — the model as JSON ("calltree-model", docs/json.md).
//
// Written row by row from the model (profile.h) as it is: tables of names referred to by
// index (objects, files, functions), events with their long names and formulas, parts with
// their headers and totals, then every self-cost row, call row and jump row with its part and
// positions. Costs are arrays in the order of "events" (recorded events only: derived ones
// are formulas over them); addresses are hex strings ("0x4011a0": exact at any size, as
// objdump prints them); other numbers are exact integers.
#include <charconv>

#include "calltree/profile.h"
#include "export/export.h"
#include "export/formats.h"
#include "report/json.h"

namespace calltree {

namespace {

struct writer {
  exporting::buffered_sink b;
  std::string& buf;
  explicit writer(const export_sink& out) : b(out), buf(b.buf()) {}
  void num(std::uint64_t v) {
    char t[24];
    auto [end, ec] = std::to_chars(t, t + sizeof t, v);
    buf.append(t, end);
  }
  void hex(std::uint64_t v) {
    char t[24];
    auto [end, ec] = std::to_chars(t, t + sizeof t, v, 16);
    buf += "\"0x";
    buf.append(t, end);
    buf += '"';
  }
  void str(std::string_view s) { append_json_string(buf, s); }
  void costs(std::span<const std::uint64_t> row) {
    buf += '[';
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) buf += ',';
      num(row[i]);
    }
    buf += ']';
  }
  void optional_costs(const std::optional<std::vector<std::uint64_t>>& v) {
    if (v)
      costs(*v);
    else
      buf += "null";
  }
  // "line":N,"instr":"0x..","bb":"0x.." for the kinds the model has.
  void pos(std::string_view prefix, const position& p, std::uint8_t kinds) {
    if (kinds & pos_line) {
      buf += ",\"";
      buf += prefix;
      buf += "line\":";
      num(p.line);
    }
    if (kinds & pos_instr) {
      buf += ",\"";
      buf += prefix;
      buf += "instr\":";
      hex(p.instr);
    }
    if (kinds & pos_bb) {
      buf += ",\"";
      buf += prefix;
      buf += "bb\":";
      hex(p.bb);
    }
  }
};

}  // namespace

status export_model_json(const profile& p, const std::string& input, const export_sink& out) {
  writer w(out);
  std::string& buf = w.buf;
  std::vector<std::uint32_t> recorded;  // model event ids of the recorded events
  for (std::uint32_t e = 0; e < p.events.size(); ++e)
    if (p.events[e].recorded) recorded.push_back(e);
  std::vector<std::uint64_t> row(recorded.size());
  auto pick = [&](std::span<const std::uint64_t> all) {
    for (std::size_t i = 0; i < recorded.size(); ++i) row[i] = all[recorded[i]];
    return std::span<const std::uint64_t>(row);
  };
  auto pick_opt = [&](const std::optional<std::vector<std::uint64_t>>& v)
      -> std::optional<std::vector<std::uint64_t>> {
    if (!v) return std::nullopt;
    pick(*v);
    return row;
  };
  buf += "{\"schema\":\"calltree-model\",\"version\":1,\"input\":";
  w.str(input);
  buf += ",\"positions\":[";
  bool first = true;
  for (auto [bit, name] : {std::pair{pos_line, "line"}, {pos_instr, "instr"}, {pos_bb, "bb"}})
    if (p.positions & bit) {
      if (!first) buf += ',';
      first = false;
      buf += '"';
      buf += name;
      buf += '"';
    }
  buf += "],\"events\":[";
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    const event_type& e = p.events[recorded[i]];
    if (i) buf += ',';
    buf += "{\"name\":";
    w.str(e.name);
    buf += ",\"long_name\":";
    w.str(e.long_name);
    buf += '}';
  }
  buf += "],\"derived_events\":[";
  first = true;
  for (const event_type& e : p.events) {
    if (e.recorded || e.formula.empty()) continue;
    if (!first) buf += ',';
    first = false;
    buf += "{\"name\":";
    w.str(e.name);
    buf += ",\"long_name\":";
    w.str(e.long_name);
    buf += ",\"formula\":";
    w.str(e.formula);
    buf += '}';
  }
  buf += "],\"objects\":[";
  for (std::size_t i = 0; i < p.objects.size(); ++i) {
    if (i) buf += ',';
    w.str(p.object_name(static_cast<object_id>(i)));
  }
  buf += "],\"files\":[";
  for (std::size_t i = 0; i < p.files.size(); ++i) {
    if (i) buf += ',';
    w.str(p.file_name(static_cast<file_id>(i)));
    w.b.maybe_flush();
  }
  buf += "],\"functions\":[";
  for (std::size_t i = 0; i < p.functions.size(); ++i) {
    const function& f = p.functions[i];
    if (i) buf += ',';
    buf += "{\"object\":";
    w.num(f.object);
    buf += ",\"file\":";
    w.num(f.file);
    buf += ",\"name\":";
    w.str(p.strings.view(f.name));
    buf += '}';
    w.b.maybe_flush();
  }
  buf += "],\"parts\":[";
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const part& pt = p.parts[i];
    if (i) buf += ',';
    buf += "{\"index\":";
    w.num(i + 1);
    buf += ",\"creator\":";
    w.str(pt.header.creator);
    buf += ",\"cmd\":";
    w.str(pt.header.cmd);
    for (auto [key, v] : {std::pair{"pid", pt.header.pid},
                          {"thread", pt.header.thread},
                          {"part", pt.header.part_number}}) {
      buf += ",\"";
      buf += key;
      buf += "\":";
      if (v)
        w.num(*v);
      else
        buf += "null";
    }
    buf += ",\"descriptions\":[";
    for (std::size_t d = 0; d < pt.header.descriptions.size(); ++d) {
      if (d) buf += ',';
      buf += "{\"type\":";
      w.str(pt.header.descriptions[d].first);
      buf += ",\"value\":";
      w.str(pt.header.descriptions[d].second);
      buf += '}';
    }
    buf += "],\"events\":[";
    for (std::size_t e = 0; e < pt.header.events.size(); ++e) {
      if (e) buf += ',';
      w.str(pt.header.events[e]);
    }
    buf += "],\"summary\":";
    w.optional_costs(pick_opt(pt.summary));
    buf += ",\"totals_line\":";
    w.optional_costs(pick_opt(pt.totals_line));
    buf += ",\"totals\":";
    w.costs(pick(pt.totals));
    buf += '}';
  }
  buf += "],\"costs\":[";
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const self_row& r = p.self_rows[i];
    if (i) buf += ',';
    buf += "\n{\"part\":";
    w.num(r.part + 1);
    buf += ",\"function\":";
    w.num(r.function);
    buf += ",\"file\":";
    w.num(r.source_file);
    w.pos("", r.pos, p.positions);
    buf += ",\"self\":";
    w.costs(pick(p.self_costs.row(i)));
    buf += '}';
    w.b.maybe_flush();
  }
  buf += "],\"calls\":[";
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const call_row& r = p.calls[i];
    if (i) buf += ',';
    buf += "\n{\"part\":";
    w.num(r.part + 1);
    buf += ",\"caller\":";
    w.num(r.caller);
    buf += ",\"file\":";
    w.num(r.caller_source_file);
    w.pos("", r.site, p.positions);
    buf += ",\"callee\":";
    w.num(r.callee);
    if (r.has_target) w.pos("target_", r.target, p.positions);
    buf += ",\"count\":";
    w.num(r.count);
    buf += ",\"inclusive\":";
    w.costs(pick(p.call_costs.row(i)));
    buf += '}';
    w.b.maybe_flush();
  }
  buf += "],\"jumps\":[";
  for (std::size_t i = 0; i < p.jumps.size(); ++i) {
    const jump_row& r = p.jumps[i];
    if (i) buf += ',';
    buf += "\n{\"part\":";
    w.num(r.part + 1);
    buf += ",\"function\":";
    w.num(r.function);
    buf += ",\"file\":";
    w.num(r.source_file);
    w.pos("", r.source, p.positions);
    buf += ",\"conditional\":";
    buf += r.conditional ? "true" : "false";
    buf += ",\"executed\":";
    w.num(r.executed);
    buf += ",\"followed\":";
    w.num(r.followed);
    buf += ",\"target_function\":";
    w.num(r.target_function);
    buf += ",\"target_file\":";
    w.num(r.target_file);
    w.pos("target_", r.target, p.positions);
    buf += '}';
    w.b.maybe_flush();
  }
  buf += "]}\n";
  return ok();
}

}  // namespace calltree

// cfg_json.cc — one function's control-flow graph as a JSON object (docs/json.md, "cfg"):
// addresses as hex strings, costs exact integers keyed by event name, as asm_json writes them.
#include <cstdio>

#include "asm/json_parts.h"
#include "calltree/cfg.h"
#include "report/json.h"

namespace calltree {

std::string cfg_json(const asm_view& v, const cfg_view& g) {
  json_writer j;
  j.begin_object();
  j.key("function").value(v.name);
  j.key("file").value(v.file);
  j.key("object").value(v.object);
  j.key("status").value(to_string(v.status));
  j.key("message").value(v.message);
  j.key("events").begin_array();
  for (const auto& e : v.events) j.value(e);
  j.end_array();
  j.key("totals");
  detail::event_costs(j, v, v.totals);
  j.key("self");
  detail::event_costs(j, v, v.self);
  j.key("left_out");
  detail::event_costs(j, v, g.left_out);
  j.key("blocks").begin_array();
  for (std::size_t b = 0; b < g.blocks.size(); ++b) {
    const auto& k = g.blocks[b];
    j.begin_object();
    j.key("index").value(static_cast<std::uint64_t>(b));
    j.key("from").value(detail::hex_address(k.from));
    j.key("to").value(detail::hex_address(k.to));
    j.key("entry").value(k.entry);
    j.key("executed");
    if (k.executed)
      j.value(*k.executed);
    else
      j.null();
    j.key("self");
    detail::event_costs(j, v, k.self);
    j.key("instructions").begin_array();
    for (std::size_t i = k.first; i <= k.last && i < v.instructions.size(); ++i) {
      const auto& in = v.instructions[i];
      j.begin_object();
      j.key("address").value(detail::hex_address(in.address));
      j.key("text").value(in.operands.empty() ? in.mnemonic : in.mnemonic + ' ' + in.operands);
      j.key("self");
      detail::event_costs(j, v, in.self);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("edges").begin_array();
  for (const auto& e : g.edges) {
    j.begin_object();
    j.key("from").value(static_cast<std::uint64_t>(e.from));
    j.key("to");
    if (e.to >= 0)
      j.value(e.to);
    else
      j.null();
    j.key("kind").value(e.kind == cfg_edge_kind::taken ? "taken" : "fall_through");
    j.key("conditional").value(e.conditional);
    j.key("count");
    if (e.count)
      j.value(*e.count);
    else
      j.null();
    j.key("executed").value(e.executed);
    j.key("target").value(detail::hex_address(e.target));
    j.key("target_function");
    if (e.target_function.empty())
      j.null();
    else
      j.value(e.target_function);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace calltree

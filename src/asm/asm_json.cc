// asm_json.cc — one function's asm view as a JSON object (docs/json.md, "asm"). Addresses
// are hex strings ("0x1230": exact whatever their size, and as objdump prints them); costs
// and counts are exact integers keyed by event name, as in every calltree JSON document.
#include <cstdio>

#include "asm/json_parts.h"
#include "calltree/asm.h"
#include "report/json.h"

namespace calltree {

std::string asm_json(const asm_view& v) {
  json_writer j;
  j.begin_object();
  j.key("function").value(v.name);
  j.key("file").value(v.file);
  j.key("object").value(v.object);
  j.key("status").value(to_string(v.status));
  j.key("message").value(v.message);
  j.key("notes").begin_array();
  for (const auto& n : v.notes) j.value(n);
  j.end_array();
  j.key("object_path").value(v.object_path);
  j.key("objdump").value(v.objdump_command);
  j.key("symbol");
  if (v.symbol) {
    j.begin_object();
    j.key("name").value(v.symbol->name);
    j.key("address").value(detail::hex_address(v.symbol->address));
    j.key("size").value(v.symbol->size);
    j.end_object();
  } else {
    j.null();
  }
  j.key("ranges").begin_array();
  for (const auto& r : v.ranges) {
    j.begin_object();
    j.key("from").value(detail::hex_address(r.from));
    j.key("to").value(detail::hex_address(r.to));
    j.end_object();
  }
  j.end_array();
  j.key("events").begin_array();
  for (const auto& e : v.events) j.value(e);
  j.end_array();
  j.key("totals");
  detail::event_costs(j, v, v.totals);
  j.key("self");
  detail::event_costs(j, v, v.self);
  j.key("instructions").begin_array();
  for (const auto& in : v.instructions) {
    j.begin_object();
    j.key("address").value(detail::hex_address(in.address));
    j.key("bytes").value(in.bytes);
    j.key("mnemonic").value(in.mnemonic);
    j.key("operands").value(in.operands);
    j.key("target");
    if (in.branch_target)
      j.value(detail::hex_address(*in.branch_target));
    else
      j.null();
    j.key("profiled").value(in.profiled);
    j.key("file").value(in.source_file);
    j.key("line").value(in.line);
    j.key("self");
    detail::event_costs(j, v, in.self);
    j.key("hot").value(in.hot);
    j.key("gap_before").value(in.gap_before);
    j.key("calls").begin_array();
    for (const auto& c : in.calls) {
      j.begin_object();
      j.key("callee").value(c.callee);
      j.key("file").value(c.callee_file);
      j.key("object").value(c.callee_object);
      j.key("count").value(c.count);
      j.key("inclusive");
      detail::event_costs(j, v, c.inclusive);
      j.end_object();
    }
    j.end_array();
    j.key("jumps").begin_array();
    for (const auto& x : in.jumps) {
      j.begin_object();
      j.key("conditional").value(x.conditional);
      j.key("executed").value(x.executed);
      j.key("followed").value(x.followed);
      j.key("target").value(detail::hex_address(x.target));
      j.key("target_index");
      if (x.target_index >= 0)
        j.value(x.target_index);
      else
        j.null();
      j.key("target_function");
      if (x.target_function.empty())
        j.null();
      else
        j.value(x.target_function);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace calltree

// json_parts.h — (internal) what asm_json.cc and cfg_json.cc write alike: an address as a hex
// string, and a row of costs as an object keyed by the view's event names.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "calltree/asm.h"
#include "report/json.h"

namespace calltree::detail {

inline std::string hex_address(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

inline void event_costs(json_writer& j, const asm_view& v, const std::vector<std::uint64_t>& c) {
  j.begin_object();
  for (std::size_t i = 0; i < v.events.size() && i < c.size(); ++i) j.key(v.events[i]).value(c[i]);
  j.end_object();
}

}  // namespace calltree::detail

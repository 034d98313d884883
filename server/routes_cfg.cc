// server/routes_cfg.cc — GET /api/v1/cfg/ID: a function's control-flow graph, its basic
// blocks with their costs and the edges between them with the profile's jump counts
// (calltree/cfg.h; docs/serve.md, "Control flow"). Made from the machine code the asm route
// makes (the profile read again for the function, objdump, the kept answers and slots of
// routes_asm.cc), with Ir among the events whenever the profile has it: an instruction's Ir
// is its count of executions, which gives the blocks' counts and the fall-through edges'.
#include "api_impl.h"
#include "calltree/cfg.h"

namespace calltree::server::detail {

response route_cfg(const request& r, const views::session& s, std::string_view segment,
                   asm_cache& cache) {
  static const machine_code_writer cfg_writer{
      "cfg", true, [](const asm_view& v) { return cfg_json(v, make_cfg(v)); }};
  return route_machine_code(r, s, segment, cache, cfg_writer);
}

}  // namespace calltree::server::detail

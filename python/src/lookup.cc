// lookup.cc — functions_named and top_ids (tables.h).
#include "calltree/analysis/callers.h"
#include "tables.h"

namespace calltree::python {

std::vector<std::uint32_t> functions_named(const profile_handle& h, const std::string& name) {
  std::vector<std::uint32_t> out;
  for (function_id f : find_functions(h.model(), name)) out.push_back(f.index());
  return out;
}

std::vector<std::uint32_t> top_ids(const profile_handle& h, std::size_t n, std::size_t event,
                                   bool inclusive) {
  std::vector<std::uint32_t> out;
  py::gil_scoped_release no_gil;
  for (function_id f : top_functions(h.inclusive(), event_id{event},
                                     inclusive ? cost_kind::inclusive : cost_kind::self, n))
    out.push_back(f.index());
  return out;
}

}  // namespace calltree::python

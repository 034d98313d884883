// function_table.cc — function_table (tables.h): Profile.functions()'s columns.
#include <string>

#include "calltree/cost_matrix.h"
#include "convert.h"
#include "names.h"
#include "tables.h"

namespace calltree::python {

py::dict function_table(const profile_handle& h) {
  const profile& p = h.model();
  const std::size_t n = p.functions.size(), events = p.events.size();
  std::vector<std::vector<cost>> self(events, std::vector<cost>(n)),
      inclusive(events, std::vector<cost>(n));
  std::vector<cost> calls(n, 0);
  {
    py::gil_scoped_release no_gil;
    const inclusive_result& inc = h.inclusive();
    h.own_files();
    for (std::size_t f = 0; f < n; ++f) {
      const auto s = inc.self.row(f), i = inc.inclusive.row(f);
      for (std::size_t e = 0; e < events; ++e) {
        self[e][f] = s[e];
        inclusive[e][f] = i[e];
      }
    }
    // The calls into a function from every other function (its cycle's members too), as the
    // function list of `calltree serve` counts them.
    for (const call_row& c : p.calls)
      if (c.caller != c.callee) add_saturating(calls[c.callee.index()], c.count);
  }
  py::dict table;
  name_columns names(p, h.own_files());
  for (function_id f : p.functions.ids()) names.add(f);
  names.put(table);
  table["calls"] = column(std::move(calls));
  for (std::size_t e = 0; e < events; ++e) {
    const std::string& event = p.events[event_id{e}].name;
    table[text("self:" + event)] = cost_column(std::move(self[e]), p.signed_costs);
    table[text("inclusive:" + event)] = cost_column(std::move(inclusive[e]), p.signed_costs);
  }
  return table;
}

}  // namespace calltree::python

// call_table.cc — call_table (tables.h): Profile.callers() and callees()'s columns.
#include <string>

#include "calltree/analysis/callers.h"
#include "convert.h"
#include "names.h"
#include "tables.h"

namespace calltree::python {

py::dict call_table(const profile_handle& h, std::uint32_t f, bool callers) {
  const profile& p = h.model();
  function_calls calls;
  {
    py::gil_scoped_release no_gil;
    calls = calls_of(p, h.inclusive(), function_id{f});
    h.own_files();
  }
  const std::vector<call_summary>& rows = callers ? calls.callers : calls.callees;
  const std::size_t events = p.events.size();
  std::vector<std::uint32_t> ids;
  std::vector<cost> count;
  std::vector<bool> recursive_bits;
  std::vector<std::vector<cost>> inclusive(events);
  name_columns names(p, h.own_files());
  for (const call_summary& c : rows) {
    ids.push_back(c.function.index());
    count.push_back(c.count);
    recursive_bits.push_back(c.recursive);
    for (std::size_t e = 0; e < events; ++e) inclusive[e].push_back(c.inclusive[e]);
    names.add(c.function);
  }
  py::dict table;
  table["id"] = column(std::move(ids));
  names.put(table);
  table["count"] = column(std::move(count));
  py::list recursive;
  for (bool r : recursive_bits) recursive.append(py::bool_(r));
  table["recursive"] = recursive;
  for (std::size_t e = 0; e < events; ++e)
    table[text("inclusive:" + p.events[event_id{e}].name)] = cost_column(std::move(inclusive[e]), p.signed_costs);
  return table;
}

}  // namespace calltree::python

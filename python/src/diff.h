// diff.h — calltree.diff(): two profiles' functions matched and compared, as `calltree diff
// --json` compares them (calltree/analysis/diff.h: diff_profiles, select_functions), with its
// defaults: the functions listed are those of the JSON's "functions", in its order, with its
// numbers (old, new, delta, percent rounded to 4 decimals, NaN where the JSON has null).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "handle.h"

namespace calltree::python {

namespace py = pybind11;

// `calltree diff`'s options, by their flags' names.
struct diff_request {
  double threshold = 0.1;              // --threshold (percent)
  std::size_t limit = 0;               // --limit (0: none)
  std::vector<std::string> sort;       // --sort (event names; empty: the first compared)
  bool inclusive = false;              // --inclusive=yes
  std::vector<std::string> mod_filename, mod_funcname;  // s/OLD/NEW/ rewrites
  bool ignore_object = false;          // --ignore-object
  bool strip_recursion = false;        // --strip-recursion
  std::optional<std::uint32_t> part;   // --part=N (1-based); default all parts summed
};

// (columns, info): columns a dict of the listed functions' columns (name, file, object,
// change, then for each compared event E: self:E:old, self:E:new, self:E:delta,
// self:E:percent and the same for inclusive:E); info a dict of events, old_only_events,
// new_only_events, totals ({E: {old, new, delta, percent}}), counts and saturated.
py::tuple diff_tables(const profile_handle& old_profile, const profile_handle& new_profile,
                      const diff_request& request);

}  // namespace calltree::python

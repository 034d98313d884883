// tables.h — a profile's functions and calls as columns, for pandas: the native side of
// Profile.functions(), callers(), callees() and top() (python/calltree/_profile.py makes the
// DataFrames).
//
// A table is a dict of columns, each a list of str or a numpy array of costs, one entry per
// row. The numbers are the library's: self and inclusive costs of compute_inclusive (recursion
// and cycles counted once, as `calltree annotate` and `calltree serve` count them), callers and
// callees of calls_of. Names (the heavy part of a big profile's table) are made once per
// distinct object and file.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "handle.h"

namespace calltree::python {

namespace py = pybind11;

// One row per function, in id order: name, file, object, calls (the calls into it from every
// other function), then self:E and inclusive:E for each event E.
py::dict function_table(const profile_handle& h);

// The callers (or callees) of function `f`, one row per other function, the heaviest first:
// id, name, file, object, count, recursive, then inclusive:E for each event.
py::dict call_table(const profile_handle& h, std::uint32_t f, bool callers);

// The ids of the functions named `name` (the whole name), ascending.
std::vector<std::uint32_t> functions_named(const profile_handle& h, const std::string& name);

// The ids of the `n` functions of highest self (or inclusive) cost of event `event`, the
// highest first, ties by id, none without cost.
std::vector<std::uint32_t> top_ids(const profile_handle& h, std::size_t n, std::size_t event,
                                   bool inclusive);

}  // namespace calltree::python

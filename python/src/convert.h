// convert.h — library values as Python values: names as str, cost columns as numpy arrays.
//
// Names are bytes in the file; Python's str takes them as UTF-8, a byte that is not UTF-8 read
// as U+FFFD (as calltree's JSON writes it). Costs are the library's cost type, whatever it is
// (`cost`): a column of them is a numpy array of that type, one copy, no Python int per value.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "calltree/cost_matrix.h"

namespace calltree::python {

namespace py = pybind11;

// The library's cost: what a cost row holds.
using cost = std::remove_cvref_t<decltype(std::declval<const cost_matrix&>().row(0)[0])>;

// `name` as a Python str (UTF-8, bad bytes as U+FFFD).
py::str text(std::string_view name);

// `values` as a one-dimensional numpy array (moved into it: no copy).
template <typename T>
py::array_t<T> column(std::vector<T>&& values) {
  auto* owner = new std::vector<T>(std::move(values));
  py::capsule free_when_done(owner, [](void* v) { delete static_cast<std::vector<T>*>(v); });
  return py::array_t<T>({owner->size()}, {sizeof(T)}, owner->data(), free_when_done);
}

// A column of costs: int64 in a profile of differences (profile::signed_costs: each cost is a
// signed number held as its bit pattern, cost_matrix.h), else the cost type. No copy: the
// signed view reads the same bytes (a signed and an unsigned integer of one size may alias).
inline py::array cost_column(std::vector<cost>&& values, bool signed_costs) {
  if (!signed_costs) return column(std::move(values));
  auto* owner = new std::vector<cost>(std::move(values));
  py::capsule free_when_done(owner, [](void* v) { delete static_cast<std::vector<cost>*>(v); });
  using signed_cost = std::make_signed_t<cost>;
  return py::array_t<signed_cost>({owner->size()}, {sizeof(signed_cost)},
                                  reinterpret_cast<const signed_cost*>(owner->data()),
                                  free_when_done);
}

}  // namespace calltree::python

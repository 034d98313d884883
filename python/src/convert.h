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

}  // namespace calltree::python

// names.h — the name columns of a table (tables.h): a function's name, file and object as
// Python str, each distinct file and object made once and shared by its rows.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "calltree/profile.h"

namespace calltree::python {

namespace py = pybind11;

class name_columns {
 public:
  explicit name_columns(const profile& p);
  // Appends function f's name, file and object.
  void add(function_id f);
  // Sets "name", "file" and "object" in `table`.
  void put(py::dict& table);

 private:
  py::object cached(std::vector<py::object>& cache, std::uint32_t index, std::string_view name);
  const profile& p_;
  py::list name_, file_, object_;
  std::vector<py::object> files_, objects_;
};

}  // namespace calltree::python

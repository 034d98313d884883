// names.h — the name columns of a table (tables.h): a function's name, file and object as
// Python str, each distinct file and object made once and shared by its rows.
//
// A function's `file` is its own file, the file its code is in: of the source files of its
// self-cost lines (the fl= file, or the fi=/fe= file in force: inlined code), the one holding
// most of its self cost of the first event. That is the fl= file but where the file's first
// line of the function was inlined code: Valgrind names g::dijkstra's fl= `stl_vector.h` when
// its first instruction is an inlined std::vector call, though its code is in graph.cc. A
// function without self cost keeps its fl= file.
#pragma once

#include <pybind11/pybind11.h>

#include <span>
#include <vector>

#include "calltree/profile.h"

namespace calltree::python {

namespace py = pybind11;

// Every function's own file (above), by function id. Needs no GIL.
std::vector<file_id> own_files(const profile& p);

class name_columns {
 public:
  // `own` is own_files(p).
  name_columns(const profile& p, std::span<const file_id> own);
  // Appends function f's name, file and object.
  void add(function_id f);
  // Sets "name", "file" and "object" in `table`.
  void put(py::dict& table);

 private:
  py::object cached(std::vector<py::object>& cache, std::uint32_t index, std::string_view name);
  const profile& p_;
  std::span<const file_id> own_;
  py::list name_, file_, object_;
  std::vector<py::object> files_, objects_;
};

}  // namespace calltree::python

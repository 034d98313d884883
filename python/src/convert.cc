// convert.cc — text (convert.h).
#include "convert.h"

namespace calltree::python {

py::str text(std::string_view name) {
  PyObject* s = PyUnicode_DecodeUTF8(name.data(), static_cast<Py_ssize_t>(name.size()), "replace");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

}  // namespace calltree::python

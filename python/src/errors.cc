// errors.cc — raise_error (errors.h).
#include "errors.h"

#include "convert.h"

namespace calltree::python {

namespace py = pybind11;

void raise_error(const error& e) {
  py::object cls = py::module_::import("calltree._errors").attr("Error");
  // (Its kind: a FileNotFoundError for not-found, ...; errno that of the failed system call.)
  py::object exception = cls(py::str(std::string(to_string(e.code))), text(e.message),
                             py::arg("errno") = e.sys_errno ? py::object(py::int_(e.sys_errno)) : py::none());
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
  throw py::error_already_set();
}

void raise_argument_error(const std::string& message) { raise_error(error{message}); }

}  // namespace calltree::python

// errors.h — the library's errors as Python's calltree.Error (python/calltree/_errors.py).
//
// A failed call raises calltree.Error(code, message): `code` the library's code string
// ("not-found", "no-profile", "other", ...), `message` the library's (about a file: beginning
// with its name). The exception class is Python's, looked up when raised, so the native module
// and the package agree on one class.
#pragma once

#include <string>

#include "calltree/result.h"

namespace calltree::python {

// Throws pybind11::error_already_set with calltree.Error set. Needs the GIL.
[[noreturn]] void raise_error(const error& e);

// A bad argument: calltree.Error with code "other".
[[noreturn]] void raise_argument_error(const std::string& message);

}  // namespace calltree::python

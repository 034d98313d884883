// names.cc — name_columns (names.h).
#include "names.h"

#include "convert.h"

namespace calltree::python {

name_columns::name_columns(const profile& p)
    : p_(p), files_(p.files.size()), objects_(p.objects.size()) {}

py::object name_columns::cached(std::vector<py::object>& cache, std::uint32_t index,
                                std::string_view name) {
  py::object& slot = cache[index];
  if (!slot) slot = text(name);
  return slot;
}

void name_columns::add(function_id f) {
  const function& fn = p_.functions[f];
  name_.append(text(p_.function_name(f)));
  file_.append(cached(files_, fn.file.index(), p_.file_name(fn.file)));
  object_.append(cached(objects_, fn.object.index(), p_.object_name(fn.object)));
}

void name_columns::put(py::dict& table) {
  table["name"] = name_;
  table["file"] = file_;
  table["object"] = object_;
}

}  // namespace calltree::python

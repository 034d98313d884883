// module.cc — the native module calltree._calltree: the library's calls as the package
// (python/calltree/) uses them. Every call that reads, computes over a whole profile or writes
// releases the GIL while it runs; Python objects are made before and after.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "diff.h"
#include "errors.h"
#include "handle.h"
#include "loaded.h"
#include "stacks.h"
#include "tables.h"
#include "totals.h"
#include "write.h"

namespace calltree::python {
namespace {

using handle_ptr = std::shared_ptr<profile_handle>;

template <typename Read>
handle_ptr read_with(Read read) {
  std::optional<result<std::unique_ptr<loaded_profile>>> r;
  {
    py::gil_scoped_release no_gil;
    r.emplace(read());
  }
  if (!*r) raise_error(r->error());
  return std::make_shared<profile_handle>(std::move(**r));
}

handle_ptr load(const std::string& path, unsigned threads, bool positions) {
  return read_with([&] { return load_file(path, read_request{threads, positions}); });
}

handle_ptr merge(const std::vector<std::string>& paths, bool keep_parts, unsigned threads) {
  return read_with([&] { return merge_files(paths, keep_parts, read_request{threads, true}); });
}

py::list event_names(const profile_handle& h) {
  py::list out;
  for (const event_type& e : h.model().events) out.append(text(e.name));
  return out;
}

py::dict totals(const profile_handle& h) {
  const profile& p = h.model();
  const std::vector<std::uint64_t> values = profile_totals(p);
  py::dict out;
  for (event_id e : p.events.ids()) out[text(p.events[e].name)] = (p.signed_costs ? py::int_(as_signed(values[e.index()])) : py::int_(values[e.index()]));
  return out;
}

py::list diagnostics(const profile_handle& h) {
  py::list out;
  for (const diagnostic& d : h.loaded().diagnostics.kept())
    out.append(py::make_tuple(py::str(std::string(to_string(d.severity))),
                              py::str(std::string(to_string(d.code))), d.line, d.column,
                              text(d.message)));
  return out;
}

std::size_t event_index(const profile_handle& h, std::size_t event) {
  if (event >= h.model().events.size()) raise_argument_error("no event of index " + std::to_string(event));
  return event;
}

// Profile.stacks' transforms, as _profile.py gives them: (name, search, path) in order, where
// search is a callable (a compiled pattern's search: a match or None) or None.
std::vector<path_transform> transform_steps(const py::list& given) {
  static const std::pair<std::string_view, path_transform::kind> kinds[] = {
      {"merge_clones", path_transform::kind::merge_clones},
      {"collapse_object", path_transform::kind::collapse_object},
      {"collapse_recursion", path_transform::kind::collapse_recursion},
      {"collapse_direct_recursion", path_transform::kind::collapse_direct_recursion},
      {"focus_path", path_transform::kind::focus_path}};
  std::vector<path_transform> out;
  for (const py::handle item : given) {
    const auto step = item.cast<py::tuple>();
    const auto name = step[0].cast<std::string>();
    path_transform t;
    bool known = false;
    for (const auto& k : kinds)
      if (k.first == name) {
        t.what = k.second;
        known = true;
      }
    if (!known) raise_argument_error("no transform " + name);
    if (!step[1].is_none()) {
      // (Held by a shared_ptr: the library copies the function while the GIL is released,
      // which must not touch the object's reference count; called back with the GIL.)
      auto search = std::make_shared<py::object>(py::reinterpret_borrow<py::object>(step[1]));
      t.match = [search](std::string_view s) {
        py::gil_scoped_acquire gil;
        return !(*search)(text(s)).is_none();
      };
    }
    for (const py::handle n : step[2].cast<py::list>()) t.path.push_back(n.cast<std::string>());
    out.push_back(std::move(t));
  }
  return out;
}

std::string stacks(const profile_handle& h, std::size_t event, const py::list& transforms) {
  event = event_index(h, event);
  const std::vector<path_transform> steps = transform_steps(transforms);
  // (Folded stacks carry counts: a profile of differences has negative ones, as `calltree
  // export --to=folded` says.)
  if (h.model().signed_costs)
    raise_argument_error("the profile holds differences (negative costs, as cg_diff writes): "
                         "folded stacks cannot show a negative cost");
  py::gil_scoped_release no_gil;
  return folded_stacks(h.model(), event, steps);
}

void write_to(const profile_handle& h, const std::string& path) {
  std::optional<status> s;
  {
    py::gil_scoped_release no_gil;
    s.emplace(write_file(h.model(), path, h.loaded().creator));
  }
  if (!*s) raise_error(s->error());
}

py::dict calls(const profile_handle& h, std::uint32_t f, bool callers) {
  if (f >= h.model().functions.size()) raise_argument_error("no function of id " + std::to_string(f));
  return call_table(h, f, callers);
}

}  // namespace
}  // namespace calltree::python

PYBIND11_MODULE(_calltree, m) {
  using namespace calltree;          // NOLINT(google-build-using-namespace)
  using namespace calltree::python;  // NOLINT(google-build-using-namespace)
  m.doc() =
      "calltree's C++ library, native side (use the calltree package: calltree.load, "
      "calltree.diff, calltree.merge).";
  py::class_<profile_handle, handle_ptr>(
      m, "NativeProfile", "A profile read by the library (the calltree.Profile behind it).")
      .def_property_readonly("events", &event_names, "The events' names, in the profile's order.")
      .def_property_readonly(
          "parts", [](const profile_handle& h) { return h.model().parts.size(); },
          "The number of parts.")
      .def_property_readonly(
          "function_count", [](const profile_handle& h) { return h.model().functions.size(); },
          "The number of functions.")
      .def_property_readonly("totals", &totals, "{event: total} by the stated-total rule.")
      .def_property_readonly("diagnostics", &diagnostics,
                             "(severity, code, line, column, message) of each diagnostic kept.")
      .def_property_readonly(
          "complete", [](const profile_handle& h) { return h.loaded().complete(); },
          "True when the whole file was read and it looks whole.")
      .def_property_readonly(
          "state", [](const profile_handle& h) { return std::string(to_string(h.loaded().state)); },
          "complete, likely-truncated or stopped.")
      .def_property_readonly(
          "counts",
          [](const profile_handle& h) {
            const diagnostic_collector& d = h.loaded().diagnostics;
            return py::make_tuple(d.errors(), d.warnings(), d.notes());
          },
          "(errors, warnings, notes): every diagnostic counted.")
      .def("functions", &function_table, "Columns of every function (id order).")
      .def("calls", &calls, py::arg("function"), py::arg("callers"),
           "Columns of the callers (callers=True) or callees of a function id.")
      .def("find", &functions_named, py::arg("name"), "Ids of the functions of this whole name.")
      .def("top", &top_ids, py::arg("n"), py::arg("event"), py::arg("inclusive"),
           "Ids of the n functions of highest cost of an event index.")
      .def("stacks", &stacks, py::arg("event"), py::arg("transforms"),
           "Folded stacks of an event index, as text, transformed by (name, search, path) steps.")
      .def("write", &write_to, py::arg("path"), "Writes the profile as a callgrind file.");

  py::class_<diff_request>(m, "DiffRequest", "calltree diff's options.")
      .def(py::init<>())
      .def_readwrite("threshold", &diff_request::threshold)
      .def_readwrite("limit", &diff_request::limit)
      .def_readwrite("sort", &diff_request::sort)
      .def_readwrite("inclusive", &diff_request::inclusive)
      .def_readwrite("mod_filename", &diff_request::mod_filename)
      .def_readwrite("mod_funcname", &diff_request::mod_funcname)
      .def_readwrite("ignore_object", &diff_request::ignore_object)
      .def_readwrite("strip_recursion", &diff_request::strip_recursion)
      .def_readwrite("part", &diff_request::part);

  m.attr("version") = CALLTREE_VERSION;
  m.def("load", &load, py::arg("path"), py::arg("threads"), py::arg("positions"),
        "Reads a profile file (bytes path; threads 0: one per core; positions: keep every "
        "position column). Raises calltree.Error.");
  m.def("merge", &merge, py::arg("paths"), py::arg("keep_parts"), py::arg("threads"),
        "Reads several files into one profile. Raises calltree.Error.");
  m.def("diff", &diff_tables, py::arg("old"), py::arg("new"), py::arg("request"),
        "(columns, info) of two profiles compared as `calltree diff --json` does.");
}

// names.cc — name_columns (names.h).
#include "names.h"

#include <cstdint>
#include <unordered_map>

#include "convert.h"

namespace calltree::python {

std::vector<file_id> own_files(const profile& p) {
  std::vector<file_id> own(p.functions.size());
  for (function_id f : p.functions.ids()) own[f.index()] = p.functions[f].file;
  if (p.events.empty()) return own;
  // Self cost of the first event per (function, source file), by its size (a profile of
  // differences: a fall is code too); only the files other than fl= need a table.
  std::vector<std::uint64_t> in_own(p.functions.size(), 0);
  std::unordered_map<std::uint64_t, std::uint64_t> elsewhere;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    const self_row& row = p.self_rows[r];
    if (!p.functions.contains(row.function)) continue;
    const std::uint64_t c = cost_magnitude(p.self_costs.row(r)[0], p.signed_costs);
    std::uint64_t& sum = row.source_file == p.functions[row.function].file
                             ? in_own[row.function.index()]
                             : elsewhere[std::uint64_t{row.function.index()} << 32 | row.source_file.index()];
    sum = c > UINT64_MAX - sum ? UINT64_MAX : sum + c;
  }
  // The largest; a tie keeps the fl= file, then the lower file id.
  std::vector<std::uint64_t> best = in_own;
  for (const auto& [key, sum] : elsewhere) {
    const auto f = static_cast<std::uint32_t>(key >> 32);
    const file_id file{static_cast<std::uint32_t>(key)};
    if (sum > best[f] || (sum == best[f] && sum != 0 && own[f] != p.functions[function_id{f}].file &&
                          file < own[f])) {
      best[f] = sum;
      own[f] = file;
    }
  }
  return own;
}

name_columns::name_columns(const profile& p, std::span<const file_id> own)
    : p_(p), own_(own), files_(p.files.size()), objects_(p.objects.size()) {}

py::object name_columns::cached(std::vector<py::object>& cache, std::uint32_t index,
                                std::string_view name) {
  py::object& slot = cache[index];
  if (!slot) slot = text(name);
  return slot;
}

void name_columns::add(function_id f) {
  const function& fn = p_.functions[f];
  name_.append(text(p_.function_name(f)));
  const file_id file = f.index() < own_.size() ? own_[f.index()] : fn.file;
  file_.append(cached(files_, file.index(), p_.file_name(file)));
  object_.append(cached(objects_, fn.object.index(), p_.object_name(fn.object)));
}

void name_columns::put(py::dict& table) {
  table["name"] = name_;
  table["file"] = file_;
  table["object"] = object_;
}

}  // namespace calltree::python

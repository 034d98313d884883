// canonical_order.cc — rows in model order or in the canonical order (see canonical_order.h).
#include "model/canonical_order.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>

#include "model/string_pool_access.h"

namespace calltree::detail {

namespace {

template <typename Rows, typename Less>
std::vector<std::uint32_t> sorted_rows(const Rows& rows, Less less) {
  std::vector<std::uint32_t> idx(rows.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return less(rows[a], rows[b]); });
  return idx;
}

// The whole text of pool names; a spilled name is read back once and kept here.
class name_texts {
 public:
  explicit name_texts(const string_pool& pool) : pool_(pool) {}
  std::string_view operator()(string_id id) {
    std::string_view v = string_pool_access::text(pool_, id, scratch_);
    if (v.data() == scratch_.data()) v = kept_.emplace_back(scratch_);
    return v;
  }

 private:
  const string_pool& pool_;
  std::string scratch_;
  std::deque<std::string> kept_;
};

// rank[i] = the place of item i when items are sorted by `less` (ties by index).
template <typename Less>
std::vector<std::uint32_t> ranks(std::size_t n, Less less) {
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (less(a, b)) return true;
    if (less(b, a)) return false;
    return a < b;
  });
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t r = 0; r < n; ++r) rank[idx[r]] = r;
  return rank;
}

auto position_tuple(const position& p) { return std::tuple(p.instr, p.bb, p.line); }

}  // namespace

row_order model_order(const profile& p) {
  row_order o;
  o.self = sorted_rows(p.self_rows, [](const self_row& a, const self_row& b) {
    return std::tie(a.part, a.function) < std::tie(b.part, b.function);
  });
  o.calls = sorted_rows(p.calls, [](const call_row& a, const call_row& b) {
    return std::tie(a.part, a.caller) < std::tie(b.part, b.caller);
  });
  o.jumps = sorted_rows(p.jumps, [](const jump_row& a, const jump_row& b) {
    return std::tie(a.part, a.function) < std::tie(b.part, b.function);
  });
  o.function_key.resize(p.functions.size());
  std::iota(o.function_key.begin(), o.function_key.end(), 0u);
  return o;
}

row_order canonical_order(const profile& p) {
  name_texts text(p.strings);
  std::vector<std::string_view> object_names, file_names;
  for (const auto& ob : p.objects) object_names.push_back(text(ob.name));
  for (const auto& fl : p.files) file_names.push_back(text(fl.name));
  const auto object_rank = ranks(object_names.size(), [&](std::uint32_t a, std::uint32_t b) {
    return object_names[a] < object_names[b];
  });
  const auto file_rank = ranks(file_names.size(), [&](std::uint32_t a, std::uint32_t b) {
    return file_names[a] < file_names[b];
  });
  std::vector<std::string_view> function_names;
  function_names.reserve(p.functions.size());
  for (const auto& fn : p.functions) function_names.push_back(text(fn.name));

  row_order o;
  o.function_key = ranks(p.functions.size(), [&](std::uint32_t a, std::uint32_t b) {
    const function& fa = p.functions[function_id{a}];
    const function& fb = p.functions[function_id{b}];
    return std::tuple(object_rank[fa.object.index()], file_rank[fa.file.index()],
                      function_names[a]) < std::tuple(object_rank[fb.object.index()],
                                                      file_rank[fb.file.index()],
                                                      function_names[b]);
  });
  const auto& fkey = o.function_key;
  // Where a row's source file goes among its function's: the function's own file first.
  auto source_key = [&](function_id f, file_id source) {
    return source == p.functions[f].file ? 0u : file_rank[source.index()] + 1u;
  };

  o.self = sorted_rows(p.self_rows, [&](const self_row& a, const self_row& b) {
    return std::tuple(a.part, fkey[a.function.index()], source_key(a.function, a.source_file),
                      position_tuple(a.pos)) < std::tuple(b.part, fkey[b.function.index()],
                                                          source_key(b.function, b.source_file),
                                                          position_tuple(b.pos));
  });
  o.calls = sorted_rows(p.calls, [&](const call_row& a, const call_row& b) {
    return std::tuple(a.part, fkey[a.caller.index()], source_key(a.caller, a.caller_source_file),
                      position_tuple(a.site), fkey[a.callee.index()], position_tuple(a.target),
                      a.has_target) < std::tuple(b.part, fkey[b.caller.index()],
                                                 source_key(b.caller, b.caller_source_file),
                                                 position_tuple(b.site), fkey[b.callee.index()],
                                                 position_tuple(b.target), b.has_target);
  });
  o.jumps = sorted_rows(p.jumps, [&](const jump_row& a, const jump_row& b) {
    return std::tuple(a.part, fkey[a.function.index()], source_key(a.function, a.source_file),
                      position_tuple(a.source), a.conditional, file_rank[a.target_file.index()],
                      fkey[a.target_function.index()], position_tuple(a.target)) <
           std::tuple(b.part, fkey[b.function.index()], source_key(b.function, b.source_file),
                      position_tuple(b.source), b.conditional, file_rank[b.target_file.index()],
                      fkey[b.target_function.index()], position_tuple(b.target));
  });
  return o;
}

}  // namespace calltree::detail

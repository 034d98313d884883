#include "calltree/checker.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "calltree/cost_matrix.h"
#include "model/row_index.h"

namespace calltree {

namespace {
struct fn_key {
  string_id object, file, name;
  bool operator==(const fn_key&) const = default;
};
struct fn_key_hash {
  std::size_t operator()(const fn_key& k) const {
    return static_cast<std::size_t>(
        detail::mix(detail::mix(detail::mix(0, k.object), k.file), k.name));
  }
};
}  // namespace

struct checker::impl {
  check_result r;
  std::vector<std::size_t> event_map;                        // part event -> r.events index
  std::unordered_map<std::string, std::size_t> event_index;  // r.events by name
  // Distinct functions and arcs in flat tables (keys in a vector, an open-addressing index of
  // row numbers): no node per entry, nothing to free one by one at the end.
  std::vector<fn_key> functions;
  detail::row_index function_index;
  std::vector<std::uint64_t> arcs;  // caller << 32 | callee
  detail::row_index arc_index;
  std::optional<std::vector<std::uint64_t>> header_summary;
  bool any_summary = false;
  std::vector<std::uint64_t> summary;

  // The function of the last cost line and the last callee: runs of lines of one function,
  // and calls between them, mostly skip the lookup.
  fn_key last{}, last_callee{};
  std::uint32_t last_id = 0, last_callee_id = 0;
  bool have_last = false, have_last_callee = false;

  static std::uint64_t hash_of(const fn_key& k) {
    return detail::mix(detail::mix(detail::mix(0, k.object), k.file), k.name);
  }
  std::uint32_t lookup(const fn_key& k) {
    const std::uint64_t h = hash_of(k);
    std::size_t slot;
    auto row = function_index.find(
        h, [&](std::uint32_t i) { return functions[i] == k; }, slot);
    if (row != detail::row_index::empty) return row;
    auto id = static_cast<std::uint32_t>(functions.size());
    functions.push_back(k);
    function_index.insert(h, id, slot);
    return id;
  }
  std::uint32_t function(string_id o, string_id f, string_id n) {
    fn_key k{o, f, n};
    if (have_last && k == last) return last_id;
    last = k;
    last_id = lookup(k);
    have_last = true;
    return last_id;
  }
  std::uint32_t callee(string_id o, string_id f, string_id n) {
    fn_key k{o, f, n};
    if (have_last_callee && k == last_callee) return last_callee_id;
    last_callee = k;
    last_callee_id = lookup(k);
    have_last_callee = true;
    return last_callee_id;
  }
  void arc(std::uint32_t caller, std::uint32_t to) {
    const std::uint64_t a = (static_cast<std::uint64_t>(caller) << 32) | to;
    const std::uint64_t h = detail::mix(0, a);
    std::size_t slot;
    auto row = arc_index.find(
        h, [&](std::uint32_t i) { return arcs[i] == a; }, slot);
    if (row != detail::row_index::empty) return;
    arcs.push_back(a);
    arc_index.insert(h, static_cast<std::uint32_t>(arcs.size() - 1), slot);
  }
};

checker::checker() : impl_(std::make_unique<impl>()) {}
checker::~checker() = default;

void checker::on_part_begin(const part_header& h) {
  auto& m = *impl_;
  ++m.r.parts;
  m.event_map.clear();
  // A hash index, not a scan: a hostile part may name a million events.
  for (const auto& e : h.events) {
    auto [it, fresh] = m.event_index.try_emplace(e, m.r.events.size());
    if (fresh) {
      m.r.events.push_back(e);
      m.r.totals.push_back(0);
      m.summary.push_back(0);
    }
    m.event_map.push_back(it->second);
  }
  m.header_summary = h.summary;
  m.have_last = m.have_last_callee = false;
}

void checker::on_cost(const cost_record& r) {
  impl_->function(r.ctx.object, r.ctx.file, r.ctx.function);
}

void checker::on_call(const call_record& r) {
  auto& m = *impl_;
  auto caller = m.function(r.ctx.object, r.ctx.file, r.ctx.function);
  auto callee = m.callee(r.callee_object, r.callee_file, r.callee_function);
  m.arc(caller, callee);
}

void checker::on_jump(const jump_record& r) {
  impl_->function(r.ctx.object, r.ctx.file, r.ctx.function);
}

void checker::on_part_end(const part_end& e) {
  auto& m = *impl_;
  for (std::size_t i = 0; i < e.computed.size() && i < m.event_map.size(); ++i)
    m.r.totals_saturated |= !add_saturating(m.r.totals[m.event_map[i]], e.computed[i]);
  const auto* s = e.summary ? &*e.summary : m.header_summary ? &*m.header_summary : nullptr;
  if (s) m.any_summary = true;
  const auto& src = s ? *s : e.computed;
  for (std::size_t i = 0; i < src.size() && i < m.event_map.size(); ++i)
    add_saturating(m.summary[m.event_map[i]], src[i]);
}

check_result checker::result() const {
  check_result r = impl_->r;
  r.functions = impl_->functions.size();
  r.calls = impl_->arcs.size();
  if (impl_->any_summary) r.summary = impl_->summary;
  return r;
}

}  // namespace calltree

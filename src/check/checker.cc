#include "calltree/checker.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

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
  std::unordered_map<fn_key, std::uint32_t, fn_key_hash> functions;
  std::unordered_set<std::uint64_t> arcs;
  std::optional<std::vector<std::uint64_t>> header_summary;
  bool any_summary = false;
  std::vector<std::uint64_t> summary;

  fn_key last{};
  std::uint32_t last_id = 0;
  bool have_last = false;

  std::uint32_t function(string_id o, string_id f, string_id n) {
    fn_key k{o, f, n};
    if (have_last && k == last) return last_id;
    auto [it, fresh] = functions.try_emplace(k, static_cast<std::uint32_t>(functions.size()));
    last = k;
    last_id = it->second;
    have_last = true;
    return it->second;
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
  m.have_last = false;
}

void checker::on_cost(const cost_record& r) {
  auto& m = *impl_;
  ++m.r.cost_lines;
  m.function(r.ctx.object, r.ctx.file, r.ctx.function);
}

void checker::on_call(const call_record& r) {
  auto& m = *impl_;
  ++m.r.call_lines;
  auto caller = m.function(r.ctx.object, r.ctx.file, r.ctx.function);
  auto callee = m.function(r.callee_object, r.callee_file, r.callee_function);
  m.arcs.insert((static_cast<std::uint64_t>(caller) << 32) | callee);
}

void checker::on_jump(const jump_record& r) {
  auto& m = *impl_;
  ++m.r.jump_lines;
  m.function(r.ctx.object, r.ctx.file, r.ctx.function);
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

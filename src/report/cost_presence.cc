// cost_presence.cc — which cost columns a file actually wrote (report/annotate.h).
#include <algorithm>

#include "report/annotate.h"

namespace calltree {

namespace {
inline std::size_t mix(std::size_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}
// How many cost values the line gave. The reader pads `costs` to the part's event count and
// reports the count actually written in `given` when it knows it.
template <typename R>
std::uint32_t given_of(const R& r) {
  return static_cast<std::uint32_t>(std::min<std::size_t>(r.given, r.costs.size()));
}
}  // namespace

std::size_t cost_presence::hash::operator()(const fn_key& k) const noexcept {
  return mix(mix(0, k.file), k.function);
}
std::size_t cost_presence::hash::operator()(const call_key& k) const noexcept {
  return mix(mix(mix(mix(mix(0, k.file), k.function), k.callee_file), k.callee_function), k.line);
}
std::size_t cost_presence::hash::operator()(const line_key& k) const noexcept {
  return mix(mix(0, k.file), k.line);
}

void cost_presence::on_part_begin(const part_header& h) {
  part_events.push_back(static_cast<std::uint32_t>(h.events.size()));
  tracking_ = tracking_ || h.events.size() > 1;
}

void cost_presence::on_cost(const cost_record& r) {
  if (!tracking_ || part_events.back() <= 1) return;
  const std::uint32_t g = given_of(r);
  // The last entries, while their tables do not grow (only their own operator[] grows them).
  const fn_key fk{r.ctx.source_file, r.ctx.function};
  if (!last_fn_value_ || !(fk == last_fn_)) {
    last_fn_ = fk;
    last_fn_value_ = &functions[fk];
  }
  *last_fn_value_ = std::max(*last_fn_value_, g);
  if (!by_line_) return;
  const line_key lk{r.ctx.source_file, r.pos.line};
  if (!last_line_value_ || !(lk == last_line_)) {
    last_line_ = lk;
    last_line_value_ = &lines[lk];
  }
  *last_line_value_ = std::max(*last_line_value_, g);
}

void cost_presence::on_call(const call_record& r) {
  if (!tracking_ || part_events.back() <= 1) return;
  const std::uint32_t g = given_of(r);
  const call_key ck{r.ctx.source_file, r.ctx.function, r.callee_file, r.callee_function,
                    by_line_ ? r.site.line : 0};
  if (!last_call_value_ || !(ck == last_call_)) {
    last_call_ = ck;
    last_call_value_ = &calls[ck];
  }
  *last_call_value_ = std::max(*last_call_value_, g);
}

}  // namespace calltree

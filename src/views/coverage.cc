// views/coverage.cc — All Callers and All Callees of a session's function (see coverage.h).
#include "views/coverage.h"

#include "views/flame.h"
#include "views/session.h"

namespace calltree::views {

result<coverage_view> coverage(const session& s, std::uint64_t id, const coverage_query& q) {
  if (id >= s.ids())
    return error{"no function or cycle has id " + std::to_string(id) + " (there are " +
                 std::to_string(s.ids()) + ")"};
  flame_query f;
  f.parts = q.parts;
  f.detect_cycles = q.detect_cycles;
  f.events = q.events;
  f.derived = q.derived;
  f.weight_event = q.weight_event;
  f.root = static_cast<std::uint32_t>(id);
  f.direction = q.direction;
  f.min_share = q.min_share;
  f.max_frames = q.max_frames;
  f.merge = false;  // (one entry per key: its frames are summed here)
  auto fl = flame(s, f);
  if (!fl) return fl.error();
  coverage_view out;
  out.columns = std::move(fl->columns);
  out.costs = std::move(fl->costs);
  out.weight_column = fl->weight_column;
  out.list = coverage_of_tree(fl->tree, q.direction, out.weight_column);
  return out;
}

}  // namespace calltree::views

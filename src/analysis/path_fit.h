// analysis/path_fit.h — (internal) the exact tree's last step: every frame within the calls
// it stands for, each node's self cost still placed exactly (call_paths.cc's step 4). A template
// over the estimate's builder (call_paths.cc), which is the only place that includes it.
//
// What keeps it fast: the search for a frame with room walks up the callers of a node, and
// looks at the rooms of their frames, again and again as units move. The rooms a search reads
// are kept for that search; a frame without room remembers the frame at its bound above it
// (blocked_by), and a node whose frames are all blocked (or dead) remembers those frames: while
// they stay at their bounds, nothing of it is read again. Between removals rooms only shrink,
// so a search from the same node starts where the last one stopped. None of this changes which
// frame a search finds: the trees are the same, unit for unit.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/path_layout.h"
#include "calltree/analysis/call_paths.h"
#include "calltree/cost_matrix.h"

namespace calltree::detail {

// The invariant for an exact tree (see the header): no frame above the calls it stands for.
// Placing a node's self cost in whole units over its frames, by shares that the pruned paths,
// rounding and the chains of unreached nodes leave short of the whole, can put a frame above
// its weight (which the weights' split keeps within its calls). For each event, frames from
// the deepest up: a frame above its weight (rounded up) gives the units it holds beyond it,
// its own self first, then its children's (their self first), to other frames of the same node
// with room up to their root (below their weights, and every ancestor's), or to a new frame
// under a chain of callers from a frame with room. What no frame has room for stays where the
// apportioning put it, under the calls into its node (in proportion to their shares): that
// frame and its ancestors keep it above their bounds, and a node that others call is never a
// root for it. Returns the most that a frame holds beyond the calls it stands for, in any
// event (0 where every unit found room). Exact self costs stay exact.
template <typename B>
std::size_t fit(B& b, std::size_t n0, const std::vector<double>& weight, cost_matrix& self,
                cost_matrix& total) {
  constexpr std::uint32_t none = path_tree::no_frame;
  const std::size_t events = b.events;
  std::size_t n = b.node.size();
  std::vector<std::uint64_t> cap(n);
  lists kids(n, b.parent);
  std::vector<std::vector<std::uint32_t>> frames_of(b.g.nodes);
  for (std::uint32_t f = 0; f < n; ++f) frames_of[b.node[f]].push_back(f);
  std::vector<std::pair<std::uint32_t, std::uint64_t>> taken;  // (frame, units)
  std::uint64_t most_above = 0;  // the most a frame holds beyond the calls it stands for
  std::size_t added = 0, best_at = 0;
  // Each node's callers, as the calls into it are listed (node ids in place of arc ids).
  lists callers = b.g.in;
  for (auto& arc : callers.items) arc = b.g.from[arc];
  std::vector<std::pair<std::uint32_t, std::uint32_t>> up_from;  // (node, index it came from)
  std::vector<std::uint32_t> in_up_from(b.g.nodes, 0);  // per node: the order that holds it
  std::uint32_t search_mark = 0, bfs_mark = 0;
  std::size_t expanded = 0;     // the entries of up_from whose callers it holds
  std::size_t looked_from = 0;  // where the next search from up_from's node may start
  std::uint64_t looked_removals = 0;
  // Per node: the frames (four at most) that left the frames of it looked at without room but
  // for dead ones (known: no frame of it can be best while they stay at their bounds).
  struct node_block {
    std::array<std::uint32_t, 4> by{none, none, none, none};
    bool known = true;
    void add(std::uint32_t z) {
      for (auto& x : by) {
        if (x == z) return;
        if (x == none) {
          x = z;
          return;
        }
      }
      known = false;
    }
  };
  std::vector<node_block> node_blocked;
  std::vector<std::uint32_t> room_mark;  // per frame: the search whose room_kept it holds
  std::vector<std::uint64_t> room_kept;
  std::vector<std::uint32_t> walked;
  // A frame without room has an ancestor (or is one) at its bound, which leaves every frame
  // below it without room while it stays there: the frames found without room keep it.
  std::vector<std::uint32_t> blocked_by;
  // Between two removals (and within an event) no room grows: adding units only takes room,
  // keeping them raises bounds as much as totals, a new frame is a leaf.
  std::uint64_t removals = 0;
  std::vector<char> dead;  // frames found without room down their chain
  // The frames of one node looked at for room, at most (the first ones: the heaviest paths).
  constexpr std::size_t search = 64;
  // A frame's bound in event e: its weight rounded up; for a frame the estimate did not weigh
  // (a chain's, or one this fit makes) and a frame of a node in a cycle (whose share of its
  // node's self cost is no guide: the calls into it hold its recursion again), the calls it
  // stands for. (A root's bound is only its room; an entry_root's is its weight, the cost
  // that no call into its node holds.)
  auto bound = [&](std::size_t f, std::size_t e) -> std::uint64_t {
    if (b.parent[f] == none) {
      if (f >= n0 || !b.entry_root(b.node[f])) return UINT64_MAX;
    } else if (f >= n0 || b.g.component_size[b.g.component[b.node[f]]] > 1) {
      const std::uint32_t arc = b.g.arc_between(b.node[b.parent[f]], b.node[f]);
      return arc == none ? 0 : b.g.cost.row(arc)[e];
    }
    const double c = std::ceil(weight[f * events + e] * (1 - 1e-12));
    return c >= 18446744073709551615.0 ? UINT64_MAX : c > 0 ? static_cast<std::uint64_t>(c) : 0;
  };
  // The calls frame f stands for in event e (a root: no bound but an entry_root's weight).
  auto calls_of = [&](std::uint32_t f, std::size_t e) -> std::uint64_t {
    if (b.parent[f] == none) return bound(f, e);
    const std::uint32_t arc = b.g.arc_between(b.node[b.parent[f]], b.node[f]);
    return arc == none ? 0 : b.g.cost.row(arc)[e];
  };
  for (std::size_t e = 0; e < events; ++e) {
    for (std::size_t f = 0; f < n; ++f) cap[f] = bound(f, e);
    ++removals;
    auto remove = [&](std::uint32_t f, std::uint64_t a) {
      ++removals;
      self.row(f)[e] -= a;
      for (std::uint32_t x = f; x != none; x = b.parent[x]) total.row(x)[e] -= a;
    };
    auto add = [&](std::uint32_t f, std::uint64_t a) {
      self.row(f)[e] += a;
      for (std::uint32_t x = f; x != none; x = b.parent[x]) total.row(x)[e] += a;
    };
    // Units out of f's subtree, up to `want`: its self first, then its children's.
    auto take = [&](auto&& me, std::uint32_t f, std::uint64_t want) -> std::uint64_t {
      std::uint64_t got = std::min(want, self.row(f)[e]);
      if (got) {
        remove(f, got);
        taken.emplace_back(f, got);
      }
      if (f < kids.start.size() - 1)
        for (auto c : kids[f]) {
          if (got == want) break;
          got += me(me, c, std::min(want - got, total.row(c)[e]));
        }
      return got;
    };
    auto room = [&](std::uint32_t f) {
      std::uint64_t r = UINT64_MAX;
      for (std::uint32_t x = f; x != none && r; x = b.parent[x])
        r = std::min(r, cap[x] > total.row(x)[e] ? cap[x] - total.row(x)[e] : 0);
      return r;
    };
    auto at_bound = [&](std::uint32_t x) { return cap[x] <= total.row(x)[e]; };
    auto still_blocked = [&](std::uint32_t f) {
      return blocked_by[f] != none && at_bound(blocked_by[f]);
    };
    // The search up the callers below reads rooms without changing any: each of its frames'
    // rooms is kept for the rest of that search (a mark per frame, the search's number), so
    // frames sharing ancestors walk them once; a walk stops at a frame still blocked.
    auto room_in_search = [&](std::uint32_t f) {
      if (room_mark.size() < b.node.size()) {
        room_mark.resize(b.node.size(), 0);
        room_kept.resize(b.node.size());
        blocked_by.resize(b.node.size(), none);
      }
      walked.clear();
      std::uint64_t r = UINT64_MAX;
      std::uint32_t block = none;
      for (std::uint32_t x = f; x != none; x = b.parent[x]) {
        if (still_blocked(x)) {
          r = 0, block = blocked_by[x];
          break;
        }
        if (room_mark[x] == search_mark) {
          r = room_kept[x];
          if (!r) block = blocked_by[x];
          break;
        }
        walked.push_back(x);
        if (at_bound(x)) {
          r = 0, block = x;
          break;
        }
      }
      for (std::size_t i = walked.size(); i-- > 0;) {
        const std::uint32_t x = walked[i];
        const std::uint64_t t = total.row(x)[e];
        r = std::min(r, cap[x] > t ? cap[x] - t : 0);
        room_mark[x] = search_mark;
        room_kept[x] = r;
      }
      if (block != none)
        for (auto x : walked) blocked_by[x] = block;
      return r;
    };
    std::vector<std::uint32_t> queue;
    for (std::size_t f = n; f-- > 0;) {
      if (total.row(f)[e] <= cap[f]) continue;  // (a root's cap is UINT64_MAX but an entry_root's)
      // First units of f's subtree that another frame of their node has room for (the
      // nearest first, a bounded search); then what is left, as above.
      std::uint64_t excess = total.row(f)[e] - cap[f];
      queue.assign(1, static_cast<std::uint32_t>(f));
      for (std::size_t qi = 0; qi < queue.size() && qi < 4096 && excess; ++qi) {
        const std::uint32_t x = queue[qi];
        std::size_t looked = 0;  // (bounded: a hot recursive function has thousands of frames)
        for (auto g2 : frames_of[b.node[x]]) {
          if (!excess || !self.row(x)[e] || ++looked > search) break;
          if (g2 == x) continue;
          const std::uint64_t r = std::min({excess, self.row(x)[e], room(g2)});
          if (r) remove(x, r), add(g2, r), excess -= r;
        }
        if (x < kids.start.size() - 1)
          for (auto c : kids[x]) queue.push_back(c);
      }
      if (!excess) continue;
      taken.clear();
      take(take, static_cast<std::uint32_t>(f), excess);
      for (auto [from, units] : taken) {
        const std::uint32_t v = b.node[from];
        std::size_t looked = 0;
        for (auto g2 : frames_of[v]) {
          if (!units || ++looked > search) break;
          const std::uint64_t r = std::min(units, room(g2));
          if (r) add(g2, r), units -= r;
        }
        // A frame of its own under a frame with room (a call pruned there): of a caller, or
        // up a chain of callers (the nearest callers first, a bounded search), the roomiest
        // frame of the nearest.
        for (std::size_t tries = 0; units && added < 4 * b.g.nodes && tries < 8; ++tries) {
          std::uint32_t best = none;
          std::uint64_t best_room = 0;
          if (++search_mark == 0) {
            std::fill(room_mark.begin(), room_mark.end(), 0);
            search_mark = 1;
          }
          // The callers' order from v depends on the graph alone: kept while v is the same,
          // grown as far as a search looks (which nodes up_from holds: a mark per node).
          if (up_from.empty() || up_from[0].first != v) {
            if (++bfs_mark == 0) {
              std::fill(in_up_from.begin(), in_up_from.end(), 0);
              bfs_mark = 1;
            }
            up_from.assign(1, {v, none});
            in_up_from[v] = bfs_mark;
            expanded = 0;
            looked_from = 0;
          }
          // Since the last search from v, rooms only shrank (no removal), frames only died,
          // and the nodes before the one it stopped at got no new frame: those nodes still
          // have none to offer.
          if (looked_removals != removals) looked_from = 0;
          if (node_blocked.size() < b.g.nodes)
            node_blocked.resize(b.g.nodes, node_block{.known = false});
          std::size_t qi = looked_from;
          for (; qi < 256 && best == none; ++qi) {
            // (Entries past the 256th are never looked at.)
            for (; expanded < qi && up_from.size() < 256; ++expanded)
              for (auto c : callers[up_from[expanded].first]) {
                if (up_from.size() == 256) break;
                if (in_up_from[c] == bfs_mark) continue;
                in_up_from[c] = bfs_mark;
                up_from.emplace_back(c, static_cast<std::uint32_t>(expanded));
              }
            if (qi >= up_from.size()) break;
            const std::uint32_t u = up_from[qi].first;
            if (qi == 0) continue;
            node_block& nb = node_blocked[u];
            if (nb.known && std::all_of(nb.by.begin(), nb.by.end(),
                                        [&](std::uint32_t z) { return z == none || at_bound(z); }))
              continue;
            std::size_t seen_frames = 0;
            node_block blocks;
            for (auto q : frames_of[u]) {
              if (++seen_frames > search) break;
              if (q < dead.size() && dead[q]) continue;
              const std::uint64_t r = room_in_search(q);
              if (!r) {
                blocks.add(blocked_by[q]);
                continue;
              }
              blocks.known = false;
              bool ok_path = r > best_room;
              for (std::size_t k = qi; ok_path && k != none; k = up_from[k].second)
                if (k != qi && b.on_path(q, up_from[k].first)) ok_path = false;
              if (ok_path) best = q, best_room = r, best_at = qi;
            }
            nb = blocks;
          }
          looked_from = best == none ? qi : best_at;
          looked_removals = removals;
          if (best == none) break;
          // The chain from best's node down to v: frames this fit made are reused.
          std::uint32_t under = best;
          for (std::size_t k = up_from[best_at].second; k != none; k = up_from[k].second) {
            const std::uint32_t node_k = up_from[k].first;
            std::uint32_t next_frame = none;
            for (auto x : frames_of[node_k])
              if (b.parent[x] == under) next_frame = x;
            if (next_frame == none) {
              next_frame = b.add(node_k, under, none, 0);
              ++added;
              self.add_row();
              total.add_row();
              cap.push_back(bound(next_frame, e));
              frames_of[node_k].push_back(next_frame);
              node_blocked[node_k].known = false;  // (a new frame may have room)
              looked_from = std::min(looked_from, k);
            }
            under = next_frame;
          }
          // (Through a frame the fit did not make, within that frame's own bound too.)
          const std::uint64_t r = std::min(units, room(under));
          if (!r) {
            if (dead.size() <= best) dead.resize(best + 1, 0);
            dead[best] = 1;
            continue;
          }
          add(under, r);
          units -= r;
        }
        if (!units) continue;
        // No frame has room within its weight: the units go to frames of v within the calls
        // they stand for (each frame's and every ancestor's), or stay where the apportioning
        // put them, under the calls into v on that path; those frames and their ancestors keep
        // them above their bounds (a function called by others is never a root).
        auto keep = [&](std::uint32_t at, std::uint64_t a) {
          add(at, a);
          for (std::uint32_t x = at; x != none; x = b.parent[x])
            cap[x] = cap[x] > UINT64_MAX - a ? UINT64_MAX : cap[x] + a;
        };
        looked = 0;
        for (auto g2 : frames_of[v]) {
          if (!units || ++looked > search) break;
          std::uint64_t r = units;
          for (std::uint32_t x = g2; x != none && r; x = b.parent[x]) {
            const std::uint64_t calls = calls_of(x, e);
            r = std::min(r, calls > total.row(x)[e] ? calls - total.row(x)[e] : 0);
          }
          if (r) keep(g2, r), units -= r;
        }
        if (!units) continue;
        keep(from, units);
      }
    }
    n = b.node.size();
    for (std::uint32_t f = 0; f < n; ++f)
      if (b.parent[f] != none) {
        const std::uint64_t calls = calls_of(f, e);
        if (total.row(f)[e] > calls) most_above = std::max(most_above, total.row(f)[e] - calls);
      }
  }
  return static_cast<std::size_t>(most_above);
}

}  // namespace calltree::detail

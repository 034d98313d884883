// call_paths.cc — the flame-graph estimate (semantics in analysis/call_paths.h).
//
// The steps:
//  1. The graph (path_estimator, once): calls summed per (caller, callee) pair, self-calls
//     dropped, adjacency both ways, each node's calls in and out summed, and the strongly
//     connected components, so that "is this callee already on the path?" walks up only the
//     ancestors in the callee's own component (a node of another component can never be on
//     the path: it would close a cycle).
//  2. The shape: frames expanded heaviest first (a max-heap on the weight event); each call
//     of the frame's node that is followed and has weight gets a child frame, until the
//     shares fall under min_share or the frames reach max_frames.
//  3. The values: every event's weights split along the same shape by that event's own
//     shares, so every event is consistent on its own (children + self = total).
//  4. A display takes those weights as totals. With exact_self, each node's self cost is
//     placed in whole units over its frames (largest remainders), nodes no frame reached get
//     a chain of their heaviest callers, and totals are summed bottom-up; then every frame is
//     brought within the calls it stands for (analysis/path_fit.h).
//  Then children are ordered and the frames laid out in preorder.
#include "calltree/analysis/call_paths.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "analysis/inclusive_solver.h"
#include "analysis/path_fit.h"
#include "analysis/path_layout.h"
#include "calltree/analysis/inclusive.h"

namespace calltree {

call_graph::call_graph(std::size_t node_count, std::size_t event_count)
    : nodes(node_count), events(event_count), self(event_count), call_cost(event_count) {
  self.reserve_rows(node_count);
  for (std::size_t i = 0; i < node_count; ++i) self.add_row();
}

void call_graph::add_call(std::uint32_t from, std::uint32_t to, std::uint64_t count,
                          std::span<const std::uint64_t> costs) {
  call_from.push_back(from);
  call_to.push_back(to);
  call_count.push_back(count);
  auto row = call_cost.row(call_cost.add_row());
  std::copy_n(costs.begin(), std::min(costs.size(), row.size()), row.begin());
}

namespace {

constexpr std::uint32_t none = path_tree::no_frame;

using detail::lay_out;
using detail::lists;

double as_double(std::uint64_t v) { return static_cast<double>(v); }

}  // namespace

// Step 1.
struct path_estimator::impl {
  std::size_t nodes = 0, events = 0;
  cost_matrix self{0};                  // [node][event]
  std::vector<std::uint32_t> from, to;  // per arc: a (caller, callee) pair
  cost_matrix cost{0};                  // [arc][event]
  lists out, in;                        // node -> its arcs as caller, as callee
  std::vector<double> in_sum, out_sum;  // [node * events + e]
  std::vector<std::uint32_t> component, component_size;
  // Per component of two or more nodes (a cycle): whether a call from outside enters it, and
  // [component * events + e]: what its nodes' self costs and calls leaving it cost beyond the
  // calls into it from outside (0 where the calls hold it).
  std::vector<char> entered;
  std::vector<double> cycle_entry;

  // The arc from `caller` to `callee` (a caller's arcs are sorted by callee), or none.
  std::uint32_t arc_between(std::uint32_t caller, std::uint32_t callee) const {
    const auto arcs = out[caller];
    auto it = std::lower_bound(arcs.begin(), arcs.end(), callee,
                               [&](std::uint32_t arc, std::uint32_t n) { return to[arc] < n; });
    return it != arcs.end() && to[*it] == callee ? *it : none;
  }

  explicit impl(const call_graph& g) : nodes(g.nodes), events(g.events), self(g.self) {
    cost = cost_matrix(events);
    // The calls by caller, then each caller's by callee, summed per pair.
    std::vector<std::uint32_t> caller(g.calls(), none);
    for (std::uint32_t c = 0; c < g.calls(); ++c)
      if (g.call_from[c] != g.call_to[c] && g.call_from[c] < nodes && g.call_to[c] < nodes)
        caller[c] = g.call_from[c];
    lists by_caller(nodes, caller);
    for (std::uint32_t n = 0; n < nodes; ++n) {
      auto calls = by_caller[n];
      // (By callee, then by call: stable_sort's order without its buffer, a malloc per node.)
      std::sort(calls.begin(), calls.end(), [&](std::uint32_t x, std::uint32_t y) {
        return g.call_to[x] != g.call_to[y] ? g.call_to[x] < g.call_to[y] : x < y;
      });
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (i == 0 || g.call_to[calls[i]] != to.back()) {
          from.push_back(n);
          to.push_back(g.call_to[calls[i]]);
          cost.add_row();
        }
        add_saturating(cost.row(cost.rows() - 1), g.call_cost.row(calls[i]));
      }
    }
    out = lists(nodes, from);
    in = lists(nodes, to);
    in_sum.assign(nodes * events, 0);
    out_sum.assign(nodes * events, 0);
    for (std::size_t arc = 0; arc < from.size(); ++arc)
      for (std::size_t e = 0; e < events; ++e) {
        out_sum[from[arc] * events + e] += as_double(cost.row(arc)[e]);
        in_sum[to[arc] * events + e] += as_double(cost.row(arc)[e]);
      }
    std::uint32_t count = 0;
    component = strongly_connected_components(nodes, from, to, &count);
    component_size.assign(count, 0);
    for (auto c : component) ++component_size[c];
    entered.assign(count, 0);
    cycle_entry.assign(count * events, 0);
    for (std::uint32_t n = 0; n < nodes; ++n)
      if (component_size[component[n]] > 1)
        for (std::size_t e = 0; e < events; ++e)
          cycle_entry[component[n] * events + e] += as_double(self.row(n)[e]);
    for (std::size_t arc = 0; arc < from.size(); ++arc) {
      const auto cf = component[from[arc]], ct = component[to[arc]];
      if (cf == ct) continue;
      if (component_size[ct] > 1) entered[ct] = 1;
      for (std::size_t e = 0; e < events; ++e) {
        const double c = as_double(cost.row(arc)[e]);
        if (component_size[cf] > 1) cycle_entry[cf * events + e] += c;
        if (component_size[ct] > 1) cycle_entry[ct * events + e] -= c;
      }
    }
    for (auto& x : cycle_entry) x = std::max(x, 0.0);
  }
};

path_estimator::path_estimator(const call_graph& graph)
    : impl_(std::make_shared<const impl>(graph)) {}
std::size_t path_estimator::nodes() const { return impl_->nodes; }
std::size_t path_estimator::events() const { return impl_->events; }

namespace {

// Steps 2 to 4 for one estimate.
template <typename G>
struct builder {
  const G& g;
  const path_options& o;
  const std::size_t events, w;  // w: the weight event
  const bool up;                // callers direction

  std::vector<std::uint32_t> node, parent;
  std::vector<std::uint32_t> via;  // the arc that made the frame (none for a root)
  std::vector<double> weight;      // in the weight event
  // The arcs of each frame's node that lead back onto its path (recursion), found once:
  // cut_arcs[cut_from[f] .. cut_from[f] + cut_count[f]); cut_from[f] = none until then.
  std::vector<std::uint32_t> cut_from, cut_count, cut_arcs;
  std::size_t pruned = 0;
  bool cut = false;  // a call with weight was not followed for recursion

  builder(const G& graph, const path_options& options)
      : g(graph),
        o(options),
        events(graph.events),
        w(options.weight_event < graph.events ? options.weight_event : 0),
        up(options.direction == path_direction::callers) {
    cycle_entry_node.assign(g.component_size.size(), none);
    if (up || o.root || !o.roots.empty()) return;
    std::vector<double> best(g.component_size.size(), -1);
    for (std::uint32_t n = 0; n < g.nodes; ++n) {
      const auto c = g.component[n];
      if (g.component_size[c] == 1) continue;
      const double lines = as_double(g.self.row(n)[w]) + g.out_sum[n * events + w];
      if (lines > best[c]) best[c] = lines, cycle_entry_node[c] = n;
    }
  }

  std::uint32_t add(std::uint32_t n, std::uint32_t p, std::uint32_t arc, double wt) {
    const auto f = static_cast<std::uint32_t>(node.size());
    node.push_back(n);
    parent.push_back(p);
    via.push_back(arc);
    weight.push_back(wt);
    cut_from.push_back(none);
    cut_count.push_back(0);
    return f;
  }

  // The node an arc leads to from a frame of its other end.
  std::uint32_t next(std::uint32_t arc) const { return up ? g.from[arc] : g.to[arc]; }
  std::span<const std::uint32_t> arcs_of(std::uint32_t n) const { return up ? g.in[n] : g.out[n]; }

  // Whether `n` is frame f's node or one of its ancestors'.
  bool on_path(std::uint32_t f, std::uint32_t n) const {
    const std::uint32_t comp = g.component[n];
    if (g.component_size[comp] == 1) return node[f] == n;
    for (; f != none && g.component[node[f]] == comp; f = parent[f])
      if (node[f] == n) return true;
    return false;
  }

  // Whether frame f is the start of a tree from one node that is a member of a cycle, with
  // path_options::cycles: its calls to and from its cycle's other members are not followed.
  bool member_start(std::uint32_t f) const {
    return parent[f] == none && o.cycles && (o.root || !o.roots.empty()) &&
           same_cycle(node[f], node[f]);
  }
  bool same_cycle(std::uint32_t a, std::uint32_t b) const {
    if (!o.cycle_of.empty())
      return a < o.cycle_of.size() && b < o.cycle_of.size() && o.cycle_of[a] != 0 &&
             o.cycle_of[a] == o.cycle_of[b];
    return g.component[a] == g.component[b] && g.component_size[g.component[a]] > 1;
  }

  std::span<const std::uint32_t> cuts(std::uint32_t f) {
    if (cut_from[f] == none) {
      cut_from[f] = static_cast<std::uint32_t>(cut_arcs.size());
      const bool member = member_start(f);
      for (auto arc : arcs_of(node[f]))
        if (on_path(f, next(arc)) || (member && same_cycle(node[f], next(arc))))
          cut_arcs.push_back(arc);
      cut_count[f] = static_cast<std::uint32_t>(cut_arcs.size()) - cut_from[f];
    }
    return {cut_arcs.data() + cut_from[f], cut_count[f]};
  }

  // A root's weight in event e: self + calls out (callees), or the calls in (callers; its self
  // and calls out when nothing calls it: in every event, as its inclusive cost). From the
  // graph's roots, a node that others call (an entry_root) is a root for its entry cost only.
  double root_weight(std::uint32_t n, std::size_t e) const {
    const std::size_t i = n * events + e;
    if (up && !g.in[n].empty()) return g.in_sum[i];
    if (entry_root(n)) return entry_cost(n, e);
    return as_double(g.self.row(n)[e]) + g.out_sum[i];
  }
  // Whether n, called by others, is a root of a tree from the graph's roots for what its own
  // lines cost beyond the calls into it (entry_cost): a node in no cycle, or the heaviest
  // node of a cycle that calls from outside enter, for the cycle's.
  bool entry_root(std::uint32_t n) const {
    if (up || o.root || !o.roots.empty() || g.in[n].empty()) return false;
    const auto c = g.component[n];
    return g.component_size[c] == 1 || (g.entered[c] && cycle_entry_node[c] == n);
  }
  // What n's own lines (its self cost and calls out) cost beyond all the calls into it, in
  // event e (for a cycle's entry_root: the cycle's nodes' self costs and calls leaving it,
  // beyond the calls entering it): cost that ran there without a call recorded into it (a
  // thread's entry in a file whose threads are not separated, a function running when a dump
  // began, a sampled stack cut short); 0 in a file whose calls hold their callees' lines.
  double entry_cost(std::uint32_t n, std::size_t e) const {
    const auto c = g.component[n];
    if (g.component_size[c] > 1) return g.cycle_entry[c * events + e];
    const std::size_t i = n * events + e;
    const double lines = as_double(g.self.row(n)[e]) + g.out_sum[i];
    return lines > g.in_sum[i] ? lines - g.in_sum[i] : 0;
  }
  // Per component: its heaviest node (its self cost and calls out, in the weight event).
  std::vector<std::uint32_t> cycle_entry_node;
  // The weight of a root frame: root_weight, but for a member of a cycle as the start of a
  // tree from one node (member_start), in either direction: its self cost and its calls
  // leaving the cycle (its inclusive cost as analysis/inclusive.h counts a member's).
  double start_weight(std::uint32_t f, std::size_t e) const {
    const std::uint32_t n = node[f];
    if (!member_start(f)) return root_weight(n, e);
    double d = as_double(g.self.row(n)[e]);
    for (auto arc : g.out[n])
      if (!same_cycle(n, g.to[arc])) d += as_double(g.cost.row(arc)[e]);
    return d;
  }

  // What frame f's weight `wt` splits over, in event e: the node's self cost (callees
  // direction) and the arcs followed from it (all but the cut ones). The invariant (see the
  // header): never less than the frame's weight, so that no call gets more than its cost, nor
  // than the calls into a node outside any cycle, so that its frames together give no call
  // more than its cost (a file whose calls into f cost more than f's own lines add up to
  // leaves the difference as the frames' self: a gap, not a larger callee).
  double divisor(std::uint32_t f, std::size_t e, double wt) {
    const std::size_t i = node[f] * events + e;
    double d = up ? g.in_sum[i] : as_double(g.self.row(node[f])[e]) + g.out_sum[i];
    for (auto arc : cuts(f)) d -= as_double(g.cost.row(arc)[e]);
    d = std::max(d, wt);
    if (up) return d > 0 ? d : 0;
    if (parent[f] != none && g.component_size[g.component[node[f]]] == 1)
      d = std::max(d, g.in_sum[i]);
    return d > 0 ? d : 0;
  }

  std::vector<std::uint32_t> roots() const {
    std::vector<std::uint32_t> r;
    if (o.root) {
      if (*o.root < g.nodes) r.push_back(*o.root);
      return r;
    }
    if (!o.roots.empty()) {
      for (auto n : o.roots)
        if (n < g.nodes && std::find(r.begin(), r.end(), n) == r.end()) r.push_back(n);
      return r;
    }
    // Nodes no other node calls; nodes whose lines cost more than the calls into them (an
    // entry_root: for that difference); and for a component that nothing outside calls and
    // whose every node is called (a cycle with no way in), its heaviest node.
    std::vector<char> entered(g.component_size.size(), 0);
    for (std::size_t arc = 0; arc < g.from.size(); ++arc)
      if (g.component[g.from[arc]] != g.component[g.to[arc]]) entered[g.component[g.to[arc]]] = 1;
    std::vector<std::uint32_t> best(g.component_size.size(), none);
    for (std::uint32_t n = 0; n < g.nodes; ++n) {
      const auto c = g.component[n];
      if (g.in[n].empty()) {
        r.push_back(n);
        entered[c] = 1;
      } else if (entry_root(n)) {
        for (std::size_t e = 0; e < events; ++e)
          if (entry_cost(n, e) > 0) {
            r.push_back(n);
            break;
          }
      } else if (!entered[c] && (best[c] == none || root_weight(n, w) > root_weight(best[c], w))) {
        best[c] = n;
      }
    }
    for (std::uint32_t n = 0; n < g.nodes; ++n) {
      const auto c = g.component[n];
      if (!g.in[n].empty() && !entered[c] && best[c] == n) r.push_back(n);
    }
    return r;
  }

  // Step 2: the shape, heaviest frames first.
  void expand() {
    struct item {
      double weight;
      std::uint32_t frame;
      bool operator<(const item& x) const {
        return weight != x.weight ? weight < x.weight : frame > x.frame;
      }
    };
    std::priority_queue<item> heap;
    double tree = 0;
    for (auto r : roots()) {
      double any = 0;
      for (std::size_t e = 0; e < events; ++e) any += root_weight(r, e);
      if (any <= 0) continue;
      const auto f = add(r, none, none, 0);
      const double wt = start_weight(f, w);
      weight[f] = wt;
      tree += wt;
      heap.push({wt, f});
    }
    const double floor = o.min_share > 0 ? o.min_share * tree : 0;
    const std::size_t cap = std::max<std::size_t>(o.max_frames, node.size());
    while (!heap.empty()) {
      if (node.size() >= cap) {
        pruned += heap.size();  // frames left unexpanded
        break;
      }
      const auto f = heap.top().frame;
      heap.pop();
      const auto cut_here = cuts(f);
      for (auto arc : cut_here)
        if (g.cost.row(arc)[w]) cut = true;
      const double d = divisor(f, w, weight[f]);
      if (d <= 0) continue;
      for (auto arc : arcs_of(node[f])) {
        if (std::find(cut_here.begin(), cut_here.end(), arc) != cut_here.end()) continue;
        const double share = weight[f] * as_double(g.cost.row(arc)[w]) / d;
        if (share <= 0) continue;
        if (share < floor || node.size() >= cap) {
          ++pruned;
          continue;
        }
        heap.push({share, add(next(arc), f, arc, share)});
      }
    }
  }
};

// Largest remainders: `total` in whole units over `shares` (proportions, any scale), into
// `out`.
void apportion(std::uint64_t total, std::span<const double> shares,
               std::vector<std::uint64_t>& out) {
  const std::size_t n = shares.size();
  out.assign(n, 0);
  if (n == 0 || total == 0) return;
  long double sum = 0;
  for (auto s : shares) sum += s;
  std::vector<long double> exact(n);
  for (std::size_t i = 0; i < n; ++i)
    exact[i] = static_cast<long double>(total) * (static_cast<long double>(shares[i]) / sum);
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double f = std::floor(exact[i]);
    out[i] = f >= static_cast<long double>(total) ? total : static_cast<std::uint64_t>(f);
    given += out[i];
  }
  // Rounding may have given a unit too many (a share of almost all of a huge total).
  for (std::size_t i = 0; given > total && i < n; ++i) {
    const std::uint64_t back = std::min(out[i], given - total);
    out[i] -= back;
    given -= back;
  }
  if (given == total) return;
  // The units left (fewer than n, but for a total beyond a long double's 64 bits of
  // precision) to the largest remainders, ties to the first frames.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto larger = [&](std::size_t x, std::size_t y) {
    const long double rx = exact[x] - std::floor(exact[x]), ry = exact[y] - std::floor(exact[y]);
    return rx != ry ? rx > ry : x < y;
  };
  const std::uint64_t left = total - given;
  if (left < n) {
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(left), order.end(),
                     larger);
    for (std::size_t k = 0; k < left; ++k) ++out[order[k]];
    return;
  }
  std::sort(order.begin(), order.end(), larger);
  for (std::size_t k = 0; given < total; k = (k + 1) % n) {
    ++out[order[k]];
    ++given;
  }
}

std::uint64_t whole(double v) {
  const double f = std::floor(v);
  if (!(f > 0)) return 0;
  return f >= 18446744073709551615.0 ? UINT64_MAX : static_cast<std::uint64_t>(f);
}

}  // namespace

path_tree path_estimator::estimate(const path_options& options) const {
  const impl& g = *impl_;
  builder<impl> b(g, options);
  const std::size_t events = g.events, w = b.w;
  const bool exact = options.exact_self && !b.up && !options.root && options.roots.empty();
  if (events == 0) return lay_out(0, 0, {}, {}, cost_matrix(0), cost_matrix(0));
  b.expand();

  // Step 3: every event's weights along the shape (frames come after their parents), and
  // each frame's estimated share of its node's self cost.
  const std::size_t n0 = b.node.size();
  std::vector<double> weight(n0 * events), own(exact ? n0 * events : 0);
  std::vector<double> divisor(n0 * events);
  for (std::uint32_t f = 0; f < n0; ++f) {
    const std::size_t at = f * events;
    for (std::size_t e = 0; e < events; ++e) {
      if (b.parent[f] == none) {
        weight[at + e] = b.start_weight(f, e);
      } else {
        const std::size_t p = b.parent[f] * events + e;
        weight[at + e] =
            divisor[p] > 0 ? weight[p] * as_double(g.cost.row(b.via[f])[e]) / divisor[p] : 0;
      }
      divisor[at + e] = b.divisor(f, e, weight[at + e]);
      if (exact && divisor[at + e] > 0)
        own[at + e] = weight[at + e] * as_double(g.self.row(b.node[f])[e]) / divisor[at + e];
    }
  }
  divisor = {};

  cost_matrix self(events), total(events);
  bool ok = true;
  std::size_t unfitted = 0;
  if (!exact) {
    // A display: totals are the estimated weights (rounded down, so children always fit), self
    // what the children leave.
    self.add_rows(n0);
    total.add_rows(n0);
    for (std::size_t f = 0; f < n0; ++f) {
      auto t = total.row(f);
      for (std::size_t e = 0; e < events; ++e) t[e] = whole(weight[f * events + e]);
    }
    cost_matrix kids(events);
    kids.add_rows(n0);
    for (std::size_t f = n0; f-- > 0;) {
      auto s = self.row(f);
      auto t = total.row(f);
      auto k = kids.row(f);
      for (std::size_t e = 0; e < events; ++e) {
        if (k[e] > t[e]) t[e] = k[e];
        s[e] = t[e] - k[e];
      }
      if (b.parent[f] != none) ok &= add_saturating(kids.row(b.parent[f]), t);
    }
  } else {
    // Step 4: a chain of callers for each node with self cost and no frame: up its heaviest
    // callers to one that has a frame (the chain goes under that node's heaviest frame), or
    // to a node no one calls (or whose callers are all in the chain: a new root).
    // (An entry_root's frame holds only what no call into its node holds: a node whose other
    // frames were all pruned gets a chain too, and so does a caller's.)
    std::vector<std::uint32_t> best_frame(g.nodes, none);
    for (std::uint32_t f = 0; f < n0; ++f) {
      if (b.parent[f] == none && b.entry_root(b.node[f])) continue;
      auto& best = best_frame[b.node[f]];
      if (best == none || b.weight[f] > b.weight[best]) best = f;
    }
    std::vector<std::uint32_t> chain;
    std::vector<char> in_chain(g.nodes, 0);
    // The first heaviest call into `at` from a node not in the chain (none: there is none).
    // The first heaviest of all its calls is that one unless it comes from the chain.
    auto heaviest_caller = [&](std::uint32_t at, bool skip_chain) {
      std::uint32_t best = none;
      for (auto arc : g.in[at]) {
        if (skip_chain && in_chain[g.from[arc]]) continue;
        if (best == none || g.cost.row(arc)[w] > g.cost.row(best)[w]) best = arc;
      }
      return best;
    };
    for (std::uint32_t v = 0; v < g.nodes; ++v) {
      const auto c = g.self.row(v);
      if (best_frame[v] != none || std::all_of(c.begin(), c.end(), [](auto x) { return !x; }))
        continue;
      chain.assign(1, v);
      in_chain[v] = 1;
      std::uint32_t under = none;
      for (std::uint32_t at = v;;) {
        std::uint32_t best = heaviest_caller(at, false);
        if (best != none && in_chain[g.from[best]]) best = heaviest_caller(at, true);
        if (best == none) break;
        at = g.from[best];
        if (best_frame[at] != none) {
          under = best_frame[at];
          break;
        }
        chain.push_back(at);
        in_chain[at] = 1;
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        under = b.add(*it, under, none, 0);
        best_frame[*it] = under;
        in_chain[*it] = 0;
      }
    }
    const std::size_t n = b.node.size();
    self.add_rows(n);
    total.add_rows(n);
    // Each node's self cost over its frames, by estimated self share; else by path weight (in
    // this event, then the weight event); else all to the chain's frame, its last one.
    lists frames_of(g.nodes, b.node);
    std::vector<double> shares;
    std::vector<std::uint64_t> parts;
    for (std::uint32_t v = 0; v < g.nodes; ++v) {
      const auto fs = frames_of[v];
      if (fs.empty()) continue;
      for (std::size_t e = 0; e < events; ++e) {
        const std::uint64_t amount = g.self.row(v)[e];
        if (!amount) continue;
        if (fs.size() == 1) {  // (most nodes: what apportion would give, at once)
          self.row(fs[0])[e] = amount;
          continue;
        }
        auto basis = [&](const std::vector<double>& of, std::size_t event) {
          double sum = 0;
          shares.assign(fs.size(), 0);
          for (std::size_t i = 0; i < fs.size(); ++i)
            if (fs[i] < n0) sum += shares[i] = of[fs[i] * events + event];
          return sum > 0;
        };
        if (!basis(own, e) && !basis(weight, e) && !basis(weight, w)) shares.back() = 1;
        apportion(amount, shares, parts);
        for (std::size_t i = 0; i < fs.size(); ++i) self.row(fs[i])[e] = parts[i];
      }
    }
    // Totals bottom-up (children come after their parents).
    for (std::size_t f = 0; f < n; ++f)
      std::copy_n(self.row(f).begin(), events, total.row(f).begin());
    for (std::size_t f = n; f-- > 0;)
      if (b.parent[f] != none) ok &= add_saturating(total.row(b.parent[f]), total.row(f));
    unfitted = detail::fit(b, n0, weight, self, total);
  }

  path_tree t = lay_out(events, w, b.node, b.parent, self, total);
  t.pruned = b.pruned;
  t.saturated = !ok;
  t.unfitted = unfitted;
  // Estimated: a frame with children whose node more than one arc leads to (its children's
  // weights are ratios of that node's cost), or a call cut for recursion (its cost spread over
  // the others).
  t.estimated = b.cut;
  for (std::size_t f = 0; f + 1 < t.frames() && !t.estimated; ++f)
    if (t.parent[f + 1] == f && g.in[t.node[f]].size() > 1) t.estimated = true;
  return t;
}

path_tree estimate_paths(const call_graph& graph, const path_options& options) {
  return path_estimator(graph).estimate(options);
}

}  // namespace calltree

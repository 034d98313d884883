// path_layout.cc — a path tree laid out in preorder, and the transforms of a made tree: cut to
// its heaviest frames (cut_paths) and merged by label (merge_by_label); see
// analysis/call_paths.h for their semantics and analysis/path_layout.h.
#include "analysis/path_layout.h"

#include <algorithm>

#include "model/row_index.h"

namespace calltree {

namespace detail {

path_tree lay_out(std::size_t events, std::size_t w, std::span<const std::uint32_t> node,
                  std::span<const std::uint32_t> parent, const cost_matrix& self,
                  const cost_matrix& total) {
  path_tree t;
  t.events = events;
  t.self = cost_matrix(events);
  t.total = cost_matrix(events);
  const std::size_t n = node.size();
  auto heavier = [&](std::uint32_t x, std::uint32_t y) {
    const auto tx = total.row(x)[w], ty = total.row(y)[w];
    if (tx != ty) return tx > ty;
    return node[x] != node[y] ? node[x] < node[y] : x < y;
  };
  // Roots are the children of a virtual frame n.
  std::vector<std::uint32_t> owner(parent.begin(), parent.end());
  for (auto& p : owner)
    if (p == path_tree::no_frame) p = static_cast<std::uint32_t>(n);
  lists children(n + 1, owner);
  for (std::size_t f = 0; f <= n; ++f) {
    auto c = children[f];
    std::sort(c.begin(), c.end(), heavier);
  }
  t.node.reserve(n);
  t.parent.reserve(n);
  t.depth.reserve(n);
  t.self.add_rows(n);
  t.total.add_rows(n);
  // (old frame, its new parent) on a stack, children pushed in reverse.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;
  for (auto it = children[n].rbegin(); it != children[n].rend(); ++it)
    stack.emplace_back(*it, path_tree::no_frame);
  while (!stack.empty()) {
    const auto [f, p] = stack.back();
    stack.pop_back();
    const auto id = static_cast<std::uint32_t>(t.node.size());
    t.node.push_back(node[f]);
    t.parent.push_back(p);
    t.depth.push_back(p == path_tree::no_frame ? 0 : t.depth[p] + 1);
    std::copy_n(self.row(f).begin(), events, t.self.row(id).begin());
    std::copy_n(total.row(f).begin(), events, t.total.row(id).begin());
    const auto c = children[f];
    for (auto it = c.rbegin(); it != c.rend(); ++it) stack.emplace_back(*it, id);
  }
  return t;
}

}  // namespace detail

namespace {
constexpr std::uint32_t none = path_tree::no_frame;
}  // namespace

using detail::lay_out;

path_tree cut_paths(const path_tree& tree, std::size_t weight_event, double min_share,
                    std::size_t max_frames) {
  const std::size_t events = tree.events, n = tree.frames();
  path_tree t;
  t.events = events;
  t.self = cost_matrix(events);
  t.total = cost_matrix(events);
  t.estimated = tree.estimated;
  t.saturated = tree.saturated;
  t.unfitted = tree.unfitted;
  if (events == 0 || weight_event >= events) {
    t.pruned = tree.pruned + n;
    return t;
  }
  auto weight = [&](std::size_t f) { return tree.total.row(f)[weight_event]; };
  std::uint64_t sum = 0;
  for (std::size_t f = 0; f < n; ++f)
    if (tree.parent[f] == none) sum = sum + weight(f) < sum ? UINT64_MAX : sum + weight(f);
  // (A frame of no weight is shown only when nothing has any.)
  const auto threshold = std::max<std::uint64_t>(
      sum ? 1 : 0, static_cast<std::uint64_t>(static_cast<double>(sum) * min_share));
  // Frames come parents first, and no child outweighs its parent (a total is a sum), so the
  // frames at or above the threshold whose parent is kept, cut to the heaviest max_frames
  // (ties: the earlier frame, so a parent before its children), are whole paths from roots.
  std::vector<std::uint32_t> kept_as(n, none);
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::uint32_t p = tree.parent[f];
    // (Every root is kept, however light: the roots sum to the total.)
    if ((p != none && weight(f) < threshold) || (p != none && kept_as[p] == none)) continue;
    kept_as[f] = 0;
    chosen.push_back(f);
  }
  if (chosen.size() > max_frames) {
    std::vector<std::uint32_t> by_weight = chosen;
    std::nth_element(by_weight.begin(), by_weight.begin() + static_cast<std::ptrdiff_t>(max_frames),
                     by_weight.end(), [&](std::uint32_t a, std::uint32_t b) {
                       return weight(a) != weight(b) ? weight(a) > weight(b) : a < b;
                     });
    for (std::size_t i = max_frames; i < by_weight.size(); ++i) kept_as[by_weight[i]] = none;
    std::vector<std::uint32_t> still;
    for (std::uint32_t f : chosen) {
      const std::uint32_t p = tree.parent[f];
      if (kept_as[f] == none || (p != none && kept_as[p] == none)) {
        kept_as[f] = none;
        continue;
      }
      still.push_back(f);
    }
    chosen = std::move(still);
  }
  t.self.reserve_rows(chosen.size());
  t.total.reserve_rows(chosen.size());
  for (std::uint32_t f : chosen) {
    kept_as[f] = static_cast<std::uint32_t>(t.node.size());
    const std::uint32_t p = tree.parent[f];
    t.node.push_back(tree.node[f]);
    t.parent.push_back(p == none ? none : kept_as[p]);
    t.depth.push_back(tree.depth[f]);
    const std::size_t r = t.self.add_row();
    t.total.add_row();
    std::copy_n(tree.self.row(f).begin(), events, t.self.row(r).begin());
    std::copy_n(tree.total.row(f).begin(), events, t.total.row(r).begin());
  }
  t.pruned = tree.pruned + (n - chosen.size());
  return t;
}

path_tree merge_by_label(const path_tree& tree, std::span<const std::uint32_t> label) {
  const std::size_t events = tree.events;
  std::vector<std::uint32_t> node, parent;
  cost_matrix self(events), total(events);
  std::vector<std::uint64_t> heaviest;  // per merged frame: the heaviest part's first total
  std::vector<std::uint32_t> merged(tree.frames());
  auto label_of = [&](std::uint32_t n) { return n < label.size() ? label[n] : n; };
  detail::row_index index;  // (merged parent, label) -> merged frame
  index.reserve(tree.frames());
  bool ok = !tree.saturated;
  for (std::uint32_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t p = tree.parent[f] == none ? none : merged[tree.parent[f]];
    const std::uint32_t l = label_of(tree.node[f]);
    const std::uint64_t hash = detail::mix(detail::mix(0, p), l);
    std::size_t slot = 0;
    std::uint32_t m = index.find(
        hash, [&](std::uint32_t r) { return parent[r] == p && label_of(node[r]) == l; }, slot);
    const bool fresh = m == detail::row_index::empty;
    const std::uint64_t weight = events ? tree.total.row(f)[0] : 0;
    if (fresh) {
      m = static_cast<std::uint32_t>(node.size());
      index.insert(hash, m, slot);
      node.push_back(tree.node[f]);
      parent.push_back(p);
      self.add_row();
      total.add_row();
      heaviest.push_back(weight);
    } else if (weight > heaviest[m]) {
      heaviest[m] = weight;
      node[m] = tree.node[f];
    }
    ok &= add_saturating(self.row(m), tree.self.row(f));
    ok &= add_saturating(total.row(m), tree.total.row(f));
    merged[f] = m;
  }
  path_tree t = lay_out(events, 0, node, parent, self, total);
  t.estimated = tree.estimated;
  t.pruned = tree.pruned;
  t.unfitted = tree.unfitted;
  t.saturated = !ok;
  return t;
}

}  // namespace calltree

// views/path_builder.h — (internal) a tree of call paths made frame by frame, paths that
// became the same merged into one frame: what the stack filters and transforms build.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "calltree/analysis/call_paths.h"

namespace calltree::views::paths {

// A tree made frame by frame: frame(parent, node) finds or adds the child `node` of `parent`
// (path_tree::no_frame: a root), so paths that became the same are one frame; finish() sums the
// totals and puts the frames in estimate_paths' order.
class path_builder {
 public:
  explicit path_builder(std::size_t events) : events_(events), self_(events) {}

  std::uint32_t frame(std::uint32_t parent, std::uint32_t node) {
    const std::uint64_t k = (std::uint64_t{parent} << 32) | node;
    auto [it, added] = index_.try_emplace(k, static_cast<std::uint32_t>(node_.size()));
    if (added) {
      node_.push_back(node);
      parent_.push_back(parent);
      self_.add_row();
    }
    return it->second;
  }
  std::uint32_t node(std::uint32_t f) const { return node_[f]; }
  std::uint32_t parent(std::uint32_t f) const { return parent_[f]; }
  // Adds `cost` to frame f's self cost; false when some sum saturated.
  void add_self(std::uint32_t f, std::span<const std::uint64_t> cost) {
    if (!add_saturating(self_.row(f), cost)) saturated_ = true;
  }

  path_tree finish(std::size_t weight_event, const path_tree& like) {
    const std::size_t n = node_.size();
    cost_matrix total = self_;
    // (A parent is made before its children: the children's totals are complete first.)
    for (std::size_t f = n; f-- > 0;)
      if (parent_[f] != path_tree::no_frame && !add_saturating(total.row(parent_[f]), total.row(f)))
        saturated_ = true;
    std::vector<std::vector<std::uint32_t>> children(n);
    std::vector<std::uint32_t> roots;
    for (std::uint32_t f = 0; f < n; ++f)
      (parent_[f] == path_tree::no_frame ? roots : children[parent_[f]]).push_back(f);
    auto heavier = [&](std::uint32_t a, std::uint32_t b) {
      const std::uint64_t wa = weight_event < events_ ? total.row(a)[weight_event] : 0;
      const std::uint64_t wb = weight_event < events_ ? total.row(b)[weight_event] : 0;
      return wa != wb ? wa > wb : node_[a] < node_[b];
    };
    path_tree t;
    t.events = events_;
    t.self = cost_matrix(events_);
    t.total = cost_matrix(events_);
    t.self.reserve_rows(n);
    t.total.reserve_rows(n);
    t.estimated = like.estimated;
    t.pruned = like.pruned;
    t.saturated = like.saturated || saturated_;
    // Depth first, each frame's children heaviest first: a stack of (frame, new parent, depth).
    struct item {
      std::uint32_t f, parent, depth;
    };
    std::vector<item> todo;
    std::sort(roots.begin(), roots.end(), heavier);
    for (auto it = roots.rbegin(); it != roots.rend(); ++it)
      todo.push_back({*it, path_tree::no_frame, 0});
    while (!todo.empty()) {
      const item i = todo.back();
      todo.pop_back();
      const auto at = static_cast<std::uint32_t>(t.node.size());
      t.node.push_back(node_[i.f]);
      t.parent.push_back(i.parent);
      t.depth.push_back(i.depth);
      std::copy_n(self_.row(i.f).begin(), events_, t.self.row(t.self.add_row()).begin());
      std::copy_n(total.row(i.f).begin(), events_, t.total.row(t.total.add_row()).begin());
      auto& c = children[i.f];
      std::sort(c.begin(), c.end(), heavier);
      for (auto it = c.rbegin(); it != c.rend(); ++it) todo.push_back({*it, at, i.depth + 1});
    }
    return t;
  }

 private:
  std::size_t events_;
  std::vector<std::uint32_t> node_, parent_;
  cost_matrix self_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
  bool saturated_ = false;
};

}  // namespace calltree::views::paths

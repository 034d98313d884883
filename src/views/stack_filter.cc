// views/stack_filter.cc — pprof's stack filters on a tree of call paths (see stack_filter.h).
#include "views/stack_filter.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "views/path_builder.h"

namespace calltree::views {

namespace {

constexpr std::uint32_t none = path_tree::no_frame;
using paths::path_builder;

bool nonzero(std::span<const std::uint64_t> row) {
  return std::any_of(row.begin(), row.end(), [](std::uint64_t v) { return v != 0; });
}

}  // namespace

filtered_tree filter_paths(const path_tree& tree, const stack_filter& filter,
                           const std::function<std::string_view(std::uint32_t)>& name,
                           std::size_t weight_event) {
  const std::size_t n = tree.frames(), events = tree.events;
  filtered_tree out;
  filter_summary& sum = out.summary;
  sum.total.assign(events, 0);
  sum.dropped.assign(events, 0);
  // Each node's name is matched once: bit 1 ignored, 2 focused, 4 hidden, 8 matched.
  enum : std::uint8_t { ignored = 1, focused = 2, hidden = 4, known = 8 };
  std::unordered_map<std::uint32_t, std::uint8_t> flags;
  auto flags_of = [&](std::uint32_t node) {
    std::uint8_t& f = flags[node];
    if (f & known) return f;
    const std::string_view text = name(node);
    f = known;
    if (filter.ignore && filter.ignore(text)) {
      f |= ignored;
      sum.ignore_matched = true;
    } else if (!filter.focus || filter.focus(text)) {
      f |= focused;
      if (filter.focus) sum.focus_matched = true;
    }
    if (filter.hide && filter.hide(text)) {
      f |= hidden;
      sum.hide_matched = true;
    }
    if (filter.show) {
      if (filter.show(text))
        sum.show_matched = true;
      else
        f |= hidden;
    }
    return f;
  };
  // Per frame, in preorder (parents first): whether its path has a focused and an ignored
  // frame, and its deepest frame not hidden (itself or an ancestor; none: all hidden).
  std::vector<std::uint8_t> path(n);
  std::vector<std::uint32_t> shown(n), made(n, none);
  path_builder b(events);
  std::vector<std::uint32_t> chain;
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::uint32_t p = tree.parent[f];
    const std::uint8_t fl = flags_of(tree.node[f]);
    path[f] = static_cast<std::uint8_t>((p == none ? 0 : path[p]) | (fl & (ignored | focused)));
    shown[f] = (fl & hidden) ? (p == none ? none : shown[p]) : f;
    const auto self = tree.self.row(f);
    add_saturating(std::span<std::uint64_t>(sum.total), self);
    const bool kept = (path[f] & focused) && !(path[f] & ignored) && shown[f] != none;
    if (!kept) {
      add_saturating(std::span<std::uint64_t>(sum.dropped), self);
      continue;
    }
    if (!nonzero(self)) continue;
    // The frame of the new tree its cost goes to, made with its path of frames not hidden.
    chain.clear();
    for (std::uint32_t a = shown[f]; a != none && made[a] == none;) {
      chain.push_back(a);
      const std::uint32_t up = tree.parent[a];
      a = up == none ? none : shown[up];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::uint32_t up = tree.parent[*it] == none ? none : shown[tree.parent[*it]];
      made[*it] = b.frame(up == none ? none : made[up], tree.node[*it]);
    }
    b.add_self(made[shown[f]], self);
  }
  out.tree = b.finish(weight_event, tree);
  return out;
}

std::string filter_note(const filter_summary& summary, std::span<const std::string> events,
                        std::string_view text) {
  std::string note(text);
  note += ": left out";
  for (std::size_t c = 0; c < events.size() && c < summary.total.size(); ++c) {
    char pct[32] = "0";
    if (summary.total[c])
      std::snprintf(
          pct, sizeof pct, "%.2f",
          100.0 * static_cast<double>(summary.dropped[c]) / static_cast<double>(summary.total[c]));
    note += (c ? ", " : " ") + std::to_string(summary.dropped[c]) + " of " +
            std::to_string(summary.total[c]) + " " + events[c] + " (" + pct + " %)";
  }
  return note;
}

path_tree callees_below(const path_tree& tree, std::uint32_t node, std::size_t weight_event) {
  const std::size_t n = tree.frames();
  path_builder b(tree.events);
  std::vector<std::uint32_t> made(n, none);
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::uint32_t p = tree.parent[f];
    if (tree.node[f] == node)
      made[f] = b.frame(none, node);
    else if (p != none && made[p] != none)
      made[f] = b.frame(made[p], tree.node[f]);
    else
      continue;
    b.add_self(made[f], tree.self.row(f));
  }
  return b.finish(weight_event, tree);
}

path_tree callers_above(const path_tree& tree, std::uint32_t node, std::size_t weight_event) {
  path_builder b(tree.events);
  // A frame of `node` below another (a recorded stack's recursion, recorded_stacks.h) is inside
  // that one's total: only the outermost frames of `node` bring theirs.
  std::vector<char> below(tree.frames(), 0);
  for (std::uint32_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t p = tree.parent[f];
    below[f] = p != none && (below[p] || tree.node[p] == node);
    if (tree.node[f] != node || below[f]) continue;
    std::uint32_t at = b.frame(none, node);
    for (std::uint32_t a = tree.parent[f]; a != none; a = tree.parent[a])
      at = b.frame(at, tree.node[a]);
    b.add_self(at, tree.total.row(f));
  }
  return b.finish(weight_event, tree);
}

}  // namespace calltree::views

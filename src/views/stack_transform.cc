// views/stack_transform.cc — the call-tree transforms (see stack_transform.h).
#include "views/stack_transform.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

#include "views/path_builder.h"

namespace calltree {

namespace {

// "name.SUFFIX" or "name.SUFFIX.N" (digits) at the end of `s`: the length of `s` without it,
// or s.size() when it does not end so.
std::size_t without_suffix(std::string_view s) {
  static constexpr std::array<std::string_view, 5> suffixes = {".constprop", ".isra", ".part",
                                                               ".cold", ".lto_priv"};
  std::size_t end = s.size();
  while (end > 0 && s[end - 1] >= '0' && s[end - 1] <= '9') --end;
  if (end < s.size()) {
    if (end == 0 || s[end - 1] != '.') return s.size();
    --end;  // (".N")
  }
  for (std::string_view x : suffixes)
    if (end >= x.size() && s.substr(end - x.size(), x.size()) == x) return end - x.size();
  return s.size();
}

}  // namespace

std::string_view clone_base(std::string_view name) {
  for (;;) {
    // Demangled: "f(int) [clone .isra.0]".
    if (name.ends_with("]")) {
      const auto at = name.rfind(" [clone .");
      if (at != std::string_view::npos && at > 0) {
        const std::string_view inner = name.substr(at + 8, name.size() - at - 9);  // ".isra.0"
        if (without_suffix(inner) == 0) {
          name = name.substr(0, at);
          continue;
        }
      }
      return name;
    }
    const std::size_t n = without_suffix(name);
    if (n == name.size() || n == 0) return name;
    name = name.substr(0, n);
  }
}

}  // namespace calltree

namespace calltree::views {

std::string without_clones(std::string_view name) {
  std::string m;
  for (std::size_t at = 0;;) {
    const std::size_t tick = name.find('\'', at + (at == 0 ? 1 : 0));
    m += clone_base(name.substr(at, tick == std::string_view::npos ? tick : tick - at));
    if (tick == std::string_view::npos) return m;
    m += '\'';
    at = tick + 1;
  }
}

std::string_view recursion_identity(std::string_view name) {
  const auto tick = name.find('\'');
  return tick == 0 || tick == std::string_view::npos ? name : name.substr(0, tick);
}

namespace {

constexpr std::uint32_t none = path_tree::no_frame;
using paths::path_builder;

// The transforms of `filter`'s fields (not its steps) in one walk of `tree`, in their fixed
// order.
filtered_tree walk(const path_tree& tree, const stack_filter& filter, const frame_names& names,
                   std::size_t weight_event) {
  const std::size_t n = tree.frames(), events = tree.events;
  filtered_tree out;
  filter_summary& sum = out.summary;
  sum.total.assign(events, 0);
  sum.dropped.assign(events, 0);
  for (std::size_t f = 0; f < n; ++f)
    add_saturating(std::span<std::uint64_t>(sum.total), tree.self.row(f));

  // Each node's new node, and whether it is a collapsed object's.
  std::unordered_map<std::uint32_t, std::uint32_t> node_of;
  std::unordered_map<std::uint32_t, std::string> renamed;
  std::unordered_map<std::uint32_t, bool> in_object;
  if (filter.merge_clones) {
    // Per merged name: the node named by it, else the first (smallest) clone. A name's
    // recursion level or caller context stays (`f.part.0'2` is `f'2`, level 2 of f), its
    // callers' names merged too.
    std::unordered_map<std::string, std::uint32_t> base_node;
    std::vector<std::uint32_t> nodes(tree.node.begin(), tree.node.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    std::vector<std::string> base(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string_view name = names.name(nodes[i]);
      base[i] = without_clones(name);
      auto [it, fresh] = base_node.try_emplace(base[i], nodes[i]);
      if (!fresh && name == base[i]) it->second = nodes[i];
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::uint32_t to = base_node.at(base[i]);
      node_of[nodes[i]] = to;
      if (names.name(to) != base[i]) renamed.try_emplace(to, base[i]);
    }
  }
  if (filter.collapse_object) {
    std::unordered_map<std::string_view, std::uint32_t> object_node;
    std::unordered_map<std::string_view, bool> matches;
    for (std::uint32_t f = 0; f < n; ++f) {
      const std::uint32_t k = tree.node[f];
      const std::string_view ob = names.object(k);
      auto [m, fresh] = matches.try_emplace(ob, false);
      if (fresh) m->second = filter.collapse_object(ob);
      if (!m->second) continue;
      auto [it, first] = object_node.try_emplace(ob, k);
      if (!first && k < it->second) it->second = k;
    }
    for (std::uint32_t f = 0; f < n; ++f) {
      const std::uint32_t k = tree.node[f];
      auto it = object_node.find(names.object(k));
      if (it == object_node.end()) continue;
      node_of[k] = it->second;
      in_object[it->second] = true;
      renamed.insert_or_assign(it->second, std::string(it->first));
    }
  }
  auto new_node = [&](std::uint32_t k) {
    auto it = node_of.find(k);
    return it == node_of.end() ? k : it->second;
  };
  auto display = [&](std::uint32_t k) -> std::string_view {
    auto it = renamed.find(k);
    return it == renamed.end() ? names.name(k) : std::string_view(it->second);
  };
  // A function's identity for recursion (recursion_identity), per node.
  std::unordered_map<std::uint32_t, std::string_view> identity;
  auto identity_of = [&](std::uint32_t m) {
    auto [it, fresh] = identity.try_emplace(m);
    if (fresh) it->second = recursion_identity(display(m));
    return it->second;
  };
  // Whether a new node's function is collapsed (bit 1: any recursion, 2: direct; 4: known).
  std::unordered_map<std::uint32_t, std::uint8_t> collapse;
  auto collapse_of = [&](std::uint32_t m) {
    std::uint8_t& c = collapse[m];
    if (!(c & 4)) {
      c = 4;
      const std::string_view id = identity_of(m);
      if (filter.collapse_recursion && filter.collapse_recursion(id)) c |= 1;
      if (filter.collapse_direct_recursion && filter.collapse_direct_recursion(id)) c |= 2;
    }
    return c;
  };

  // Each old frame's new frame, in preorder (its parent's made first).
  path_builder b(events);
  std::vector<std::uint32_t> made(n, none);
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::uint32_t p = tree.parent[f];
    const std::uint32_t np = p == none ? none : made[p];
    const std::uint32_t m = new_node(tree.node[f]);
    std::uint32_t to = none;
    if (np != none && b.node(np) == m && in_object.count(m))
      to = np;  // (a run of the object's frames)
    else if (np != none && (collapse_of(m) & 3)) {
      const std::string_view id = identity_of(m);
      if (identity_of(b.node(np)) == id)
        to = np;  // (a call of itself)
      else if (collapse_of(m) & 1)
        for (std::uint32_t a = b.parent(np); a != none && to == none; a = b.parent(a))
          if (identity_of(b.node(a)) == id) to = a;
    }
    if (to == none) to = b.frame(np, m);
    made[f] = to;
    b.add_self(to, tree.self.row(f));
  }
  out.tree = b.finish(weight_event, tree);

  if (!filter.focus_path.empty()) {
    // The frames of the path: depth d matched when its name is the path's d-th and its parent's
    // was matched; the frame at the path's end is a root, its subtree below it.
    const path_tree& t = out.tree;
    const std::size_t len = filter.focus_path.size();
    path_builder fb(events);
    std::vector<std::uint32_t> on_path(t.frames(), 0), kept(t.frames(), none);
    for (std::uint32_t f = 0; f < t.frames(); ++f) {
      const std::uint32_t p = t.parent[f], d = t.depth[f];
      if (p != none && kept[p] != none) {
        kept[f] = fb.frame(kept[p], t.node[f]);
      } else if (d < len && (p == none || on_path[p]) &&
                 display(t.node[f]) == filter.focus_path[d]) {
        on_path[f] = 1;
        if (d + 1 == len) {
          kept[f] = fb.frame(none, t.node[f]);
          sum.focus_path_matched = true;
        }
      }
      if (kept[f] != none)
        fb.add_self(kept[f], t.self.row(f));
      else
        add_saturating(std::span<std::uint64_t>(sum.dropped), t.self.row(f));
    }
    out.tree = fb.finish(weight_event, t);
  }
  out.renamed.assign(renamed.begin(), renamed.end());
  std::sort(out.renamed.begin(), out.renamed.end());
  return out;
}

// A step's place in the fixed order of one walk.
int rank(path_transform::kind k) {
  switch (k) {
    case path_transform::kind::merge_clones:
      return 0;
    case path_transform::kind::collapse_object:
      return 1;
    case path_transform::kind::collapse_recursion:
      return 2;
    case path_transform::kind::collapse_direct_recursion:
      return 3;
    case path_transform::kind::focus_path:
      return 4;
  }
  return 5;
}

// `legacy`'s fields (when it has any) as one walk, then `steps` as walks of consecutive steps
// in the fixed order: each walk reads the tree (and the names) the walks before it made.
filtered_tree walks(const path_tree& tree, const stack_filter* legacy,
                    std::span<const path_transform> steps, const frame_names& names,
                    std::size_t weight_event) {
  std::vector<stack_filter> runs;
  if (legacy &&
      (legacy->merge_clones || legacy->collapse_recursion || legacy->collapse_direct_recursion ||
       legacy->collapse_object || !legacy->focus_path.empty())) {
    stack_filter& run = runs.emplace_back();
    run.merge_clones = legacy->merge_clones;
    run.collapse_recursion = legacy->collapse_recursion;
    run.collapse_direct_recursion = legacy->collapse_direct_recursion;
    run.collapse_object = legacy->collapse_object;
    run.focus_path = legacy->focus_path;
  }
  int last = 5;  // (the rank of the last step of runs.back(); 5: a new walk)
  for (const path_transform& step : steps) {
    const int r = rank(step.what);
    if (r <= last) runs.emplace_back();
    last = r;
    stack_filter& run = runs.back();
    switch (step.what) {
      case path_transform::kind::merge_clones:
        run.merge_clones = true;
        break;
      case path_transform::kind::collapse_object:
        run.collapse_object = step.match;
        break;
      case path_transform::kind::collapse_recursion:
        run.collapse_recursion = step.match;
        break;
      case path_transform::kind::collapse_direct_recursion:
        run.collapse_direct_recursion = step.match;
        break;
      case path_transform::kind::focus_path:
        run.focus_path = step.path;
        break;
    }
  }
  if (runs.empty()) runs.emplace_back();  // (the tree as it is, rebuilt)
  if (runs.size() == 1) return walk(tree, runs[0], names, weight_event);

  // Each walk's names: the names the walks before it gave, else the nodes' own.
  std::unordered_map<std::uint32_t, std::string> renamed;
  const frame_names chained{[&](std::uint32_t k) -> std::string_view {
                              auto it = renamed.find(k);
                              return it == renamed.end() ? names.name(k)
                                                         : std::string_view(it->second);
                            },
                            names.object};
  filtered_tree out;
  bool matched = true;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    filtered_tree t =
        walk(i == 0 ? tree : out.tree, runs[i], i == 0 ? names : chained, weight_event);
    if (i == 0) {
      out.summary = std::move(t.summary);
    } else {
      for (std::size_t c = 0; c < out.summary.dropped.size(); ++c)
        add_saturating(out.summary.dropped[c], t.summary.dropped[c]);
    }
    if (!runs[i].focus_path.empty()) matched = matched && t.summary.focus_path_matched;
    for (auto& [k, name] : t.renamed) renamed.insert_or_assign(k, std::move(name));
    out.tree = std::move(t.tree);
  }
  out.summary.focus_path_matched = matched;
  out.renamed.assign(renamed.begin(), renamed.end());
  std::sort(out.renamed.begin(), out.renamed.end());
  return out;
}

}  // namespace

filtered_tree transform_paths(const path_tree& tree, const stack_filter& filter,
                              const frame_names& names, std::size_t weight_event) {
  return walks(tree, &filter, filter.steps, names, weight_event);
}

filtered_tree transform_and_filter(const path_tree& tree, const stack_filter& filter,
                                   const frame_names& names, std::size_t weight_event) {
  if (!filter.transforms()) return filter_paths(tree, filter, names.name, weight_event);
  filtered_tree t = transform_paths(tree, filter, names, weight_event);
  if (!(filter.focus || filter.ignore || filter.hide || filter.show)) return t;
  std::unordered_map<std::uint32_t, std::string_view> renamed;
  for (const auto& [k, name] : t.renamed) renamed.emplace(k, name);
  filtered_tree f = filter_paths(
      t.tree, filter,
      [&](std::uint32_t k) {
        auto it = renamed.find(k);
        return it == renamed.end() ? names.name(k) : it->second;
      },
      weight_event);
  // (What the transforms dropped, and the tree's total before them.)
  for (std::size_t c = 0; c < f.summary.dropped.size(); ++c)
    add_saturating(f.summary.dropped[c], t.summary.dropped[c]);
  f.summary.total = std::move(t.summary.total);
  f.summary.focus_path_matched = t.summary.focus_path_matched;
  f.renamed = std::move(t.renamed);
  return f;
}

}  // namespace calltree::views

namespace calltree {

transformed_paths transform_call_paths(const path_tree& tree, std::span<const path_transform> steps,
                                       const path_names& names, std::size_t weight_event) {
  views::filtered_tree t = views::walks(tree, nullptr, steps, names, weight_event);
  transformed_paths out;
  out.tree = std::move(t.tree);
  out.total = std::move(t.summary.total);
  out.dropped = std::move(t.summary.dropped);
  bool focuses = false;
  for (const path_transform& s : steps) focuses |= s.what == path_transform::kind::focus_path;
  out.focus_path_matched = !focuses || t.summary.focus_path_matched;
  out.renamed = std::move(t.renamed);
  return out;
}

}  // namespace calltree

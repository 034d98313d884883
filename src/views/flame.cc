// views/flame.cc — call path trees of a session (see flame.h).
#include "views/flame.h"

#include <algorithm>
#include <unordered_map>

#include "views/recorded_stacks.h"
#include "views/session.h"
#include "views/stack_transform.h"

namespace calltree::views {

namespace {

// The columns' names and formulas: what a graph's costs depend on besides the parts.
std::string columns_key(const column_set& cols) {
  std::string key;
  for (const column& c : cols.columns) {
    key += c.name;
    key += '=';
    for (auto [e, f] : c.combination.terms)
      key += std::to_string(e.index()) + "*" + std::to_string(f) + ";";
    key += '|';
  }
  return key;
}

// The graph of an estimate. A file of one part (or one part of a run) is one graph whose
// nodes are keys. A run of several parts (threads, processes, dumps) is one graph whose nodes
// are (part, key) pairs, the calls of each part between that part's nodes: each thread's
// stacks stay its own (a worker's `clone` is a root of its part, not a callee of the main
// thread's clone3 because the two are one key), and the estimate's tree is joined into keys
// afterwards (`keyed`: sibling frames of one key merged, so the same stack in several threads
// is one frame).
struct part_graph {
  path_estimator estimator;
  std::vector<std::uint32_t> key_of;   // per node: its key; empty: the nodes are the keys
  std::vector<std::uint32_t> part_of;  // per node: its part (0-based); empty with key_of
  std::uint32_t cycle_key = 0;         // a cycle as the root: its id

  path_tree keyed(const path_tree& t) const {
    path_tree m = merge_by_label(t, key_of);
    for (auto& n : m.node) n = key_of[n];
    return m;
  }
};

part_graph graph_of(const session& s, const part_costs& pc, const std::vector<std::uint32_t>& parts,
                    const column_set& cols, std::uint32_t cycle) {
  const std::size_t nk = s.keys(), ncol = cols.size();
  // A cycle as the root: its members are one node (id keys() + N - 1, as the views number
  // cycles), whose self cost is theirs and whose calls are those that cross its border.
  const auto cycle_key = cycle ? static_cast<std::uint32_t>(nk + cycle - 1) : 0;
  auto key_of = [&](std::uint32_t k) { return cycle && pc.cycle_of(k) == cycle ? cycle_key : k; };
  std::vector<std::uint64_t> v(ncol);
  const views::annotate_data& t = s.t;
  if (s.p.parts.size() <= 1 || parts.size() == 1) {
    call_graph g(cycle ? cycle_key + 1 : nk, ncol);
    for (std::uint32_t k = 0; k < nk; ++k) {
      auto row = g.self.row(key_of(k));
      for (std::size_t c = 0; c < ncol; ++c)
        add_saturating(row[c], cols.columns[c].value(pc.self(k)));
    }
    for (std::uint32_t ci = 0; ci < t.calls.size(); ++ci) {
      if (!pc.call_present(ci)) continue;
      const std::uint32_t from = key_of(t.calls[ci].caller), to = key_of(t.calls[ci].callee);
      if (cycle && from == cycle_key && to == cycle_key) continue;  // (within the cycle)
      for (std::size_t c = 0; c < ncol; ++c) v[c] = cols.columns[c].value(pc.call(ci));
      g.add_call(from, to, pc.count(ci), v);
    }
    return {path_estimator(g), {}, {}, cycle_key};
  }
  std::vector<char> selected(s.p.parts.size(), parts.empty() ? 1 : 0);
  for (std::uint32_t pt : parts)
    if (pt < selected.size()) selected[pt] = 1;
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // (part, key) -> node
  std::vector<std::uint32_t> keys, part_of;
  auto node = [&](std::uint32_t pt, std::uint32_t k) {
    const std::uint32_t kk = key_of(k);
    auto [it, fresh] =
        index.try_emplace((std::uint64_t{pt} << 32) | kk, static_cast<std::uint32_t>(keys.size()));
    if (fresh) {
      keys.push_back(kk);
      part_of.push_back(pt);
    }
    return it->second;
  };
  std::vector<std::uint32_t> self_node(t.part_self_part.size(), path_tree::no_frame);
  for (std::size_t i = 0; i < t.part_self_part.size(); ++i)
    if (selected[t.part_self_part[i]]) self_node[i] = node(t.part_self_part[i], t.part_self_key[i]);
  std::vector<std::uint32_t> call_from(t.part_call_part.size(), path_tree::no_frame),
      call_to(t.part_call_part.size());
  for (std::size_t i = 0; i < t.part_call_part.size(); ++i) {
    const std::uint32_t pt = t.part_call_part[i];
    if (!selected[pt]) continue;
    const ann_call& call = t.calls[t.part_call_call[i]];
    call_from[i] = node(pt, call.caller);
    call_to[i] = node(pt, call.callee);
  }
  call_graph g(keys.size(), ncol);
  for (std::size_t i = 0; i < self_node.size(); ++i) {
    if (self_node[i] == path_tree::no_frame) continue;
    auto row = g.self.row(self_node[i]);
    for (std::size_t c = 0; c < ncol; ++c)
      add_saturating(row[c], cols.columns[c].value(t.part_self.values(i)));
  }
  for (std::size_t i = 0; i < call_from.size(); ++i) {
    if (call_from[i] == path_tree::no_frame) continue;
    if (cycle && keys[call_from[i]] == cycle_key && keys[call_to[i]] == cycle_key) continue;
    for (std::size_t c = 0; c < ncol; ++c) v[c] = cols.columns[c].value(t.part_call_cc.values(i));
    g.add_call(call_from[i], call_to[i], t.part_call_count[i], v);
  }
  return {path_estimator(g), std::move(keys), std::move(part_of), cycle_key};
}

// The program's tree `t` (nodes: the graph's) with one root frame per part of `parts` (0-based,
// in order) above that part's roots: node `base + i` for parts[i], no self cost, its total the
// sum of its roots' (so the thread roots sum to the tree's roots). Then keyed as `estimate`
// keys a run's tree, within each thread frame: the same stack in two threads stays two frames.
path_tree by_thread(const path_tree& t, const part_graph& g,
                    const std::vector<std::uint32_t>& parts, std::uint32_t base) {
  constexpr std::uint32_t none = path_tree::no_frame;
  if (parts.empty()) return t;  // (a profile of no part: no frame)
  const std::size_t n = t.frames(), events = t.events, gnodes = base;
  std::vector<std::uint32_t> index_of_part;  // part -> its index in `parts`
  for (std::uint32_t i = 0; i < parts.size(); ++i) {
    if (parts[i] >= index_of_part.size()) index_of_part.resize(parts[i] + 1, none);
    index_of_part[parts[i]] = i;
  }
  // Each root's thread, and its subtree [root, next root) (frames are in preorder).
  std::vector<std::vector<std::uint32_t>> roots_of(parts.size());
  for (std::uint32_t f = 0; f < n; ++f) {
    if (t.parent[f] != none) continue;
    const std::uint32_t pt = g.part_of.empty() ? parts.front() : g.part_of[t.node[f]];
    if (pt < index_of_part.size() && index_of_part[pt] != none)
      roots_of[index_of_part[pt]].push_back(f);
  }
  path_tree a;
  a.events = events;
  a.self = cost_matrix(events);
  a.total = cost_matrix(events);
  a.estimated = t.estimated;
  a.pruned = t.pruned;
  a.unfitted = t.unfitted;
  bool ok = !t.saturated;
  std::vector<std::uint32_t> moved(n, none);
  for (std::uint32_t i = 0; i < parts.size(); ++i) {
    const auto top = static_cast<std::uint32_t>(a.node.size());
    a.node.push_back(base + i);
    a.parent.push_back(none);
    a.depth.push_back(0);
    a.self.add_row();
    a.total.add_row();
    for (std::uint32_t r : roots_of[i]) {
      ok &= add_saturating(a.total.row(top), t.total.row(r));
      for (std::uint32_t f = r; f < n && (f == r || t.parent[f] != none); ++f) {
        moved[f] = static_cast<std::uint32_t>(a.node.size());
        a.node.push_back(t.node[f]);
        a.parent.push_back(t.parent[f] == none ? top : moved[t.parent[f]]);
        a.depth.push_back(t.depth[f] + 1);
        const std::size_t row = a.self.add_row();
        a.total.add_row();
        ok &= add_saturating(a.self.row(row), t.self.row(f));
        ok &= add_saturating(a.total.row(row), t.total.row(f));
      }
    }
  }
  a.saturated = !ok;
  if (g.key_of.empty()) return a;  // (the nodes are keys, the threads in order)
  // Keyed: labels are keys; a thread frame's label is its own node, above every key.
  const auto key = [&](std::uint32_t x) { return x < g.key_of.size() ? g.key_of[x] : x; };
  std::vector<std::uint32_t> label(gnodes + parts.size());
  for (std::uint32_t x = 0; x < label.size(); ++x) label[x] = key(x);
  path_tree m = merge_by_label(a, label);
  for (auto& x : m.node) x = key(x);
  return m;
}

// `t` with its thread frames (nodes from first_thread) and their subtrees in the order of their
// parts, which merges lay out by weight.
path_tree threads_in_order(const path_tree& t, std::uint32_t first_thread) {
  constexpr std::uint32_t none = path_tree::no_frame;
  // (root's node, root frame); a root that is no thread frame (focus_path's) after them, as it was
  std::vector<std::pair<std::uint32_t, std::uint32_t>> blocks;
  for (std::uint32_t f = 0; f < t.frames(); ++f)
    if (t.parent[f] == none) blocks.emplace_back(t.node[f] >= first_thread ? t.node[f] : none, f);
  std::sort(blocks.begin(), blocks.end());
  path_tree o;
  o.events = t.events;
  o.self = cost_matrix(t.events);
  o.total = cost_matrix(t.events);
  o.estimated = t.estimated;
  o.pruned = t.pruned;
  o.unfitted = t.unfitted;
  o.saturated = t.saturated;
  std::vector<std::uint32_t> at(t.frames(), none);
  for (const auto& b : blocks) {
    for (std::uint32_t f = b.second; f < t.frames() && (f == b.second || t.parent[f] != none);
         ++f) {
      at[f] = static_cast<std::uint32_t>(o.node.size());
      o.node.push_back(t.node[f]);
      o.parent.push_back(t.parent[f] == none ? none : at[t.parent[f]]);
      o.depth.push_back(t.depth[f]);
      const std::size_t row = o.self.add_row();
      o.total.add_row();
      add_saturating(o.self.row(row), t.self.row(f));
      add_saturating(o.total.row(row), t.total.row(f));
    }
  }
  return o;
}

// The names of by_thread's root frames (flame.h, thread_root).
std::vector<thread_root> thread_roots(const session& s, const std::vector<std::uint32_t>& parts) {
  std::unordered_map<std::uint64_t, std::size_t> parts_of_thread;
  for (std::size_t i = 0; i < s.p.parts.size(); ++i)
    if (auto th = s.p.parts[part_id{i}].header.thread) ++parts_of_thread[*th];
  std::vector<thread_root> out;
  for (std::uint32_t pt : parts) {
    const auto& th = s.p.parts[part_id{pt}].header.thread;
    std::string name;
    if (th && parts_of_thread[*th] == 1) {
      name = "thread " + std::to_string(*th);
    } else {
      name = "part " + std::to_string(pt + 1);
      if (th) name.append(", thread ").append(std::to_string(*th));
    }
    out.push_back({pt, std::move(name)});
  }
  return out;
}

// The tree of the stacks the file records (recorded_stacks.h), for what flame() asks: the
// program's tree (exact, remembered per parts, columns, weight and threads), filtered and
// transformed as the estimate's is, then cut for display (the exports take it whole: their
// min_share and max_frames are export/stacks.cc's cut), or read from one function: the stacks
// below its frames (callees_below) or above them (callers_above).
void recorded_flame(const session& s, const flame_query& q, flame_view& out, const std::string& key,
                    const frame_names& name, bool threads,
                    const std::vector<std::uint32_t>& thread_parts) {
  const bool from_roots = !q.root && q.direction == path_direction::callees;
  const std::size_t w = out.weight_column;
  out.recorded = true;
  if (threads) {
    out.thread_node = static_cast<std::uint32_t>(s.ids());
    out.threads = thread_roots(s, thread_parts);
  }
  const std::string tree_key = key + "|recorded|" + std::to_string(w) + (threads ? "|threads" : "");
  auto exact = s.remembered<path_tree>(tree_key, [&] {
    return std::make_shared<const path_tree>(recorded_tree(
        s, q.parts, out.columns, w,
        threads ? std::optional<std::uint32_t>(out.thread_node) : std::nullopt, thread_parts));
  });
  const path_tree* stacks = exact.get();
  std::shared_ptr<const filtered_tree> filtered;
  if (q.filter.any()) {
    filtered = s.remembered<filtered_tree>(tree_key + "|filter|" + q.filter.key, [&] {
      return std::make_shared<const filtered_tree>(transform_and_filter(*exact, q.filter, name, w));
    });
    out.filtered = filtered->summary;
    out.renamed = filtered->renamed;
    stacks = &filtered->tree;
  }
  path_tree tree;
  if (from_roots && q.exact_self)
    tree = *stacks;
  else if (from_roots)
    tree = cut_paths(*stacks, w, q.min_share, q.max_frames);
  else
    tree = cut_paths(q.direction == path_direction::callees ? callees_below(*stacks, *q.root, w)
                                                            : callers_above(*stacks, *q.root, w),
                     w, q.min_share, q.max_frames);
  if (q.merge) tree = merge_by_label(tree, s.label_of);
  if (threads) tree = threads_in_order(tree, out.thread_node);
  out.tree = std::move(tree);
}

}  // namespace

result<flame_view> flame(const session& s, const flame_query& q) {
  flame_view out;
  auto cols = resolve_columns(s, q.events, q.derived);
  if (!cols) return cols.error();
  out.columns = std::move(*cols);
  auto weight_col = out.columns.weight_column(q.weight_event);
  if (!weight_col) return weight_col.error();
  out.weight_column = *weight_col;
  if (q.root && *q.root >= s.ids()) return error{"a flame graph's root is a function or a cycle"};
  out.costs = s.costs_of(q.parts, q.detect_cycles);
  const part_costs& pc = *out.costs;
  // A cycle as the root (graph_of: one node).
  std::uint32_t cycle = 0;  // N of <cycle N>; 0: none
  if (q.root && *q.root >= s.keys()) {
    cycle = static_cast<std::uint32_t>(*q.root - s.keys() + 1);
    if (cycle > pc.cycles())
      return error{"the selected parts have no cycle " + std::to_string(cycle)};
  }
  const std::size_t ncol = out.columns.size();
  if (ncol == 0) {
    out.tree.events = 0;
    return out;  // (no events: no tree)
  }

  std::string key = "flame|";
  for (std::uint32_t p : q.parts) key += std::to_string(p) + ",";
  key.append("|").append(columns_key(out.columns));  // (not "|" + ...: GCC 12 -Wrestrict)
  if (cycle) key.append("|cycle ").append(std::to_string(cycle));
  const bool from_roots = !q.root && q.direction == path_direction::callees;
  // by_thread: the program's tree under one frame per part (by_thread above).
  const bool threads = q.by_thread && from_roots;
  std::vector<std::uint32_t> thread_parts = q.parts;
  if (threads && thread_parts.empty())
    for (std::uint32_t i = 0; i < s.p.parts.size(); ++i) thread_parts.push_back(i);
  // (a thread frame: its name, no object)
  const frame_names name{[&](std::uint32_t k) {
                           return threads && k >= out.thread_node
                                      ? std::string_view(out.threads[k - out.thread_node].name)
                                      : s.name(k);
                         },
                         [&](std::uint32_t k) {
                           return threads && k >= out.thread_node ? std::string_view()
                                                                  : s.object(k);
                         }};
  // An imported file's own stacks (recorded_stacks.h), where every selected part has them.
  if (s.stacks.any()) {
    out.stacks_note = s.stacks.missing(q.parts);
    if (out.stacks_note.empty() && cycle)
      out.stacks_note = "a cycle (a notion of the call graph) is drawn from the calls";
    if (out.stacks_note.empty()) {
      recorded_flame(s, q, out, key, name, threads, thread_parts);
      return out;
    }
  }
  auto graph = s.remembered<part_graph>(key, [&] {
    return std::make_shared<const part_graph>(graph_of(s, pc, q.parts, out.columns, cycle));
  });
  const path_estimator* estimator = &graph->estimator;
  if (threads) {
    out.thread_node = static_cast<std::uint32_t>(std::max(estimator->nodes(), s.ids()));
    out.threads = thread_roots(s, thread_parts);
    key.append("|threads");
  }
  // An estimate whose frames are keys: a run's (part, key) nodes joined into their keys.
  auto estimate = [&](const path_options& opt) {
    path_tree t = estimator->estimate(opt);
    return graph->key_of.empty() ? t : graph->keyed(t);
  };
  // The program's tree (from the roots), with by_thread its threads' frames.
  auto program = [&](const path_options& opt) {
    return threads ? by_thread(estimator->estimate(opt), *graph, thread_parts, out.thread_node)
                   : estimate(opt);
  };

  path_options o;
  if (q.root && !graph->key_of.empty()) {
    const std::uint32_t root_key = cycle ? graph->cycle_key : *q.root;
    for (std::uint32_t n = 0; n < graph->key_of.size(); ++n)
      if (graph->key_of[n] == root_key) o.roots.push_back(n);
    if (o.roots.empty()) o.roots.push_back(path_tree::no_frame);  // (not in these parts: none)
  } else {
    o.root = q.root;
  }
  o.direction = q.direction;
  o.cycles = q.detect_cycles;
  if (q.root && q.detect_cycles && !cycle) {
    // (the views' cycles, <cycle N>: a (part, key) node of a run is in its key's)
    const std::size_t n = graph->key_of.empty() ? s.keys() : graph->key_of.size();
    o.cycle_of.resize(n);
    for (std::uint32_t k = 0; k < n; ++k)
      o.cycle_of[k] = pc.cycle_of(graph->key_of.empty() ? k : graph->key_of[k]);
  }
  o.weight_event = out.weight_column;
  o.min_share = q.min_share;
  o.max_frames = q.max_frames;
  o.exact_self = q.exact_self && from_roots;
  path_tree tree;
  if (q.filter.any()) {
    if (cycle) return error{"the stack filters apply to a function's views, not a cycle's"};
    std::shared_ptr<const filtered_tree> filtered;
    if (from_roots && q.exact_self) {
      // (An export's tree, of its own min_share and max_frames.)
      filtered = std::make_shared<const filtered_tree>(
          transform_and_filter(program(o), q.filter, name, out.weight_column));
    } else {
      o.exact_self = true;
      o.root.reset();
      o.roots.clear();
      o.direction = path_direction::callees;
      o.min_share = exact_min_share;
      o.max_frames = exact_max_frames;
      const std::string tree_key = key + "|exact|" + std::to_string(out.weight_column) + "|" +
                                   std::to_string(o.min_share) + "|" + std::to_string(o.max_frames);
      auto exact = s.remembered<path_tree>(
          tree_key, [&] { return std::make_shared<const path_tree>(program(o)); });
      filtered = s.remembered<filtered_tree>(tree_key + "|filter|" + q.filter.key, [&] {
        return std::make_shared<const filtered_tree>(
            transform_and_filter(*exact, q.filter, name, out.weight_column));
      });
    }
    out.filtered = filtered->summary;
    out.renamed = filtered->renamed;
    if (from_roots && q.exact_self)
      tree = filtered->tree;
    else if (from_roots)
      tree = cut_paths(filtered->tree, out.weight_column, q.min_share, q.max_frames);
    else
      tree = cut_paths(q.direction == path_direction::callees
                           ? callees_below(filtered->tree, *q.root, out.weight_column)
                           : callers_above(filtered->tree, *q.root, out.weight_column),
                       out.weight_column, q.min_share, q.max_frames);
  } else if (from_roots && !q.exact_self) {
    // The program's flame graph: the exports' exact tree (made once per parts, columns and
    // weight), cut for display, so that its roots sum to the total and its frames are the
    // exports' stacks with their totals.
    o.exact_self = true;
    o.min_share = std::min(q.min_share, exact_min_share);
    o.max_frames = std::max(q.max_frames, exact_max_frames);
    const std::string tree_key = key + "|exact|" + std::to_string(out.weight_column) + "|" +
                                 std::to_string(o.min_share) + "|" + std::to_string(o.max_frames);
    auto exact = s.remembered<path_tree>(
        tree_key, [&] { return std::make_shared<const path_tree>(program(o)); });
    tree = cut_paths(*exact, out.weight_column, q.min_share, q.max_frames);
  } else {
    tree = program(o);
  }
  if (q.merge) tree = merge_by_label(tree, s.label_of);
  if (threads) tree = threads_in_order(tree, out.thread_node);
  out.tree = std::move(tree);
  return out;
}

}  // namespace calltree::views

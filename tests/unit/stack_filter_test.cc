// stack_filter_test.cc — pprof's focus, ignore, hide and show on a tree of call paths
// (views/stack_filter.h): known answers on a small tree, and every filter of random trees
// against pprof's FilterSamplesByName done literally on the stacks written out one by one.
#include "views/stack_filter.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace calltree::views {
namespace {

constexpr std::uint32_t none = path_tree::no_frame;

// A tree from (node, parent, self) in preorder, totals summed, one event.
path_tree make_tree(
    const std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>>& fs) {
  path_tree t;
  t.events = 1;
  t.self = cost_matrix(1);
  t.total = cost_matrix(1);
  for (auto [node, parent, self] : fs) {
    t.node.push_back(node);
    t.parent.push_back(parent);
    t.depth.push_back(parent == none ? 0 : t.depth[parent] + 1);
    t.self.row(t.self.add_row())[0] = self;
    t.total.add_row();
  }
  for (std::size_t f = t.frames(); f-- > 0;) {
    t.total.row(f)[0] += t.self.row(f)[0];
    if (t.parent[f] != none) t.total.row(t.parent[f])[0] += t.total.row(f)[0];
  }
  return t;
}

// "main;a;c" -> self cost, of every frame with self cost (the folded stacks of a tree).
std::map<std::string, std::uint64_t> folded(const path_tree& t,
                                            const std::vector<std::string>& names) {
  std::map<std::string, std::uint64_t> out;
  std::vector<std::string> path(t.frames());
  for (std::size_t f = 0; f < t.frames(); ++f) {
    path[f] = (t.parent[f] == none ? "" : path[t.parent[f]] + ";") + names[t.node[f]];
    if (t.self.row(f)[0]) out[path[f]] += t.self.row(f)[0];
  }
  return out;
}

// Frames in preorder, depths right, totals = self + children, children heaviest first.
void expect_well_formed(const path_tree& t) {
  std::vector<std::uint64_t> sum(t.frames());
  for (std::size_t f = 0; f < t.frames(); ++f) sum[f] = t.self.row(f)[0];
  for (std::size_t f = t.frames(); f-- > 0;) {
    EXPECT_EQ(sum[f], t.total.row(f)[0]) << "frame " << f;
    if (t.parent[f] != none) {
      EXPECT_LT(t.parent[f], f);
      EXPECT_EQ(t.depth[f], t.depth[t.parent[f]] + 1);
      sum[t.parent[f]] += sum[f];
    } else {
      EXPECT_EQ(t.depth[f], 0u);
    }
  }
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint32_t>> last;  // parent -> last child
  for (std::size_t f = 0; f < t.frames(); ++f) {
    auto [it, added] = last.try_emplace(t.parent[f], t.total.row(f)[0], t.node[f]);
    if (!added) {
      EXPECT_TRUE(it->second.first > t.total.row(f)[0] ||
                  (it->second.first == t.total.row(f)[0] && it->second.second < t.node[f]))
          << "children of one frame heaviest first, then by node (frame " << f << ")";
      it->second = {t.total.row(f)[0], t.node[f]};
    }
  }
}

//   main(10) ─ a(10) ─ c(40) ─ d(30)
//            └ b(10) ─ c(20) ─ d(10)        total 130
const std::vector<std::string> names = {"main", "a", "b", "c", "d"};
path_tree example() {
  return make_tree(
      {{0, none, 10}, {1, 0, 10}, {3, 1, 40}, {4, 2, 30}, {2, 0, 10}, {3, 4, 20}, {4, 5, 10}});
}

name_match exactly(std::string want) {
  return [want](std::string_view s) { return s == want; };
}
name_match one_of(std::set<std::string> want) {
  return [want](std::string_view s) { return want.count(std::string(s)) > 0; };
}

filtered_tree run(const path_tree& t, const stack_filter& f) {
  auto r = filter_paths(
      t, f, [](std::uint32_t n) { return std::string_view(names[n]); }, 0);
  expect_well_formed(r.tree);
  EXPECT_EQ(r.summary.total, std::vector<std::uint64_t>{130});
  std::uint64_t kept = 0;
  for (std::size_t fr = 0; fr < r.tree.frames(); ++fr)
    if (r.tree.parent[fr] == none) kept += r.tree.total.row(fr)[0];
  EXPECT_EQ(kept + r.summary.dropped[0], 130u) << "kept + dropped = total";
  return r;
}

using stacks = std::map<std::string, std::uint64_t>;

TEST(StackFilter, FocusKeepsTheStacksThroughAMatch) {
  stack_filter f;
  f.focus = exactly("c");
  auto r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names),
            (stacks{{"main;a;c", 40}, {"main;a;c;d", 30}, {"main;b;c", 20}, {"main;b;c;d", 10}}));
  EXPECT_EQ(r.summary.dropped[0], 30u);
  EXPECT_TRUE(r.summary.focus_matched);
  // The ancestors of the kept stacks stay, with no self cost of their own.
  ASSERT_EQ(r.tree.frames(), 7u);
  EXPECT_EQ(names[r.tree.node[0]], "main");
  EXPECT_EQ(r.tree.self.row(0)[0], 0u);
  EXPECT_EQ(r.tree.total.row(0)[0], 100u);
}

TEST(StackFilter, IgnoreDropsTheStacksThroughAMatchAndWinsOverFocus) {
  stack_filter f;
  f.ignore = exactly("b");
  auto r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names),
            (stacks{{"main", 10}, {"main;a", 10}, {"main;a;c", 40}, {"main;a;c;d", 30}}));
  EXPECT_EQ(r.summary.dropped[0], 40u);
  f.focus = exactly("c");
  f.ignore = exactly("d");
  r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names), (stacks{{"main;a;c", 40}, {"main;b;c", 20}}));
  EXPECT_EQ(r.summary.dropped[0], 70u);
  // A function both focused and ignored is ignored (pprof's order).
  f.focus = exactly("c");
  f.ignore = exactly("c");
  r = run(example(), f);
  EXPECT_EQ(r.tree.frames(), 0u);
  EXPECT_EQ(r.summary.dropped[0], 130u);
  EXPECT_FALSE(r.summary.focus_matched);
  EXPECT_TRUE(r.summary.ignore_matched);
}

TEST(StackFilter, HideGivesAFramesCostToItsCallerAndJoinsPaths) {
  stack_filter f;
  f.hide = exactly("c");
  auto r = run(example(), f);
  EXPECT_EQ(
      folded(r.tree, names),
      (stacks{{"main", 10}, {"main;a", 50}, {"main;a;d", 30}, {"main;b", 30}, {"main;b;d", 10}}));
  EXPECT_EQ(r.summary.dropped[0], 0u);
  // Two paths that became one are one frame: hiding a and b joins main;c and main;c;d.
  f.hide = one_of({"a", "b"});
  r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names), (stacks{{"main", 30}, {"main;c", 60}, {"main;c;d", 40}}));
  EXPECT_EQ(r.tree.frames(), 3u);
}

TEST(StackFilter, HidingTheRootMakesRootsOfItsCalleesAndDropsItsOwnCost) {
  stack_filter f;
  f.hide = exactly("main");
  auto r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names),
            (stacks{{"a", 10}, {"a;c", 40}, {"a;c;d", 30}, {"b", 10}, {"b;c", 20}, {"b;c;d", 10}}));
  // main's own stack has no frame left: pprof drops such a sample.
  EXPECT_EQ(r.summary.dropped[0], 10u);
  EXPECT_EQ(names[r.tree.node[0]], "a") << "the heavier root first";
}

TEST(StackFilter, ShowKeepsOnlyMatchingFrames) {
  stack_filter f;
  f.show = one_of({"c", "d"});
  auto r = run(example(), f);
  EXPECT_EQ(folded(r.tree, names), (stacks{{"c", 60}, {"c;d", 40}}));
  EXPECT_EQ(r.summary.dropped[0], 30u);  // main, a and b's own stacks
  EXPECT_TRUE(r.summary.show_matched);
  // show and hide together: a frame stays when it matches show and not hide.
  f.hide = exactly("c");
  r = run(example(), f);
  // (c's own stacks have no frame left: left out, as main, a and b's.)
  EXPECT_EQ(folded(r.tree, names), (stacks{{"d", 40}}));
  EXPECT_EQ(r.summary.dropped[0], 90u);
}

TEST(StackFilter, NoMatchLeavesNothingAndSaysSo) {
  stack_filter f;
  f.focus = exactly("nowhere");
  auto r = run(example(), f);
  EXPECT_EQ(r.tree.frames(), 0u);
  EXPECT_EQ(r.summary.dropped[0], 130u);
  EXPECT_FALSE(r.summary.focus_matched);
  const std::vector<std::string> ev = {"Ir"};
  f.text = "focus=nowhere";
  EXPECT_EQ(filter_note(r.summary, ev, f.text), "focus=nowhere: left out 130 of 130 Ir (100.00 %)");
}

TEST(StackFilter, TheTreesOfOneFunction) {
  const path_tree t = example();
  path_tree below = callees_below(t, 3, 0);
  expect_well_formed(below);
  EXPECT_EQ(folded(below, names), (stacks{{"c", 60}, {"c;d", 40}}));
  path_tree above = callers_above(t, 3, 0);
  expect_well_formed(above);
  // c's 100 inclusive: 70 through a, 30 through b, each up to main, where it stays.
  EXPECT_EQ(folded(above, names), (stacks{{"c;a;main", 70}, {"c;b;main", 30}}));
  EXPECT_EQ(above.total.row(0)[0], 100u);
}

// pprof's FilterSamplesByName, literally, on samples (a stack of nodes, root first, and a
// value): the reference the tree's filter must agree with.
stacks pprof_filter(const stacks& samples, const std::vector<std::string>& nm,
                    const std::set<std::string>* focus, const std::set<std::string>* ignore,
                    const std::set<std::string>* hide, const std::set<std::string>* show,
                    std::uint64_t& dropped) {
  stacks out;
  dropped = 0;
  for (const auto& [path, value] : samples) {
    std::vector<std::string> frames;
    for (std::size_t at = 0; at <= path.size();) {
      auto semi = path.find(';', at);
      if (semi == std::string::npos) semi = path.size();
      frames.push_back(path.substr(at, semi - at));
      at = semi + 1;
    }
    bool focused = false, ignored = false;
    std::string kept;
    for (const auto& fr : frames) {
      if (ignore && ignore->count(fr))
        ignored = true;
      else if (!focus || focus->count(fr))
        focused = true;
      const bool hidden = (hide && hide->count(fr)) || (show && !show->count(fr));
      if (!hidden) kept += (kept.empty() ? "" : ";") + fr;
    }
    if (!focused || ignored || kept.empty())
      dropped += value;
    else
      out[kept] += value;
  }
  (void)nm;
  return out;
}

TEST(StackFilter, AgreesWithPprofOnRandomTrees) {
  std::mt19937 gen(41);
  auto rng = [&gen] { return static_cast<std::uint32_t>(gen()); };
  std::vector<std::string> nm;
  for (int i = 0; i < 8; ++i) nm.push_back("f" + std::to_string(i));
  for (int round = 0; round < 300; ++round) {
    // A random tree of up to 40 frames, no node twice on a path (as the estimate's).
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>> fs;
    std::vector<std::set<std::uint32_t>> on_path;
    const std::uint32_t n = 1 + rng() % 40;
    for (std::uint32_t f = 0; f < n; ++f) {
      std::uint32_t parent = (f == 0 || rng() % 5 == 0) ? none : rng() % f;
      std::set<std::uint32_t> path = parent == none ? std::set<std::uint32_t>{} : on_path[parent];
      std::uint32_t node = rng() % 8;
      if (path.count(node) || (parent != none && std::get<0>(fs[parent]) == node)) {
        parent = none;
        path.clear();
      }
      // (A parent comes before its children, which is all filter_paths asks; two siblings of
      // one node are one stack in `samples` below, as the filtered tree merges them.)
      path.insert(node);
      fs.emplace_back(node, parent, rng() % 4 == 0 ? 0u : rng() % 100u);
      on_path.push_back(path);
    }
    const path_tree t = make_tree(fs);
    std::vector<std::string> tree_names = nm;
    const stacks samples = [&] {
      stacks s;
      std::vector<std::string> path(t.frames());
      for (std::size_t f = 0; f < t.frames(); ++f) {
        path[f] = (t.parent[f] == none ? "" : path[t.parent[f]] + ";") + nm[t.node[f]];
        s[path[f]] += t.self.row(f)[0];
      }
      return s;
    }();
    std::set<std::string> sets[4];
    bool given[4];
    for (int i = 0; i < 4; ++i) {
      given[i] = rng() % 2;
      for (const auto& x : nm)
        if (rng() % 4 == 0) sets[i].insert(x);
    }
    stack_filter f;
    if (given[0]) f.focus = one_of(sets[0]);
    if (given[1]) f.ignore = one_of(sets[1]);
    if (given[2]) f.hide = one_of(sets[2]);
    if (given[3]) f.show = one_of(sets[3]);
    std::uint64_t dropped = 0;
    stacks want =
        pprof_filter(samples, nm, given[0] ? &sets[0] : nullptr, given[1] ? &sets[1] : nullptr,
                     given[2] ? &sets[2] : nullptr, given[3] ? &sets[3] : nullptr, dropped);
    std::erase_if(want, [](const auto& kv) { return kv.second == 0; });
    auto r = filter_paths(
        t, f, [&](std::uint32_t k) { return std::string_view(nm[k]); }, 0);
    expect_well_formed(r.tree);
    EXPECT_EQ(folded(r.tree, nm), want) << "round " << round;
    EXPECT_EQ(r.summary.dropped[0], dropped) << "round " << round;
    EXPECT_EQ(r.summary.total[0], t.frames() ? [&] {
      std::uint64_t s = 0;
      for (std::size_t fr = 0; fr < t.frames(); ++fr) s += t.self.row(fr)[0];
      return s;
    }() : 0u);
    // No frame of no cost: every frame leads to some kept cost.
    for (std::size_t fr = 0; fr < r.tree.frames(); ++fr)
      EXPECT_GT(r.tree.total.row(fr)[0], 0u) << "round " << round;
  }
}

}  // namespace
}  // namespace calltree::views

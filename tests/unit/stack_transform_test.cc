// stack_transform_test.cc — the call-tree transforms (views/stack_transform.h): known answers
// on small trees (merge clones, collapse recursion and direct recursion, collapse an object,
// focus on a path), and on every tree: the total kept, frames within their parents; steps in
// the user's order (stack_filter::steps, transform_call_paths), whose results differ by order.
#include "views/stack_transform.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
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

struct names_of {
  std::vector<std::string> name, object;
  frame_names get() const {
    return {[this](std::uint32_t k) { return std::string_view(name[k]); },
            [this](std::uint32_t k) { return std::string_view(object[k]); }};
  }
};

// "main;a;c" -> self cost of every frame with self cost, by display name.
std::map<std::string, std::uint64_t> folded(const filtered_tree& ft, const names_of& n) {
  std::map<std::uint32_t, std::string> renamed(ft.renamed.begin(), ft.renamed.end());
  const path_tree& t = ft.tree;
  std::map<std::string, std::uint64_t> out;
  std::vector<std::string> path(t.frames());
  for (std::size_t f = 0; f < t.frames(); ++f) {
    const std::uint32_t k = t.node[f];
    const std::string name = renamed.count(k) ? renamed[k] : n.name[k];
    path[f] = (t.parent[f] == none ? "" : path[t.parent[f]] + ";") + name;
    if (t.self.row(f)[0]) out[path[f]] += t.self.row(f)[0];
  }
  return out;
}

// Totals = self + children (so every frame within its parent), depths right, the sum kept.
void expect_well_formed(const filtered_tree& ft, std::uint64_t total) {
  const path_tree& t = ft.tree;
  std::vector<std::uint64_t> sum(t.frames());
  std::uint64_t roots = 0;
  for (std::size_t f = 0; f < t.frames(); ++f) sum[f] = t.self.row(f)[0];
  for (std::size_t f = t.frames(); f-- > 0;) {
    EXPECT_EQ(sum[f], t.total.row(f)[0]) << "frame " << f;
    if (t.parent[f] != none) {
      EXPECT_LT(t.parent[f], f);
      EXPECT_EQ(t.depth[f], t.depth[t.parent[f]] + 1);
      EXPECT_LE(t.total.row(f)[0], t.total.row(t.parent[f])[0]);
      sum[t.parent[f]] += sum[f];
    } else {
      roots += t.total.row(f)[0];
    }
  }
  EXPECT_EQ(roots + ft.summary.dropped[0], total);
  EXPECT_EQ(ft.summary.total[0], total);
}

name_match any_name() {
  return [](std::string_view) { return true; };
}
name_match exactly(std::string want) {
  return [want](std::string_view s) { return s == want; };
}

TEST(StackTransform, CloneBase) {
  EXPECT_EQ(clone_base("f.constprop.0"), "f");
  EXPECT_EQ(clone_base("f.isra.0"), "f");
  EXPECT_EQ(clone_base("f.part.12"), "f");
  EXPECT_EQ(clone_base("f.cold"), "f");
  EXPECT_EQ(clone_base("f.lto_priv.0"), "f");
  EXPECT_EQ(clone_base("f.constprop.0.isra.0"), "f");
  EXPECT_EQ(clone_base("f.part.0.cold"), "f");
  EXPECT_EQ(clone_base("g(int) [clone .part.0] [clone .cold]"), "g(int)");
  EXPECT_EQ(clone_base("g(int) [clone .isra.0]"), "g(int)");
  EXPECT_EQ(clone_base("f"), "f");
  EXPECT_EQ(clone_base("f.0"), "f.0");
  EXPECT_EQ(clone_base("std::vector<int>::size() const"), "std::vector<int>::size() const");
  EXPECT_EQ(clone_base(".cold"), ".cold");
  EXPECT_EQ(clone_base("x.partial"), "x.partial");
}

//   main(1) ─ f(2) ─ f.constprop.0(3)          (f calls its clone: f under f)
//           └ g.isra.0(4) ─ f.part.0.cold(5)
//           └ g.part.0(6) ─ g.part.0'2(7)       (no key named g; a recursion level)
//                         └ h'g.part.0'main(8)  (a caller context)
TEST(StackTransform, MergeClones) {
  names_of n{{"main", "f", "f.constprop.0", "g.isra.0", "f.part.0.cold", "g.part.0", "g.part.0'2",
              "h'g.part.0'main"},
             {"a", "a", "a", "a", "a", "a", "a", "a"}};
  const path_tree t = make_tree(
      {{0, none, 1}, {1, 0, 2}, {2, 1, 3}, {3, 0, 4}, {4, 3, 5}, {5, 0, 6}, {6, 5, 7}, {7, 5, 8}});
  stack_filter f;
  f.merge_clones = true;
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 36);
  const std::map<std::string, std::uint64_t> want = {
      {"main", 1},     {"main;f", 2},     {"main;f;f", 3},       {"main;g", 10},
      {"main;g;f", 5}, {"main;g;g'2", 7}, {"main;g;h'g'main", 8}};
  EXPECT_EQ(folded(out, n), want);
}

//   main ─ f(1) ─ g(2) ─ f(4) ─ h(8) ─ f(16)
//                      └ k(32)
TEST(StackTransform, CollapseRecursion) {
  names_of n{{"main", "f", "g", "h", "k"}, {"a", "a", "a", "a", "a"}};
  const path_tree t =
      make_tree({{0, none, 0}, {1, 0, 1}, {2, 1, 2}, {1, 2, 4}, {3, 3, 8}, {1, 4, 16}, {4, 2, 32}});
  stack_filter f;
  f.collapse_recursion = exactly("f");
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 63);
  const std::map<std::string, std::uint64_t> want = {
      {"main;f", 21}, {"main;f;g", 2}, {"main;f;h", 8}, {"main;f;g;k", 32}};
  EXPECT_EQ(folded(out, n), want);
  // Every function: no function under itself.
  f.collapse_recursion = any_name();
  const filtered_tree all = transform_paths(t, f, n.get(), 0);
  expect_well_formed(all, 63);
  for (std::size_t fr = 0; fr < all.tree.frames(); ++fr)
    for (auto a = all.tree.parent[fr]; a != none; a = all.tree.parent[a])
      EXPECT_NE(all.tree.node[a], all.tree.node[fr]);
}

// --separate-recs' levels are their function:  main ─ fib(1) ─ fib'2(2) ─ fib'3(4)
TEST(StackTransform, CollapseRecursionLevels) {
  names_of n{{"main", "fib", "fib'2", "fib'3"}, {"a", "a", "a", "a"}};
  const path_tree t = make_tree({{0, none, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 4}});
  stack_filter f;
  f.collapse_recursion = exactly("fib");
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 7);
  const std::map<std::string, std::uint64_t> want = {{"main;fib", 7}};
  EXPECT_EQ(folded(out, n), want);
}

//   main ─ f(1) ─ f(2) ─ g(4) ─ f(8)
TEST(StackTransform, CollapseDirectRecursion) {
  names_of n{{"main", "f", "g"}, {"a", "a", "a"}};
  const path_tree t = make_tree({{0, none, 0}, {1, 0, 1}, {1, 1, 2}, {2, 2, 4}, {1, 3, 8}});
  stack_filter f;
  f.collapse_direct_recursion = any_name();
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 15);
  const std::map<std::string, std::uint64_t> want = {
      {"main;f", 3}, {"main;f;g", 4}, {"main;f;g;f", 8}};
  EXPECT_EQ(folded(out, n), want);
}

//   main ─ malloc(1) ─ _int_malloc(2) ─ sbrk(4)      (malloc, _int_malloc: libc; sbrk: kernel)
//        └ free(8)                                     (libc)
//        └ work(16) ─ memcpy(32)                       (memcpy: libc)
TEST(StackTransform, CollapseObject) {
  names_of n{{"main", "malloc", "_int_malloc", "sbrk", "free", "work", "memcpy"},
             {"prog", "libc.so.6", "libc.so.6", "kernel", "libc.so.6", "prog", "libc.so.6"}};
  const path_tree t =
      make_tree({{0, none, 0}, {1, 0, 1}, {2, 1, 2}, {3, 2, 4}, {4, 0, 8}, {5, 0, 16}, {6, 5, 32}});
  stack_filter f;
  f.collapse_object = exactly("libc.so.6");
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 63);
  const std::map<std::string, std::uint64_t> want = {{"main;libc.so.6", 11},
                                                     {"main;libc.so.6;sbrk", 4},
                                                     {"main;work", 16},
                                                     {"main;work;libc.so.6", 32}};
  EXPECT_EQ(folded(out, n), want);
}

//   main(1) ─ a(2) ─ c(4) ─ d(8)
//           └ b(16) ─ c(32)
TEST(StackTransform, FocusPath) {
  names_of n{{"main", "a", "b", "c", "d"}, {"x", "x", "x", "x", "x"}};
  const path_tree t =
      make_tree({{0, none, 1}, {1, 0, 2}, {3, 1, 4}, {4, 2, 8}, {2, 0, 16}, {3, 4, 32}});
  stack_filter f;
  f.focus_path = {"main", "a", "c"};
  const filtered_tree out = transform_paths(t, f, n.get(), 0);
  expect_well_formed(out, 63);
  EXPECT_TRUE(out.summary.focus_path_matched);
  EXPECT_EQ(out.summary.dropped[0], 51u);
  const std::map<std::string, std::uint64_t> want = {{"c", 4}, {"c;d", 8}};
  EXPECT_EQ(folded(out, n), want);
  f.focus_path = {"main", "c"};
  const filtered_tree nothing = transform_paths(t, f, n.get(), 0);
  EXPECT_FALSE(nothing.summary.focus_path_matched);
  EXPECT_EQ(nothing.tree.frames(), 0u);
  EXPECT_EQ(nothing.summary.dropped[0], 63u);
}

// The transforms, then a name filter on the names they gave.
TEST(StackTransform, ThenFilter) {
  names_of n{{"main", "f", "f.isra.0", "g"}, {"x", "x", "x", "x"}};
  const path_tree t = make_tree({{0, none, 1}, {1, 0, 2}, {2, 0, 4}, {3, 2, 8}});
  stack_filter f;
  f.merge_clones = true;
  f.ignore = exactly("g");
  const filtered_tree out = transform_and_filter(t, f, n.get(), 0);
  EXPECT_EQ(out.summary.total[0], 15u);
  EXPECT_EQ(out.summary.dropped[0], 8u);
  const std::map<std::string, std::uint64_t> want = {{"main", 1}, {"main;f", 6}};
  EXPECT_EQ(folded(out, n), want);
}

path_transform step(path_transform::kind what, name_match match = {},
                    std::vector<std::string> path = {}) {
  path_transform s;
  s.what = what;
  s.match = std::move(match);
  s.path = std::move(path);
  return s;
}
using kind = path_transform::kind;

//   main(1) ─ fib(2) ─ fib(4) ─ fib(8) ─ leaf(16)
// Collapsing fib's recursion and then focusing on main;fib;fib finds no such path any more;
// focusing first and collapsing then collapses what is below the focused fib.
TEST(StackTransform, OrderCollapseAndFocus) {
  names_of n{{"main", "fib", "leaf"}, {"x", "x", "x"}};
  const path_tree t =
      make_tree({{0, none, 1}, {1, 0, 2}, {1, 1, 4}, {1, 2, 8}, {2, 3, 16}});
  stack_filter f;
  f.steps = {step(kind::collapse_recursion, exactly("fib")),
             step(kind::focus_path, {}, {"main", "fib", "fib"})};
  const filtered_tree collapse_first = transform_paths(t, f, n.get(), 0);
  expect_well_formed(collapse_first, 31);
  EXPECT_FALSE(collapse_first.summary.focus_path_matched);
  EXPECT_EQ(collapse_first.tree.frames(), 0u);
  EXPECT_EQ(collapse_first.summary.dropped[0], 31u);

  std::swap(f.steps[0], f.steps[1]);
  const filtered_tree focus_first = transform_paths(t, f, n.get(), 0);
  expect_well_formed(focus_first, 31);
  EXPECT_TRUE(focus_first.summary.focus_path_matched);
  EXPECT_EQ(focus_first.summary.dropped[0], 3u);
  const std::map<std::string, std::uint64_t> want = {{"fib", 12}, {"fib;leaf", 16}};
  EXPECT_EQ(folded(focus_first, n), want);
}

//   main(1) ─ f(2) ─ f.part.0(4) ─ f(8)
// Merging clones first makes f ─ f ─ f, whose direct recursion then collapses; collapsing
// first finds no f right under f (f.part.0 is another name until merged).
TEST(StackTransform, OrderMergeAndDirectRecursion) {
  names_of n{{"main", "f", "f.part.0"}, {"x", "x", "x"}};
  const path_tree t = make_tree({{0, none, 1}, {1, 0, 2}, {2, 1, 4}, {1, 2, 8}});
  stack_filter f;
  f.steps = {step(kind::merge_clones), step(kind::collapse_direct_recursion, any_name())};
  const filtered_tree merge_first = transform_paths(t, f, n.get(), 0);
  expect_well_formed(merge_first, 15);
  const std::map<std::string, std::uint64_t> merged = {{"main", 1}, {"main;f", 14}};
  EXPECT_EQ(folded(merge_first, n), merged);
  // (the fixed order's fields: the same, one walk)
  stack_filter fixed;
  fixed.merge_clones = true;
  fixed.collapse_direct_recursion = any_name();
  EXPECT_EQ(folded(transform_paths(t, fixed, n.get(), 0), n), merged);

  std::swap(f.steps[0], f.steps[1]);
  const filtered_tree collapse_first = transform_paths(t, f, n.get(), 0);
  expect_well_formed(collapse_first, 15);
  const std::map<std::string, std::uint64_t> apart = {
      {"main", 1}, {"main;f", 2}, {"main;f;f", 4}, {"main;f;f;f", 8}};
  EXPECT_EQ(folded(collapse_first, n), apart);
}

// The public entry: two focus steps, the second's path from the first's root; the fields of a
// stack_filter given too run first.
TEST(StackTransform, PublicStepsInOrder) {
  names_of n{{"main", "a", "b", "c", "d"}, {"x", "x", "x", "x", "x"}};
  const path_tree t =
      make_tree({{0, none, 1}, {1, 0, 2}, {3, 1, 4}, {4, 2, 8}, {2, 0, 16}, {3, 4, 32}});
  const std::vector<path_transform> steps = {step(kind::focus_path, {}, {"main", "a"}),
                                             step(kind::focus_path, {}, {"a", "c"})};
  const transformed_paths out = transform_call_paths(t, steps, n.get(), 0);
  EXPECT_TRUE(out.focus_path_matched);
  EXPECT_EQ(out.total[0], 63u);
  EXPECT_EQ(out.dropped[0], 51u);
  filtered_tree as_views{out.tree, {out.total, out.dropped}, out.renamed};
  const std::map<std::string, std::uint64_t> want = {{"c", 4}, {"c;d", 8}};
  EXPECT_EQ(folded(as_views, n), want);
  // A path the first step's tree has not: not matched, everything left out.
  const std::vector<path_transform> wrong = {step(kind::focus_path, {}, {"main", "a"}),
                                             step(kind::focus_path, {}, {"main", "a"})};
  const transformed_paths none_left = transform_call_paths(t, wrong, n.get(), 0);
  EXPECT_FALSE(none_left.focus_path_matched);
  EXPECT_EQ(none_left.tree.frames(), 0u);
  EXPECT_EQ(none_left.dropped[0], 63u);
}

}  // namespace
}  // namespace calltree::views

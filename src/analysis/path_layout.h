// analysis/path_layout.h — (internal) a path tree's frames laid out in preorder, and the lists
// per owner that the estimate and the layout group frames and arcs by. The estimate
// (call_paths.cc) makes frames in any order and lays them out here; the transforms of a made
// tree (cut_paths, merge_by_label: path_layout.cc) do the same with theirs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/cost_matrix.h"

namespace calltree::detail {

// Lists per owner from a list of owners (owner[i] = the owner of item i): items of owner o
// are items[start[o] .. start[o + 1]), in the order of i.
struct lists {
  std::vector<std::uint32_t> start, items;
  lists() = default;
  lists(std::size_t owners, std::span<const std::uint32_t> owner) {
    start.assign(owners + 2, 0);
    for (auto o : owner)
      if (o != path_tree::no_frame) ++start[o + 2];
    for (std::size_t o = 0; o < owners; ++o) start[o + 2] += start[o + 1];
    items.resize(start[owners + 1]);
    for (std::uint32_t i = 0; i < owner.size(); ++i)
      if (owner[i] != path_tree::no_frame) items[start[owner[i] + 1]++] = i;
    start.pop_back();
  }
  std::span<const std::uint32_t> operator[](std::size_t o) const {
    return {items.data() + start[o], items.data() + start[o + 1]};
  }
  std::span<std::uint32_t> operator[](std::size_t o) {
    return {items.data() + start[o], items.data() + start[o + 1]};
  }
};

// The frames (made after their parents: node, parent (path_tree::no_frame for a root), self and
// total cost per frame) in preorder, children by decreasing total of event w (then node).
path_tree lay_out(std::size_t events, std::size_t w, std::span<const std::uint32_t> node,
                  std::span<const std::uint32_t> parent, const cost_matrix& self,
                  const cost_matrix& total);

}  // namespace calltree::detail

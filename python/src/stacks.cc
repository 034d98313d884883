// stacks.cc — folded_stacks (stacks.h): the estimate's tree of call paths, as text.
#include "stacks.h"

#include <charconv>
#include <vector>

#include "calltree/analysis/call_paths.h"

namespace calltree::python {
namespace {

call_graph graph_of(const profile& p) {
  call_graph g(p.functions.size(), p.events.size());
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    add_saturating(g.self.row(p.self_rows[r].function.index()), p.self_costs.row(r));
  for (std::size_t c = 0; c < p.calls.size(); ++c) {
    const call_row& call = p.calls[c];
    g.add_call(call.caller.index(), call.callee.index(), call.count, p.call_costs.row(c));
  }
  return g;
}

// A function's name as a frame of folded text.
std::string frame_text(std::string_view name) {
  if (name.empty()) return "?";
  std::string out(name);
  for (char& c : out) {
    if (c == ';')
      c = ':';
    else if (c == '\n' || c == '\r')
      c = ' ';
  }
  return out;
}

}  // namespace

std::string folded_stacks(const profile& p, std::size_t event,
                          std::span<const path_transform> steps) {
  if (event >= p.events.size() || p.functions.size() == 0) return {};
  path_options options;
  options.weight_event = event;
  options.exact_self = true;
  path_tree tree = estimate_paths(graph_of(p), options);
  std::vector<std::string> names;
  names.reserve(p.functions.size());
  for (function_id f : p.functions.ids()) names.push_back(frame_text(p.function_name(f)));
  if (!steps.empty()) {
    // (A node is a function's index, as graph_of made them.)
    const path_names of{[&p](std::uint32_t k) { return p.function_name(function_id{k}); },
                        [&p](std::uint32_t k) {
                          return p.object_name(p.functions[function_id{k}].object);
                        }};
    transformed_paths t = transform_call_paths(tree, steps, of, event);
    tree = std::move(t.tree);
    for (const auto& renamed : t.renamed) names[renamed.first] = frame_text(renamed.second);
  }

  std::string out, path;
  std::vector<std::size_t> prefix_end;  // by depth: where the path's text ends
  char number[24];
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t depth = tree.depth[f];
    prefix_end.resize(depth);
    path.resize(depth ? prefix_end[depth - 1] : 0);
    if (depth) path += ';';
    path += names[tree.node[f]];
    prefix_end.push_back(path.size());
    const std::uint64_t self = tree.self.row(f)[event];
    if (!self) continue;
    out += path;
    out += ' ';
    auto [end, ec] = std::to_chars(number, number + sizeof number, self);
    out.append(number, end);
    out += '\n';
  }
  return out;
}

}  // namespace calltree::python

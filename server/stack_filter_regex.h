// server/stack_filter_regex.h — pprof's stack filters (views/stack_filter.h) from their regular
// expressions, as `serve` (focus=, ignore=, hide=, show=) and `export` (--focus, --ignore,
// --hide, --show-frames) take them: RE2, matched anywhere in a function's name (a partial
// match), as the function list's filter, bounded in size and memory alike. And the call-tree
// transforms (views/stack_transform.h) that come with them: merge_clones, collapse_recursion,
// collapse_direct_recursion, collapse_object (on an object's name), focus_path.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/result.h"
#include "views/stack_filter.h"

namespace calltree::server {

struct stack_filter_text {
  std::optional<std::string> focus, ignore, hide, show;  // empty or absent: not given
  // The transforms (views/stack_transform.h). collapse_recursion and collapse_direct_recursion
  // given empty: every function; focus_path: function names from a root, separated by ';'.
  bool merge_clones = false;
  std::optional<std::string> collapse_recursion, collapse_direct_recursion, collapse_object,
      focus_path;
  // The transforms in the user's order (applied after those above): each a transform's name
  // (merge_clones, collapse_object, collapse_recursion, collapse_direct_recursion, focus_path)
  // and its argument, as above (merge_clones: none).
  std::vector<std::pair<std::string, std::string>> steps;
};

// The filter, or an error naming the option ("focus: bad regular expression: missing ): ...")
// by its name in `names` (focus, ignore, hide, show, in that order) or `transform_names`
// (collapse_recursion, collapse_direct_recursion, collapse_object, in that order; a step's
// expression too), or an unknown step ("transform: unknown transform 'x' (...)").
result<views::stack_filter> compile_stack_filter(
    const stack_filter_text& text, const std::array<std::string_view, 4>& names,
    const std::array<std::string_view, 3>& transform_names = {
        "collapse_recursion", "collapse_direct_recursion", "collapse_object"});

}  // namespace calltree::server

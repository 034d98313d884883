// difference.cc — NEW minus OLD as one profile (difference.h): merge's reading with OLD's
// costs negated, then cg_diff's header.
#include "calltree/analysis/difference.h"

#include <string>
#include <vector>

#include "analysis/merge_any.h"
#include "calltree/cost_matrix.h"

namespace calltree {

result<merge_stats> difference_inputs(const std::string& old_path, const std::string& new_path,
                                      profile& out, diagnostic_sink& diagnostics,
                                      const merge_options& options) {
  // The builder sums -OLD and NEW: signed sums from the first record on.
  signed_costs_scope sums(true);
  merge_options mo = options;
  mo.parts = parts_mode::sum;
  const std::vector<std::string> paths{old_path, new_path};
  auto stats = detail::merge_subtracting(paths, out, diagnostics, mo, 1);
  if (!stats) return stats;
  out.signed_costs = true;
  for (auto& pt : out.parts) {
    auto& d = pt.header.descriptions;
    d.clear();
    d.emplace_back("Files compared", old_path + "; " + new_path);
  }
  return stats;
}

}  // namespace calltree

// merge.cc — merge_files (loaded.h): several files summed into one profile by merge_inputs.
#include <string>

#include "calltree/analysis/merge.h"
#include "loaded.h"

namespace calltree::python {

result<std::unique_ptr<loaded_profile>> merge_files(const std::vector<std::string>& paths,
                                                    bool keep_parts, const read_request& request) {
  if (paths.empty()) return error{"merge needs at least one profile"};
  auto out = std::make_unique<loaded_profile>();
  merge_options options;
  options.parts = keep_parts ? parts_mode::keep : parts_mode::sum;
  options.threads = reading_threads(request);
  auto stats = merge_inputs(paths, out->profile, out->diagnostics, options);
  if (!stats) return stats.error();
  out->state = stats->state;
  out->creator = std::string("calltree ") + CALLTREE_VERSION + " merge";
  return out;
}

}  // namespace calltree::python

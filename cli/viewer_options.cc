// viewer_options.cc — see viewer_options.h.
#include "viewer_options.h"

#include "args.h"
#include "memory_option.h"

namespace calltree::cli {

result<views::load_options> viewer_options(const std::vector<std::string>& include,
                                           const std::vector<std::string>& source_roots) {
  views::load_options lo;
  lo.max_memory = memory_limit();
  for (auto dir : include) lo.include_dirs.push_back(include_dir(std::move(dir)));
  for (const auto& v : source_roots) {
    auto root = source_root(v);
    if (!root) return error{"--source-root takes OLD=NEW"};
    lo.source_roots.push_back(std::move(*root));
  }
  lo.cwd = current_dir();
  return lo;
}

}  // namespace calltree::cli

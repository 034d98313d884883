// load.cc — load_file (loaded.h): one file read through the library's load_profile.
#include <thread>

#include "calltree/profile_builder.h"
#include "loaded.h"

namespace calltree::python {

unsigned reading_threads(const read_request& request) {
  if (request.threads) return request.threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

result<std::unique_ptr<loaded_profile>> load_file(const std::string& path,
                                                  const read_request& request) {
  auto out = std::make_unique<loaded_profile>();
  reader_options options;
  options.display_name = path;
  options.threads = reading_threads(request);
  builder_options build;
  if (!request.positions) {
    build.keep_positions = 0;
    build.keep_jumps = false;
  }
  auto stats = load_profile(path, out->profile, out->diagnostics, options, build);
  if (!stats) return stats.error();
  out->state = stats->state;
  return out;
}

}  // namespace calltree::python

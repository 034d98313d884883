// load_profile.cc — load_profile (profile_builder.h): a file read into a profile, the reader
// feeding the profile builder. What it does not do: read (reader.cc) or build (the model).
#include <string>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"

namespace calltree {

result<read_stats> load_profile(const std::string& path, profile& out, diagnostic_sink& diagnostics,
                                reader_options options, builder_options build) {
  auto in = open_input(path);
  if (!in) return in.error();
  if (options.display_name == "<input>") options.display_name = path == "-" ? "<stdin>" : path;
  profile_builder b(out, &diagnostics, options.display_name, build);
  if ((*in)->kind() == compression::none) b.expect_input_bytes((*in)->raw_size());
  auto r = read_callgrind(**in, out.strings, b, diagnostics, options);
  if (r && b.limit_hit()) r->complete = false;
  return r;
}

}  // namespace calltree

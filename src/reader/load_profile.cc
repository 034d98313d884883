// load_profile.cc — load (load.h), load_profile (profile_builder.h) and the tool's
// load_any_input (load_any.h): a file read into a profile, the reader feeding the profile builder. What it does not do: read (reader.cc) or build (the model).
#include <string>

#include "calltree/input.h"
#include "calltree/load.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/builder_access.h"
#include "reader/load_any.h"
#include "reader/read_hooks.h"

namespace calltree {

namespace {

result<read_stats> load(const std::string& path, profile& out, diagnostic_sink& diagnostics,
                        reader_options options, builder_options build, bool any_input) {
  auto in = open_input(path);
  if (!in) return in.error();
  if (options.display_name == "<input>") options.display_name = path == "-" ? "<stdin>" : path;
  profile_builder b(out, &diagnostics, options.display_name, build);
  if ((*in)->kind() == compression::none) builder_access::expect_input_bytes(b, (*in)->raw_size());
  detail::read_hooks hooks;
  hooks.any_input = any_input;
  auto r = detail::read_with_hooks(**in, out.strings, b, diagnostics, options, hooks);
  if (r && b.limit_hit()) r->state = read_state::stopped;
  return r;
}

}  // namespace

result<read_stats> load_profile(const std::string& path, profile& out, diagnostic_sink& diagnostics,
                                reader_options options, builder_options build) {
  return load(path, out, diagnostics, std::move(options), build, false);
}

result<loaded_profile> load(const std::string& path, load_options options) {
  loaded_profile out;
  out.diagnostics = diagnostic_collector(options.kept_per_code);
  auto stats = load(path, out.profile, out.diagnostics, std::move(options.read), options.build,
                    false);
  if (!stats) return stats.error();
  out.stats = *stats;
  return out;
}

namespace detail {

result<read_stats> load_any_input(const std::string& path, profile& out,
                                  diagnostic_sink& diagnostics, reader_options options,
                                  builder_options build) {
  return load(path, out, diagnostics, std::move(options), build, true);
}

}  // namespace detail

}  // namespace calltree

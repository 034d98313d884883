// annotate_read.h — (tests) annotate's report as `calltree annotate` makes it: the input read
// into annotate's one filler of tables (report/annotate_direct.h), then printed as text or JSON.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/reader.h"
#include "model/string_pool_access.h"
#include "reader/read_hooks.h"
#include "report/annotate.h"
#include "views/annotate_direct.h"

namespace calltree::test {

// The text (or with `json` the JSON) of `in` read with the sink's own needs, names in a pool of
// mode `m`; an error for what the report refuses.
inline result<std::string> annotate_read(std::unique_ptr<input> in, const annotate_options& o,
                                         bool json = false, pool_mode m = pool_mode::full,
                                         std::vector<std::string>* warnings = nullptr) {
  profile p;
  p.strings = string_pool_access::make(m);
  diagnostic_collector diags;
  annotate_direct sink(p, o, &diags, "test");
  if (json) sink.keep_json_tables();
  auto read = detail::read_profile(*in, p.strings, sink, diags, {}, detail::any_input());
  if (!read) return read.error();
  std::string out;
  auto s = json ? annotate_json_of(sink, out, warnings)
                : annotate_text_of(
                      sink, [&](std::string_view piece) { out.append(piece); }, warnings);
  if (!s) return s.error();
  return out;
}

inline result<std::string> annotate_read(const std::string& text, const annotate_options& o,
                                         bool json = false) {
  return annotate_read(memory_input(text), o, json);
}

}  // namespace calltree::test

// annotate_replayed.cc — annotate's report of a profile already built (report/annotate.h): the
// profile replayed through annotate's one filler of tables (views/annotate_direct.h).
//
// What it does not do: read a file (the CLI reads it into annotate_direct itself), nor know
// which columns a line left out (the model does not keep it: every column a part has is
// defined).
#include "calltree/profile_builder.h"
#include "report/annotate.h"
#include "views/annotate_direct.h"

namespace calltree {

namespace {

// Replays `p` into a filler whose tables print with `o`, then hands the filler to `print`.
template <typename Print>
status replayed(const profile& p, const annotate_options& o, bool json, Print&& print) {
  profile parts;  // the parts and events, as the filler makes them; names stay p's
  annotate_direct sink(parts, p.strings, o);
  if (json) sink.keep_json_tables();
  replay(p, sink);
  return print(sink);
}

}  // namespace

status annotate_text_to(const profile& p, const annotate_options& o,
                        const std::function<void(std::string_view)>& write,
                        std::vector<std::string>* warnings) {
  return replayed(p, o, false,
                  [&](annotate_direct& sink) { return annotate_text_of(sink, write, warnings); });
}

result<std::string> annotate_text(const profile& p, const annotate_options& o,
                                  std::vector<std::string>* warnings) {
  std::string out;
  auto s = annotate_text_to(
      p, o, [&](std::string_view piece) { out.append(piece); }, warnings);
  if (!s) return s.error();
  return out;
}

result<std::string> annotate_json(const profile& p, const annotate_options& o,
                                  std::vector<std::string>* warnings) {
  std::string out;
  auto s = replayed(p, o, true,
                    [&](annotate_direct& sink) { return annotate_json_of(sink, out, warnings); });
  if (!s) return s.error();
  return out;
}

}  // namespace calltree

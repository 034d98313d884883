// annotate_json.cc — the annotate report as JSON (schema in docs/json.md, "annotate").
#include "annotate_data.h"
#include "calltree/report/annotate.h"
#include "calltree/report/json.h"

namespace calltree {

result<std::string> annotate_json(const profile& p, const annotate_options& o,
                                  const cost_presence* presence,
                                  std::vector<std::string>* warnings) {
  auto built = detail::build_annotate_data(p, o, presence, warnings);
  if (!built) return built.error();
  json_writer j;
  j.begin_object();
  j.key("schema").value("calltree-annotate");
  j.key("version").value(1);
  j.end_object();
  return j.take() + "\n";
}

}  // namespace calltree

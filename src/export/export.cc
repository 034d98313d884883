// export/export.cc — the formats by name, and the dispatch (see export.h).
#include "export/export.h"

#include "export/formats.h"
#include "views/session.h"

namespace calltree {

namespace {
struct named_format {
  std::string_view name;
  export_format format;
};
constexpr named_format formats[] = {
    {"pprof", export_format::pprof},
    {"folded", export_format::folded},
    {"speedscope", export_format::speedscope},
    {"chrome", export_format::chrome},
    {"dot", export_format::dot},
    {"flamegraph", export_format::flamegraph},
    {"json", export_format::json},
};
}  // namespace

std::optional<export_format> parse_export_format(std::string_view name) {
  for (const auto& f : formats)
    if (f.name == name) return f.format;
  return std::nullopt;
}

std::string_view export_format_name(export_format f) {
  for (const auto& x : formats)
    if (x.format == f) return x.name;
  return "?";
}

result<export_report> export_profile(const views::session& s, const export_options& o,
                                     const export_sink& out) {
  switch (o.format) {
    case export_format::pprof:
      return exporting::write_pprof(s, o, out);
    case export_format::folded:
      return exporting::write_folded(s, o, out);
    case export_format::speedscope:
      return exporting::write_speedscope(s, o, out);
    case export_format::chrome:
      return exporting::write_chrome(s, o, out);
    case export_format::dot:
      return exporting::write_dot(s, o, out);
    case export_format::flamegraph:
      return exporting::write_flamegraph(s, o, out);
    case export_format::json:
      return error{"the json export is of the model (export_model_json), not of a session"};
  }
  return error{"unknown export format"};
}

namespace exporting {

std::vector<std::vector<std::uint32_t>> part_selections(const views::session& s,
                                                        const export_options& o) {
  std::vector<std::vector<std::uint32_t>> selections;
  if (s.p.parts.size() <= 1) {
    selections.push_back({});
  } else if (o.parts.empty()) {
    for (std::uint32_t p = 0; p < s.p.parts.size(); ++p) selections.push_back({p});
  } else {
    for (std::uint32_t p : o.parts) selections.push_back({p});
  }
  return selections;
}

}  // namespace exporting

}  // namespace calltree

// export/folded_stacks.cc — the library's folded stacks (calltree/folded.h): the file read as
// `calltree export --to=folded` reads it (views::load_session, cli/cmd_export.cc), then the
// export's own writer (export/folded.cc), so the lines are the tool's.
#include <algorithm>
#include <string>
#include <utility>

#include "calltree/folded.h"
#include "export/export.h"
#include "views/session.h"

namespace calltree {

result<folded_report> write_folded_stacks(const std::string& path,
                                          const std::function<void(std::string_view)>& out,
                                          const folded_options& options) {
  views::load_options lo;  // (as the tool's export: no name index, jumps or inclusive costs)
  lo.index_names = false;
  lo.keep_jumps = false;
  lo.inclusive = false;
  lo.threads = std::max(1u, options.threads);
  auto loaded = views::load_session(path, lo);
  if (!loaded) return loaded.error();
  const views::session& s = **loaded;
  // A file of differences (docs/format.md, "Signed costs"): folded stacks carry counts, as the
  // tool's export --to=folded refuses it.
  if (s.p.signed_costs)
    return error{path + ": the file holds differences (negative costs, as cg_diff writes): "
                        "folded stacks cannot show a negative cost; nothing written"};
  export_options o;
  o.format = export_format::folded;
  o.threads = lo.threads;
  if (!options.event.empty()) o.events.push_back(options.event);
  for (const part_id part : options.parts) {
    if (part.index() >= s.p.parts.size())
      return error{"part " + std::to_string(part.index()) + ": the profile has " +
                   std::to_string(s.p.parts.size()) + " parts"};
    o.parts.push_back(part.index());
  }
  std::sort(o.parts.begin(), o.parts.end());
  o.parts.erase(std::unique(o.parts.begin(), o.parts.end()), o.parts.end());
  if (o.parts.size() == s.p.parts.size()) o.parts.clear();  // (every part: as the tool's "all")
  folded_report report;
  report.stats = s.stats;
  report.errors = s.errors;
  report.warnings = s.warnings;
  auto done = export_profile(s, o, [&](std::string_view piece) {
    report.lines += static_cast<std::uint64_t>(std::count(piece.begin(), piece.end(), '\n'));
    out(piece);
  });
  if (!done) return done.error();
  return report;
}

result<folded_stacks_text> folded_stacks(const std::string& path, const folded_options& options) {
  folded_stacks_text got;
  auto report = write_folded_stacks(
      path, [&got](std::string_view piece) { got.text += piece; }, options);
  if (!report) return report.error();
  got.report = *report;
  return got;
}

}  // namespace calltree

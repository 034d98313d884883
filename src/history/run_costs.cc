// run_costs.cc — one profile reduced to what `calltree trend` keeps (see history/run_costs.h).
#include "history/run_costs.h"

#include "calltree/analysis/inclusive.h"
#include "calltree/diagnostic.h"
#include "calltree/profile_builder.h"
#include "calltree/totals.h"

namespace calltree::history {

result<run_costs> read_run_costs(const std::string& path, const run_read_options& options) {
  profile p;
  diagnostic_collector diags(1);
  reader_options ro;
  ro.display_name = path;
  ro.threads = options.threads;
  builder_options bo;
  if (options.max_memory) bo.max_memory = options.max_memory;
  bo.keep_jumps = false;
  bo.keep_positions = 0;  // sums per function and file, per caller and callee
  auto r = load_profile(path, p, diags, ro, bo);
  if (!r) return r.error();
  if (r->state == read_state::stopped)
    return error{path + ": could not be read to its end (see 'calltree check " + path + "')"};
  if (r->state == read_state::likely_truncated)
    return error{path + ": was likely cut short (see 'calltree check " + path + "')"};
  if (p.parts.empty()) return error{path + ": holds no profile", error_code::no_profile};

  run_costs out;
  out.errors = diags.errors();
  out.warnings = diags.warnings();
  out.creator = p.parts.front().header.creator;
  out.cmd = p.parts.front().header.cmd;
  // The events a part records (an event only defined by a formula has no cost of its own).
  std::vector<std::size_t> kept;
  for (auto e : p.events.ids())
    if (p.events[e].recorded) {
      kept.push_back(e.index());
      out.events.push_back(p.events[e].name);
    }
  // The program total of each event by the one rule of calltree/totals.h (the file's stated
  // total, else the sum of its self costs): the figure annotate prints and the page shows, so
  // a folder's row (server/folder.h) has one total before and after it is opened.
  for (std::size_t e : kept) out.total.push_back(program_total(p, event_id{e}));

  const inclusive_result inc = compute_inclusive(p);
  out.functions.reserve(p.functions.size());
  for (auto f : p.functions.ids()) {
    const function& fn = p.functions[f];
    function_costs c;
    c.object = std::string(p.object_name(fn.object));
    c.file = std::string(p.file_name(fn.file));
    c.name = std::string(p.function_name(f));
    const auto self = inc.self_of(f), incl = inc.inclusive_of(f);
    bool any = false;
    for (std::size_t e : kept) {
      c.self.push_back(self[e]);
      c.inclusive.push_back(incl[e]);
      any = any || self[e] || incl[e];
    }
    if (any) out.functions.push_back(std::move(c));
  }
  return out;
}

}  // namespace calltree::history

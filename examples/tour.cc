// tour.cc — the library in one program: load profiles (failing clearly on bad input), the top
// 10 functions by inclusive cost, the callers and callees of the first, then a merge of the
// inputs, a diff of the first two, and the folded stacks of the first.
//
//   tour FILE...        (the profiles that load are used; at least one)
//
// Exit status: 0 every input read whole and clean, 1 some input not (said on stderr), 2 none.
// library.md (share/doc/calltree/) walks through it.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <calltree/calltree.h>

using ull = unsigned long long;

namespace {

// A cost as text: in a profile of differences (p.signed_costs: cg_diff's output) a signed
// number held in the uint64_t, printed with its sign (-129).
std::string cost_text(const calltree::profile& p, std::uint64_t v) {
  return p.signed_costs ? std::to_string(calltree::as_signed(v)) : std::to_string(v);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  std::vector<calltree::loaded_profile> loaded;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    auto r = calltree::load(argv[i]);
    if (!r) {  // no profile: the message names the file, the code says why
      std::fprintf(stderr, "tour: %s [%s]\n", r.error().message.c_str(),
                   std::string(calltree::to_string(r.error().code)).c_str());
      status = 1;
      continue;
    }
    if (!r->ok()) {  // cut short, or lines in error: the figures are of what was read
      std::fprintf(stderr, "tour: %s: %s, %llu errors\n", argv[i],
                   std::string(calltree::to_string(r->stats.state)).c_str(),
                   static_cast<ull>(r->diagnostics.errors()));
      status = 1;
    }
    paths.push_back(argv[i]);
    loaded.push_back(std::move(*r));
  }
  if (loaded.empty()) return 2;

  // The top 10 of the first profile by inclusive cost of its first event, with their calls.
  const calltree::profile& p = loaded[0].profile;
  const calltree::event_id first{0};
  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  const auto calls = calltree::call_counts(p);
  const auto top = calltree::top_functions(inc, first, calltree::cost_kind::inclusive, 10);
  std::printf("%s: the 10 functions of highest inclusive %s\n", paths[0].c_str(),
              p.events[first].name.c_str());
  for (calltree::function_id f : top)
    std::printf("%16s %8llu calls  %s\n", cost_text(p, inc.inclusive_of(f)[0]).c_str(),
                static_cast<ull>(calls[f]), std::string(p.function_name(f)).c_str());

  // Callers and callees of the top function.
  if (!top.empty()) {
    const calltree::function_calls c = calltree::calls_of(p, inc, top[0]);
    for (const auto* list : {&c.callers, &c.callees}) {
      std::printf("%s of %s:\n", list == &c.callers ? "callers" : "callees",
                  std::string(p.function_name(top[0])).c_str());
      for (const calltree::call_summary& s : *list)
        std::printf("%16s %8llux  %s%s\n", cost_text(p, s.inclusive[0]).c_str(),
                    static_cast<ull>(s.count), std::string(p.function_name(s.function)).c_str(),
                    s.recursive ? " (recursive)" : "");
    }
  }

  // Every input merged into one profile.
  calltree::profile merged;
  calltree::diagnostic_collector merge_diags;
  if (auto m = calltree::merge_inputs(paths, merged, merge_diags))
    std::printf("merged %zu inputs: %zu functions, %s total %s\n", m->inputs,
                merged.functions.size(), merged.events[first].name.c_str(),
                cost_text(merged, merged.total()[0]).c_str());

  // What changed from the first to the second.
  if (loaded.size() >= 2) {
    auto d = calltree::diff_profiles(loaded[0].profile, loaded[1].profile);
    if (d && !d->events.empty())
      std::printf("diff: %s %s -> %s; %zu functions added, %zu removed, %zu changed\n",
                  d->events[0].c_str(), cost_text(loaded[0].profile, d->total_old[0]).c_str(),
                  cost_text(loaded[1].profile, d->total_new[0]).c_str(),
                  d->count(calltree::function_change::added),
                  d->count(calltree::function_change::removed),
                  d->count(calltree::function_change::changed));
  }

  // The folded stacks of the first (the lines of `calltree export --to=folded`).
  // (A profile of differences has none: folded stacks carry counts, not negative changes.)
  if (auto folded = calltree::folded_stacks(paths[0])) {
    const std::string& t = folded->text;
    std::printf("folded stacks: %llu lines; the first: %s\n",
                static_cast<ull>(folded->report.lines), t.substr(0, t.find('\n')).c_str());
  } else {
    std::fprintf(stderr, "tour: no folded stacks: %s\n", folded.error().message.c_str());
  }
  return status;
}

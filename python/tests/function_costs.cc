// function_costs.cc — the library's own numbers, for the Python tests (test_functions.py) to
// hold Profile.functions() against: every function of a profile, in id order, one line each,
//   ID <TAB> CALLS <TAB> SELF... <TAB> INCLUSIVE... <TAB> OBJECT <TAB> FILE <TAB> NAME
// (costs in event order; calls: the calls into it from every other function). The first line
// holds the events' names. Exit status 2 when the file holds no profile.
#include <cstdio>
#include <string>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "calltree/profile_builder.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: function_costs PROFILE\n");
    return 2;
  }
  calltree::profile p;
  calltree::diagnostic_collector diags;
  auto stats = calltree::load_profile(argv[1], p, diags);
  if (!stats) {
    std::fprintf(stderr, "function_costs: %s\n", stats.error().message.c_str());
    return 2;
  }
  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  std::vector<unsigned long long> calls(p.functions.size(), 0);
  for (const calltree::call_row& c : p.calls)
    if (c.caller != c.callee) calls[c.callee.index()] += c.count;
  for (const calltree::event_type& e : p.events) std::printf("%s\t", e.name.c_str());
  std::printf("\n");
  for (calltree::function_id f : p.functions.ids()) {
    std::printf("%u\t%llu", f.index(), calls[f.index()]);
    for (auto c : inc.self_of(f)) std::printf("\t%llu", static_cast<unsigned long long>(c));
    for (auto c : inc.inclusive_of(f)) std::printf("\t%llu", static_cast<unsigned long long>(c));
    const calltree::function& fn = p.functions[f];
    std::printf("\t%s\t%s\t%s\n", std::string(p.object_name(fn.object)).c_str(),
                std::string(p.file_name(fn.file)).c_str(), std::string(p.function_name(f)).c_str());
  }
  return 0;
}

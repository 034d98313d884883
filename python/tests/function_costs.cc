// function_costs.cc — the library's own numbers, for the Python tests (test_functions.py) to
// hold Profile.functions() against: every function of a profile, in id order, one line each,
//   ID <TAB> CALLS <TAB> SELF... <TAB> INCLUSIVE... <TAB> OBJECT <TAB> FILE <TAB> NAME
// (costs in event order; calls: the calls into it from every other function; FILE its own file,
// the source file of its self rows with the most self cost of the first event, ties to the
// fl= file, then the lower file id, python/src/names.h). The first line holds the events'
// names. Exit status 2 when the file holds no profile.
#include <cstdio>
#include <map>
#include <string>
#include <utility>
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
  // The self cost of the first event, by its size, per (function, source file).
  std::map<std::pair<unsigned, unsigned>, unsigned long long> in_file;
  for (std::size_t r = 0; r < p.self_rows.size() && !p.events.empty(); ++r) {
    const calltree::self_row& row = p.self_rows[r];
    const auto c = static_cast<long long>(p.self_costs.row(r)[0]);
    in_file[{row.function.index(), row.source_file.index()}] +=
        p.signed_costs && c < 0 ? 0ull - static_cast<unsigned long long>(c) : static_cast<unsigned long long>(c);
  }
  auto own_file = [&](calltree::function_id f) {
    const calltree::file_id fl = p.functions[f].file;
    auto it = in_file.find({f.index(), fl.index()});
    unsigned long long best = it == in_file.end() ? 0 : it->second;
    calltree::file_id own = fl;
    for (it = in_file.lower_bound({f.index(), 0}); it != in_file.end() && it->first.first == f.index(); ++it)
      if (it->second > best) {  // (in file order: the first of equal ones is the lower id)
        best = it->second;
        own = calltree::file_id{it->first.second};
      }
    return own;
  };
  for (const calltree::event_type& e : p.events) std::printf("%s\t", e.name.c_str());
  std::printf("\n");
  for (calltree::function_id f : p.functions.ids()) {
    std::printf("%u\t%llu", f.index(), calls[f.index()]);
    for (auto c : inc.self_of(f)) std::printf("\t%llu", static_cast<unsigned long long>(c));
    for (auto c : inc.inclusive_of(f)) std::printf("\t%llu", static_cast<unsigned long long>(c));
    const calltree::function& fn = p.functions[f];
    std::printf("\t%s\t%s\t%s\n", std::string(p.object_name(fn.object)).c_str(),
                std::string(p.file_name(own_file(f))).c_str(), std::string(p.function_name(f)).c_str());
  }
  return 0;
}

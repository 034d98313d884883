// main.cc — the consumer project's program: loads a profile through the installed library and
// prints its events, totals and the function with the largest inclusive cost.
#include <cstdio>

#include "calltree/analysis/inclusive.h"
#include "calltree/profile_builder.h"
#include "calltree/version.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  calltree::profile p;
  calltree::diagnostic_collector diags;
  auto stats = calltree::load_profile(argv[1], p, diags);
  if (!stats || p.events.empty()) return 1;
  auto inc = calltree::compute_inclusive(p);
  calltree::function_id top{};
  for (calltree::function_id f : p.functions.ids())
    if (inc.inclusive_of(f)[0] > inc.inclusive_of(top)[0]) top = f;
  std::printf("calltree %s: %s total %llu, top %.*s %llu\n", CALLTREE_VERSION,
              p.events.front().name.c_str(), static_cast<unsigned long long>(p.total()[0]),
              static_cast<int>(p.function_name(top).size()), p.function_name(top).data(),
              static_cast<unsigned long long>(inc.inclusive_of(top)[0]));
  return 0;
}

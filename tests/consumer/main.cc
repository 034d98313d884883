// main.cc — the consumer project's program: loads a profile through the installed library (the
// one include, one call) and prints its events, totals and the function with the largest
// inclusive cost.
#include <cstdio>

#include <calltree/calltree.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto loaded = calltree::load(argv[1]);
  if (!loaded || !loaded->ok() || loaded->profile.events.empty()) return 1;
  const calltree::profile& p = loaded->profile;
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

// top.cc — the 10 functions of a profile with the highest inclusive cost, and how often each
// was called: the program library.md opens with (share/doc/calltree/examples/top.cc).
//
//   top callgrind.out.1234
#include <calltree/calltree.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: top PROFILE\n");
    return 2;
  }
  auto loaded = calltree::load(argv[1]);  // the profile, its diagnostics, how far it was read
  if (!loaded) {                          // no profile at all: the message names the file
    std::fprintf(stderr, "top: %s [%s]\n", loaded.error().message.c_str(),
                 std::string(calltree::to_string(loaded.error().code)).c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;
  const calltree::event_id first{0};  // the file's first event (Ir for callgrind)
  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  const auto calls = calltree::call_counts(p);
  // (A profile of differences, cg_diff's output, has signed costs: as_signed gives the number.)
  auto text = [&](std::uint64_t v) {
    return p.signed_costs ? std::to_string(calltree::as_signed(v)) : std::to_string(v);
  };
  std::printf("%s total %s\n", p.events[first].name.c_str(), text(p.total()[first.index()]).c_str());
  for (calltree::function_id f : calltree::top_functions(inc, first, calltree::cost_kind::inclusive, 10))
    std::printf("%16s %10llu calls  %s\n", text(inc.inclusive_of(f)[first.index()]).c_str(),
                static_cast<unsigned long long>(calls[f]), std::string(p.function_name(f)).c_str());
  if (!loaded->ok()) {  // read, but cut short or with errors: the figures are of what was read
    std::fprintf(stderr, "top: %s: %s, %llu errors\n", argv[1],
                 std::string(calltree::to_string(loaded->stats.state)).c_str(),
                 static_cast<unsigned long long>(loaded->diagnostics.errors()));
    return 1;
  }
  return 0;
}

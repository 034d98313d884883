// where_is.cc — every function of a name, with its object, file, self and inclusive cost of the
// first event; failing clearly on a file that is no profile.
//
//   where_is callgrind.out.1234 main
//
// Exit status: 0 found, in a profile read whole and without errors; 1 no function of that name,
// or the profile read with errors or not to its end; 2 no profile (or a usage error).
// library.md (share/doc/calltree/), "Task 4", walks through it.
#include <cstdio>
#include <string>

#include <calltree/calltree.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: where_is FILE NAME\n");
    return 2;
  }
  auto loaded = calltree::load(argv[1]);
  if (!loaded) {
    std::fprintf(stderr, "where_is: error: %s [%s]\n", loaded.error().message.c_str(),
                 std::string(calltree::to_string(loaded.error().code)).c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;
  const auto found = calltree::find_functions(p, argv[2]);
  if (found.empty()) {
    std::fprintf(stderr, "where_is: %s: no function named '%s'\n", argv[1], argv[2]);
    return 1;
  }
  const calltree::inclusive_result inc = calltree::compute_inclusive(p);
  // (A profile of differences, cg_diff's output, has signed costs: as_signed gives the number.)
  auto text = [&](std::uint64_t v) {
    return p.signed_costs ? std::to_string(calltree::as_signed(v)) : std::to_string(v);
  };
  for (calltree::function_id f : found) {
    const calltree::function& fn = p.functions[f];
    std::printf(
        "%s  %s  %s: self %s, inclusive %s %s\n", std::string(p.function_name(f)).c_str(),
        std::string(p.object_name(fn.object)).c_str(), std::string(p.file_name(fn.file)).c_str(),
        text(inc.self_of(f)[0]).c_str(), text(inc.inclusive_of(f)[0]).c_str(),
        p.events[calltree::event_id{0}].name.c_str());
  }
  return loaded->ok() ? 0 : 1;
}

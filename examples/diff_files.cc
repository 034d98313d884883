// diff_files.cc — what changed between two profiles, function by function.
//
// Loads both files, matches functions by (object, file, name), and prints the program totals
// and the five functions whose self cost of the first event changed most:
//
//   diff_files before.callgrind after.callgrind
//
// library.md (share/doc/calltree/) walks through it.
#include <cstdio>
#include <string>

#include <calltree/calltree.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: diff_files OLD NEW\n");
    return 2;
  }
  auto old_profile = calltree::load(argv[1]);
  auto new_profile = calltree::load(argv[2]);
  for (const auto* loaded : {&old_profile, &new_profile}) {
    if (!*loaded) std::fprintf(stderr, "%s\n", loaded->error().message.c_str());
    if (!*loaded || !(*loaded)->ok()) return 1;  // (no file, or not read whole and clean)
  }
  auto r = calltree::diff_profiles(old_profile->profile, new_profile->profile);
  if (!r) {
    std::fprintf(stderr, "%s\n", r.error().message.c_str());
    return 1;
  }
  if (r->events.empty()) {
    std::fprintf(stderr, "the profiles share no event\n");
    return 1;
  }
  auto pct = [](std::uint64_t a, std::uint64_t b) {
    auto p = calltree::percent_change(a, b);
    char s[32];
    if (p)
      std::snprintf(s, sizeof s, "%+.2f%%", *p);
    else
      std::snprintf(s, sizeof s, "new");
    return std::string(s);
  };
  std::printf("%s: %llu -> %llu (%s)\n", r->events[0].c_str(),
              static_cast<unsigned long long>(r->total_old[0]),
              static_cast<unsigned long long>(r->total_new[0]),
              pct(r->total_old[0], r->total_new[0]).c_str());
  std::printf(
      "%zu functions added, %zu removed, %zu changed\n", r->count(calltree::function_change::added),
      r->count(calltree::function_change::removed), r->count(calltree::function_change::changed));

  calltree::diff_ranking ranking;  // by the absolute change of the first event's self cost
  ranking.limit = 5;
  ranking.threshold_percent = 0;
  for (calltree::function_diff_id i : calltree::select_functions(*r, ranking).listed) {
    const auto& f = r->functions[i];
    std::printf("%-10s %12llu -> %12llu  %s\n", std::string(to_string(f.change)).c_str(),
                static_cast<unsigned long long>(f.self_old[0]),
                static_cast<unsigned long long>(f.self_new[0]), f.key.name.c_str());
  }
  return 0;
}

// replay_main.cc — the fuzz targets without libFuzzer: each input of the folders given, fed
// once to a target's entry function (what `make test` runs on the committed inputs).
//
// What it is: `fuzz_replay TARGET PATH...` calls TARGET's LLVMFuzzerTestOneInput (compiled
// into this binary under the name calltree_fuzz_TARGET, tests/fuzz/replay.cmake) on every file
// of each PATH (a file, or a folder and its subfolders), in name order. A target's invariant
// check traps (fuzz_common.h), so a broken one ends the run with a signal and the input's name
// on stderr; the exit status is 0 when every input ran, 2 on a usage error. A path that does
// not exist is no input. What it is not: fuzzing (nothing is mutated) or a sanitizer (the
// sanitized build runs this same test under ASan and UBSan: make test-sanitize).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#define CALLTREE_FUZZ_TARGET(name) \
  extern "C" int calltree_fuzz_##name(const std::uint8_t* data, std::size_t size);
CALLTREE_FUZZ_TARGET(fuzz_annotate)
CALLTREE_FUZZ_TARGET(fuzz_check)
CALLTREE_FUZZ_TARGET(fuzz_diff)
CALLTREE_FUZZ_TARGET(fuzz_merge)
CALLTREE_FUZZ_TARGET(fuzz_profile)
CALLTREE_FUZZ_TARGET(fuzz_reader)
CALLTREE_FUZZ_TARGET(fuzz_roundtrip)
CALLTREE_FUZZ_TARGET(fuzz_serve_api)
CALLTREE_FUZZ_TARGET(fuzz_import_folded)
CALLTREE_FUZZ_TARGET(fuzz_import_cpuprofile)
CALLTREE_FUZZ_TARGET(fuzz_import_pprof)
CALLTREE_FUZZ_TARGET(fuzz_import_pstats)
CALLTREE_FUZZ_TARGET(fuzz_import_perf)
#undef CALLTREE_FUZZ_TARGET

namespace {

using entry = int (*)(const std::uint8_t*, std::size_t);

struct target {
  std::string_view name;
  entry run;
};

constexpr target targets[] = {
    {"fuzz_annotate", calltree_fuzz_fuzz_annotate},
    {"fuzz_check", calltree_fuzz_fuzz_check},
    {"fuzz_diff", calltree_fuzz_fuzz_diff},
    {"fuzz_merge", calltree_fuzz_fuzz_merge},
    {"fuzz_profile", calltree_fuzz_fuzz_profile},
    {"fuzz_reader", calltree_fuzz_fuzz_reader},
    {"fuzz_roundtrip", calltree_fuzz_fuzz_roundtrip},
    {"fuzz_serve_api", calltree_fuzz_fuzz_serve_api},
    {"fuzz_import_folded", calltree_fuzz_fuzz_import_folded},
    {"fuzz_import_cpuprofile", calltree_fuzz_fuzz_import_cpuprofile},
    {"fuzz_import_pprof", calltree_fuzz_fuzz_import_pprof},
    {"fuzz_import_pstats", calltree_fuzz_fuzz_import_pstats},
    {"fuzz_import_perf", calltree_fuzz_fuzz_import_perf},
};

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const target* t = nullptr;
  for (const auto& x : targets)
    if (argc > 1 && x.name == argv[1]) t = &x;
  if (!t) {
    std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...  (TARGET: fuzz_reader, ...)\n");
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    std::error_code ec;
    const fs::path p(argv[i]);
    if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file()) files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.eof() && in.fail()) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s\n", f.c_str());
      return 2;
    }
    std::fprintf(stderr, "%s %s\n", argv[1], f.c_str());
    t->run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%s: %zu inputs replayed\n", argv[1], files.size());
  return 0;
}

// profile_files.h — (tests) the profiles the tests read: the corpus's, and the golden and
// malformed cases of tests/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <initializer_list>
#include <vector>

namespace calltree::test {

// The largest profile the tests read, in bytes on disk: CALLTREE_TEST_MAX_BYTES, which only
// `make test-sanitize` sets. Under the sanitizers a test that reads every profile reads those up
// to that size: every dialect, part and compression of the corpus, and inputs of many chunks
// (128 KiB each), but not the six largest (1.1-24 MB), whose code paths the smaller files of
// their dialects reach and whose reading under ASan took most of CI's time. `make test` reads
// them all. (No limit: the largest size there is.)
// CALLTREE_TEST_SUITE_MAX_BYTES, a suite's own limit (tests/CMakeLists.txt), applies too.
inline std::uintmax_t largest_test_profile() {
  std::uintmax_t largest = ~std::uintmax_t{0};
  for (const char* name : {"CALLTREE_TEST_MAX_BYTES", "CALLTREE_TEST_SUITE_MAX_BYTES"}) {
    const char* v = std::getenv(name);
    if (v && *v) largest = std::min<std::uintmax_t>(largest, std::stoull(v));
  }
  return largest;
}

// Whether CALLTREE_TEST_MAX_BYTES leaves some profiles out (a test counting them expects fewer).
inline bool some_profiles_left_out() { return largest_test_profile() != ~std::uintmax_t{0}; }

// The profiles (`.callgrind`, `.cachegrind`; with `gz`, `.callgrind.gz` too) in `dirs`, sorted,
// up to largest_test_profile() bytes.
inline std::vector<std::filesystem::path> profiles_in(
    std::initializer_list<std::filesystem::path> dirs, bool gz) {
  std::vector<std::filesystem::path> files;
  const std::uintmax_t largest = largest_test_profile();
  for (const auto& dir : dirs)
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const auto n = e.path().filename().string();
      if ((n.ends_with(".callgrind") || n.ends_with(".cachegrind") ||
           (gz && n.ends_with(".callgrind.gz"))) &&
          e.file_size() <= largest)
        files.push_back(e.path());
    }
  std::sort(files.begin(), files.end());
  return files;
}

// Every profile of the corpus (`gz`: with its gzip files).
inline std::vector<std::filesystem::path> corpus_profiles(bool gz) {
  return profiles_in({CALLTREE_CORPUS_DIR}, gz);
}

// Every profile of the corpus, the golden cases and the malformed cases.
inline std::vector<std::filesystem::path> every_profile(bool gz) {
  const std::filesystem::path src = CALLTREE_SOURCE_DIR;
  return profiles_in({CALLTREE_CORPUS_DIR, src / "tests/golden", src / "tests/malformed"}, gz);
}

}  // namespace calltree::test

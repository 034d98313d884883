// profile_files.h — (tests) the profiles the tests read: the corpus's, and the golden and
// malformed cases of tests/.
#pragma once

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <vector>

namespace calltree::test {

// The profiles (`.callgrind`, `.cachegrind`; with `gz`, `.callgrind.gz` too) in `dirs`, sorted.
inline std::vector<std::filesystem::path> profiles_in(
    std::initializer_list<std::filesystem::path> dirs, bool gz) {
  std::vector<std::filesystem::path> files;
  for (const auto& dir : dirs)
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const auto n = e.path().filename().string();
      if (n.ends_with(".callgrind") || n.ends_with(".cachegrind") ||
          (gz && n.ends_with(".callgrind.gz")))
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

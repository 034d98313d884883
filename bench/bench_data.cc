#include "bench_data.h"

#include <cstdio>
#include <cstdlib>

namespace calltree::bench {

const std::string& bench_text() {
  static const std::string text = [] {
    const char* env = std::getenv("CALLTREE_BENCH_FILE");
    std::string path =
        env && *env ? env : CALLTREE_CORPUS_DIR "/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz";
    std::string out;
    auto in = open_input(path);
    if (!in) {
      std::fprintf(stderr, "calltree_bench: %s: %s\n", path.c_str(), in.error().message.c_str());
      return out;
    }
    for (;;) {
      auto b = (*in)->next();
      if (!b || b->empty()) break;
      out.append(b->data(), b->size());
    }
    return out;
  }();
  return text;
}

}  // namespace calltree::bench

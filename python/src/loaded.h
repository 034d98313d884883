// loaded.h — a profile read for Python: the model, the diagnostics of its reading and whether
// the whole file was read; and the two ways to make one (a file, several files merged).
//
// The bindings' one place of reading: load_file() and merge_files() are what every Python call
// that reads goes through, so that a later library call giving the three together (the model,
// its diagnostics, complete()) replaces these two functions and nothing else. Both are called
// without the GIL: they touch no Python object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/result.h"

namespace calltree::python {

struct loaded_profile {
  calltree::profile profile;
  // The first few diagnostics of each code, and every one counted (diagnostic.h).
  diagnostic_collector diagnostics;
  read_state state = read_state::complete;
  // The `creator:` a write gives it: empty, the input's (as `calltree convert` keeps it); a
  // merge's is calltree's own, as `calltree merge` writes it.
  std::string creator;
  bool complete() const { return state == read_state::complete; }
};

// How a file is read: `threads` as reader_options::threads (0: one per core, as the tool's
// default); `positions`: keep every position column (instruction, line) and the jumps, as
// `calltree merge` does, else costs summed per function and per call (the numbers of every
// table the package makes are the same: they are sums per function), which the reader reads
// on several threads, as `calltree check` does, in a fraction of the memory.
struct read_request {
  unsigned threads = 0;
  bool positions = false;
};

// The threads a reading uses: request.threads, or one per core.
unsigned reading_threads(const read_request& request);

// `path` read into a new profile. The error is the library's (not-found, no-profile, ...), its
// message beginning with the path.
result<std::unique_ptr<loaded_profile>> load_file(const std::string& path,
                                                  const read_request& request);

// `paths` read one after another into one profile, as `calltree merge` does: every part of
// every input summed into one part (`keep_parts`: each input part a part of its own). The
// error is the first input that cannot be read or holds no profile.
result<std::unique_ptr<loaded_profile>> merge_files(const std::vector<std::string>& paths,
                                                    bool keep_parts, const read_request& request);

}  // namespace calltree::python

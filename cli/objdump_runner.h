// objdump_runner.h — runs objdump for machine-code annotation (`annotate --asm`, `serve`).
//
// What it is: the one place calltree spawns a process for the library's asm_annotator
// (calltree/asm.h): the object file looked for (--object-root rewrites first, then the name the
// profile gives), objdump run on it with LC_ALL=C, and a note when the object is newer than the
// profile. The library plans and parses the runs; this is the command line's half.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "calltree/asm.h"

namespace calltree::cli {

struct objdump_settings {
  std::string objdump = "objdump";  // --objdump (found on PATH unless it holds a '/')
  std::vector<std::pair<std::string, std::string>> object_roots;  // --object-root OLD=NEW
  std::int64_t input_mtime = 0;  // the profile's modification time (s); 0 = unknown
};

// A runner for asm_annotator. `objdump_missing`, when given, is set when objdump cannot be
// started at all. Safe to call from several threads at once.
objdump_runner make_objdump_runner(objdump_settings settings,
                                   std::atomic<bool>* objdump_missing = nullptr);

// A regular file at `path` (its modification time in *mtime, seconds).
bool is_file(const std::string& path, std::int64_t* mtime = nullptr);

}  // namespace calltree::cli

// load.h — one call that reads a profile file: `calltree::load(path)`.
//
// What it is: the reader and the profile builder (reader.h, profile_builder.h) behind one call
// that gives one value: the profile, the diagnostics of its reading, and how far the file was
// read, with `ok()` for "read to its end, and no errors". A file that cannot be read at all
// (missing, a directory, not readable, no profile in it) is the result's error; everything else
// (a malformed line, a file cut short) is in the value, said by its diagnostics and read state.
// What it is not: merging (load_profile, profile_builder.h, builds into a profile that may
// already hold one, on purpose), nor a streaming reading without a model (read_callgrind).
//
//   auto loaded = calltree::load("callgrind.out.1234");
//   if (!loaded) { /* loaded.error().message: "callgrind.out.1234: No such file or directory" */ }
//   if (!loaded->ok()) { /* cut short or malformed: loaded->diagnostics, loaded->stats.state */ }
//   const calltree::profile& p = loaded->profile;
//
// Threads: load() may run on several threads at once (each its own file and value). A
// `loaded_profile` is a value: a const one (its profile, its diagnostics) may be read from
// several threads at once; changing it needs it to itself. Lifetime: it owns everything it
// holds (the names views point into live in `profile.strings`): moving it keeps the ids and the
// names' views valid.
#pragma once

#include <cstddef>
#include <string>

#include "calltree/diagnostic.h"
#include "calltree/export.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/result.h"

namespace calltree {

// Threads and lifetime: a value, copied freely.
struct load_options {
  // How the file is read: its name in diagnostics (by default the path; "<stdin>" for "-"),
  // threads, the names' memory limit, a progress callback (reader.h).
  reader_options read;
  // What the profile keeps: position columns, jumps, a memory limit (profile_builder.h).
  builder_options build;
  // Diagnostics kept whole per code (the others are counted: diagnostic_collector).
  std::size_t kept_per_code = 20;
};

// A profile read from one file, with what its reading found.
// Threads: a const one may be shared by any number of threads. Lifetime: it owns its profile,
// diagnostics and stats (moving it keeps views into its profile valid).
struct loaded_profile {
  calltree::profile profile;
  diagnostic_collector diagnostics;  // every problem counted; the first few of each code kept
  read_stats stats;                  // lines, bytes, parts read; `state`: how far

  // Read to its end (stats.state == read_state::complete: not cut short, not stopped) and no
  // diagnostic of severity error: the profile is the whole file's and holds all of it.
  bool ok() const { return stats.complete() && diagnostics.errors() == 0; }
};

// Reads `path` ("-" = stdin; plain, gzip, zstd, xz or bzip2) into a new profile. The error
// (error_code::not_found, permission_denied, is_directory, io_error, no_profile; its message
// begins with the path) when there is no profile to give; else the profile of what was read,
// whose ok() says whether that is all of the file, without mistakes.
CALLTREE_API result<loaded_profile> load(const std::string& path, load_options options = {});

}  // namespace calltree

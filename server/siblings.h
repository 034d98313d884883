// server/siblings.h — the other files of a callgrind run: what `serve FILE --siblings` loads.
//
// Callgrind names the files of one run after one stem, `callgrind.out.PID`: a file per thread
// with --separate-threads (`callgrind.out.PID-01`, `-02`, ...), a file per dump with
// --dump-every-bb, --dump-before/-after or `callgrind_control -d` (`callgrind.out.PID.1`,
// `.2`, ..., the last at the program's end keeping the stem itself), and both (`.1-01`).
// KCachegrind opens them together as one profile with parts. What it is not: a loader
// (views/session.h).
#pragma once

#include <string>
#include <vector>

namespace calltree::server {

// The files of the run `path` belongs to, in the directory of `path` (`path` included), in
// KCachegrind's order: by dump (numbered dumps first, then the file without a dump number,
// the program's end), then by thread. Empty files (callgrind leaves one without a thread
// number beside --separate-threads' files) are left out. A name not of the form
// `STEM.out.NUMBER[.DUMP][-THREAD]`, or a directory that cannot be read: just {path}.
std::vector<std::string> run_siblings(const std::string& path);

}  // namespace calltree::server

// folded.h — the folded stacks ("collapsed stacks") of a profile file, as a library call.
//
// What it is: the lines `calltree export --to=folded FILE` writes, by the same code: one line
// per call path with a self cost in the event, the function names from the root to the path's
// last function joined by ';', a space, the self cost (`main;work;leaf 1234`): what
// flamegraph.pl, inferno and speedscope read. The paths come from calltree's estimate of call
// paths (share/doc/calltree/estimate.md): every self cost is placed exactly (per function,
// summed over its lines, the numbers are its self cost; summed, the event's total); how a
// function's cost splits between the paths of its several callers is estimated. A file that
// records its stacks (folded stacks, perf script, pprof, .cpuprofile) gives those stacks,
// exactly, every one.
// What it is not: a reading of an already loaded `profile`: the stacks are of functions as the
// file names them per source file (callgrind_annotate's keys), so the call reads the file
// itself (once, without a model) and gives exactly the tool's lines.
//
// Threads: each call reads its own file and may run beside others; with `threads` > 1 the
// lines are formatted on that many threads and handed to `out` in order, on the calling
// thread. Lifetime: the views `out` is given are valid during that call of `out` only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/export.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/result.h"

namespace calltree {

// Threads and lifetime: a value, copied freely.
struct folded_options {
  // The event whose self costs the lines carry (`Ir`, a name of the file's events: or of an
  // `event:` formula); empty: the first event of the file.
  std::string event;
  // The parts summed (ids of the file's parts, in file order); empty: every part.
  std::vector<part_id> parts;
  // Threads that read and format (1: the calling thread alone). The lines are the same.
  unsigned threads = 1;
};

// What the reading found. The tool refuses to export a file with errors or one not read to its
// end (some of its costs are not in the lines): ok() says whether the lines are the whole file's.
// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct folded_report {
  read_stats stats;                        // lines and bytes read; state: how far
  std::uint64_t errors = 0, warnings = 0;  // the reading's diagnostics (calltree check lists them)
  std::uint64_t lines = 0;                 // folded lines written
  bool ok() const { return errors == 0 && stats.complete(); }
};

// Writes the folded stacks of the profile file `path` ("-": stdin; plain or compressed) to
// `out`, piece by piece (each piece whole lines). The error (nothing written) when the file
// holds no profile (as load() gives it), names an event or part it does not have, or holds
// differences (profile::signed_costs: cg_diff's output), whose negative costs folded stacks
// cannot carry (as `calltree export --to=folded` refuses it).
CALLTREE_API result<folded_report> write_folded_stacks(
    const std::string& path, const std::function<void(std::string_view)>& out,
    const folded_options& options = {});

// The same lines as one string, with the report.
// Threads: each call reads its own file; `out` is called on the calling thread. Lifetime: the text
// given to `out` is valid during that call only.
struct folded_stacks_text {
  std::string text;
  folded_report report;
};
CALLTREE_API result<folded_stacks_text> folded_stacks(const std::string& path,
                                                     const folded_options& options = {});

}  // namespace calltree

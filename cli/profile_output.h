// profile_output.h — a profile written as a callgrind file, whole or not at all.
//
// What it is: `merge -o` and `diff -o`'s output: "-" is standard output (a closed pipe is
// success); a file is written beside OUT and renamed onto it, so an output that is also an
// input, or a failed write, never leaves a half-written file (a device or FIFO is written in
// place, output_file.h).
#pragma once

#include <string>

#include "calltree/analysis/merge.h"
#include "calltree/diagnostic.h"
#include "calltree/profile.h"
#include "calltree/writer.h"

namespace calltree::cli {

// Writes `p` to `output`; returns `status` when written, else exit_usage (with a message on
// stderr naming `command`).
int write_profile_file(const profile& p, const std::string& output, const writer_options& wo,
                       const char* command, int status);

// The inputs summed into `p` (merge, diff -o): their problems on stderr, then `p` written as
// above unless it may not be: an input that could not be read (exit 2) or not to its end (a
// sum of what was read would pass for the whole: exit 1), no profile data (exit 2). Errors in
// lines that were skipped: the sum of the rest is written, exit 1.
int write_summed_profile(const result<merge_stats>& stats, const diagnostic_collector& diags,
                         const profile& p, const std::string& output, const writer_options& wo,
                         const char* command);

}  // namespace calltree::cli

// standard_output.h — standard output whose failed writes are the command's error.
//
// What it is: stdout (and std::cout, on it) replaced, before a command runs, by a stream that
// writes to file descriptor 1 and keeps the reason of its first failed write (ENOSPC on a full
// disk or /dev/full, EPIPE when the reader went away, EIO). stdio forgets it: a failed flush
// drops its buffer and sets the error flag, and the next fflush succeeds, so a command that
// wrote its output piece by piece used to end with exit 0 on a full disk. main.cc asks at the
// end (finish_standard_output) and makes any failure but EPIPE an error with its reason
// (exit 2); a closed pipe (`calltree ... | head`) stays a quiet end.
#pragma once

namespace calltree::cli {

// Replaces stdout and std::cout's buffer (once, before anything is written).
void track_standard_output();

// Flushes both; the errno of the first write that failed, 0 if every byte was written.
int finish_standard_output();

// The errno of the first failed write so far (0: none), without flushing.
int standard_output_error();

}  // namespace calltree::cli

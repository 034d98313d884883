// views/call_balance.h — (internal) where a file's calls into a function cost more than that
// function's own lines add up to (its self cost and its calls out), as a note for the page.
//
// A Callgrind file states both numbers: a `calls=` line's cost (what the caller says the
// calls cost, inclusive) and the callee's own cost lines. They agree in a file that Valgrind
// wrote for plain calls; they may not where code was entered by jumps, longjmp or a tail call,
// or in files other tools wrote. calltree keeps the file's numbers in every view: a function's
// inclusive cost is the calls into it, and the flame-graph estimate (analysis/call_paths.h)
// never puts more under a call than it cost, nor scales a callee up to fill a call larger than
// its lines (the difference stays a gap in the caller's frame). This note says where.
#pragma once

#include <optional>
#include <string>

namespace calltree::views {

class session;

// A warning line for the profile's warnings (`[calls-above-lines]`), or nothing: the
// functions outside cycles called for more, in the first event, than their own lines add up
// to, counted per part, with the largest difference as the example (of equal ones, the one
// called for more).
std::optional<std::string> calls_above_lines(const session& s);

}  // namespace calltree::views

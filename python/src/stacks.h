// stacks.h — folded stacks of a profile: Profile.stacks().
//
// One line per call path with a self cost in the event: the function names from the root to
// the path's last function joined by ';', a space, that function's self cost on the path (the
// text flamegraph.pl, inferno and speedscope read). A Callgrind file keeps costs per function
// and per call, not per stack, so how a function's cost splits between the paths to it is the
// library's estimate (calltree/analysis/call_paths.h, exact_self): summed per last function the
// numbers are the functions' self costs, summed in all the event's total of self costs. A
// name's ';' is written ':' and its line breaks spaces (the format has no escapes); an empty
// name is '?'. The one place the bindings make stacks, so the library's own folded-stacks call
// replaces this function. With transforms (Profile.stacks(transforms=...)), the tree is
// transformed first (calltree/analysis/call_path_transforms.h, in the steps' order) and its
// frames named as the transforms renamed them (a merged clone by its function, a collapsed
// object by the object).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "calltree/analysis/call_path_transforms.h"
#include "calltree/profile.h"

namespace calltree::python {

// The folded stacks of `event` (an index of p.events) over every part of `p`, transformed by
// `steps` in their order.
std::string folded_stacks(const profile& p, std::size_t event,
                          std::span<const path_transform> steps = {});

}  // namespace calltree::python

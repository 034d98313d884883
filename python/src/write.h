// write.h — Profile.write(): a profile as a callgrind file (calltree/analysis/merge.h's
// write_callgrind: canonical order, `totals:` the sum of the written self costs), all or
// nothing: written to a temporary file beside `path`, renamed over it once whole, so a failed
// write (a full disk) leaves no half-written file and an existing `path` as it was.
#pragma once

#include <string>

#include "calltree/profile.h"
#include "calltree/result.h"

namespace calltree::python {

// Errors: io-error (or not-found, permission-denied for the folder), the message beginning
// with `path`. Touches no Python object: call it without the GIL.
// `creator` replaces the profile's `creator:` line when not empty.
status write_file(const profile& p, const std::string& path, const std::string& creator);

}  // namespace calltree::python

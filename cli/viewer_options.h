// viewer_options.h — the views' reading options from the flags the viewers share (serve, tui,
// mcp, report --html): the memory limit, the current folder, -I and --source-root.
//
// What it is: one place for what each viewer set alike. What it is not: the flags each adds
// (--event, --threads, deferred lines), which its command sets after.
#pragma once

#include <string>
#include <vector>

#include "calltree/result.h"
#include "views/session.h"

namespace calltree::cli {

// An error's message is the usage error to print (a --source-root that is not OLD=NEW).
result<views::load_options> viewer_options(const std::vector<std::string>& include,
                                           const std::vector<std::string>& source_roots);

}  // namespace calltree::cli

// tui/terminal_check.h — (internal) whether this terminal can show `calltree tui`, asked before
// the profile is read. Its own header: its file includes <term.h>, whose macros (one per
// terminal capability: `lines`, `columns`, ...) would rename what other headers declare.
#pragma once

#include <optional>
#include <string>

namespace calltree::tui {

// Why `calltree tui` cannot run here: standard input or output is not a terminal, TERM names
// no terminal this machine knows, or one that cannot move its cursor (TERM=dumb). nullopt: it
// can.
std::optional<std::string> terminal_problem();

}  // namespace calltree::tui

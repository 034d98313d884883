// tui/terminal_check.cc — whether the terminal can show the viewer (tui/terminal_check.h).
#include "terminal_check.h"

#include <curses.h>
#include <term.h>
#include <unistd.h>

#include <cstdlib>

namespace calltree::tui {

std::optional<std::string> terminal_problem() {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
    return std::string(
        "standard input and output must be a terminal (for a report on a pipe: "
        "calltree annotate)");
  const char* term = std::getenv("TERM");
  const std::string name = term ? term : "";
  int err = 0;
  if (setupterm(nullptr, STDOUT_FILENO, &err) != OK)
    return "TERM=" + name + " names no terminal this machine knows (terminfo)";
  const char* move_to = tigetstr("cup");
  const bool moves = move_to && move_to != reinterpret_cast<char*>(-1);
  del_curterm(cur_term);
  if (!moves)
    return "this terminal (TERM=" + name +
           ") cannot move its cursor, which a full-screen viewer needs (calltree annotate "
           "writes a report)";
  return std::nullopt;
}

}  // namespace calltree::tui

// tui/terminal.h — (internal) the terminal of `calltree tui`, through ncurses.
//
// What it is: the one place that talks to the terminal: it takes it over (the alternate
// screen, keys without echo, the mouse when asked) and gives it back as it was, draws a page
// (tui/pages.h) with a selected line, a status line and a footer, and reads keys and mouse
// events. Colours (256 or 8) unless NO_COLOR is set or the terminal has none (TERM=dumb):
// then bold, reverse and underline alone. What it is not: what a key does (tui/app.h).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "pages.h"

struct screen;  // (ncurses' SCREEN)

namespace calltree::tui {

// One input: a key (ncurses' codes: KEY_UP, a character...), or a mouse event on a row.
struct input {
  int key = 0;
  int row = -1;  // the mouse: the screen row it was on
  bool double_click = false;
};

class terminal {
 public:
  // Takes the terminal over (stdin and stdout must be terminals). `mouse`: report clicks and
  // the wheel (the terminal's own selection then needs Shift).
  explicit terminal(bool mouse);
  ~terminal();  // gives the terminal back
  terminal(const terminal&) = delete;
  terminal& operator=(const terminal&) = delete;

  std::size_t width() const;
  std::size_t height() const;
  // The rows a page's lines get (the screen less the title, header, status and footer).
  std::size_t body_rows() const { return height() > 4 ? height() - 4 : 1; }
  static constexpr int first_body_row = 2;

  // Draws `p`'s lines from `top`, `selected` marked, then `status` and `footer`.
  void draw(const page& p, std::size_t top, std::size_t selected, const std::string& status,
            const std::string& footer);
  // Waits for the next input.
  input next();
  // Asks for a line of text on the status row after `prompt` (Enter gives it, Escape none).
  bool prompt(const std::string& prompt, std::string& text);

 private:
  bool colour_ = false;
  std::FILE* out_ = nullptr;
  std::FILE* in_ = nullptr;
  ::screen* screen_ = nullptr;
};

}  // namespace calltree::tui

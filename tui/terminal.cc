// tui/terminal.cc — the terminal through ncurses (tui/terminal.h).
#include "terminal.h"

#include <curses.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace calltree::tui {
namespace {

enum pair_id : short { heading_pair = 1, hot_pair, dim_pair, grew_pair, shrank_pair, bar_pair };

bool want_colour() {
  const char* no = std::getenv("NO_COLOR");
  if (no && *no) return false;
  return has_colors();
}

// The attributes of a line's tone.
attr_t look_of(tone t, bool colour) {
  switch (t) {
    case tone::heading:
      return A_BOLD | (colour ? COLOR_PAIR(heading_pair) : A_UNDERLINE);
    case tone::hot:
      return colour ? COLOR_PAIR(hot_pair) | A_BOLD : A_BOLD;
    case tone::dim:
      return colour ? COLOR_PAIR(dim_pair) : A_DIM;
    case tone::grew:
      return colour ? COLOR_PAIR(grew_pair) : A_NORMAL;
    case tone::shrank:
      return colour ? COLOR_PAIR(shrank_pair) : A_NORMAL;
    case tone::plain:
      break;
  }
  return A_NORMAL;
}

// Writes `text` on row y from column 0, cut or padded to the screen's width.
void put_row(int y, const std::string& text) {
  const int w = COLS;
  std::string row = text.substr(0, static_cast<std::size_t>(w));
  row.resize(static_cast<std::size_t>(w), ' ');
  mvaddnstr(y, 0, row.c_str(), w - (y == LINES - 1 ? 1 : 0));  // (the last cell scrolls)
}

}  // namespace

terminal::terminal(bool mouse) {
  // (On the terminal's own descriptors: the CLI's stdout is a FILE of its own, with no fd.)
  out_ = fdopen(dup(STDOUT_FILENO), "w");
  in_ = fdopen(dup(STDIN_FILENO), "r");
  if (!out_ || !in_) throw std::runtime_error("cannot open the terminal");
  screen_ = newterm(nullptr, out_, in_);
  if (!screen_) throw std::runtime_error("cannot use this terminal (TERM?)");
  set_term(screen_);
  raw();  // (Ctrl-C is a key: quitting leaves the terminal as it was)
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  curs_set(0);
  set_escdelay(25);
  colour_ = want_colour();
  if (colour_) {
    start_color();
    use_default_colors();
    init_pair(heading_pair, COLOR_CYAN, -1);
    init_pair(hot_pair, COLOR_RED, -1);
    init_pair(dim_pair, COLORS >= 256 ? 244 : COLOR_BLUE, -1);
    init_pair(grew_pair, COLOR_RED, -1);
    init_pair(shrank_pair, COLOR_GREEN, -1);
    init_pair(bar_pair, COLOR_BLACK, COLOR_CYAN);
  }
  if (mouse) {
    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED,
              nullptr);
    mouseinterval(250);
  }
}

terminal::~terminal() {
  curs_set(1);
  endwin();
  delscreen(screen_);
  std::fclose(out_);
  std::fclose(in_);
}

std::size_t terminal::width() const { return COLS > 0 ? static_cast<std::size_t>(COLS) : 80; }
std::size_t terminal::height() const { return LINES > 0 ? static_cast<std::size_t>(LINES) : 24; }

void terminal::draw(const page& p, std::size_t top, std::size_t selected, const std::string& status,
                    const std::string& footer) {
  erase();
  const attr_t bar = colour_ ? COLOR_PAIR(bar_pair) : A_REVERSE;
  attrset(bar | A_BOLD);
  put_row(0, " " + p.title);
  attrset(A_BOLD | A_UNDERLINE);
  put_row(1, p.header);
  const std::size_t rows = body_rows();
  for (std::size_t i = 0; i < rows && top + i < p.rows(); ++i) {
    const line* l = p.at(top + i);
    if (!l) continue;
    attrset(top + i == selected ? A_REVERSE : look_of(l->look, colour_));
    put_row(first_body_row + static_cast<int>(i), l->text);
  }
  attrset(A_NORMAL);
  std::string where;
  if (p.rows())
    where = std::to_string(std::min(selected, p.rows() - 1) + 1) + "/" + std::to_string(p.rows());
  std::string left = status.empty() ? p.note : status;
  const std::size_t w = width();
  if (left.size() + where.size() + 1 < w)
    left += std::string(w - left.size() - where.size() - 1, ' ') + where;
  put_row(LINES - 2, left);
  attrset(bar);
  put_row(LINES - 1, footer);
  attrset(A_NORMAL);
  refresh();
}

input terminal::next() {
  input in;
  in.key = getch();
  if (in.key == KEY_MOUSE) {
    MEVENT e;
    if (getmouse(&e) == OK) {
      in.row = e.y;
      if (e.bstate & BUTTON4_PRESSED)
        in.key = KEY_UP, in.row = -1;
      else if (e.bstate & BUTTON5_PRESSED)
        in.key = KEY_DOWN, in.row = -1;
      in.double_click = (e.bstate & BUTTON1_DOUBLE_CLICKED) != 0;
    }
  }
  return in;
}

bool terminal::prompt(const std::string& prompt, std::string& text) {
  curs_set(1);
  for (;;) {
    attrset(A_NORMAL);
    put_row(LINES - 2, prompt + text);
    move(LINES - 2, static_cast<int>(std::min(prompt.size() + text.size(), width() - 1)));
    refresh();
    const int k = getch();
    if (k == '\r' || k == '\n' || k == KEY_ENTER) break;
    if (k == 27 || k == 3 || k == 7) {  // Escape, Ctrl-C, Ctrl-G
      curs_set(0);
      return false;
    }
    if (k == KEY_BACKSPACE || k == 127 || k == 8) {
      if (!text.empty()) text.pop_back();
    } else if (k >= 32 && k < 256 && k != 127) {
      text.push_back(static_cast<char>(k));
    }
  }
  curs_set(0);
  return true;
}

}  // namespace calltree::tui

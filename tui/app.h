// tui/app.h — (internal) `calltree tui`: the views of one loaded profile in a terminal.
//
// What it is: the viewer's state (the view shown, the history Backspace goes back through,
// the list's order, event, filter and grouping) and what each key does (docs/tui.md lists
// them); the views are tui/pages.h's, drawn by tui/terminal.h. What it is not: the reading
// of the profile (cli/cmd_tui.cc loads it, with a progress line, before the terminal is taken).
#pragma once

#include <string>

#include "calltree/asm.h"
#include "views/diff.h"
#include "views/session.h"

namespace calltree::tui {

struct app_options {
  bool mouse = true;
  std::string profile_name;  // shown in the footer's end
  objdump_runner objdump;    // the machine-code view's (none: that view says so)
};

// Runs the viewer until `q` (0) or Ctrl-C (130). The terminal is given back as it was taken,
// also when an exception (out of memory) leaves it. A view's error is shown on its page.
int run(const views::session& s, const app_options& o);

// The same for the difference of two profiles (its first view the functions that changed;
// the other views those of either profile).
int run_diff(const views::diff_source& d, const app_options& o);

// The keys, one per line ("KEY  what it does"), for `?` and docs/tui.md.
const char* const* key_help();

}  // namespace calltree::tui

// color.h — whether calltree colours what it prints: `--color=auto|always|never` and NO_COLOR.
//
// As ripgrep and git do: `always` colours, `never` does not, `auto` (the default) colours
// only a terminal (isatty), and not when NO_COLOR is set to a non-empty value
// (https://no-color.org) or TERM is "dumb". --color given on the command line wins over
// NO_COLOR. Today diagnostics on stderr (error red, warning magenta, note cyan) are the only
// coloured output; anything coloured later asks use_color() too.
#pragma once

#include <optional>
#include <string_view>

namespace calltree::cli {

enum class color_mode { automatic, always, never };

// "auto", "always" or "never" (git's "true"/"false" too); nullopt for anything else.
std::optional<color_mode> parse_color_mode(std::string_view s);

// Set once from the command line (main.cc); the default is automatic.
void set_color_mode(color_mode m);

// Whether output to file descriptor `fd` (1 or 2) is coloured.
bool use_color(int fd);

}  // namespace calltree::cli

#include "color.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace calltree::cli {
namespace {
color_mode mode = color_mode::automatic;

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}
}  // namespace

std::optional<color_mode> parse_color_mode(std::string_view s) {
  if (s == "auto") return color_mode::automatic;
  if (s == "always" || s == "true") return color_mode::always;
  if (s == "never" || s == "false") return color_mode::never;
  return std::nullopt;
}

void set_color_mode(color_mode m) { mode = m; }

bool use_color(int fd) {
  switch (mode) {
    case color_mode::always:
      return true;
    case color_mode::never:
      return false;
    case color_mode::automatic:
      break;
  }
  if (env_set("NO_COLOR")) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return ::isatty(fd) == 1;
}

}  // namespace calltree::cli

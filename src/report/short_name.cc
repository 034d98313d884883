// short_name.cc — names shortened for table cells (see report/short_name.h).
#include "report/short_name.h"

#include <algorithm>

namespace calltree {

namespace {

constexpr std::string_view ellipsis = "\xE2\x80\xA6";  // …

// Folds the contents of the outermost `open`..`close` groups to an ellipsis.
std::string fold(std::string_view s, char open, char close) {
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == open) {
      // `operator<`, `operator<<`, `operator()`: not a group.
      if (open == '<' && i >= 8 && s.substr(i - 8, 8) == "operator") {
        if (depth == 0) out += c;
        continue;
      }
      if (depth++ == 0) {
        out += c;
        out += ellipsis;
      }
      continue;
    }
    if (c == close && depth > 0) {
      if (--depth == 0) out += c;
      continue;
    }
    if (depth == 0) out += c;
  }
  return depth == 0 ? out : std::string(s);
}

}  // namespace

std::string short_name(std::string_view name, std::size_t max) {
  if (name.size() <= max) return std::string(name);
  std::string s = fold(name, '<', '>');
  if (s.size() > max) s = fold(s, '(', ')');
  if (s.size() <= max) return s;
  std::size_t from = s.size() - (max > ellipsis.size() ? max - ellipsis.size() : 0);
  while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xC0) == 0x80) ++from;
  return std::string(ellipsis) + s.substr(from);
}

std::string markdown_code(std::string_view text) {
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|')
      body += "\\|";
    else if (c == '\n' || c == '\r')
      body += ' ';
    else
      body += c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace calltree

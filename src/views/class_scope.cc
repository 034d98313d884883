// views/class_scope.cc — a function name's class or namespace (see class_scope.h).
#include "views/class_scope.h"

#include <array>
#include <optional>

namespace calltree::views {

namespace {

constexpr std::size_t npos = std::string_view::npos;

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool opens(char c) { return c == '<' || c == '(' || c == '{' || c == '['; }
bool closes(char c) { return c == '>' || c == ')' || c == '}' || c == ']'; }

// Where the bracket opened at `open` closes (every kind counted together), or npos.
std::size_t closing(std::string_view n, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < n.size(); ++i) {
    if (opens(n[i])) ++depth;
    if (closes(n[i]) && --depth == 0) return i;
  }
  return npos;
}

// cProfile's names of what has no code object: `<method 'NAME' of 'TYPE' objects>` is TYPE's,
// `<built-in method MODULE.NAME>` MODULE's; any other `<...>` (`<lambda>`, `<genexpr>:12`,
// `<built-in method __new__ of type object at 0x...>`) none's. nullopt: not such a name.
std::optional<std::string_view> python_builtin(std::string_view n) {
  if (n.empty() || n.front() != '<') return std::nullopt;
  constexpr std::string_view method = "<method '", of = "' of '", objects = "' objects>";
  constexpr std::string_view builtin = "<built-in method ";
  if (n.starts_with(method) && n.ends_with(objects)) {
    const std::size_t at = n.find(of, method.size());
    if (at == npos) return std::string_view();
    const std::size_t start = at + of.size(), end = n.size() - objects.size();
    return start < end ? n.substr(start, end - start) : std::string_view();
  }
  if (n.starts_with(builtin) && n.ends_with(">")) {
    const std::string_view rest = n.substr(builtin.size(), n.size() - builtin.size() - 1);
    const std::size_t dot = rest.rfind('.');
    if (rest.find(' ') != npos || dot == npos) return std::string_view();
    return rest.substr(0, dot);
  }
  return std::string_view();
}

// pstats' printed names: `FILE:LINE(NAME)` is FILE's (`~:0(NAME)`, a built-in, is NAME's as
// cProfile names it), `MODULE.py:NAME` MODULE.py's. nullopt: not such a name.
std::optional<std::string_view> python_printed(std::string_view n) {
  const std::size_t colon = n.find(':');
  if (colon == 0 || colon == npos || n.compare(colon, 2, "::") == 0) return std::nullopt;
  const std::string_view file = n.substr(0, colon), rest = n.substr(colon + 1);
  const std::size_t paren = rest.find('(');
  if (paren != npos && n.back() == ')' && digits(rest.substr(0, paren))) {
    if (file != "~") return file;
    const std::string_view inner = rest.substr(paren + 1, rest.size() - paren - 2);
    return python_builtin(inner).value_or(std::string_view());
  }
  if (file.ends_with(".py") && !rest.empty()) {
    for (char c : rest)
      if (!ident_char(c) && c != '.' && c != '<' && c != '>') return std::nullopt;
    return file;
  }
  return std::nullopt;
}

// Xdebug's file loads, `include::PATH` and the like: the keyword, whatever PATH holds.
std::optional<std::string_view> php_file_load(std::string_view n) {
  constexpr std::array<std::string_view, 4> loads = {
      "include_once::", "include::", "require_once::", "require::"};
  for (std::string_view l : loads)
    if (n.starts_with(l)) return n.substr(0, l.size() - 2);
  return std::nullopt;
}

// After a local scope's parameter list: its qualifiers (`f() const::x`), skipped.
std::size_t past_qualifiers(std::string_view n, std::size_t i) {
  constexpr std::array<std::string_view, 5> quals = {" const", " volatile", " &&", " &",
                                                     " noexcept"};
  for (bool more = true; more;) {
    more = false;
    for (std::string_view q : quals)
      if (n.compare(i, q.size(), q) == 0) {
        i += q.size();
        more = true;
        break;
      }
  }
  return i;
}

}  // namespace

std::string_view class_scope(std::string_view n) {
  if (auto p = python_builtin(n)) return *p;
  if (auto p = php_file_load(n)) return *p;
  if (auto p = python_printed(n)) return *p;
  int depth = 0;  // <>, (), {}, [] together
  std::size_t start = 0, last_sep = npos, last_backslash = npos;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    if (depth == 0) {
      if (c == 'o' && n.compare(i, 8, "operator") == 0 && (i == 0 || !ident_char(n[i - 1])) &&
          (i + 8 >= n.size() || !ident_char(n[i + 8])))
        break;  // (an operator's own name has no scope in it)
      if (c == '(' && n.compare(i, 21, "(anonymous namespace)") == 0) {
        i += 20;
        continue;
      }
      if (c == '(') {
        // The parameters, unless a scope follows them: a local class or lambda of a function.
        const std::size_t close = closing(n, i);
        if (close == npos) break;
        const std::size_t after = past_qualifiers(n, close + 1);
        if (n.compare(after, 2, "::") != 0) break;
        last_sep = after;
        i = after + 1;
        continue;
      }
      if (c == '\'') break;  // callgrind's recursion depth or caller context
      if (c == '-' && i + 1 < n.size() && n[i + 1] == '>')
        return n.substr(start, i - start);  // PHP's Class->method
      if (c == ' ') {
        start = i + 1;  // what came before was a return type
        last_sep = last_backslash = npos;
        continue;
      }
      if (c == ':' && i + 1 < n.size() && n[i + 1] == ':') {
        last_sep = i;
        ++i;
        continue;
      }
      if (c == '\\') last_backslash = i;  // PHP's namespaces
    }
    if (opens(c)) ++depth;
    if (closes(c) && depth > 0) --depth;
  }
  if (last_sep != npos && last_sep >= start) return n.substr(start, last_sep - start);
  if (last_backslash != npos && last_backslash > start)
    return n.substr(start, last_backslash - start);
  return {};
}

}  // namespace calltree::views

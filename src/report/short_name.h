// report/short_name.h — a function's name shortened for a table cell (Markdown reports).
//
// What it is: a name as long as `max` characters or less, unchanged; a longer one with its
// template arguments and then its parameter list folded to `<…>` and `(…)` (C++:
// `std::vector<int, std::allocator<int> >::push_back(int const&)` becomes
// `std::vector<…>::push_back(…)`), and, still too long, cut at the front to its last
// characters after an ellipsis (the function's own name is at the end). Counted in bytes, cut
// at UTF-8 character boundaries. What it is not: a demangler.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace calltree {

std::string short_name(std::string_view name, std::size_t max = 60);

// `text` for a cell of a Markdown table: `|` escaped, newlines as spaces, in a code span
// (backquotes inside it get a longer fence).
std::string markdown_code(std::string_view text);

}  // namespace calltree

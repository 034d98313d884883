// valgrind_options.cc — the Valgrind options `calltree record` passes on (valgrind_options.h).
#include "valgrind_options.h"

#include <algorithm>
#include <cstddef>
#include <tuple>

namespace calltree::cli {

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Optimal string alignment distance: insertions, deletions, substitutions, and a swap of two
// neighbours counted as one edit ("atsart" for "atstart" is one, "coolect" for "collect" one).
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// "separate-callers3" -> "separate-callers<n>"; any other name as it is.
std::string numbered(std::string_view name) {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end == name.size() || end == 0) return std::string(name);
  return std::string(name.substr(0, end)) + "<n>";
}

}  // namespace

std::vector<std::string> valgrind_option_names(std::string_view help_text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < help_text.size()) {
    std::size_t end = help_text.find('\n', start);
    if (end == std::string_view::npos) end = help_text.size();
    std::string_view line = help_text.substr(start, end - start);
    start = end + 1;
    // An option's line: indented, then "-x", "-x --name...", "--name..." (the text that
    // continues a description is indented much further and does not begin with '-').
    const std::size_t lead = line.find_first_not_of(' ');
    if (lead == std::string_view::npos || lead == 0 || lead > 8 || line[lead] != '-') continue;
    line.remove_prefix(lead);
    while (!line.empty() && line[0] == '-') {
      const bool long_option = line.size() > 2 && line[1] == '-';
      std::size_t n = long_option ? 2 : 1;
      const std::size_t name_start = n;
      while (n < line.size() && name_char(line[n])) ++n;
      std::string name(line.substr(name_start, n - name_start));
      // "--separate-callers<n>=<f>": the user writes a number where <n> stands.
      if (long_option && line.substr(n).starts_with("<n>")) name += "<n>";
      if (!name.empty() && (long_option || name.size() == 1)) out.push_back(std::move(name));
      // "-h --help": a second spelling of the same option after one space.
      const std::size_t next = line.find_first_of(" =", n);
      if (next == std::string_view::npos || line[next] != ' ' || next + 1 >= line.size() ||
          line[next + 1] != '-')
        break;
      line.remove_prefix(next + 1);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::string> option_name(std::string_view option) {
  if (option.size() < 2 || option[0] != '-') return std::nullopt;
  option.remove_prefix(option[1] == '-' ? 2 : 1);
  return std::string(option.substr(0, option.find('=')));
}

bool known_option(std::string_view name, const std::vector<std::string>& known) {
  return std::binary_search(known.begin(), known.end(), name) ||
         std::binary_search(known.begin(), known.end(), numbered(name));
}

std::vector<std::string> similar_options(std::string_view name,
                                         const std::vector<std::string>& known) {
  const std::size_t limit = name.size() <= 4 ? 1 : name.size() <= 10 ? 2 : 3;
  std::vector<std::tuple<std::size_t, std::string>> near;
  for (const auto& k : known) {
    if (k.size() == 1) continue;  // (a one-letter option is no spelling of a word)
    const std::size_t d = distance(name, k);
    if (d <= limit) near.emplace_back(d, k);
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (auto& n : near) {
    if (out.size() == 3) break;
    out.push_back(std::move(std::get<1>(n)));
  }
  return out;
}

std::string_view reserved_option(std::string_view name) {
  if (name == "tool") return "record runs callgrind; another profiler: --profiler";
  if (name == "callgrind-out-file") return "record names the file: --out=DIR chooses the folder";
  if (name == "log-file" || name == "log-fd" || name == "log-socket")
    return "record keeps Valgrind's messages and prints them when Valgrind fails";
  return {};
}

}  // namespace calltree::cli

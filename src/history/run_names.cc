// run_names.cc — the names `calltree record` gives the runs of a folder (history/run_names.h).
#include "history/run_names.h"

#include <algorithm>

namespace calltree::history {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), digit); }
bool label_char(char c) {
  return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '_' ||
         c == '+';
}
// "SIGSEGV", "SIGRTMIN+3" is not one (a name strsignal gives: upper-case letters and digits).
bool signal_word(std::string_view s) {
  return s.size() > 3 && s.starts_with("SIG") && std::all_of(s.begin() + 3, s.end(), [](char c) {
           return digit(c) || (c >= 'A' && c <= 'Z');
         });
}

}  // namespace

std::string safe_label(std::string_view name) {
  std::string out;
  for (char c : name.substr(0, 40)) out += label_char(c) ? c : '_';
  // (A leading '.' would hide the file from trend and serve, which skip dot files.)
  while (!out.empty() && out.front() == '.') out.erase(0, 1);
  return out.empty() ? "run" : out;
}

std::string format_run_name(const run_name& r) {
  std::string number = std::to_string(r.number);
  if (number.size() < 4) number.insert(0, 4 - number.size(), '0');
  std::string s = number + "-" + r.label + "-" + r.stamp;
  if (!r.signal.empty()) s += "-" + r.signal;
  return s + "." + r.extension;
}

std::optional<run_name> parse_run_name(std::string_view file_name) {
  const auto dot = file_name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == file_name.size()) return std::nullopt;
  run_name r;
  r.extension = std::string(file_name.substr(dot + 1));
  std::string_view base = file_name.substr(0, dot);
  const auto dash = base.find('-');
  if (dash == std::string_view::npos || !all_digits(base.substr(0, dash)) || dash > 19)
    return std::nullopt;
  for (char c : base.substr(0, dash)) r.number = r.number * 10 + static_cast<unsigned>(c - '0');
  base.remove_prefix(dash + 1);
  if (const auto last = base.rfind('-');
      last != std::string_view::npos && signal_word(base.substr(last + 1))) {
    r.signal = std::string(base.substr(last + 1));
    base = base.substr(0, last);
  }
  // LABEL-YYYYMMDD-HHMMSS
  constexpr std::size_t stamp_size = 15;
  if (base.size() < stamp_size + 2 || base[base.size() - stamp_size - 1] != '-')
    return std::nullopt;
  const std::string_view stamp = base.substr(base.size() - stamp_size);
  if (!all_digits(stamp.substr(0, 8)) || stamp[8] != '-' || !all_digits(stamp.substr(9)))
    return std::nullopt;
  r.stamp = std::string(stamp);
  const std::string_view label = base.substr(0, base.size() - stamp_size - 1);
  if (!std::all_of(label.begin(), label.end(), label_char)) return std::nullopt;
  r.label = std::string(label);
  return r;
}

std::uint64_t next_run_number(const std::vector<std::string>& file_names) {
  std::uint64_t highest = 0;
  for (const auto& n : file_names)
    if (auto r = parse_run_name(n)) highest = std::max(highest, r->number);
  return highest + 1;
}

std::optional<std::string> previous_run(const std::vector<std::string>& file_names,
                                        std::string_view label, std::uint64_t number) {
  std::optional<std::string> best;
  std::uint64_t best_number = 0;
  for (const auto& n : file_names) {
    auto r = parse_run_name(n);
    if (!r || r->label != label || !r->signal.empty() || r->number >= number) continue;
    if (!best || r->number > best_number) {
      best = n;
      best_number = r->number;
    }
  }
  return best;
}

}  // namespace calltree::history

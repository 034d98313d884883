// folded.cc — folded stacks: one line per stack, `outermost;...;innermost COUNT`.
//
// The format of FlameGraph's stackcollapse scripts, py-spy (`--format raw`), async-profiler
// (`collapsed`), bpftrace and `calltree export --to=folded`. Each line is a stack taken COUNT
// times (a decimal count after the last blank): one event, `samples`. A frame written as py-spy
// writes Python's, `name (file.py:LINE)`, is function `name` of that file at that line; any other
// frame is a function name alone (async-profiler's `_[j]`, `_[k]` suffixes kept as written).
#include <charconv>
#include <vector>

#include "import/import.h"
#include "import/stacks.h"

namespace calltree::detail {

namespace {

// `name (file:LINE)` split, or the whole frame as a name.
stack_frame frame_of(std::string_view f, string_pool& names) {
  stack_frame fr;
  if (f.size() > 4 && f.back() == ')') {
    const auto open = f.rfind(" (");
    const auto colon = f.rfind(':');
    if (open != std::string_view::npos && colon != std::string_view::npos && colon > open + 2 &&
        colon + 2 < f.size()) {
      std::uint64_t line = 0;
      const auto digits = f.substr(colon + 1, f.size() - colon - 2);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
      if (ec == std::errc() && end == digits.data() + digits.size()) {
        fr.function = import_name(names, f.substr(0, open));
        fr.file = import_name(names, f.substr(open + 2, colon - open - 2));
        fr.line = line;
        return fr;
      }
    }
  }
  fr.function = import_name(names, f);
  return fr;
}

}  // namespace

void read_folded(std::string_view bytes, import_target& to) {
  stack_profile p(to.names, {"samples"});
  p.creator = "folded stacks";
  std::vector<std::uint32_t> stack;
  std::uint64_t line_no = 0;
  std::size_t at = 0;
  while (at < bytes.size()) {
    auto nl = bytes.find('\n', at);
    if (nl == std::string_view::npos) nl = bytes.size();
    std::string_view line = bytes.substr(at, nl - at);
    at = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto sp = line.find_last_of(' ');
    std::uint64_t count = 0;
    bool ok = sp != std::string_view::npos && sp > 0;
    if (ok) {
      const auto c = line.substr(sp + 1);
      const auto [end, ec] = std::from_chars(c.data(), c.data() + c.size(), count);
      ok = !c.empty() && ec == std::errc() && end == c.data() + c.size();
    }
    if (!ok) {
      const auto col = sp == std::string_view::npos ? line.size() + 1 : sp + 2;
      to.report(severity::error, diag_code::bad_folded_line, line_no,
                static_cast<std::uint32_t>(col),
                "a folded stack ends with its count, a decimal number after a blank: this line "
                "is skipped",
                line);
      continue;
    }
    ++to.stats.lines;
    // Frames outermost first on the line, innermost first in the stack.
    stack.clear();
    std::string_view frames = line.substr(0, sp);
    while (!frames.empty() && frames.back() == ' ') frames.remove_suffix(1);
    std::size_t end = frames.size();
    while (true) {
      const auto semi = end == 0 ? std::string_view::npos : frames.rfind(';', end - 1);
      const auto begin = semi == std::string_view::npos ? 0 : semi + 1;
      const auto f = frames.substr(begin, end - begin);
      if (!f.empty()) stack.push_back(p.frame(frame_of(f, to.names)));
      if (semi == std::string_view::npos) break;
      end = semi;
    }
    if (stack.empty()) continue;
    const std::uint64_t values[1] = {count};
    p.add(stack, values, count);
  }
  to.stats.lines = line_no;
  if (p.stacks() == 0) {
    to.no_profile = "no folded stack (`frame;frame;... COUNT`) in it";
    return;
  }
  p.emit(to);
}

}  // namespace calltree::detail

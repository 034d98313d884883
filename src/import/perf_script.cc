// perf_script.cc — the text `perf script` prints of a perf.data (perf record, with -g or not).
//
// Each sample is a header line (perf_lines.h: `comm pid[/tid] [cpu] time: [period] event:`),
// then with -g its call chain, one frame a line, innermost first (`HEX sym+0xOFF (dso)`), then a
// blank line; without -g the header ends with the sample's own frame. What it makes of them:
// - events: each event named in the headers is one (perf's name without the last ':',
//   `cycles:u` as perf writes it), its cost the sample's period where perf prints one; an event
//   whose samples print a period has a second event, `EVENT_samples`, their count (perf
//   report's "Samples" beside its "Event count"). An event whose samples print no period (`-F`
//   without `period`) is their count alone, 1 a sample, so it is named `EVENT_samples` too:
//   not `cycles`, which would be read as cycles. A header without an event counts into
//   `samples` (`period` if it prints one).
// - frames: the function is the symbol without its `+0xOFF`, the object the dso; `[unknown]`
//   stays `[unknown]` in its dso. Kernel frames keep theirs (`[kernel.kallsyms]`, a vmlinux
//   path), which is what tells them apart: their functions are never merged with a program's
//   of the same name, and no `_[k]` is added to names. An `(inlined)` frame (perf 5.x+) is in
//   the object of the frame of its address, else of the frame of the nearest address.
// - `perf script -F +srcline` lines (`file:LINE` under a frame) give the frame its file and line.
// - the process: each stack's outermost frame is the sample's comm (a function of no object),
//   as FlameGraph and pprof show it; pid and tid are read and not kept (processes of one name
//   are one).
// - `# cmdline :` and `# perf version :` (perf script --header) are the part's cmd and creator.
// A line that is none of these is an error (bad_perf_script), skipped; a header that cannot be
// read skips its frames too.
#include <charconv>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/import.h"
#include "import/perf_lines.h"
#include "import/stacks.h"

namespace calltree::detail {

namespace perf {

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool hex(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && (blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!digit(c)) return false;
  return true;
}

std::uint64_t number(std::string_view s, int base = 10) {
  std::uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v, base);
  return v;
}

// `secs.usecs:`
bool time_token(std::string_view t) {
  if (t.size() < 4 || t.back() != ':') return false;
  const auto dot = t.find('.');
  return dot != std::string_view::npos && all_digits(t.substr(0, dot)) &&
         all_digits(t.substr(dot + 1, t.size() - dot - 2));
}

}  // namespace

std::optional<header> parse_header(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return std::nullopt;
  constexpr std::size_t most = 24;
  std::string_view tokens[most];
  std::size_t n = 0;
  for (std::size_t at = 0; at < line.size() && n < most;) {
    while (at < line.size() && blank(line[at])) ++at;
    std::size_t end = at;
    while (end < line.size() && !blank(line[end])) ++end;
    if (end > at) tokens[n++] = line.substr(at, end - at);
    at = end;
  }
  auto end_of = [&](std::string_view t) {
    return static_cast<std::size_t>(t.data() + t.size() - line.data());
  };
  for (std::size_t i = 1; i < n; ++i) {
    const auto t = tokens[i];
    const auto slash = t.find('/');
    const auto pid = t.substr(0, slash);
    const auto tid = slash == std::string_view::npos ? pid : t.substr(slash + 1);
    if (!all_digits(pid) || !all_digits(tid)) continue;
    header h;
    h.comm = line.substr(0, end_of(tokens[i - 1]));
    h.pid = number(pid);
    h.tid = number(tid);
    std::size_t j = i + 1;
    if (j < n && tokens[j].size() > 2 && tokens[j].front() == '[' && tokens[j].back() == ']' &&
        all_digits(tokens[j].substr(1, tokens[j].size() - 2)))
      ++j;
    if (j < n && time_token(tokens[j])) {
      h.has_time = true;
      ++j;
    }
    if (j < n && all_digits(tokens[j])) h.period = number(tokens[j++]);
    if (j < n && tokens[j].size() > 1 && tokens[j].back() == ':' && !digit(tokens[j].front())) {
      h.event = tokens[j].substr(0, tokens[j].size() - 1);
      ++j;
    }
    if (!h.has_time && h.event.empty()) continue;
    h.rest = trim(line.substr(end_of(tokens[j - 1])));
    return h;
  }
  return std::nullopt;
}

std::optional<frame> parse_frame(std::string_view line) {
  line = trim(line);
  std::size_t i = 0;
  while (i < line.size() && hex(line[i])) ++i;
  if (i == 0 || i > 16 || (i < line.size() && !blank(line[i]))) return std::nullopt;
  frame f;
  f.address = number(line.substr(0, i), 16);
  auto rest = trim(line.substr(i));
  if (!rest.empty() && rest.back() == ')') {
    // the '(' that matches the last ')'
    int depth = 0;
    std::size_t k = rest.size();
    while (k > 0) {
      --k;
      if (rest[k] == ')') ++depth;
      if (rest[k] == '(' && --depth == 0) break;
    }
    if (depth == 0 && (k == 0 || blank(rest[k - 1]))) {
      f.dso = rest.substr(k + 1, rest.size() - k - 2);
      f.has_dso = true;
      rest = trim(rest.substr(0, k));
    }
  }
  const auto plus = rest.rfind("+0x");
  if (plus != std::string_view::npos && plus > 0 && plus + 3 < rest.size()) {
    bool offset = true;
    for (char c : rest.substr(plus + 3)) offset = offset && hex(c);
    if (offset) rest = rest.substr(0, plus);
  }
  f.symbol = rest;
  return f;
}

}  // namespace perf

namespace {

// A `-F +srcline` line: `file:LINE` (perf prints `??:0` when it does not know).
bool srcline(std::string_view line, std::string_view& file, std::uint64_t& line_no) {
  line = perf::trim(line);
  const auto colon = line.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || line.find(' ') != std::string_view::npos)
    return false;
  const auto digits = line.substr(colon + 1);
  if (!perf::all_digits(digits)) return false;
  file = line.substr(0, colon);
  line_no = perf::number(digits);
  return true;
}

struct sample {
  std::uint32_t event = 0;
  std::uint64_t value = 1;
  std::uint32_t begin = 0, end = 0;  // its frames in reader::frames, innermost first
};

struct event_info {
  std::string name;
  bool has_period = false;
};

class reader {
 public:
  explicit reader(import_target& to) : to_(to), names_(to.names) {}

  void line(std::string_view text, std::uint64_t line_no) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (perf::trim(text).empty()) {
      close();
      skipping_ = false;
      return;
    }
    if (text.front() == '#') {
      if (!open_) comment(text);
      return;
    }
    if (auto h = perf::parse_header(text)) {
      close();
      begin(*h);
      return;
    }
    if (open_) {
      if (auto f = perf::parse_frame(text)) {
        add_frame(*f);
        return;
      }
      std::string_view file;
      std::uint64_t at = 0;
      if (frames_.size() > open_begin_ && srcline(text, file, at)) {
        if (file != "??") {
          frames_.back().file = import_name(names_, file);
          frames_.back().line = at;
        }
        return;
      }
    } else if (skipping_) {
      return;
    }
    std::size_t col = 0;
    while (col < text.size() && perf::blank(text[col])) ++col;
    to_.report(severity::error, diag_code::bad_perf_script, line_no,
               static_cast<std::uint32_t>(col + 1),
               open_ ? "neither a frame (`ADDRESS symbol (dso)`) nor a sample's header: this line "
                       "is skipped"
                     : "not a sample's header (`comm pid time: period event:`): this line and "
                       "its frames are skipped",
               text);
    if (!open_) skipping_ = true;
  }

  void finish() { close(); }

  void emit() {
    std::vector<std::string> columns;
    std::vector<std::size_t> sample_column(events_.size(), SIZE_MAX);
    for (const auto& e : events_)
      columns.push_back(e.has_period ? (e.name.empty() ? "period" : e.name)
                                     : (e.name.empty() ? "samples" : e.name + "_samples"));
    for (std::size_t e = 0; e < events_.size(); ++e)
      if (events_[e].has_period) {
        sample_column[e] = columns.size();
        columns.push_back(events_[e].name.empty() ? "samples" : events_[e].name + "_samples");
      }
    stack_profile p(names_, columns);
    p.creator = creator_.empty() ? "perf script" : "perf " + creator_ + " (perf script)";
    p.cmd = cmd_;
    std::vector<std::uint64_t> values(columns.size(), 0);
    std::vector<std::uint32_t> stack;
    for (const auto& s : samples_) {
      stack.clear();
      for (auto i = s.begin; i < s.end; ++i) stack.push_back(p.frame(frames_[i]));
      std::fill(values.begin(), values.end(), 0);
      values[s.event] = s.value;
      if (sample_column[s.event] != SIZE_MAX) values[sample_column[s.event]] = 1;
      p.add(stack, values, 1);
    }
    p.emit(to_);
  }

  bool empty() const { return samples_.empty(); }

 private:
  void comment(std::string_view text) {
    text.remove_prefix(1);
    text = perf::trim(text);
    const auto colon = text.find(" : ");
    if (colon == std::string_view::npos) return;
    const auto key = perf::trim(text.substr(0, colon));
    const auto value = perf::trim(text.substr(colon + 3));
    if (key == "cmdline") cmd_ = import_line(value);
    if (key == "perf version") creator_ = import_line(value);
  }

  void begin(const perf::header& h) {
    open_ = true;
    skipping_ = false;
    open_begin_ = static_cast<std::uint32_t>(frames_.size());
    auto [it, added] =
        event_ids_.try_emplace(std::string(h.event), static_cast<std::uint32_t>(events_.size()));
    if (added) events_.push_back({std::string(h.event), false});
    current_.event = it->second;
    current_.value = h.period.value_or(1);
    if (h.period) events_[it->second].has_period = true;
    comm_ = import_name(names_, h.comm);
    own_.reset();
    if (!h.rest.empty()) own_ = perf::parse_frame(h.rest);
  }

  void add_frame(const perf::frame& f) {
    stack_frame fr;
    fr.function = import_name(names_, f.symbol.empty() ? std::string_view("[unknown]") : f.symbol);
    inlined_.push_back(f.has_dso && f.dso == "inlined");
    if (f.has_dso && !inlined_.back()) fr.object = import_name(names_, f.dso);
    addresses_.push_back(f.address);
    frames_.push_back(fr);
  }

  // An (inlined) frame's object: the frame's of its address, else the one of the nearest
  // address (perf prints some inline chains without their containing function; a dso's
  // addresses are near each other, another's far).
  void place_inlined() {
    const std::size_t b = open_begin_, e = frames_.size();
    for (std::size_t i = b; i < e; ++i) {
      if (!inlined_[i - b]) continue;
      const std::uint64_t a = addresses_[i - b];
      std::size_t from = SIZE_MAX;
      std::uint64_t best = UINT64_MAX;
      for (std::size_t k = b; k < e; ++k) {
        if (inlined_[k - b]) continue;
        const std::uint64_t o = addresses_[k - b];
        const std::uint64_t d = o > a ? o - a : a - o;
        if (d < best) best = d, from = k;
      }
      if (from != SIZE_MAX) frames_[i].object = frames_[from].object;
    }
  }

  void close() {
    if (!open_) return;
    open_ = false;
    if (frames_.size() == open_begin_ && own_) add_frame(*own_);
    place_inlined();
    inlined_.clear();
    addresses_.clear();
    stack_frame root;
    root.function = comm_;
    frames_.push_back(root);
    current_.begin = open_begin_;
    current_.end = static_cast<std::uint32_t>(frames_.size());
    samples_.push_back(current_);
  }

  import_target& to_;
  string_pool& names_;
  std::vector<event_info> events_;
  std::unordered_map<std::string, std::uint32_t> event_ids_;
  std::vector<stack_frame> frames_;
  std::vector<sample> samples_;
  std::string cmd_, creator_;
  // the sample being read
  bool open_ = false, skipping_ = false;
  std::uint32_t open_begin_ = 0;
  sample current_;
  string_id comm_;
  std::optional<perf::frame> own_;
  std::vector<bool> inlined_;
  std::vector<std::uint64_t> addresses_;
};

}  // namespace

void read_perf_script(std::string_view bytes, import_target& to) {
  reader r(to);
  std::uint64_t line_no = 0;
  std::size_t at = 0;
  while (at < bytes.size()) {
    auto nl = bytes.find('\n', at);
    if (nl == std::string_view::npos) nl = bytes.size();
    r.line(bytes.substr(at, nl - at), ++line_no);
    at = nl + 1;
  }
  r.finish();
  to.stats.lines = line_no;
  if (r.empty()) {
    to.no_profile = "no `perf script` sample (`comm pid time: period event:`, its frames) in it";
    return;
  }
  r.emit();
}

}  // namespace calltree::detail

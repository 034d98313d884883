// formats.cc — the formats' names, and sniff_format(): each format's unmistakable first bytes.
#include "import/formats.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>

#include "import/perf_lines.h"

namespace calltree::detail {

namespace {

std::atomic<int> forced{-1};  // set_process_format's, -1 for none

constexpr std::array<std::pair<std::string_view, profile_format>, 9> names = {{
    {"callgrind", profile_format::callgrind},
    {"folded", profile_format::folded},
    {"cpuprofile", profile_format::cpuprofile},
    {"pprof", profile_format::pprof},
    {"pstats", profile_format::pstats},
    {"perf-script", profile_format::perf_script},
    {"perf", profile_format::perf_script},
    {"cprofile", profile_format::pstats},
    {"perf-data", profile_format::perf_data},
}};

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim_start(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  return s;
}

// Python's marshal of a dict (cProfile's stats) whose first key is a tuple: '{' (0x7b, or with
// marshal's reference flag 0xfb), then a tuple's code ('(' or small ')' , flagged or not).
bool looks_pstats(std::string_view h) {
  if (h.size() < 2) return false;
  const auto b0 = static_cast<unsigned char>(h[0]), b1 = static_cast<unsigned char>(h[1]);
  return (b0 == 0x7b || b0 == 0xfb) && (b1 == 0x28 || b1 == 0x29 || b1 == 0xa8 || b1 == 0xa9);
}

// profile.proto's first fields, whichever comes first (Go writes time_nanos or period_type
// before sample_type, pprof sample_type, others a mapping): up to eight of the Profile
// message's fields, each of the wire type profile.proto gives it, until one says binary
// unmistakably: a message field (a sample type, sample, mapping, location, function, the period
// type) whose own first field is a varint numbered 1 (0x08, a byte no text has; a sample's
// may be its packed location ids, 0x0a) or the string table's first string, "" (0x00).
bool looks_pprof(std::string_view h) {
  std::size_t p = 0;
  auto varint = [&](std::uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (p >= h.size()) return false;
      const auto b = static_cast<unsigned char>(h[p++]);
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  for (int n = 0; n < 8; ++n) {
    std::uint64_t tag = 0, v = 0;
    if (!varint(tag)) return false;
    const auto field = tag >> 3, wire = tag & 7;
    const bool message = (field >= 1 && field <= 5) || field == 11;
    const bool number = (field >= 7 && field <= 10) || field == 12 || field == 14;
    if (wire == 0 && (number || field == 13)) {
      if (!varint(v)) return false;
      continue;
    }
    if (wire != 2 || !(message || field == 6 || field == 13) || !varint(v)) return false;
    if (field == 6) return v == 0;  // the string table's first string: ""
    if (message && v > 0) {
      if (p >= h.size()) return false;
      const auto first = static_cast<unsigned char>(h[p]);
      return first == 0x08 || (field == 2 && first == 0x0a);
    }
    if (v > h.size() - p) return false;
    p += static_cast<std::size_t>(v);
  }
  return false;
}

// A JSON object whose first key is one of V8's profile keys.
bool looks_cpuprofile(std::string_view h) {
  h = trim_start(h);
  if (h.empty() || h.front() != '{') return false;
  h = trim_start(h.substr(1));
  for (std::string_view key :
       {"\"nodes\"", "\"head\"", "\"startTime\"", "\"endTime\"", "\"samples\"", "\"timeDeltas\""})
    if (h.starts_with(key)) return true;
  return false;
}

// The complete lines of `h` (the last one too if `whole`, else only if it ends with a newline),
// up to `most`, while `f` says go on.
template <typename F>
void each_line(std::string_view h, bool whole, std::size_t most, F&& f) {
  std::size_t n = 0;
  while (n < most && !h.empty()) {
    auto nl = h.find('\n');
    if (nl == std::string_view::npos) {
      if (!whole) return;
      nl = h.size();
    }
    std::string_view line = h.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!f(line)) return;
    h.remove_prefix(std::min(nl + 1, h.size()));
    ++n;
  }
}

// perf script's output: its first line (comments aside) a sample's header (perf_lines.h), then
// a frame with its dso, another header, a blank line or the end. A header that prints no time
// (older perf, -F without it) must name its event and have a frame with a dso after it, or on
// it (without -g).
bool looks_perf_script(std::string_view h, bool whole) {
  std::optional<perf::header> header;
  bool verdict = false;
  each_line(h, whole, 64, [&](std::string_view line) {
    if (!header) {
      if (trim_start(line).empty() || line.front() == '#') return true;
      header = perf::parse_header(line);
      if (!header) return false;
      if (header->has_time) verdict = true;
      if (!header->event.empty()) {
        const auto own = perf::parse_frame(header->rest);
        if (own && own->has_dso) verdict = true;
      }
      return true;
    }
    if (trim_start(line).empty() || perf::parse_header(line)) return false;
    const auto f = perf::parse_frame(line);
    if (f && f->has_dso && !header->event.empty()) verdict = true;
    if (!f) verdict = false;
    return false;
  });
  return header && verdict;
}

// A callgrind line's key: `name:` (a header line) or `name=` (a body line), lower-case letters.
bool callgrind_key(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (std::islower(static_cast<unsigned char>(line[i])) || line[i] == '_'))
    ++i;
  return i > 0 && i < line.size() && (line[i] == ':' || line[i] == '=');
}

// `frame;frame;... COUNT`: the count decimal after the last blank; the stack not a number, a
// comment or a callgrind key.
bool folded_line(std::string_view line) {
  const auto sp = line.find_last_of(' ');
  if (sp == std::string_view::npos || sp == 0 || sp + 1 == line.size()) return false;
  for (char c : line.substr(sp + 1))
    if (!digit(c)) return false;
  const char first = line.front();
  if (digit(first) || first == '+' || first == '-' || first == '#' || first == '*' || blank(first))
    return false;
  return !callgrind_key(line);
}

bool looks_folded(std::string_view h, bool whole) {
  std::size_t lines = 0;
  bool all = true;
  each_line(h, whole, 64, [&](std::string_view line) {
    if (line.empty() || line.front() == '#') return true;  // (the reader skips comments too)
    ++lines;
    all = folded_line(line);
    return all;
  });
  return all && lines > 0;
}

}  // namespace

std::string_view to_string(profile_format f) {
  for (const auto& [name, format] : names)
    if (format == f) return name;
  return "callgrind";
}

std::optional<profile_format> format_named(std::string_view name) {
  for (const auto& [n, format] : names)
    if (n == name) return format;
  return std::nullopt;
}

void set_process_format(std::optional<profile_format> f) {
  forced.store(f ? static_cast<int>(*f) : -1, std::memory_order_relaxed);
}

std::optional<profile_format> process_format() {
  const int f = forced.load(std::memory_order_relaxed);
  if (f < 0) return std::nullopt;
  return static_cast<profile_format>(f);
}

profile_format sniff_format(std::string_view head, bool whole) {
  // (perf.data's magic, in its file and in its pipe form: "PERFILE2", little-endian or not)
  if (head.starts_with("PERFILE2") || head.starts_with("2ELIFREP"))
    return profile_format::perf_data;
  if (looks_pstats(head)) return profile_format::pstats;
  if (looks_pprof(head)) return profile_format::pprof;
  if (looks_cpuprofile(head)) return profile_format::cpuprofile;
  if (looks_perf_script(head, whole)) return profile_format::perf_script;
  if (looks_folded(head, whole)) return profile_format::folded;
  return profile_format::callgrind;
}

}  // namespace calltree::detail

#include "report/json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "calltree/cost_matrix.h"

namespace calltree {

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8_len(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  if (n == 3 && c == 0xe0 && b(i + 1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && b(i + 1) >= 0xa0) return 0;  // surrogates
  if (n == 4 && c == 0xf0 && b(i + 1) < 0x90) return 0;
  if (n == 4 && c == 0xf4 && b(i + 1) >= 0x90) return 0;
  return n;
}
// Whether any of the 8 bytes at p is written escaped or checked as UTF-8: below 0x20, 0x7f
// and above, '"' or '\\' (the bit tricks of "Bit Twiddling Hacks": a byte below n, a zero
// byte). Names are long and plain: 8 bytes a step instead of one.
bool escapes_any(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  auto zero_byte = [&](std::uint64_t v) { return (v - ones) & ~v & highs; };
  const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
  return (below_space | (w & highs) | zero_byte(w ^ (ones * 0x7f)) | zero_byte(w ^ (ones * '"')) |
          zero_byte(w ^ (ones * '\\'))) != 0;
}
}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    // A run of characters written as they are, appended at once.
    std::size_t j = i;
    while (j + 8 <= s.size() && !escapes_any(s.data() + j)) j += 8;
    while (j < s.size()) {
      const auto p = static_cast<unsigned char>(s[j]);
      if (p < 0x20 || p >= 0x7f || p == '"' || p == '\\') break;
      ++j;
    }
    if (j > i) {
      out.append(s.data() + i, j - i);
      i = j;
      continue;
    }
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    std::size_t n = utf8_len(s, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  out += '"';
}

void json_writer::comma() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

json_writer& json_writer::begin_object() {
  comma();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
json_writer& json_writer::end_object() {
  out_ += '}';
  first_.pop_back();
  return *this;
}
json_writer& json_writer::begin_array() {
  comma();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
json_writer& json_writer::end_array() {
  out_ += ']';
  first_.pop_back();
  return *this;
}
json_writer& json_writer::key(std::string_view k) {
  comma();
  append_json_string(out_, k);
  out_ += ':';
  after_key_ = true;
  return *this;
}
json_writer& json_writer::value(std::string_view s) {
  comma();
  append_json_string(out_, s);
  return *this;
}
json_writer& json_writer::value(std::uint64_t n) {
  // A number with the top bit set where the thread sums signed (a profile of differences,
  // cost_matrix.h) is a negative cost: written as the signed number it holds.
  if ((n >> 63) && signed_costs_here()) [[unlikely]]
    return value(static_cast<std::int64_t>(n));
  comma();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
  return *this;
}
json_writer& json_writer::value(std::int64_t n) {
  comma();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
  return *this;
}
json_writer& json_writer::value(double d) {
  comma();
  if (!std::isfinite(d)) {
    out_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", d);
  out_ += buf;
  return *this;
}
json_writer& json_writer::value(bool b) {
  comma();
  out_ += b ? "true" : "false";
  return *this;
}
json_writer& json_writer::null() {
  comma();
  out_ += "null";
  return *this;
}

}  // namespace calltree

// json.h — a minimal JSON text builder for reports (check, annotate, diff).
//
// What it is: append-only output of objects, arrays, strings (escaped; bytes that are not valid
// UTF-8 become U+FFFD, so names from any producer give valid JSON) and 64-bit integers (written
// exactly, never through a double). What it is not: a parser or a DOM.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace calltree {

class json_writer {
 public:
  json_writer& begin_object();
  json_writer& end_object();
  json_writer& begin_array();
  json_writer& end_array();
  json_writer& key(std::string_view k);
  json_writer& value(std::string_view s);
  json_writer& value(const char* s) { return value(std::string_view(s)); }
  json_writer& value(std::uint64_t n);
  json_writer& value(std::int64_t n);
  json_writer& value(int n) { return value(static_cast<std::int64_t>(n)); }
  json_writer& value(unsigned n) { return value(static_cast<std::uint64_t>(n)); }
  json_writer& value(double d);  // finite; written with up to 6 significant decimals
  // A cost: a signed profile's (a file of differences) as the signed number its bits hold.
  json_writer& cost(std::uint64_t n, bool signed_costs) {
    return signed_costs ? value(static_cast<std::int64_t>(n)) : value(n);
  }
  json_writer& value(bool b);
  json_writer& null();

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void comma();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends `s` as a JSON string literal (with quotes) to `out`.
void append_json_string(std::string& out, std::string_view s);

}  // namespace calltree

// json_value.cc — a recursive-descent JSON parser (json_value.h).
#include "import/json_value.h"

#include <charconv>
#include <variant>

namespace calltree::detail::json {

const value* value::find(std::string_view key) const {
  for (const auto& m : members)
    if (m.key == key) return &m.v;
  return nullptr;
}

namespace {

class parser {
 public:
  explicit parser(std::string_view t) : t_(t) {}

  std::variant<value, parse_error> run() {
    value v;
    skip();
    if (!parse_value(v, 0)) return error_;
    skip();
    if (at_ != t_.size()) {
      fail("text after the JSON document");
      return error_;
    }
    return v;
  }

 private:
  bool fail(std::string message) {
    if (error_.message.empty()) {
      std::uint64_t line = 1;
      std::size_t line_start = 0;
      for (std::size_t i = 0; i < at_ && i < t_.size(); ++i)
        if (t_[i] == '\n') ++line, line_start = i + 1;
      error_.line = line;
      error_.column = static_cast<std::uint32_t>(at_ - line_start + 1);
      error_.message = std::move(message);
    }
    return false;
  }
  void skip() {
    while (at_ < t_.size() &&
           (t_[at_] == ' ' || t_[at_] == '\t' || t_[at_] == '\n' || t_[at_] == '\r'))
      ++at_;
  }
  bool word(std::string_view w) {
    if (t_.substr(at_, w.size()) != w) return fail("not a JSON value");
    at_ += w.size();
    return true;
  }
  bool parse_value(value& v, int depth) {
    if (depth > 512) return fail("JSON nested deeper than 512");
    if (at_ >= t_.size()) return fail("the JSON document ends early");
    switch (t_[at_]) {
      case '{':
        return parse_object(v, depth);
      case '[':
        return parse_array(v, depth);
      case '"':
        v.type = value::kind::string;
        return parse_string(v.text);
      case 't':
        v.type = value::kind::boolean;
        v.boolean = true;
        return word("true");
      case 'f':
        v.type = value::kind::boolean;
        return word("false");
      case 'n':
        return word("null");
      default:
        return parse_number(v);
    }
  }
  bool parse_object(value& v, int depth) {
    v.type = value::kind::object;
    ++at_;
    skip();
    if (at_ < t_.size() && t_[at_] == '}') return ++at_, true;
    while (true) {
      skip();
      if (at_ >= t_.size() || t_[at_] != '"') return fail("an object's key must be a string");
      std::string key;
      if (!parse_string(key)) return false;
      skip();
      if (at_ >= t_.size() || t_[at_] != ':') return fail("':' expected after an object's key");
      ++at_;
      skip();
      v.members.push_back(member{std::move(key), value{}});
      if (!parse_value(v.members.back().v, depth + 1)) return false;
      skip();
      if (at_ < t_.size() && t_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < t_.size() && t_[at_] == '}') return ++at_, true;
      return fail("',' or '}' expected in an object");
    }
  }
  bool parse_array(value& v, int depth) {
    v.type = value::kind::array;
    ++at_;
    skip();
    if (at_ < t_.size() && t_[at_] == ']') return ++at_, true;
    while (true) {
      skip();
      v.items.emplace_back();
      if (!parse_value(v.items.back(), depth + 1)) return false;
      skip();
      if (at_ < t_.size() && t_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < t_.size() && t_[at_] == ']') return ++at_, true;
      return fail("',' or ']' expected in an array");
    }
  }
  static void put_utf8(std::string& out, std::uint32_t c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xe0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (c & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  bool hex4(std::uint32_t& c) {
    if (at_ + 4 > t_.size()) return fail("\\u needs four hex digits");
    c = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = t_[at_++];
      c <<= 4;
      if (h >= '0' && h <= '9') c |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') c |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') c |= static_cast<std::uint32_t>(h - 'A' + 10);
      else return fail("\\u needs four hex digits");
    }
    return true;
  }
  bool parse_string(std::string& out) {
    ++at_;  // "
    while (true) {
      const auto stop = t_.find_first_of("\"\\", at_);
      if (stop == std::string_view::npos) return fail("a string without its closing quote");
      out.append(t_.substr(at_, stop - at_));
      at_ = stop + 1;
      if (t_[stop] == '"') return true;
      if (at_ >= t_.size()) return fail("a string without its closing quote");
      const char e = t_[at_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t c = 0;
          if (!hex4(c)) return false;
          if (c >= 0xd800 && c < 0xdc00 && t_.substr(at_, 2) == "\\u") {
            at_ += 2;
            std::uint32_t low = 0;
            if (!hex4(low)) return false;
            if (low >= 0xdc00 && low < 0xe000) c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          }
          put_utf8(out, c);
          break;
        }
        default:
          --at_;
          return fail("an unknown escape in a string");
      }
    }
  }
  bool parse_number(value& v) {
    const std::size_t start = at_;
    if (at_ < t_.size() && t_[at_] == '-') ++at_;
    bool integral = true;
    while (at_ < t_.size()) {
      const char c = t_[at_];
      if (c >= '0' && c <= '9') {
        ++at_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        ++at_;
      } else {
        break;
      }
    }
    const std::string_view n = t_.substr(start, at_ - start);
    if (n.empty() || n == "-") {
      at_ = start;
      return fail("not a JSON value");
    }
    v.type = value::kind::number;
    if (integral) {
      std::int64_t i = 0;
      const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), i);
      if (ec == std::errc() && end == n.data() + n.size()) v.integer = i;
    }
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v.number);
    if (ec == std::errc::result_out_of_range) return true;  // (a huge number: no cost of V8's)
    if (ec != std::errc() || end != n.data() + n.size()) {
      at_ = start;
      return fail("not a JSON number");
    }
    return true;
  }

  std::string_view t_;
  std::size_t at_ = 0;
  parse_error error_;
};

}  // namespace

std::variant<value, parse_error> parse(std::string_view text) { return parser(text).run(); }

}  // namespace calltree::detail::json

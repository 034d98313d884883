// marshal.cc — decode(): Python's marshal format read with every length and index checked.
#include "import/marshal.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

namespace calltree::detail::marshal {

namespace {

constexpr unsigned char flag_ref = 0x80;
constexpr int max_depth = 64;

std::string hex(unsigned char c) {
  static constexpr char digits[] = "0123456789abcdef";
  return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

class decoder {
 public:
  explicit decoder(std::string_view in) : in_(in) {}

  std::variant<document, error> run() {
    std::uint32_t root = 0;
    if (in_.empty()) return error{0, "no marshal data (the input is empty)"};
    if (!object(0, root)) return std::move(*err_);
    doc_.root = root;
    doc_.end = pos_;
    return std::move(doc_);
  }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
  document doc_;
  std::vector<std::uint32_t> refs_;        // FLAG_REF'd objects, in the order met
  std::vector<std::uint32_t> interned_;    // Python 2's 't' strings, for 'R'
  std::optional<error> err_;

  bool fail(std::uint64_t at, std::string message) {
    if (!err_) err_ = error{at, "byte " + std::to_string(at) + ": " + std::move(message)};
    return false;
  }
  std::size_t left() const { return in_.size() - pos_; }
  bool need(std::size_t n, std::uint64_t at, std::string_view what) {
    if (n <= left()) return true;
    return fail(at, "the data ends inside " + std::string(what) + " (" + std::to_string(n) +
                        " bytes needed, " + std::to_string(left()) + " left)");
  }
  bool byte(unsigned char& b, std::uint64_t at, std::string_view what) {
    if (!need(1, at, what)) return false;
    b = static_cast<unsigned char>(in_[pos_++]);
    return true;
  }
  bool int32(std::int32_t& v, std::uint64_t at, std::string_view what) {
    if (!need(4, at, what)) return false;
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i)
      u = (u << 8) | static_cast<unsigned char>(in_[pos_ + static_cast<std::size_t>(i)]);
    pos_ += 4;
    v = static_cast<std::int32_t>(u);
    return true;
  }
  // A length (int32, not negative) of items each at least `unit` bytes long: no more than
  // the bytes left can hold.
  bool length(std::size_t& n, bool short_form, std::size_t unit, std::uint64_t at,
              std::string_view what) {
    if (short_form) {
      unsigned char b = 0;
      if (!byte(b, at, what)) return false;
      n = b;
    } else {
      std::int32_t v = 0;
      if (!int32(v, at, what)) return false;
      if (v < 0) return fail(at, std::string(what) + " has a negative length (" +
                                     std::to_string(v) + ")");
      n = static_cast<std::size_t>(v);
    }
    if (n > left() / unit)
      return fail(at, std::string(what) + "'s length (" + std::to_string(n) +
                          ") runs past the end of the data (" + std::to_string(left()) +
                          " bytes left)");
    return true;
  }

  std::uint32_t add(kind k, std::uint64_t at) {
    node n;
    n.type = k;
    n.offset = at;
    doc_.nodes.push_back(std::move(n));
    return static_cast<std::uint32_t>(doc_.nodes.size() - 1);
  }

  bool text_float(double& d, std::uint64_t at) {
    std::size_t n = 0;
    if (!length(n, true, 1, at, "a float")) return false;
    const char* first = in_.data() + pos_;
    const auto r = std::from_chars(first, first + n, d);
    if (r.ec == std::errc::result_out_of_range) {
      // (from_chars gives no value for an underflow or overflow; Python's text is valid)
      d = (n > 0 && *first == '-') ? -HUGE_VAL : HUGE_VAL;
      for (const char* p = first; p < first + n; ++p)
        if (*p == 'e' || *p == 'E') {
          if (p + 1 < first + n && p[1] == '-') d = 0;
          break;
        }
    } else if (r.ec != std::errc() || r.ptr != first + n) {
      return fail(at, "a float's text '" + std::string(first, n) + "' is not a number");
    }
    pos_ += n;
    return true;
  }

  bool long_int(std::uint32_t id, std::uint64_t at) {
    std::int32_t n = 0;
    if (!int32(n, at, "a long")) return false;
    const bool negative = n < 0;
    const std::uint64_t size = negative ? -static_cast<std::int64_t>(n) : n;
    if (size > left() / 2)
      return fail(at, "a long's " + std::to_string(size) + " digits run past the end of the data");
    std::uint64_t mag = 0;
    bool big = false;
    // Digits of 15 bits, least significant first.
    for (std::uint64_t i = size; i-- > 0;) {
      const std::size_t p = pos_ + static_cast<std::size_t>(2 * i);
      const unsigned d = static_cast<unsigned char>(in_[p]) |
                         static_cast<unsigned>(static_cast<unsigned char>(in_[p + 1])) << 8;
      if (d >= 0x8000) return fail(at, "a long has a digit out of range (" + std::to_string(d) + ")");
      if (mag > (UINT64_MAX >> 15)) big = true;
      mag = (mag << 15) | d;
    }
    pos_ += static_cast<std::size_t>(2 * size);
    auto& nd = doc_.nodes[id];
    if (big || mag > (negative ? (1ull << 63) : static_cast<std::uint64_t>(INT64_MAX))) {
      nd.type = kind::big_integer;
    } else {
      nd.type = kind::integer;
      nd.integer = negative ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
    }
    return true;
  }

  bool items(std::uint32_t id, std::size_t n, int depth) {
    std::vector<std::uint32_t> got;
    got.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t item = 0;
      if (!object(depth + 1, item)) return false;
      got.push_back(item);
    }
    doc_.nodes[id].items = std::move(got);
    return true;
  }

  // A code object: 5 int32 (6 in 3.8-3.10: posonlyargcount), then 8 objects, the first line
  // (int32) and 1 object (3.0-3.10) or 2 (3.11 on: its 5th object is co_localspluskinds, a
  // bytes, where older ones have a tuple); its file and name are the 6th and 7th objects
  // (3.11 on) or the 7th and 8th.
  bool code_object(std::uint32_t id, std::uint64_t at, int depth) {
    std::int32_t v = 0;
    for (int i = 0; i < 5; ++i)
      if (!int32(v, at, "a code object")) return false;
    // (a sixth int32, the stack size, where a 3.11 code object has its bytecode's bytes)
    if (left() >= 5) {
      const auto b = [&](std::size_t k) { return static_cast<unsigned char>(in_[pos_ + k]); };
      const bool bytes_next = (b(0) & ~flag_ref) == 's';
      const bool long_then_bytes = b(1) == 0 && b(2) == 0 && b(3) == 0 && (b(4) & ~flag_ref) == 's';
      if (!bytes_next || long_then_bytes)
        if (!int32(v, at, "a code object")) return false;
    }
    std::uint32_t parts[8] = {};
    for (auto& p : parts)
      if (!object(depth + 1, p)) return false;
    std::int32_t first_line = 0;
    if (!int32(first_line, at, "a code object")) return false;
    const bool new_layout = doc_.nodes[parts[4]].type == kind::string;
    std::uint32_t rest = 0;
    for (int i = 0; i < (new_layout ? 2 : 1); ++i)
      if (!object(depth + 1, rest)) return false;
    const auto& file = doc_.nodes[parts[new_layout ? 5 : 6]];
    const auto& name = doc_.nodes[parts[new_layout ? 6 : 7]];
    if (file.type != kind::string || name.type != kind::string)
      return fail(at, "a code object whose file or name is not a string");
    auto& n = doc_.nodes[id];
    n.file = file.text;
    n.text = name.text;
    n.integer = first_line;
    return true;
  }

  bool object(int depth, std::uint32_t& out) {
    const std::uint64_t at = pos_;
    unsigned char code = 0;
    if (!byte(code, at, "an object's type code")) return false;
    if (depth > max_depth)
      return fail(at, "objects nested more than " + std::to_string(max_depth) + " deep");
    const bool flagged = code & flag_ref;
    const auto type = static_cast<char>(code & ~flag_ref);
    std::uint32_t id = 0;
    // A container is numbered before its items; the others once read (marshal.c's order).
    auto container = [&](kind k) {
      id = add(k, at);
      if (flagged) refs_.push_back(id);
    };
    auto simple = [&](kind k) { id = add(k, at); };
    std::size_t n = 0;
    switch (type) {
      case 'N':
        simple(kind::none);
        break;
      case 'F':
      case 'T':
        simple(kind::boolean);
        doc_.nodes[id].truth = type == 'T';
        break;
      case '.':
      case 'S':
        simple(kind::other);  // Ellipsis, StopIteration
        break;
      case 'i': {
        std::int32_t v = 0;
        if (!int32(v, at, "an int")) return false;
        simple(kind::integer);
        doc_.nodes[id].integer = v;
        break;
      }
      case 'l':
        simple(kind::integer);
        if (!long_int(id, at)) return false;
        break;
      case 'g': {
        if (!need(8, at, "a float")) return false;
        std::uint64_t bits = 0;
        for (int i = 7; i >= 0; --i)
          bits = (bits << 8) | static_cast<unsigned char>(in_[pos_ + static_cast<std::size_t>(i)]);
        pos_ += 8;
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        simple(kind::real);
        doc_.nodes[id].real = d;
        break;
      }
      case 'f': {
        double d = 0;
        if (!text_float(d, at)) return false;
        simple(kind::real);
        doc_.nodes[id].real = d;
        break;
      }
      case 'y':
        if (!need(16, at, "a complex")) return false;
        pos_ += 16;
        simple(kind::other);
        break;
      case 'x': {
        double d = 0;
        if (!text_float(d, at) || !text_float(d, at)) return false;
        simple(kind::other);
        break;
      }
      case 's':
      case 't':
      case 'u':
      case 'a':
      case 'A':
      case 'z':
      case 'Z': {
        if (!length(n, type == 'z' || type == 'Z', 1, at, "a string")) return false;
        simple(kind::string);
        doc_.nodes[id].text = in_.substr(pos_, n);
        pos_ += n;
        if (type == 't') interned_.push_back(id);
        break;
      }
      case '(':
      case ')':
      case '[':
      case '<':
      case '>': {
        const kind k = type == '[' ? kind::list
                       : type == '<' || type == '>' ? kind::set
                                                    : kind::tuple;
        if (!length(n, type == ')', 1, at, "a tuple, list or set")) return false;
        container(k);
        if (!items(id, n, depth)) return false;
        break;
      }
      case '{': {
        container(kind::dict);
        std::vector<std::uint32_t> got;
        while (true) {
          if (left() == 0) return fail(at, "the data ends inside a dict (no end mark '0')");
          if (in_[pos_] == '0') {
            ++pos_;
            break;
          }
          std::uint32_t k = 0, v = 0;
          if (!object(depth + 1, k)) return false;
          if (left() > 0 && in_[pos_] == '0')
            return fail(pos_, "a dict's key has no value (the dict ends after it)");
          if (!object(depth + 1, v)) return false;
          got.push_back(k);
          got.push_back(v);
        }
        doc_.nodes[id].items = std::move(got);
        break;
      }
      case 'r': {
        std::int32_t v = 0;
        if (!int32(v, at, "a reference")) return false;
        if (v < 0 || static_cast<std::size_t>(v) >= refs_.size())
          return fail(at, "a reference to object " + std::to_string(v) + " of " +
                              std::to_string(refs_.size()) + " numbered so far");
        out = refs_[static_cast<std::size_t>(v)];
        return true;  // (a reference is never itself flagged)
      }
      case 'R': {
        std::int32_t v = 0;
        if (!int32(v, at, "a string reference")) return false;
        if (v < 0 || static_cast<std::size_t>(v) >= interned_.size())
          return fail(at, "a reference to interned string " + std::to_string(v) + " of " +
                              std::to_string(interned_.size()));
        out = interned_[static_cast<std::size_t>(v)];
        return true;
      }
      case '0':
        return fail(at, "a NULL object where a value belongs");
      case 'c':
        container(kind::code);
        if (!code_object(id, at, depth)) return false;
        break;
      default:
        return fail(at, "unknown marshal type code " + hex(code));
    }
    const kind made = doc_.nodes[id].type;
    if (flagged && made != kind::tuple && made != kind::list && made != kind::set &&
        made != kind::dict && made != kind::code)
      refs_.push_back(id);
    out = id;
    return true;
  }
};

}  // namespace

std::variant<document, error> decode(std::string_view bytes) { return decoder(bytes).run(); }

}  // namespace calltree::detail::marshal

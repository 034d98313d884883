// server/request.cc — a request's target read into its path and parameters (%-decoded), and
// the server's token (see api.h: parse_target, make_token).
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "api.h"

namespace calltree::server {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool percent_decode(std::string_view in, bool plus_is_space, std::string& out) {
  out.clear();
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_value(in[i + 1]), lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      const char d = static_cast<char>(hi * 16 + lo);
      if (d == '\0') return false;
      out.push_back(d);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else if (c == '\0') {
      return false;
    } else {
      out.push_back(c);
    }
  }
  return true;
}

}  // namespace

bool parse_target(std::string_view target, request& r, std::string& error) {
  if (target.empty() || target.front() != '/') {
    error = "the request target must begin with '/'";
    return false;
  }
  const std::size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  if (!percent_decode(path, false, r.path)) {
    error = "the path has a bad %-escape or a NUL byte";
    return false;
  }
  r.params.clear();
  if (q == std::string_view::npos) return true;
  std::string_view query = target.substr(q + 1);
  const std::size_t hash = query.find('#');
  if (hash != std::string_view::npos) query = query.substr(0, hash);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    std::string name, value;
    if (!percent_decode(item.substr(0, eq), true, name) ||
        (eq != std::string_view::npos && !percent_decode(item.substr(eq + 1), true, value))) {
      error = "the query has a bad %-escape or a NUL byte";
      return false;
    }
    r.params.emplace_back(std::move(name), std::move(value));
  }
  return true;
}

result<std::string> make_token() {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return error{std::string("no random bytes for the token: ") + std::strerror(errno)};
    }
    got += static_cast<std::size_t>(n);
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token.push_back(digits[b >> 4]);
    token.push_back(digits[b & 15]);
  }
  return token;
}

}  // namespace calltree::server

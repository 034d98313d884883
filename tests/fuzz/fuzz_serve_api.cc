// fuzz_serve_api.cc — libFuzzer target: `calltree serve` on any request, or any connection.
//
// Two kinds of input, told apart by the first byte:
// - "/...": the API (server/api.h) on one request: its target ("/api/v1/functions?filter=..."),
//   then after a newline the Host header, then the Cookie header, with the valid token added
//   to a third of the targets so the routes themselves are reached. The answer is a status
//   from 200 to 599 with a body, and an error is JSON with a code.
// - anything else: the bytes one client sends on one connection, answered as the server
//   answers them (connections.h's replay() with http.h's http_answerer: the bounds of the
//   head, cpp-httplib's parser, the API), request after request on the same connection state,
//   with bounds small enough (request line 512 bytes, head 2,048, 16 header lines) for a
//   short input to pass them. Every answer the server writes is a whole HTTP/1.1 response
//   with a status from 200 to 599, and no more requests are answered than were sent.
// The API answers the bundled example profile (examples/recurse.callgrind, loaded once).
// Whatever comes in, nothing throws or crashes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "api.h"
#include "connections.h"
#include "fuzz_common.h"
#include "http.h"
#include "views/session.h"

namespace {

constexpr const char* token = "0123456789abcdef0123456789abcdef";

const calltree::server::api& the_api() {
  static const std::unique_ptr<calltree::server::api> api = [] {
    calltree::views::load_options lo;
    auto s = calltree::views::load_session(CALLTREE_SOURCE_DIR "/examples/recurse.callgrind", lo);
    CALLTREE_FUZZ_CHECK(bool(s));
    calltree::server::api_options o;
    o.token = token;
    o.port = 4242;
    std::shared_ptr<const calltree::views::session> shared(std::move(*s));
    return std::make_unique<calltree::server::api>(o, shared);
  }();
  return *api;
}

std::string_view next_line(std::string_view& rest) {
  auto nl = rest.find('\n');
  std::string_view line = rest.substr(0, nl);
  rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  return line;
}

void one_request(std::string_view rest, std::size_t size) {
  std::string target(next_line(rest));
  std::string host(next_line(rest));
  std::string cookie(next_line(rest));
  if (host.empty() && size % 2) host = "127.0.0.1:4242";
  if (size % 3 == 0)
    target += (target.find('?') == std::string::npos ? "?" : "&") + std::string("token=") + token;
  const auto r = the_api().handle_target(size % 5 ? "GET" : "HEAD", target, host, "", cookie);
  CALLTREE_FUZZ_CHECK(r.status >= 200 && r.status <= 599);
  if (r.status >= 400 && r.content_type == "application/json")
    CALLTREE_FUZZ_CHECK(r.body.find("\"code\"") != std::string::npos);
}

// The response at `at` in `out`: its status (0 if no whole head is there) and the length its
// Content-Length gives; `at` moves past its head.
int next_head(std::string_view out, std::size_t& at, std::size_t& length) {
  const std::size_t end = out.find("\r\n\r\n", at);
  if (end == std::string_view::npos || out.compare(at, 9, "HTTP/1.1 ") != 0) return 0;
  const std::string_view head = out.substr(at, end + 4 - at);
  int status = 0;
  for (std::size_t i = 9; i < 12 && i < head.size(); ++i) {
    if (head[i] < '0' || head[i] > '9') return 0;
    status = status * 10 + (head[i] - '0');
  }
  length = 0;
  constexpr std::string_view field = "\r\nContent-Length: ";
  if (const std::size_t f = head.find(field); f != std::string_view::npos)
    for (std::size_t i = f + field.size(); i < head.size() && head[i] >= '0' && head[i] <= '9'; ++i)
      length = length * 10 + static_cast<std::size_t>(head[i] - '0');
  at = end + 4;
  return status;
}

bool response_starts(std::string_view out, std::size_t at) {
  return at == out.size() || out.compare(at, 9, "HTTP/1.1 ") == 0;
}

void one_connection(std::string_view bytes) {
  static calltree::server::http_answerer answer(the_api());
  calltree::server::connection_limits limits;
  limits.max_request_line = 512;
  limits.max_head = 2048;
  limits.max_header_lines = 16;
  limits.max_requests = 8;
  std::string out;
  const std::size_t answered = calltree::server::replay(
      std::string(bytes), limits, [&](calltree::server::exchange& ex) { answer(ex); }, out);
  CALLTREE_FUZZ_CHECK(answered <= limits.max_requests);
  // The answers, one after another: each a whole response (a head, then its Content-Length
  // of body, or none after a HEAD request), with a status from 200 to 599 (after an interim
  // "100 Continue"); one for each request answered, and one more for a refusal.
  std::size_t at = 0, responses = 0;
  while (at < out.size()) {
    std::size_t length = 0;
    const int status = next_head(out, at, length);
    if (status == 100 && length == 0) continue;  // (cpp-httplib's to `Expect: 100-continue`)
    CALLTREE_FUZZ_CHECK(status >= 200 && status <= 599);
    ++responses;
    if (length && out.size() - at >= length && response_starts(out, at + length))
      at += length;
    else
      CALLTREE_FUZZ_CHECK(response_starts(out, at));  // (a HEAD request's)
  }
  CALLTREE_FUZZ_CHECK(responses <= answered + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (!bytes.empty() && bytes.front() == '/')
    one_request(bytes, size);
  else
    one_connection(bytes);
  return 0;
}

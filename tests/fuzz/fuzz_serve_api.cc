// fuzz_serve_api.cc — libFuzzer target: the serve API (server/api.h) on any request.
//
// The input is a request: its target ("/api/v1/functions?filter=..."), then after a newline
// the Host header, then the Cookie header. The API answers the bundled example profile
// (examples/recurse.callgrind, loaded once) through every check and route, with the valid token
// added to a third of the targets so the routes themselves are reached. Whatever comes in, the
// answer is a status from 200 to 599 with a body, an error is JSON with a code, and nothing
// throws or crashes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "api.h"
#include "fuzz_common.h"
#include "views/session.h"

namespace {

const calltree::server::api& the_api() {
  static const std::unique_ptr<calltree::server::api> api = [] {
    calltree::views::load_options lo;
    auto s = calltree::views::load_session(CALLTREE_SOURCE_DIR "/examples/recurse.callgrind", lo);
    CALLTREE_FUZZ_CHECK(bool(s));
    calltree::server::api_options o;
    o.token = "0123456789abcdef0123456789abcdef";
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string target(next_line(rest));
  std::string host(next_line(rest));
  std::string cookie(next_line(rest));
  if (host.empty() && size % 2) host = "127.0.0.1:4242";
  if (size % 3 == 0)
    target += (target.find('?') == std::string::npos ? "?" : "&") +
              std::string("token=0123456789abcdef0123456789abcdef");
  const auto r = the_api().handle_target(size % 5 ? "GET" : "HEAD", target, host, "", cookie);
  CALLTREE_FUZZ_CHECK(r.status >= 200 && r.status <= 599);
  if (r.status >= 400 && r.content_type == "application/json")
    CALLTREE_FUZZ_CHECK(r.body.find("\"code\"") != std::string::npos);
  return 0;
}

// server/http.cc — cpp-httplib in front of the API (see http.h).
#include "http.h"

#include <httplib.h>

#include <string>
#include <string_view>

namespace calltree::server {

namespace {

// Accept-Encoding without `br`. Debian's cpp-httplib (0.11, built with brotli) answers a
// client that accepts br (every browser) with brotli at quality 11: 17.7 s for the 5.4 MB
// source answer of a 200,000-line file here, where gzip takes 0.24 s. Without br it picks
// gzip.
std::string without_brotli(std::string_view value) {
  std::string out;
  std::size_t at = 0;
  while (at <= value.size()) {
    std::size_t comma = value.find(',', at);
    if (comma == std::string_view::npos) comma = value.size();
    std::string_view item = value.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    std::string_view name = item.substr(0, item.find(';'));
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!item.empty() && name != "br" && name.find("br") == std::string_view::npos) {
      if (!out.empty()) out += ", ";
      out += item;
    }
    at = comma + 1;
  }
  return out;
}

}  // namespace

struct http_server::impl {
  httplib::Server svr;
};

http_server::http_server() : impl_(std::make_unique<impl>()) {
  httplib::Server& svr = impl_->svr;
  // Answers are small and come one at a time: no Nagle delay on the second write.
  svr.set_tcp_nodelay(true);
  svr.set_keep_alive_max_count(1000);
  svr.set_keep_alive_timeout(5);
  svr.set_read_timeout(10);
  svr.set_write_timeout(30);
  // Nothing is ever sent to this server but a request line and headers.
  svr.set_payload_max_length(64 << 10);
  // SO_REUSEADDR (a restart binds again at once), not cpp-httplib's SO_REUSEPORT too, with
  // which a second process could bind the same port and take half of the connections.
  svr.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

http_server::~http_server() = default;

result<int> http_server::bind(const std::string& host, int port) {
  httplib::Server& svr = impl_->svr;
  if (port == 0) {
    const int bound = svr.bind_to_any_port(host);
    if (bound < 0) return error{"cannot listen on " + host + " (any port)"};
    return bound;
  }
  if (!svr.bind_to_port(host, port))
    return error{"cannot listen on " + host + ":" + std::to_string(port) +
                 " (in use, or not an address of this machine)"};
  return port;
}

bool http_server::run(const api& handler) {
  httplib::Server& svr = impl_->svr;
  svr.set_pre_routing_handler([&handler](const httplib::Request& req, httplib::Response& res) {
    // (The request object is cpp-httplib's own, not const: it picks the response's encoding
    // from this header after this handler returns.)
    auto& headers = const_cast<httplib::Request&>(req).headers;
    if (auto it = headers.find("Accept-Encoding"); it != headers.end())
      it->second = without_brotli(it->second);
    response out = handler.handle_target(req.method, req.target, req.get_header_value("Host"),
                                         req.get_header_value("Authorization"),
                                         req.get_header_value("Cookie"));
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k, v);
    res.set_content(std::move(out.body), out.content_type);
    return httplib::Server::HandlerResponse::Handled;
  });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    res.set_content("{\"error\":{\"status\":" + std::to_string(res.status) +
                        ",\"code\":\"http\",\"message\":\"the request could not be read\"}}\n",
                    "application/json");
  });
  return svr.listen_after_bind();
}

void http_server::stop() { impl_->svr.stop(); }

}  // namespace calltree::server

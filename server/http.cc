// server/http.cc — cpp-httplib in front of the API (see http.h).
#include "http.h"

#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

#include "connections.h"

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

// One request of connections.h's as cpp-httplib's stream: its bytes from the head read already,
// the answer into a buffer (the connections' thread writes it as the client takes it).
class exchange_stream final : public httplib::Stream {
 public:
  explicit exchange_stream(exchange& ex) : ex_(ex) {}
  bool is_readable() const override { return ex_.consumed < ex_.in.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, ex_.in.size() - ex_.consumed);
    if (n) std::memcpy(ptr, ex_.in.data() + ex_.consumed, n);
    ex_.consumed += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    ex_.out.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = ex_.remote_ip;
    port = ex_.remote_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = ex_.local_ip;
    port = ex_.local_port;
  }
  socket_t socket() const override { return ex_.socket; }

 private:
  exchange& ex_;
};

// The accepting thread hands each socket over at once (nothing runs on a queue).
class at_once final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// cpp-httplib's server, with its sockets given to `connections` (connections.h) instead of
// its pool, where each thread read a connection's requests until the client closed it or a
// read timed out: 8 idle connections held the 8 threads, and a ninth client waited (10 s a
// read, every byte a new 10 s). Its parser and answers (process_request) stay.
class guarded_server final : public httplib::Server {
 public:
  connections* to = nullptr;  // (while listening)
  void answer(exchange& ex) {
    exchange_stream s(ex);
    bool closed = false;
    const bool ok = process_request(s, ex.last, closed, nullptr);
    ex.close = !ok || closed;
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    if (to)
      to->adopt(sock);
    else
      ::close(sock);
    return true;
  }
};

// The API behind cpp-httplib's parser: every request it reads goes to `handler`, every request
// it cannot read is answered with a JSON error.
void answer_with(httplib::Server& svr, const api& handler) {
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
}

}  // namespace

struct http_answerer::impl {
  guarded_server svr;
};

http_answerer::http_answerer(const api& handler) : impl_(std::make_unique<impl>()) {
  answer_with(impl_->svr, handler);
}

http_answerer::~http_answerer() = default;

void http_answerer::operator()(exchange& ex) { impl_->svr.answer(ex); }

struct http_server::impl {
  guarded_server svr;
  std::atomic<bool> finished{false};  // run() has returned (or never listened)
};

http_server::http_server() : impl_(std::make_unique<impl>()) {
  httplib::Server& svr = impl_->svr;
  svr.new_task_queue = [] { return new at_once; };
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
  answer_with(svr, handler);
  connection_limits limits;
  limits.workers = std::max(8u, std::thread::hardware_concurrency());
  guarded_server& guarded = impl_->svr;
  connections open(limits, [&guarded](exchange& ex) { guarded.answer(ex); });
  guarded.to = &open;
  const bool listened = svr.listen_after_bind();
  impl_->finished = true;
  guarded.to = nullptr;
  return listened;  // (`open` closes every connection, after the requests in progress)
}

// (cpp-httplib's stop() does nothing until listen_after_bind() has begun: a signal that comes
// right after the address is printed would be lost, and the server run on. So it waits for
// the server to be running, or to have ended.)
void http_server::stop() {
  while (!impl_->svr.is_running() && !impl_->finished)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->svr.stop();
}

}  // namespace calltree::server

// server/connections.cc — one thread that reads heads and writes answers, a pool that
// answers (connections.h).
#include "connections.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace calltree::server {

namespace {

using steady = std::chrono::steady_clock;

enum class state : std::uint8_t { waiting, answering, writing };

struct connection {
  int fd = -1;
  std::string address;  // the client's, for the limit per address
  state now = state::waiting;
  exchange ex;
  std::size_t written = 0;        // of ex.out
  std::size_t requests = 0;       // answered on it
  bool close_after = false;       // after the answer being written
  steady::time_point since;       // waiting: since when; writing: the last progress
  steady::time_point first_byte;  // waiting: of the request's head (if any)
  std::uint64_t order = 0;        // when it began to wait: the oldest is closed first
};

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage a{};
  socklen_t n = sizeof a;
  const int rc = peer ? ::getpeername(fd, reinterpret_cast<sockaddr*>(&a), &n)
                      : ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  if (rc != 0) return;
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    port = ntohs(v4->sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    port = ntohs(v6->sin6_port);
  }
  ip = text;
}

// An answer the connections' thread makes itself: the request could not be taken.
std::string refusal(int status, std::string_view reason, std::string_view message) {
  const std::string body = "{\"error\":{\"status\":" + std::to_string(status) +
                           ",\"code\":\"http\",\"message\":\"" + std::string(message) + "\"}}\n";
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

// The refusal of a head past a bound (414, 431), late (408), or of a connection too many.
std::string refusal_of(int status) {
  return status == 414   ? refusal(414, "URI Too Long", "the request line is too long")
         : status == 431 ? refusal(431, "Request Header Fields Too Large",
                                   "the request's headers are too large")
         : status == 408 ? refusal(408, "Request Timeout", "the request did not arrive in time")
                         : refusal(503, "Service Unavailable", "too many connections");
}

// Where the head in `in` ends (after its empty line), 0 if it has not arrived whole; or the
// status of a head past a bound (414, 431) in `bad`.
std::size_t head_end(std::string_view in, const connection_limits& lim, int& bad) {
  const std::size_t eol = in.find('\n');
  if ((eol == std::string_view::npos ? in.size() : eol) > lim.max_request_line) {
    bad = 414;
    return 0;
  }
  if (eol == std::string_view::npos) return 0;
  std::size_t lines = 0;
  for (std::size_t at = eol + 1; at < in.size();) {
    const std::size_t next = in.find('\n', at);
    if (next == std::string_view::npos) break;
    const std::string_view line = in.substr(at, next - at);
    if (line.empty() || line == "\r") {
      if (next + 1 > lim.max_head) bad = 431;
      return next + 1;
    }
    if (++lines > lim.max_header_lines) {
      bad = 431;
      return 0;
    }
    at = next + 1;
  }
  if (in.size() > lim.max_head) bad = 431;
  return 0;
}

// Whether the head says a body follows (its bytes would be read as the next request: such a
// connection is closed after its answer; nothing is ever sent to this server but heads).
bool has_body(std::string_view head) {
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("\ntransfer-encoding:") != std::string::npos) return true;
  const std::size_t at = lower.find("\ncontent-length:");
  if (at == std::string::npos) return false;
  std::size_t v = at + 16;
  while (v < lower.size() && (lower[v] == ' ' || lower[v] == '\t')) ++v;
  return v < lower.size() && lower[v] != '0';
}

// Readies `ex` for the handler, its head `end` bytes long, on a connection that answered
// `requests` already; whether the connection is to be closed after the answer (a body).
bool begin_exchange(exchange& ex, std::size_t end, std::size_t requests,
                    const connection_limits& lim) {
  const bool close_after = has_body(std::string_view(ex.in).substr(0, end));
  ex.consumed = 0;
  ex.out.clear();
  ex.close = false;
  ex.last = close_after || requests + 1 >= lim.max_requests;
  return close_after;
}

// After the handler: the request's bytes dropped; whether the connection closes now.
bool end_exchange(exchange& ex, bool close_after) {
  ex.in.erase(0, std::min(ex.consumed, ex.in.size()));
  return close_after || ex.close || ex.last;
}

}  // namespace

struct connections::impl {
  connection_limits lim;
  handler handle;
  int epoll = -1, wake = -1;
  std::thread loop_thread;
  std::vector<std::thread> workers;

  // Shared with the other threads, under m.
  mutable std::mutex m;
  std::condition_variable work_cv;
  std::vector<int> adopted;           // accepted sockets not yet taken by the loop
  std::deque<connection*> work;       // heads for the workers
  std::vector<connection*> answered;  // answers for the loop to write
  bool stopping = false;
  std::atomic<std::size_t> open_now{0};

  // The loop's own.
  std::unordered_map<int, std::unique_ptr<connection>> all;
  std::map<std::string, std::size_t> per_address;
  std::uint64_t next_order = 0;

  void signal_loop() {
    const std::uint64_t one = 1;
    (void)!::write(wake, &one, sizeof one);
  }

  void watch(connection& c, std::uint32_t events, bool add) {
    epoll_event e{};
    e.events = events;
    e.data.fd = c.fd;
    ::epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, c.fd, &e);
  }

  void close_connection(int fd) {
    auto it = all.find(fd);
    if (it == all.end()) return;
    connection& c = *it->second;
    ::epoll_ctl(epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    if (auto a = per_address.find(c.address); a != per_address.end() && --a->second == 0)
      per_address.erase(a);
    all.erase(it);
    open_now.store(all.size(), std::memory_order_relaxed);
  }

  // Sends a refusal as far as the socket takes it at once, and closes.
  void refuse(int fd, int status) {
    const std::string text = refusal_of(status);
    (void)!::send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    close_connection(fd);
  }

  // The oldest connection waiting for a request (of `address`, or any if empty), or -1.
  int oldest_waiting(const std::string* address) const {
    int best = -1;
    std::uint64_t order = UINT64_MAX;
    for (const auto& [fd, c] : all)
      if (c->now == state::waiting && c->order < order && (!address || c->address == *address)) {
        best = fd;
        order = c->order;
      }
    return best;
  }

  void take(int fd) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    auto c = std::make_unique<connection>();
    c->fd = fd;
    address_of(fd, true, c->ex.remote_ip, c->ex.remote_port);
    address_of(fd, false, c->ex.local_ip, c->ex.local_port);
    c->address = c->ex.remote_ip;
    c->ex.socket = fd;
    // Room for it: the oldest idle connection of its address, or of all, makes way.
    if (per_address[c->address] >= lim.max_per_address) {
      if (const int old = oldest_waiting(&c->address); old >= 0) close_connection(old);
    }
    if (all.size() >= lim.max_connections) {
      if (const int old = oldest_waiting(nullptr); old >= 0) close_connection(old);
    }
    if (per_address[c->address] >= lim.max_per_address || all.size() >= lim.max_connections) {
      // Every connection is being answered: this one waits for nothing.
      const std::string text = refusal(503, "Service Unavailable", "too many connections");
      (void)!::send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      if (per_address[c->address] == 0) per_address.erase(c->address);
      return;
    }
    ++per_address[c->address];
    connection& ref = *c;
    all.emplace(fd, std::move(c));
    open_now.store(all.size(), std::memory_order_relaxed);
    start_waiting(ref, true);
  }

  void start_waiting(connection& c, bool add) {
    c.now = state::waiting;
    c.since = steady::now();
    c.first_byte = steady::time_point{};
    c.order = next_order++;
    watch(c, EPOLLIN | EPOLLRDHUP, add);
    // (The client may have sent its next request already.)
    if (!c.ex.in.empty()) {
      c.first_byte = c.since;
      try_dispatch(c);
    }
  }

  // If the head has arrived whole: to a worker. Returns false if the connection was closed.
  bool try_dispatch(connection& c) {
    int bad = 0;
    const std::size_t end = head_end(c.ex.in, lim, bad);
    if (bad) {
      refuse(c.fd, bad);
      return false;
    }
    if (!end) return true;
    c.now = state::answering;
    c.close_after = begin_exchange(c.ex, end, c.requests, lim);
    ::epoll_ctl(epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    {
      std::lock_guard<std::mutex> g(m);
      work.push_back(&c);
    }
    work_cv.notify_one();
    return true;
  }

  void readable(connection& c) {
    char buf[16384];
    bool ended = false;  // the client sent all it will (it may still read the answer)
    for (;;) {
      const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        if (c.ex.in.empty()) c.first_byte = steady::now();
        c.ex.in.append(buf, static_cast<std::size_t>(n));
        if (c.ex.in.size() > lim.max_head + sizeof buf) break;  // (head_end says 414 or 431)
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      ended = true;  // closed (n == 0), or broken
      break;
    }
    const int fd = c.fd;
    if (!try_dispatch(c)) return;
    if (ended) {
      if (c.now == state::answering)
        c.close_after = true;  // (its answer is written, then the connection closed)
      else
        close_connection(fd);
    }
  }

  // Writes what the socket takes of the answer; at its end the connection waits for the next
  // request, or is closed.
  void writable(connection& c) {
    while (c.written < c.ex.out.size()) {
      const ssize_t n =
          ::send(c.fd, c.ex.out.data() + c.written, c.ex.out.size() - c.written, MSG_NOSIGNAL);
      if (n > 0) {
        c.written += static_cast<std::size_t>(n);
        c.since = steady::now();
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      close_connection(c.fd);
      return;
    }
    if (c.close_after) {
      close_connection(c.fd);
      return;
    }
    c.ex.out.clear();
    c.ex.out.shrink_to_fit();  // (an answer of megabytes is not kept for a small next one)
    c.written = 0;
    start_waiting(c, false);
  }

  void answered_one(connection& c) {
    ++c.requests;
    c.close_after = end_exchange(c.ex, c.close_after);
    c.now = state::writing;
    c.written = 0;
    c.since = steady::now();
    watch(c, EPOLLOUT, true);
    writable(c);
  }

  // Connections past their time: a head that does not come, an answer not taken.
  void expire() {
    const auto now = steady::now();
    std::vector<std::pair<int, int>> late;  // fd, status (0: close without a word)
    for (const auto& [fd, c] : all) {
      if (c->now == state::waiting) {
        if (c->ex.in.empty() && now - c->since > lim.idle_timeout) late.emplace_back(fd, 0);
        if (!c->ex.in.empty() && now - c->first_byte > lim.head_timeout) late.emplace_back(fd, 408);
      } else if (c->now == state::writing && now - c->since > lim.write_timeout) {
        late.emplace_back(fd, 0);
      }
    }
    for (const auto& [fd, status] : late) {
      if (status)
        refuse(fd, status);
      else
        close_connection(fd);
    }
  }

  void loop() {
    std::vector<epoll_event> events(256);
    auto last_expiry = steady::now();
    for (;;) {
      const int n = ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 100);
      std::vector<int> news;
      std::vector<connection*> done;
      {
        std::lock_guard<std::mutex> g(m);
        if (stopping) return;
        news.swap(adopted);
        done.swap(answered);
      }
      for (int i = 0; i < n; ++i) {
        const int fd = events[i].data.fd;
        if (fd == wake) {
          std::uint64_t v;
          (void)!::read(wake, &v, sizeof v);
          continue;
        }
        auto it = all.find(fd);
        if (it == all.end()) continue;
        connection& c = *it->second;
        if (c.now == state::waiting)
          readable(c);
        else if (c.now == state::writing)
          writable(c);
      }
      for (connection* c : done) answered_one(*c);
      for (int fd : news) take(fd);
      if (steady::now() - last_expiry >= std::chrono::milliseconds(100)) {
        expire();
        last_expiry = steady::now();
      }
    }
  }

  void work_loop() {
    for (;;) {
      connection* c = nullptr;
      {
        std::unique_lock<std::mutex> g(m);
        work_cv.wait(g, [&] { return stopping || !work.empty(); });
        if (stopping) return;
        c = work.front();
        work.pop_front();
      }
      try {
        handle(c->ex);
      } catch (...) {
        // (Out of memory in a handler: the connection goes, the server stays.)
        c->ex.out.clear();
        c->ex.close = true;
      }
      {
        std::lock_guard<std::mutex> g(m);
        answered.push_back(c);
      }
      signal_loop();
    }
  }
};

connections::connections(connection_limits limits, handler h) : impl_(std::make_unique<impl>()) {
  impl& s = *impl_;
  s.lim = limits;
  s.handle = std::move(h);
  s.epoll = ::epoll_create1(EPOLL_CLOEXEC);
  s.wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event e{};
  e.events = EPOLLIN;
  e.data.fd = s.wake;
  ::epoll_ctl(s.epoll, EPOLL_CTL_ADD, s.wake, &e);
  s.loop_thread = std::thread([&s] { s.loop(); });
  for (std::size_t i = 0; i < std::max<std::size_t>(limits.workers, 1); ++i)
    s.workers.emplace_back([&s] { s.work_loop(); });
}

connections::~connections() {
  impl& s = *impl_;
  {
    std::lock_guard<std::mutex> g(s.m);
    s.stopping = true;
  }
  s.work_cv.notify_all();
  s.signal_loop();
  s.loop_thread.join();
  for (auto& t : s.workers) t.join();
  for (auto& [fd, c] : s.all) ::close(fd);
  for (int fd : s.adopted) ::close(fd);
  ::close(s.wake);
  ::close(s.epoll);
}

void connections::adopt(int socket) {
  {
    std::lock_guard<std::mutex> g(impl_->m);
    if (impl_->stopping) {
      ::close(socket);
      return;
    }
    impl_->adopted.push_back(socket);
  }
  impl_->signal_loop();
}

std::size_t connections::open() const { return impl_->open_now.load(std::memory_order_relaxed); }

std::size_t replay(std::string bytes, const connection_limits& limits,
                   const connections::handler& h, std::string& out) {
  exchange ex;
  ex.in = std::move(bytes);
  ex.remote_ip = ex.local_ip = "127.0.0.1";
  std::size_t requests = 0;
  for (;;) {
    int bad = 0;
    const std::size_t end = head_end(ex.in, limits, bad);
    if (bad) {
      out += refusal_of(bad);
      return requests;
    }
    if (!end) return requests;  // (the server would wait for the rest, then answer 408)
    const bool close_after = begin_exchange(ex, end, requests, limits);
    h(ex);
    ++requests;
    out += ex.out;
    if (end_exchange(ex, close_after)) return requests;
  }
}

}  // namespace calltree::server

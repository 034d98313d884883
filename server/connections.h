// server/connections.h — the connections of `calltree serve`, none of which can stall another.
//
// What it is: every accepted socket, watched by one thread (epoll) until a request's head
// (request line and headers) has arrived whole, then handed with its bytes to a pool of
// workers, whose answer the same thread writes back as the client takes it. A connection that
// is idle, sends its head a byte at a time, or does not read its answer holds a socket and a
// buffer, never a worker: 200 such connections do not delay a well-behaved client by a
// millisecond (tests/server/serve_load.py). Their number and time are bounded (limits below);
// past the bound of connections, the oldest one still waiting for its request is closed to let
// the new one in, so that a flood of idle sockets costs each of them its place, not the next
// client its answer. A request line or head past its bound is answered 414 or 431 here.
// What it is not: HTTP beyond the head's end and size (the worker's handler parses the request
// and writes the whole answer; http.cc runs cpp-httplib's parser there).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace calltree::server {

struct connection_limits {
  std::size_t max_connections = 512;               // open at once (file descriptors: below 1024)
  std::size_t max_per_address = 128;               // open at once from one client address
  std::chrono::milliseconds idle_timeout{5000};    // waiting for a request's first byte
  std::chrono::milliseconds head_timeout{10000};   // from its first byte to its head's end
  std::chrono::milliseconds write_timeout{30000};  // an answer the client takes nothing of
  std::size_t max_request_line = 8192;             // 414 past it (cpp-httplib's own bound too)
  std::size_t max_head = 32768;                    // request line and headers: 431 past it
  std::size_t max_header_lines = 100;              // 431 past it
  std::size_t max_requests = 1000;                 // per connection (keep-alive), then it is closed
  std::size_t workers = 8;                         // threads answering requests
};

// One request as a worker sees it.
struct exchange {
  std::string in;            // the head, whole, and whatever the client sent after it
  std::size_t consumed = 0;  // the handler's: bytes of `in` it read (the request)
  std::string out;           // the handler's: the answer's bytes
  bool last = false;         // the connection's last request (the answer says so)
  bool close = false;        // the handler's: close the connection after the answer
  int socket = -1;           // (not to be read or written: the connections' thread does)
  std::string remote_ip, local_ip;
  int remote_port = 0, local_port = 0;
};

class connections {
 public:
  // Runs on a worker thread, for each request whose head has arrived.
  using handler = std::function<void(exchange&)>;
  connections(connection_limits limits, handler h);
  ~connections();  // closes every connection, after the requests in progress
  connections(const connections&) = delete;
  connections& operator=(const connections&) = delete;

  // Takes an accepted socket (from any thread); it is closed by this object.
  void adopt(int socket);
  // The number of connections open now (tests).
  std::size_t open() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// One connection's requests as the connections' thread takes them, from bytes that arrived
// all at once, with no socket (the fuzz target, tests): each head checked against `limits`
// (past one, its refusal ends the replay), then answered by `h` on this thread, its answer
// appended to `out`, until the bytes hold no whole head or the answer closes the connection
// (the handler's word, a body, `max_requests`). Returns the number of requests answered.
std::size_t replay(std::string bytes, const connection_limits& limits,
                   const connections::handler& h, std::string& out);

}  // namespace calltree::server

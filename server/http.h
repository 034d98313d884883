// server/http.h — the HTTP edge of `calltree serve`: a socket, cpp-httplib, the API.
//
// What it is: binds the address and port (0: any free port), answers every request with
// api::handle() (cpp-httplib parses and encodes it, on a worker of connections.h: no idle or
// slow connection holds one), and stops on stop() (the command's signal handler calls it).
// What it is not: the rules (server/api.h decides everything about a request).
#pragma once

#include <memory>
#include <string>

#include "api.h"
#include "calltree/result.h"
#include "connections.h"

namespace calltree::server {

class http_server {
 public:
  http_server();
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  // Binds `host`:`port` (0: a free port); the port bound, or an error.
  result<int> bind(const std::string& host, int port);
  // Serves with `handler` until stop(); false when the server could not listen.
  bool run(const api& handler);
  // From any thread (a signal watcher): run() returns once the requests in progress end.
  void stop();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// What run() does with each request whose head has arrived (cpp-httplib's parser and answers,
// then `handler`), for an exchange of connections.h without a socket: replay() with it answers
// a connection's bytes as the server would (the fuzz target).
class http_answerer {
 public:
  explicit http_answerer(const api& handler);  // (kept by reference)
  ~http_answerer();
  http_answerer(const http_answerer&) = delete;
  http_answerer& operator=(const http_answerer&) = delete;
  void operator()(exchange& ex);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace calltree::server

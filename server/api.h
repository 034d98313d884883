// server/api.h — the serve API: one request in, one response out (docs/serve.md).
//
// What it is: everything `calltree serve` decides about a request, with no socket: the
// security rules (Host header, token, methods), the routes of /api/v1/ (JSON of the view
// functions of src/views/), the embedded front end, source files by id. `handle()` never
// throws and never dies: every failure is a 4xx/5xx JSON error, and every request's work is
// bounded (limits capped, regexes bounded in size and memory, depths capped). The HTTP edge
// (server/http.h) and the fuzz target (tests/fuzz/fuzz_serve_api.cc) both call it. What it
// is not: an HTTP parser (cpp-httplib is) or a loader (views/session.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calltree/asm.h"
#include "views/session.h"

namespace calltree::views {
struct function_table;
}

namespace calltree::server {

class folder;

struct request {
  std::string method = "GET";
  std::string path;                                         // decoded, without the query
  std::vector<std::pair<std::string, std::string>> params;  // decoded, in order
  std::string host;           // the Host header; empty when there was none
  std::string authorization;  // the Authorization header
  std::string cookie;         // the Cookie header
};

struct response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// Splits a request target ("/api/v1/functions?sort=Ir&filter=a%2Bb") into path and query
// parameters, percent-decoding both (`+` is a space in the query). False, with `error`, for a
// target that is not one (no leading '/', a bad %-escape, a NUL byte).
bool parse_target(std::string_view target, request& r, std::string& error);

struct api_options {
  std::string token;  // 32 hex digits
  int port = 0;       // the bound port (for the Host check and the cookie's name)
  // Host names the server answers to besides IP addresses and localhost (--host NAME).
  std::vector<std::string> hosts;
  bool serve_sources = true;
  // Runs objdump for /api/v1/asm/ID (the command line's, cli/objdump_runner.h); none: that
  // route answers 404 no_asm.
  objdump_runner objdump;
  // What /api/v1/asm/ID keeps (objdump's replies, answers: bytes each, the least recently used
  // dropped first) and how many of its answers are made at once (past them: 503 busy with
  // Retry-After: 1). Kept until a reload.
  std::size_t asm_objdump_bytes = 64u << 20;
  std::size_t asm_answer_bytes = 64u << 20;
  unsigned asm_jobs = 2;
  // The other files of the served file's run, not loaded (/api/v1/status lists them: the page
  // says `serve FILE --siblings` loads them all).
  std::vector<std::string> siblings;
  // serve DIR: the folder listed (none: one profile, a run, or a diff), how one of its files
  // is read when it is opened, and how many profiles opened stay in memory (the least recently
  // used go first; a diff holds two).
  std::shared_ptr<folder> dir;
  std::function<result<std::shared_ptr<const views::session>>(const std::string& path)> open_file;
  std::size_t keep = 4;
};

// A served file as it was just before it was read: what /api/v1/status compares the file on
// disk with (a reload is offered when its size or modification time differ).
struct file_stamp {
  std::string path;
  bool exists = false;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const file_stamp&) const = default;
};
// The stamp of `path` now (exists false when it cannot be stat()ed).
file_stamp stamp_of(const std::string& path);

// What a reload reads: the sessions (one, or OLD and NEW) and the stamps of their files taken
// before reading.
struct served_files {
  std::vector<std::shared_ptr<const views::session>> sessions;
  std::vector<file_stamp> files;
};
using reloader = std::function<result<served_files>()>;

// A route of /api/v1/ (docs/serve.md, "The HTTP API"), as the server's route table holds it:
// `path` is what follows /api/v1/, all of it ("profile") or, with `prefix`, its start
// ("function/" of function/ID). `folder`: a route of serve DIR only ("folder", and "f/" and
// "d/", under which every other route is asked of one of its profiles or of two).
struct api_route {
  std::string_view path;
  bool prefix = false;
  bool folder = false;
};

class api {
 public:
  // Every route the server answers, from its route table (the walker test walks each).
  static std::vector<api_route> routes();

  // Single mode: one profile. Diff mode: `old_session` and `new_session` (serve OLD NEW).
  api(api_options options, std::shared_ptr<const views::session> single);
  api(api_options options, std::shared_ptr<const views::session> old_session,
      std::shared_ptr<const views::session> new_session);
  // Folder mode (serve DIR): options.dir lists the profiles; /api/v1/f/ID/... and
  // /api/v1/d/OLD/NEW/... serve one of them, or the diff of two, read when first asked for.
  explicit api(api_options options);
  ~api();

  response handle(const request& r) const;
  // The same from a raw request target ("/path?query", parse_target); 400 for a target that
  // is not one.
  response handle_target(std::string_view method, std::string_view target, std::string host,
                         std::string authorization = {}, std::string cookie = {}) const;

  const api_options& options() const { return options_; }

  // Diff mode: calltree diff's functions of all parts summed, as /api/v1/functions lists them
  // (`calltree report --html OLD NEW` gates on their totals); nullptr in single mode or when
  // they could not be made.
  std::shared_ptr<const views::function_table> diff_table() const;

  // Makes /api/v1/status watch `files` (the stamps taken before the sessions were read) and
  // /api/v1/reload read them again with `reload`. Without it (the fuzz target, the tests of
  // one session) status says nothing can be reloaded and reload answers 404.
  void enable_reload(std::vector<file_stamp> files, reloader reload);

 private:
  response answer(const request& r) const;
  bool host_allowed(std::string_view header) const;
  struct impl;
  api_options options_;
  std::unique_ptr<impl> impl_;
};

// 128 random bits (getrandom) as 32 lowercase hex digits; an error when the system gives none.
result<std::string> make_token();

}  // namespace calltree::server

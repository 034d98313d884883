// server/api.cc — the security rules and the dispatch of the serve API (see api.h).
//
// Every request passes, in this order: the Host header (against DNS rebinding: a page of
// another site whose name was made to resolve to 127.0.0.1 sends its own name), the method
// (GET and HEAD only: nothing a client sends changes anything), the token (a query parameter
// `token`, a header `Authorization: Bearer T`, or the cookie set on the first request that
// gave it in the query; compared in constant time). Only then is the path routed. No response
// carries a CORS header, so no other origin's script may read an answer.
#include "api.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <list>
#include <mutex>
#include <span>

#include "api_impl.h"
#include "asm_cache.h"
#include "assets.h"
#include "folder.h"
#include "views/part_costs.h"

namespace calltree::server {

using detail::error_response;
using detail::failure;

namespace {

// Constant-time comparison of two strings of the same length.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The value of cookie `name` in a Cookie header, or nullopt.
std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    std::size_t end = header.find(';');
    std::string_view item = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const std::size_t eq = item.find('=');
    if (eq != std::string_view::npos && item.substr(0, eq) == name) return item.substr(eq + 1);
  }
  return std::nullopt;
}

// Headers on every answer: no sniffing of types, no Referer (the page's URL has the token), not
// in a frame of another site, and the page's own resources only (plus what the front end
// makes itself: blobs, data: images, WebAssembly for Graphviz).
void add_security_headers(response& res) {
  res.headers.emplace_back("X-Content-Type-Options", "nosniff");
  res.headers.emplace_back("Referrer-Policy", "no-referrer");
  res.headers.emplace_back("X-Frame-Options", "DENY");
  res.headers.emplace_back(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' blob:; style-src 'self' "
      "'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
      "worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
}

// What `/` says when the binary was built without the front end.
constexpr std::string_view no_front_end =
    "<!doctype html><meta charset=utf-8><title>calltree serve</title>"
    "<h1>calltree serve</h1><p>This calltree was built without its web front end "
    "(-DCALLTREE_WEB=OFF, or npm was not found), so there is no page to show. The API answers: "
    "<a href=\"/api/v1/profile\">/api/v1/profile</a>, <a href=\"/api/v1/functions\">"
    "/api/v1/functions</a> (docs/serve.md).</p>\n";

}  // namespace

// Whether `s` is an IPv4 address (four decimal numbers up to 255).
bool ipv4_literal(std::string_view s) {
  int parts = 0;
  while (true) {
    std::size_t n = 0;
    unsigned v = 0;
    while (n < s.size() && n < 4 && s[n] >= '0' && s[n] <= '9') v = v * 10 + unsigned(s[n++] - '0');
    if (n == 0 || n > 3 || v > 255) return false;
    ++parts;
    s.remove_prefix(n);
    if (s.empty()) return parts == 4;
    if (s.front() != '.' || parts == 4) return false;
    s.remove_prefix(1);
  }
}

bool ipv6_literal(std::string_view s) {  // "[...]" of hex digits, ':' and '.'
  if (s.size() < 3 || s.front() != '[' || s.back() != ']') return false;
  for (char c : s.substr(1, s.size() - 2))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) && c != ':' &&
        c != '.')
      return false;
  return true;
}

namespace {

// What the API serves: one session, or OLD and NEW with calltree diff's functions. A reload
// makes a new one; a request keeps the one it began with (a shared_ptr) to its end.
struct served_state {
  std::shared_ptr<const views::session> single, old_side, new_side;
  // Diff mode: calltree diff's functions, or why they could not be made (they refer to the
  // sessions above, so they are declared after them and go first).
  std::unique_ptr<views::diff_source> diff_src;
  std::string diff_error;
  std::uint64_t generation = 1;  // 1, then one more at each reload
  std::vector<file_stamp> files;
  // /api/v1/asm's objdump replies and answers, and its slots (made by the api; a reload's
  // state has a new one: its objects and profile may have changed).
  std::shared_ptr<detail::asm_cache> asm_kept;

  bool diff() const { return old_side != nullptr; }
  const views::session& main() const { return diff() ? *new_side : *single; }
};

std::shared_ptr<served_state> make_state(std::shared_ptr<const views::session> old_or_single,
                                         std::shared_ptr<const views::session> new_side) {
  auto st = std::make_shared<served_state>();
  if (!new_side) {
    st->single = std::move(old_or_single);
    return st;
  }
  st->old_side = std::move(old_or_single);
  st->new_side = std::move(new_side);
  // (calltree diff's functions need each profile read again, as `calltree diff` reads it.)
  auto src = views::diff_source::load(*st->old_side, *st->new_side,
                                      std::max(1u, st->new_side->options.threads));
  if (src)
    st->diff_src = std::move(*src);
  else
    st->diff_error = "the functions of calltree diff could not be made: " + src.error().message;
  return st;
}

}  // namespace

file_stamp stamp_of(const std::string& path) {
  file_stamp f;
  f.path = path;
  struct stat st;
  if (path == "-" || stat(path.c_str(), &st) != 0) return f;
  f.exists = true;
  f.size = static_cast<std::uint64_t>(st.st_size);
  f.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return f;
}

namespace {

// The stamp's file now, against the stamp: "same", "changed" or "missing".
std::string_view file_state(const file_stamp& then) {
  const file_stamp now = stamp_of(then.path);
  if (!now.exists) return "missing";
  return now == then ? "same" : "changed";
}

}  // namespace

struct api::impl {
  mutable std::mutex m;  // guards `state` (the pointer, not what it points to)
  std::shared_ptr<served_state> state;
  bool serve_sources = true;
  objdump_runner objdump;
  detail::asm_cache_limits asm_limits;
  std::string cookie_name;
  reloader reload;                    // none: nothing can be reloaded
  std::vector<std::string> siblings;  // api_options::siblings
  std::mutex reloading;               // one reload at a time
  // serve DIR (api_options::dir): the folder, how one of its files is read, and the profiles
  // opened (a file, "f/ID", or a diff of two, "d/OLD/NEW"), the most recently used first.
  std::shared_ptr<folder> dir;
  std::function<result<std::shared_ptr<const views::session>>(const std::string&)> open_file;
  std::size_t keep_open = 4;
  struct opened {
    std::string key;
    std::shared_ptr<served_state> state;
  };
  mutable std::mutex opened_m;  // guards `opened_list`
  std::list<opened> opened_list;
  std::mutex opening;  // one profile read at a time

  std::shared_ptr<served_state> find_opened(const std::string& key) {
    std::lock_guard<std::mutex> lock(opened_m);
    for (auto it = opened_list.begin(); it != opened_list.end(); ++it) {
      if (it->key != key) continue;
      opened_list.splice(opened_list.begin(), opened_list, it);
      return it->state;
    }
    return nullptr;
  }
  // Keeps `st` as `key`'s, first; the least recently used go while more than `keep` profiles
  // are held (a request still answering from one keeps it until it ends).
  void put_opened(const std::string& key, std::shared_ptr<served_state> st) {
    std::lock_guard<std::mutex> lock(opened_m);
    opened_list.remove_if([&](const opened& o) { return o.key == key; });
    opened_list.push_front({key, std::move(st)});
    auto held = [&] {
      std::size_t n = 0;
      for (const auto& o : opened_list) n += o.state->diff() ? 2 : 1;
      return n;
    };
    while (opened_list.size() > 1 && held() > keep_open) opened_list.pop_back();
  }
  // Reads the files of `ids` (one, or OLD and NEW) as the folder lists them now.
  result<served_files> read_listed(const std::vector<std::uint64_t>& ids) const {
    served_files out;
    for (std::uint64_t id : ids) {
      auto e = dir->entry(id);
      if (!e) return error{"no file of id " + std::to_string(id) + " is listed (deleted?)"};
      out.files.push_back(stamp_of(e->path));
      auto s = open_file(e->path);
      if (!s) return s.error();
      // Its row in the table shows what the page shows now: parts and total (an Xdebug
      // file's header states no summary: the total was unknown until it was read).
      const views::session& read = **s;
      std::optional<std::uint64_t> total;
      std::string event;
      if (auto cols = views::resolve_columns(read, {}, {}); cols && cols->size()) {
        total = cols->columns[0].value(read.costs_of({})->totals());
        event = cols->columns[0].name;
      }
      dir->note_opened(id, out.files.back().size, out.files.back().mtime_ns, read.p.parts.size(),
                       total, std::move(event));
      out.sessions.push_back(std::move(*s));
    }
    return out;
  }

  // /api/v1/folder, /api/v1/f/ID/ROUTE and /api/v1/d/OLD/NEW/ROUTE of serve DIR (folder_routes
  // below).
  response route_in_folder(const request& r, std::string_view rest) {
    for (const folder_route& fr : folder_routes())
      if (fr.route.prefix ? rest.starts_with(fr.route.path) : rest == fr.route.path)
        return (this->*fr.answer)(r, rest.substr(fr.route.path.size()));
    return error_response(409, "folder_mode",
                          "this server lists a folder: open a profile of it (/api/v1/folder, "
                          "then /api/v1/f/ID/" +
                              std::string(rest.substr(0, 100)) + "; docs/serve.md)");
  }
  response route_folder_table(const request& r, std::string_view) {
    return detail::route_folder(r, *dir);
  }
  response route_folder_trend(const request& r, std::string_view) {
    return detail::route_trend(r, *dir);
  }
  response route_folder_file(const request& r, std::string_view tail) {
    return route_opened(r, tail, false);
  }
  response route_folder_diff(const request& r, std::string_view tail) {
    return route_opened(r, tail, true);
  }
  // f/ID/ROUTE (`diff` false) or d/OLD/NEW/ROUTE, `tail` after "f/" or "d/": ROUTE of the
  // profile (or the diff) of those files, read when first asked for.
  response route_opened(const request& r, std::string_view tail, bool diff) {
    std::vector<std::uint64_t> ids;
    std::string key(diff ? "d" : "f");
    for (int i = 0; i < (diff ? 2 : 1); ++i) {
      const std::size_t slash = tail.find('/');
      auto id = detail::parse_uint(tail.substr(0, slash), UINT64_MAX);
      if (!id || slash == std::string_view::npos)
        return error_response(400, "bad_id", "a file of the folder is named by its id (a number)");
      if (!dir->entry(*id))
        return error_response(404, "no_file",
                              "no file of id " + std::to_string(*id) +
                                  " is listed in the folder (it was deleted, or never was)");
      ids.push_back(*id);
      key += "/" + std::to_string(*id);
      tail = tail.substr(slash + 1);
    }
    std::shared_ptr<served_state> st = find_opened(key);
    if (!st) {
      std::lock_guard<std::mutex> one(opening);
      st = find_opened(key);
      if (!st) {
        auto loaded = read_listed(ids);
        if (!loaded)
          return error_response(422, "unreadable",
                                "the profile could not be read: " + loaded.error().message);
        st = make_state(loaded->sessions[0], diff ? loaded->sessions[1] : nullptr);
        st->asm_kept = std::make_shared<detail::asm_cache>(objdump, asm_limits);
        st->files = std::move(loaded->files);
        put_opened(key, st);
      }
    }
    reload_target t;
    t.current = [this, key, st]() -> std::shared_ptr<const served_state> {
      auto now = find_opened(key);
      return now ? now : st;
    };
    t.load = [this, ids] { return read_listed(ids); };
    t.set = [this, key](std::shared_ptr<served_state> next) { put_opened(key, std::move(next)); };
    return dispatch(r, tail, *st, t);
  }

  std::shared_ptr<const served_state> current() const {
    std::lock_guard<std::mutex> lock(m);
    return state;
  }

  // GET /api/v1/status: whether the served files changed on disk since they were read.
  response route_status(const served_state& st, bool reloadable) const {
    json_writer j;
    detail::begin_envelope(j);
    j.key("generation").value(st.generation);
    j.key("reloadable").value(reloadable);
    bool changed = false;
    j.key("files").begin_array();
    for (std::size_t i = 0; i < st.files.size(); ++i) {
      const file_stamp& f = st.files[i];
      const std::string_view now = file_state(f);
      changed = changed || now != "same";
      j.begin_object();
      j.key("index").value(static_cast<std::uint64_t>(i));
      j.key("name").value(f.path);
      j.key("state").value(now);
      j.key("size").value(f.size);
      j.end_object();
    }
    j.end_array();
    j.key("changed").value(changed);
    j.key("siblings").begin_array();
    for (const auto& f : siblings) j.value(f);
    j.end_array();
    j.end_object();
    return detail::json_response(j.take());
  }

  // GET /api/v1/reload?generation=N[&keep=ID[&side=old]]: reads the files again (once for every
  // client that saw generation N: a later call answers the reload already made) and answers
  // the new generation and the function of the new profile that has keep's name, file and
  // object (null when there is none). A file that cannot be read keeps what is served.
  // Where a reload reads from and puts what it read: the served state (one profile, a run, a
  // diff), or a folder's opened profile (open_scope).
  struct reload_target {
    std::function<std::shared_ptr<const served_state>()> current;
    reloader load;
    std::function<void(std::shared_ptr<served_state>)> set;
  };
  reload_target main_target() {
    reload_target t;
    t.current = [this] { return current(); };
    t.load = reload;
    t.set = [this](std::shared_ptr<served_state> next) {
      std::lock_guard<std::mutex> lock(m);
      state = std::move(next);
    };
    return t;
  }

  response route_reload(const request& r, const served_state& st, const reload_target& target) {
    if (!target.load)
      return error_response(404, "no_reload", "this server has no files to read again");
    std::optional<std::uint64_t> seen;
    if (auto g = detail::param(r, "generation")) {
      seen = detail::parse_uint(*g, UINT64_MAX);
      if (!seen) return error_response(400, "bad_generation", "generation takes a number");
    }
    // The function to keep, by its identity in the profile the client saw.
    std::string name, file, object;
    bool keep = false;
    if (auto k = detail::param(r, "keep")) {
      const views::session* s = &st.main();
      if (auto side = detail::param(r, "side"); side && *side == "old" && st.diff())
        s = st.old_side.get();
      std::uint32_t id = 0;
      if (auto f = detail::parse_id(*k, *s, id)) return error_response(*f);
      keep = true;
      name = std::string(s->name(id));
      if (!s->is_cycle(id)) {
        file = std::string(s->file(id));
        object = std::string(s->object(id));
      }
    }
    std::shared_ptr<const served_state> now;
    {
      std::lock_guard<std::mutex> one(reloading);
      now = target.current();
      if (!seen || *seen >= now->generation) {
        auto loaded = target.load();
        if (!loaded)
          return error_response(422, "reload_failed",
                                "the profile could not be read again: " + loaded.error().message +
                                    " (still showing what was read before)");
        if (loaded->sessions.empty() || loaded->sessions.size() > 2)
          return error_response(500, "internal", "a reload read no profile");
        auto next = make_state(loaded->sessions[0],
                               loaded->sessions.size() > 1 ? loaded->sessions[1] : nullptr);
        next->files = std::move(loaded->files);
        next->generation = now->generation + 1;
        next->asm_kept = std::make_shared<detail::asm_cache>(objdump, asm_limits);
        target.set(next);
        now = std::move(next);
      }
    }
    json_writer j;
    detail::begin_envelope(j);
    j.key("generation").value(now->generation);
    j.key("function");
    const views::session& s =
        detail::param(r, "side") == "old" && now->diff() ? *now->old_side : now->main();
    std::optional<std::uint32_t> found;
    if (keep) {
      for (std::uint32_t id = 0; id < s.ids() && !found; ++id) {
        if (s.name(id) != name) continue;
        if (!s.is_cycle(id) && (s.file(id) != file || s.object(id) != object)) continue;
        found = id;
      }
    }
    found ? j.value(static_cast<std::uint64_t>(*found)) : j.null();
    j.end_object();
    return detail::json_response(j.take());
  }

  // The session a route reads: in diff mode `side=old|new` (default new).
  std::optional<failure> side_of(const served_state& st, const request& r,
                                 const views::session*& s) const {
    s = &st.main();
    auto side = detail::param(r, "side");
    if (!side) return std::nullopt;
    if (*side == "new") return std::nullopt;
    if (*side == "old" && st.diff()) {
      s = st.old_side.get();
      return std::nullopt;
    }
    return failure{400, "bad_side",
                   st.diff() ? "side takes old or new" : "side is only for a diff (serve OLD NEW)"};
  }

  response route(const request& r) {
    const std::string& path = r.path;
    if (path == "/" || path == "/index.html") {
      if (const asset* a = find_asset("/index.html")) {
        response res;
        res.content_type = std::string(a->content_type);
        res.body = std::string(a->data);
        // serve DIR: the page opens on the folder's table without asking for a profile first.
        if (dir)
          if (const std::size_t at = res.body.find("<head>"); at != std::string::npos)
            res.body.insert(at + 6, "<meta name=\"calltree-mode\" content=\"folder\">");
        return res;
      }
      response res;
      res.content_type = "text/html; charset=utf-8";
      res.body = std::string(no_front_end);
      return res;
    }
    constexpr std::string_view api_prefix = "/api/v1/";
    if (path.compare(0, api_prefix.size(), api_prefix) != 0) {
      if (const asset* a = find_asset(path)) {
        response res;
        res.content_type = std::string(a->content_type);
        res.body = std::string(a->data);
        // (Vite names assets by their content: they never change under one name.)
        if (path.compare(0, 8, "/assets/") == 0)
          res.headers.emplace_back("Cache-Control", "private, max-age=31536000, immutable");
        return res;
      }
      return error_response(404, "not_found", "no such page: " + path.substr(0, 200));
    }
    const std::string_view rest = std::string_view(path).substr(api_prefix.size());
    if (dir) return route_in_folder(r, rest);
    const std::shared_ptr<const served_state> held = current();
    return dispatch(r, rest, *held, main_target());
  }

  // The routes of one served state (the server's, or a folder's opened profile): those of
  // profile_routes() below.
  response dispatch(const request& r, std::string_view rest, const served_state& st,
                    const reload_target& target) {
    // A profile of differences (cg_diff's, `calltree diff -o`'s): this request's sums and
    // numbers are signed (cost_matrix.h), whichever thread answers it.
    signed_costs_scope sums(st.main().p.signed_costs || (st.diff() && st.old_side->p.signed_costs));
    const views::session* s = nullptr;
    if (auto f = side_of(st, r, s)) return error_response(*f);
    for (const profile_route& pr : profile_routes())
      if (pr.route.prefix ? rest.starts_with(pr.route.path) : rest == pr.route.path)
        return (this->*pr.answer)(r, rest.substr(pr.route.path.size()), st, *s, target);
    return error_response(
        404, "no_route",
        "no such API route: " + std::string(rest.substr(0, 200)) + " (docs/serve.md lists them)");
  }
  // The answers of profile_routes(): `arg` is what follows the route's path (an id).
  response route_status_of(const request&, std::string_view, const served_state& st,
                           const views::session&, const reload_target& target) {
    return route_status(st, static_cast<bool>(target.load));
  }
  response route_reload_of(const request& r, std::string_view, const served_state& st,
                           const views::session&, const reload_target& target) {
    return route_reload(r, st, target);
  }
  response route_profile_of(const request& r, std::string_view, const served_state& st,
                            const views::session&, const reload_target&) {
    return detail::route_profile(r, st.main(), st.diff() ? st.old_side.get() : nullptr);
  }
  response route_functions_of(const request& r, std::string_view, const served_state& st,
                              const views::session& s, const reload_target&) {
    if (!st.diff() || detail::param(r, "side")) return detail::route_functions(r, s);
    if (!st.diff_src) return error_response(503, "no_diff", st.diff_error);
    return detail::route_diff_functions(r, *st.diff_src);
  }
  response route_function_of(const request& r, std::string_view id, const served_state&,
                             const views::session& s, const reload_target&) {
    return detail::route_function(r, s, id);
  }
  response route_graph_of(const request& r, std::string_view id, const served_state&,
                          const views::session& s, const reload_target&) {
    return detail::route_graph(r, s, id);
  }
  response route_coverage_of(const request& r, std::string_view id, const served_state&,
                             const views::session& s, const reload_target&) {
    return detail::route_coverage(r, s, id);
  }
  response route_flame_of(const request& r, std::string_view, const served_state& st,
                          const views::session& s, const reload_target&) {
    if (!st.diff()) return detail::route_flame(r, s, nullptr);
    if (!st.diff_src) return error_response(503, "no_diff", st.diff_error);
    std::optional<detail::flame_delta> delta;
    if (auto f = detail::make_flame_delta(r, *st.diff_src, &s == st.old_side.get(), delta))
      return error_response(*f);
    return detail::route_flame(r, s, &*delta);
  }
  response route_source_of(const request& r, std::string_view file, const served_state&,
                           const views::session& s, const reload_target&) {
    return detail::route_source(r, s, file, serve_sources);
  }
  response route_asm_of(const request& r, std::string_view id, const served_state& st,
                        const views::session& s, const reload_target&) {
    return detail::route_asm(r, s, id, *st.asm_kept);
  }
  response route_cfg_of(const request& r, std::string_view id, const served_state& st,
                        const views::session& s, const reload_target&) {
    return detail::route_cfg(r, s, id, *st.asm_kept);
  }

  // The route table: every route of /api/v1/ and what answers it, the only list of them
  // (api::routes() gives their names to the walker test, tests/server/serve_walk_test.cc,
  // which fails on a route it does not walk).
  struct profile_route {
    api_route route;
    response (impl::*answer)(const request&, std::string_view, const served_state&,
                             const views::session&, const reload_target&);
  };
  static std::span<const profile_route> profile_routes() {
    static constexpr profile_route table[] = {
        {{"status", false, false}, &impl::route_status_of},
        {{"reload", false, false}, &impl::route_reload_of},
        {{"profile", false, false}, &impl::route_profile_of},
        {{"functions", false, false}, &impl::route_functions_of},
        {{"function/", true, false}, &impl::route_function_of},
        {{"graph/", true, false}, &impl::route_graph_of},
        {{"coverage/", true, false}, &impl::route_coverage_of},
        {{"flame", false, false}, &impl::route_flame_of},
        {{"source/", true, false}, &impl::route_source_of},
        {{"asm/", true, false}, &impl::route_asm_of},
        {{"cfg/", true, false}, &impl::route_cfg_of},
    };
    return table;
  }
  // serve DIR's own routes; every route above is asked under f/ID/ or d/OLD/NEW/.
  struct folder_route {
    api_route route;
    response (impl::*answer)(const request&, std::string_view);
  };
  static std::span<const folder_route> folder_routes() {
    static constexpr folder_route table[] = {
        {{"folder", false, true}, &impl::route_folder_table},
        {{"trend", false, true}, &impl::route_folder_trend},
        {{"f/", true, true}, &impl::route_folder_file},
        {{"d/", true, true}, &impl::route_folder_diff},
    };
    return table;
  }
};

std::vector<api_route> api::routes() {
  std::vector<api_route> out;
  for (const auto& r : impl::profile_routes()) out.push_back(r.route);
  for (const auto& r : impl::folder_routes()) out.push_back(r.route);
  return out;
}

std::shared_ptr<const views::function_table> api::diff_table() const {
  const std::shared_ptr<const served_state> st = impl_->current();
  if (!st->diff_src) return nullptr;
  auto t = st->diff_src->of_parts({});
  return t ? *t : nullptr;
}

// The Host header of a request to this server: "NAME:PORT" with this server's port, and a
// NAME that is an IP address, localhost, or the --host name. A DNS rebinding attack (a page of
// another site whose name was made to resolve to this machine) sends its own name: refused.
bool api::host_allowed(std::string_view header) const {
  const std::size_t colon = header.rfind(':');
  if (colon == std::string_view::npos) return false;
  if (header.substr(colon + 1) != std::to_string(options_.port)) return false;
  const std::string name = lower(header.substr(0, colon));
  if (name == "localhost" || ipv4_literal(name) || ipv6_literal(name)) return true;
  for (const auto& h : options_.hosts)
    if (name == lower(h)) return true;
  return false;
}

api::api(api_options options, std::shared_ptr<const views::session> single)
    : options_(std::move(options)), impl_(std::make_unique<impl>()) {
  impl_->state = make_state(std::move(single), nullptr);
  impl_->serve_sources = options_.serve_sources;
  impl_->objdump = options_.objdump;
  impl_->asm_limits = {options_.asm_objdump_bytes, options_.asm_answer_bytes, options_.asm_jobs};
  impl_->state->asm_kept = std::make_shared<detail::asm_cache>(impl_->objdump, impl_->asm_limits);
  impl_->siblings = options_.siblings;
  impl_->cookie_name = "calltree_token_" + std::to_string(options_.port);
}

api::api(api_options options, std::shared_ptr<const views::session> old_session,
         std::shared_ptr<const views::session> new_session)
    : options_(std::move(options)), impl_(std::make_unique<impl>()) {
  impl_->state = make_state(std::move(old_session), std::move(new_session));
  impl_->serve_sources = options_.serve_sources;
  impl_->objdump = options_.objdump;
  impl_->asm_limits = {options_.asm_objdump_bytes, options_.asm_answer_bytes, options_.asm_jobs};
  impl_->state->asm_kept = std::make_shared<detail::asm_cache>(impl_->objdump, impl_->asm_limits);
  impl_->siblings = options_.siblings;
  impl_->cookie_name = "calltree_token_" + std::to_string(options_.port);
}

api::api(api_options options) : options_(std::move(options)), impl_(std::make_unique<impl>()) {
  impl_->serve_sources = options_.serve_sources;
  impl_->objdump = options_.objdump;
  impl_->asm_limits = {options_.asm_objdump_bytes, options_.asm_answer_bytes, options_.asm_jobs};
  impl_->cookie_name = "calltree_token_" + std::to_string(options_.port);
  impl_->dir = options_.dir;
  impl_->open_file = options_.open_file;
  impl_->keep_open = std::max<std::size_t>(1, options_.keep);
}

void api::enable_reload(std::vector<file_stamp> files, reloader reload) {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->state->files = std::move(files);
  }
  impl_->reload = std::move(reload);
}

api::~api() = default;

response api::handle_target(std::string_view method, std::string_view target, std::string host,
                            std::string authorization, std::string cookie) const {
  request r;
  r.method = std::string(method);
  r.host = std::move(host);
  r.authorization = std::move(authorization);
  r.cookie = std::move(cookie);
  std::string err;
  if (!parse_target(target, r, err)) {
    response res = error_response(400, "bad_target", err);
    add_security_headers(res);
    return res;
  }
  return handle(r);
}

response api::handle(const request& r) const {
  response res = answer(r);
  add_security_headers(res);
  return res;
}

response api::answer(const request& r) const {
  try {
    // 1. The Host header: this server's own address only.
    if (!host_allowed(r.host))
      return error_response(403, "bad_host",
                            r.host.empty() ? "the request has no Host header"
                                           : "this server does not answer to the host '" +
                                                 r.host.substr(0, 100) +
                                                 "' (DNS rebinding protection; docs/serve.md)");
    // 2. The method.
    if (r.method != "GET" && r.method != "HEAD") {
      response res = error_response(405, "method_not_allowed",
                                    "only GET and HEAD are answered; nothing can be changed");
      res.headers.emplace_back("Allow", "GET, HEAD");
      return res;
    }
    // 3. The token.
    bool from_query = false, given = false, valid = false;
    if (auto t = detail::param(r, "token")) {
      given = true;
      from_query = valid = same_secret(*t, options_.token);
    }
    if (!valid && !r.authorization.empty()) {
      given = true;
      std::string_view a = r.authorization;
      if (a.size() > 7 && lower(a.substr(0, 7)) == "bearer ")
        valid = same_secret(a.substr(7), options_.token);
    }
    if (!valid && !r.cookie.empty()) {
      if (auto c = cookie_value(r.cookie, impl_->cookie_name)) {
        given = true;
        valid = same_secret(*c, options_.token);
      }
    }
    if (!valid)
      return given ? error_response(403, "bad_token", "the token is not this server's")
                   : error_response(401, "missing_token",
                                    "open the URL calltree serve printed: it carries the token "
                                    "(?token=...)");
    response res = impl_->route(r);
    if (from_query)
      res.headers.emplace_back("Set-Cookie", impl_->cookie_name + "=" + options_.token +
                                                 "; Path=/; HttpOnly; SameSite=Strict");
    if (r.path.compare(0, 8, "/api/v1/") == 0)
      res.headers.emplace_back("Cache-Control", "no-store");
    return res;
  } catch (const std::bad_alloc&) {
    return error_response(503, "out_of_memory", "the server ran out of memory for this request");
  } catch (const std::exception& e) {
    return error_response(500, "internal", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_response(500, "internal", "internal error");
  }
}

}  // namespace calltree::server

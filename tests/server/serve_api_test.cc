// serve_api_test.cc — the serve API (server/api.h) on real profiles, with no socket.
//
// Every corpus file (and the golden and malformed cases) is loaded as `calltree serve` loads it
// and asked through api::handle(): the function list's self and inclusive costs, each
// function's callers and callees, and the annotated source are those of `calltree annotate
// --json` (the model path) on the same file; the security rules refuse what they should (no
// token, a wrong one, another Host, other methods, paths and ids that are not ones) with a
// 4xx JSON error and never a crash; a file that does not parse opens with its diagnostics.
// tests/server/serve_http.py does the same through a real socket and the real binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "../unit/profile_files.h"
#include "api.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/profile_builder.h"
#include "serve_test_util.h"
#include "views/function_list.h"
#include "views/session.h"

namespace calltree {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

using test::get;
using test::get_json;
using test::id_of;
using test::load;
using test::make_api;
using test::where;
constexpr const char* token = test::serve_token;
constexpr int port = test::serve_port;

using test::annotate_json;
using test::run;

std::string key_of(const json& row) {
  return row["file"].get<std::string>() + ":" + row["name"].get<std::string>();
}

// The annotate --json costs of the recorded events, from serve's costs object.
json recorded_only(const json& costs, const json& recorded) {
  json out = json::object();
  for (const auto& e : recorded) out[e.get<std::string>()] = costs[e.get<std::string>()];
  return out;
}

// Whether the profile has fi=/fe= lines (code inlined from other files).
bool has_inlined_code(const fs::path& path) {
  const std::string out = run((path.extension() == ".gz" ? "zcat '" : "cat '") + path.string() +
                              "' | grep -c -m1 -E '^f[ie]='");
  return !out.empty() && out[0] != '0';
}

// `into[event] += costs[event]` for every event.
void add_costs(json& into, const json& costs) {
  for (auto& [e, v] : costs.items())
    into[e] = (into.contains(e) ? into[e].get<std::uint64_t>() : 0) + v.get<std::uint64_t>();
}

TEST(ServeApi, NumbersAreAnnotates) {
  std::size_t files = 0, functions = 0, details = 0, lines = 0;
  for (const auto& path : test::corpus_profiles(true)) {
    SCOPED_TRACE(path.string());
    const json ann = annotate_json(path);
    ASSERT_TRUE(ann.is_object());
    auto s = load(path);
    ASSERT_TRUE(s);
    const server::api a = make_api(s);
    const json& recorded = ann["recorded_events"];
    std::string events;
    for (const auto& e : recorded) events += (events.empty() ? "" : ",") + e.get<std::string>();

    // The whole list, in pages of 5000. Serve counts functions by (object, fl= file, name),
    // annotate by "file:name" with the fi=/fe= file of inlined code: in a file without
    // inlined code a key is one function, or one per object (`_init` of every library), so
    // self costs and calls summed per key are annotate's; a key of one function has its
    // inclusive cost too. (Files with inlined code: tests/unit/view_sums_test.cc checks their
    // functions against the model, and their lines are checked below.)
    std::map<std::string, std::vector<json>> rows;
    std::size_t total = 0;
    for (std::size_t offset = 0;; offset += 5000) {
      const json page = get_json(a, "/api/v1/functions?cycles=no&limit=5000&events=" + events +
                                        "&offset=" + std::to_string(offset));
      total = page["total_rows"];
      for (const auto& r : page["rows"]) rows[key_of(r)].push_back(r);
      if (offset + 5000 >= total) break;
    }
    // (A stated total below the functions' costs is raised to their sum, and the page says so.)
    const json prof0 = get_json(a, "/api/v1/profile");
    if (prof0["inputs"][0]["warnings"].dump().find("shares are of that sum") == std::string::npos) {
      EXPECT_EQ(recorded_only(prof0["totals"], recorded), ann["totals"]);
    }
    if (!has_inlined_code(path)) {
      ASSERT_EQ(rows.size(), ann["functions"].size());
      std::size_t checked = 0;
      for (const auto& f : ann["functions"]) {
        const std::string key = f["key"];
        auto it = rows.find(key);
        ASSERT_NE(it, rows.end()) << key;
        json self = json::object();
        for (const json& r : it->second) add_costs(self, r["self"]);
        EXPECT_EQ(self, f["self"]) << key;
        ++functions;
        if (it->second.size() != 1) continue;
        const json& r = it->second[0];
        EXPECT_EQ(r["inclusive"], f["inclusive"]) << key;
        EXPECT_EQ(r["object"], f["object"].is_null() ? json("") : f["object"]) << key;
        EXPECT_EQ(r["cycle"], f["cycle"]) << key;
        // Callers and callees of the first 200 functions of each file (every file's heaviest).
        if (checked++ >= 200) continue;
        const json d = get_json(a, "/api/v1/function/" + std::to_string(r["id"].get<int>()) +
                                       "?limit=5000&events=" + events);
        for (const char* side : {"callers", "callees"}) {
          std::map<std::string, json> want, got;
          for (const auto& c : f[side])
            want[c["function"].get<std::string>()] = {c["count"], c["cost"]};
          for (const auto& c : d[side]) {
            json& g = got[key_of(c)];
            if (g.is_null()) g = {0, json::object()};
            g[0] = g[0].get<std::uint64_t>() + c["count"].get<std::uint64_t>();
            add_costs(g[1], c["cost"]);
          }
          EXPECT_EQ(got, want) << key << " " << side;
        }
        ++details;
      }
    }
    // The annotated source: per line, self costs and calls.
    const json prof = get_json(a, "/api/v1/profile");
    std::map<std::string, int> file_ids;
    std::set<std::string> found;
    for (const auto& f : prof["files"]) {
      file_ids[f["name"]] = f["id"];
      if (f["found"].get<bool>()) found.insert(f["name"]);
    }
    for (const auto& src : ann["source"]) {
      // (annotate --json lists the lines of files it did not find too, and so does serve:
      // a file not found shows its lines' costs without the text.)
      const std::string name = src["file"];
      if (!file_ids.count(name)) continue;
      const json v = get_json(a, "/api/v1/source/" + std::to_string(file_ids[name]) +
                                     "?max_calls=5000&events=" + events);
      if (name.empty() || name == "???" || name == "php:internal") {
        // (no file: every function without one gathered, no one function's source)
        EXPECT_TRUE(v["no_file"].get<bool>()) << name;
        EXPECT_TRUE(v["lines"].empty()) << name;
        continue;
      }
      EXPECT_EQ(v["missing"].get<bool>(), !found.count(name)) << name << " " << v["message"];
      EXPECT_TRUE(v["has_costs"].get<bool>()) << name;
      std::map<std::uint64_t, json> got;
      for (const auto& l : v["lines"]) got[l["line"]] = l;
      for (const auto& l : src["lines"]) {
        const std::uint64_t n = l["line"];
        ASSERT_TRUE(got.count(n)) << name << ":" << n;
        EXPECT_EQ(got[n]["self"], l["self"]) << name << ":" << n;
        // The calls made at the line, summed per callee: annotate lists them per caller key,
        // serve per calling function (two functions can hold code of one line: inlined).
        std::map<std::string, json> want_calls, got_calls;
        auto add_call = [](std::map<std::string, json>& to, const std::string& callee,
                           const json& c) {
          json& t = to[callee];
          if (t.is_null()) t = {0, json::object()};
          t[0] = t[0].get<std::uint64_t>() + c["count"].get<std::uint64_t>();
          add_costs(t[1], c["cost"]);
        };
        for (const auto& c : l.value("calls", json::array()))
          add_call(want_calls, c["callee"].get<std::string>(), c);
        for (const auto& c : got[n].value("calls", json::array()))
          add_call(got_calls, key_of(c["callee"]), c);
        EXPECT_EQ(got_calls, want_calls) << name << ":" << n;
        ++lines;
      }
    }
    ++files;
  }
  EXPECT_GT(files, test::some_profiles_left_out() ? 30u : 40u);
  EXPECT_GT(functions, 1000u);
  EXPECT_GT(details, 500u);
  EXPECT_GT(lines, 100u);
}

class ServeRecurse : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    session_ = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind");
  }
  static void TearDownTestSuite() { session_.reset(); }
  static std::shared_ptr<const views::session> session_;
};
std::shared_ptr<const views::session> ServeRecurse::session_;

void expect_error(const server::response& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  const json j = json::parse(r.body);
  EXPECT_EQ(j["error"]["code"], code) << r.body;
  EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
}

TEST_F(ServeRecurse, RefusesWithoutTheToken) {
  const server::api a = make_api(session_);
  expect_error(a.handle_target("GET", "/api/v1/functions", "127.0.0.1:4242"), 401, "missing_token");
  expect_error(a.handle_target("GET", "/", "127.0.0.1:4242"), 401, "missing_token");
  expect_error(a.handle_target("GET", "/api/v1/functions?token=0123", "127.0.0.1:4242"), 403,
               "bad_token");
  expect_error(a.handle_target("GET", std::string("/api/v1/functions?token=") + token + "0",
                               "127.0.0.1:4242"),
               403, "bad_token");
  // A Bearer header, and the cookie set by the first request with the token.
  EXPECT_EQ(
      a.handle_target("GET", "/api/v1/profile", "127.0.0.1:4242", std::string("Bearer ") + token)
          .status,
      200);
  expect_error(a.handle_target("GET", "/api/v1/profile", "127.0.0.1:4242", "Bearer nope"), 403,
               "bad_token");
  const server::response first = get(a, "/");
  std::string cookie;
  for (const auto& [k, v] : first.headers)
    if (k == "Set-Cookie") cookie = v;
  EXPECT_EQ(cookie,
            std::string("calltree_token_4242=") + token + "; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(a.handle_target("GET", "/api/v1/profile", "127.0.0.1:4242", "",
                            std::string("other=1; calltree_token_4242=") + token)
                .status,
            200);
  expect_error(a.handle_target("GET", "/api/v1/profile", "127.0.0.1:4242", "",
                               "calltree_token_4243=" + std::string(token)),
               401, "missing_token");
}

TEST_F(ServeRecurse, RefusesOtherHosts) {
  const server::api a = make_api(session_);
  for (const char* host :
       {"127.0.0.1:4242", "localhost:4242", "LocalHost:4242", "[::1]:4242", "192.168.1.7:4242"})
    EXPECT_EQ(get(a, "/api/v1/profile", host).status, 200) << host;
  for (const char* host :
       {"", "evil.example:4242", "127.0.0.1", "127.0.0.1:80", "localhost.evil.example:4242",
        "127.0.0.1.nip.io:4242", "localhost:4242@evil", "[::1]", "1.2.3:4242", "999.1.1.1:4242"})
    expect_error(get(a, "/api/v1/profile", host), 403, "bad_host");
  // --host NAME adds that name.
  server::api_options o;
  o.token = token;
  o.port = port;
  o.hosts = {"build-box.internal"};
  const server::api named(o, session_);
  EXPECT_EQ(get(named, "/api/v1/profile", "build-box.internal:4242").status, 200);
  expect_error(get(named, "/api/v1/profile", "other.internal:4242"), 403, "bad_host");
}

TEST_F(ServeRecurse, OnlyGetAndHead) {
  const server::api a = make_api(session_);
  for (const char* m : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"}) {
    const server::response r =
        a.handle_target(m, std::string("/api/v1/profile?token=") + token, "127.0.0.1:4242");
    expect_error(r, 405, "method_not_allowed");
    bool allow = false;
    for (const auto& [k, v] : r.headers) allow = allow || (k == "Allow" && v == "GET, HEAD");
    EXPECT_TRUE(allow);
  }
  EXPECT_EQ(a.handle_target("HEAD", std::string("/api/v1/profile?token=") + token, "127.0.0.1:4242")
                .status,
            200);
}

TEST_F(ServeRecurse, NoCorsAndSafeHeaders) {
  const server::api a = make_api(session_);
  for (const char* t : {"/api/v1/profile", "/", "/api/v1/nope"}) {
    const server::response r = get(a, t);
    std::map<std::string, std::string> h(r.headers.begin(), r.headers.end());
    for (const auto& [k, v] : r.headers) EXPECT_EQ(k.find("Access-Control"), std::string::npos);
    EXPECT_EQ(h["X-Content-Type-Options"], "nosniff");
    EXPECT_EQ(h["Referrer-Policy"], "no-referrer");
    EXPECT_EQ(h["X-Frame-Options"], "DENY");
    EXPECT_NE(h["Content-Security-Policy"].find("frame-ancestors 'none'"), std::string::npos);
  }
}

TEST_F(ServeRecurse, BadRequestsAre4xxWithAMessage) {
  const server::api a = make_api(session_);
  const std::string ids = std::to_string(session_->ids());
  const std::pair<std::string, std::pair<int, std::string>> cases[] = {
      {"/api/v1/function/abc", {400, "bad_id"}},
      {"/api/v1/function/-1", {400, "bad_id"}},
      {"/api/v1/function/1e3", {400, "bad_id"}},
      {"/api/v1/function/" + ids, {404, "no_such_function"}},
      {"/api/v1/function/99999999999999999999999999", {400, "bad_id"}},
      {"/api/v1/function/18446744073709551615", {404, "no_such_function"}},
      {"/api/v1/function/", {400, "bad_id"}},
      {"/api/v1/graph/x", {400, "bad_id"}},
      {"/api/v1/source/x", {400, "bad_file_id"}},
      {"/api/v1/source/999999", {404, "no_such_file"}},
      {"/api/v1/source/../../../etc/passwd", {400, "bad_file_id"}},
      {"/api/v1/source/%2e%2e%2f%2e%2e%2fetc%2fpasswd", {400, "bad_file_id"}},
      {"/api/v1/source//etc/passwd", {400, "bad_file_id"}},
      {"/../../etc/passwd", {404, "not_found"}},
      {"/assets/../../etc/passwd", {404, "not_found"}},
      {"/api/v1/../../etc/passwd", {404, "no_route"}},
      {"/api/v1/functions?filter=(", {400, "bad_regex"}},
      {"/api/v1/functions?filter=" + std::string(1001, 'a'), {400, "bad_regex"}},
      {"/api/v1/functions?filter=a{1000}{1000}", {400, "bad_regex"}},
      {"/api/v1/functions?limit=-1", {400, "bad_limit"}},
      {"/api/v1/functions?limit=1e9", {400, "bad_limit"}},
      {"/api/v1/functions?offset=99999999999999999999", {400, "bad_offset"}},
      {"/api/v1/functions?sort=Nope", {400, "bad_event"}},
      {"/api/v1/functions?events=Nope", {400, "bad_event"}},
      {"/api/v1/functions?derived=X", {400, "bad_derived"}},
      {"/api/v1/functions?derived=X=Ir%2B%2B", {400, "bad_event"}},
      {"/api/v1/functions?by=size", {400, "bad_by"}},
      {"/api/v1/functions?group=thread", {400, "bad_group"}},
      {"/api/v1/functions?in_group=x", {400, "bad_group"}},
      {"/api/v1/functions?parts=2", {400, "bad_parts"}},
      {"/api/v1/functions?parts=0", {400, "bad_parts"}},
      {"/api/v1/functions?parts=1,,", {400, "bad_parts"}},
      {"/api/v1/functions?side=old", {400, "bad_side"}},
      {"/api/v1/flame?root=" + ids, {404, "no_such_function"}},
      {"/api/v1/flame?root=100000", {404, "no_such_function"}},
      {"/api/v1/flame?direction=callers", {400, "bad_direction"}},
      {"/api/v1/flame?min=2", {400, "bad_min"}},
      {"/api/v1/flame?min=nan", {400, "bad_min"}},
      {"/api/v1/flame?max_frames=x", {400, "bad_max_frames"}},
      {"/api/v1/graph/1?up=x", {400, "bad_up"}},
      {"/api/v1/graph/1?min=-0.1", {400, "bad_min"}},
      {"/api/v1/source/0?hot=5", {400, "bad_hot"}},
      {"/api/v1/nope", {404, "no_route"}},
      {"/api/v2/profile", {404, "not_found"}},
      {"/api/v1/functions?x=%zz", {400, "bad_target"}},
      {"/api/v1/functions?x=%00", {400, "bad_target"}},
      {"no-slash", {400, "bad_target"}},
  };
  for (const auto& [target, want] : cases) {
    SCOPED_TRACE(target);
    expect_error(get(a, target), want.first, want.second);
  }
  // Limits are capped, huge depths too, and the answers are still whole.
  const json big = get_json(a, "/api/v1/functions?limit=99999999");
  EXPECT_EQ(big["limit"], 5000);
  const json deep = get_json(a, "/api/v1/graph/" + std::to_string(id_of(a, "cyc_c")) +
                                    "?up=4000000000&down=4000000000&min=0");
  EXPECT_EQ(deep["up"], 10);
}

TEST_F(ServeRecurse, TheRecurseExample) {
  const server::api a = make_api(session_);
  // The cycle is a row of its own, the heaviest by self cost.
  const json list = get_json(a, "/api/v1/functions?limit=3");
  EXPECT_EQ(list["rows"][0]["name"], "<cycle 1>");
  EXPECT_EQ(list["rows"][0]["kind"], "cycle");
  EXPECT_EQ(list["rows"][0]["inclusive"]["Ir"], 352761696);
  const json cycle = get_json(a, "/api/v1/function/" + list["rows"][0]["id"].dump());
  std::set<std::string> members;
  for (const auto& m : cycle["members"]) members.insert(m["name"]);
  EXPECT_EQ(members, (std::set<std::string>{"cyc_a'2", "cyc_b'2", "cyc_c'2"}));
  EXPECT_EQ(cycle["callers"][0]["name"], "cyc_c");
  // Sorting, filtering, grouping, paging.
  const json by_name = get_json(a, "/api/v1/functions?by=name&filter=%5Ecyc_&cycles=no");
  std::vector<std::string> names;
  for (const auto& r : by_name["rows"]) names.push_back(r["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"cyc_a", "cyc_a'2", "cyc_b", "cyc_b'2", "cyc_c", "cyc_c'2"}));
  const json files = get_json(a, "/api/v1/functions?group=file&limit=1");
  EXPECT_GT(files["total_groups"].get<int>(), 10);
  bool recurse_c = false;
  for (const auto& g : files["groups"]) {
    EXPECT_LE(g["inclusive"]["Ir"].get<std::uint64_t>(), 362861224u);
    EXPECT_LE(g["self"]["Ir"].get<std::uint64_t>(), g["inclusive"]["Ir"].get<std::uint64_t>());
    if (g["name"] == "./src/c/recurse.c") {
      recurse_c = true;
      EXPECT_GT(g["self"]["Ir"].get<std::uint64_t>(), 350000000u);
    }
  }
  EXPECT_TRUE(recurse_c);
  const std::size_t all = get_json(a, "/api/v1/functions?limit=1")["total_rows"];
  const json page =
      get_json(a, "/api/v1/functions?offset=" + std::to_string(all - 30) + "&limit=100");
  EXPECT_EQ(page["rows"].size(), 30u);
  // The call graph around cyc_c: cyc_b calls it, it calls into the cycle.
  const std::string cyc_c = std::to_string(id_of(a, "cyc_c"));
  const json g = get_json(a, "/api/v1/graph/" + cyc_c + "?up=1&down=1");
  std::set<std::string> around;
  for (const auto& n : g["nodes"]) around.insert(n["name"]);
  EXPECT_TRUE(around.count("cyc_b"));
  EXPECT_TRUE(around.count("cyc_a'2"));
  EXPECT_FALSE(g.contains("node_min"));  // (the answer of before, without node_min=)
  // KCachegrind's node threshold: around main, only the functions whose inclusive share (as
  // the function list's) is at least 30 %, the centre kept.
  const std::string main_id = std::to_string(id_of(a, "main"));
  const json wide = get_json(a, "/api/v1/graph/" + main_id + "?up=0&down=3&min=0");
  const json heavy = get_json(a, "/api/v1/graph/" + main_id + "?up=0&down=3&min=0&node_min=0.3");
  EXPECT_EQ(heavy["node_min"].get<double>(), 0.3);
  const json listed = get_json(a, "/api/v1/functions?limit=1000");
  auto number = [](const json& v) {
    return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>();
  };
  std::map<std::string, double> share;
  for (const auto& r : listed["rows"])
    share[r["id"].dump()] = number(r["inclusive"]["Ir"]) / number(listed["totals"]["Ir"]);
  std::set<std::string> kept;
  for (const auto& n : heavy["nodes"]) {
    kept.insert(n["id"].dump());
    if (n["depth"] != 0) {
      EXPECT_GE(share[n["id"].dump()], 0.3) << n["name"];
    }
  }
  EXPECT_LT(heavy["nodes"].size(), wide["nodes"].size());
  EXPECT_GT(heavy["nodes"].size(), 1u);
  for (const auto& n : wide["nodes"])
    if (n["depth"] == 1 && !kept.count(n["id"].dump())) {
      EXPECT_LT(share[n["id"].dump()], 0.3);
    }
  for (const auto& e : heavy["edges"])
    EXPECT_TRUE(kept.count(e["from"].dump()) && kept.count(e["to"].dump()));
  // The flame graph: a root holding the whole program, the estimate said so.
  const json fl = get_json(a, "/api/v1/flame");
  EXPECT_TRUE(fl["estimated"].get<bool>());
  // (The roots sum to the total; units of a self cost that fit under no call of their
  // function, in the pruned exact tree, are roots of their own: under 0.01 % here.)
  std::uint64_t top = 0, roots = 0;
  for (std::size_t i = 0; i < fl["frames"]["count"].get<std::size_t>(); ++i)
    if (fl["frames"]["parent"][i] == -1) {
      top = std::max<std::uint64_t>(top, fl["frames"]["total"]["Ir"][i]);
      roots += fl["frames"]["total"]["Ir"][i].get<std::uint64_t>();
    }
  EXPECT_EQ(roots, 362861224u);
  EXPECT_GE(top, 362861224u - 36286);
  // Sandwich halves of cyc_c.
  const json up = get_json(a, "/api/v1/flame?root=" + cyc_c + "&direction=callers");
  EXPECT_EQ(up["frames"]["id"][0].dump(), cyc_c);
  EXPECT_GT(up["frames"]["count"].get<int>(), 1);
}

TEST(ServeApi, AFileThatDoesNotParseStillOpens) {
  const fs::path dir = fs::path(CALLTREE_SOURCE_DIR) / "tests/malformed";
  std::size_t with_errors = 0;
  for (const auto& path : test::profiles_in({dir}, false)) {
    SCOPED_TRACE(path.string());
    auto s = load(path);
    ASSERT_TRUE(s);
    const server::api a = make_api(s);
    const json p = get_json(a, "/api/v1/profile");
    const json& d = p["inputs"][0]["diagnostics"];
    const std::uint64_t n = d["errors"].get<std::uint64_t>() + d["warnings"].get<std::uint64_t>();
    EXPECT_EQ(d["shown"].size(), std::min<std::uint64_t>(n + d["notes"].get<std::uint64_t>(), 100));
    if (d["errors"].get<std::uint64_t>()) {
      ++with_errors;
      EXPECT_FALSE(d["shown"][0]["message"].get<std::string>().empty());
    }
    // Every view answers.
    get_json(a, "/api/v1/functions");
    get_json(a, "/api/v1/flame");
    if (s->ids()) {
      get_json(a, "/api/v1/function/0");
      get_json(a, "/api/v1/graph/0");
    }
  }
  EXPECT_GE(with_errors, 15u);
}

// The model's numbers (profile_builder, compute_inclusive) of `part` (none: every part), per
// function "object\tfile\tname": {self, inclusive} of the first event. The reference for the
// views' parts, which count functions as the model does.
std::map<std::string, json> model_numbers(const fs::path& path, std::optional<part_id> part) {
  profile p;
  diagnostic_collector diags;
  EXPECT_TRUE(load_profile(path.string(), p, diags));
  inclusive_options io;
  io.part = part;
  const inclusive_result r = compute_inclusive(p, io);
  std::map<std::string, json> out;
  for (std::size_t f = 0; f < p.functions.size(); ++f) {
    const std::uint64_t self = r.self.row(f)[0], incl = r.inclusive.row(f)[0];
    if (!self && !incl) continue;
    const function& fn = p.functions[function_id{f}];
    out[p.strings.text(p.objects[fn.object].name) + "\t" + p.strings.text(p.files[fn.file].name) +
        "\t" + p.strings.text(fn.name)] = {{"self", self}, {"inclusive", incl}};
  }
  return out;
}

std::string function_of(const json& row) {
  return row["object"].get<std::string>() + "\t" + row["file"].get<std::string>() + "\t" +
         row["name"].get<std::string>();
}

TEST(ServeApi, PartsAreSummedOrChosen) {
  auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate-combined.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const json p = get_json(a, "/api/v1/profile");
  const auto& parts = p["inputs"][0]["parts"];
  ASSERT_EQ(parts.size(), 5u);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const json one = get_json(a, "/api/v1/functions?limit=5000&parts=" + std::to_string(i + 1));
    EXPECT_EQ(one["totals"], parts[i]["totals"]);
    sum += parts[i]["totals"]["Ir"].get<std::uint64_t>();
    // The model's numbers of part N, per function.
    const auto want =
        model_numbers(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate-combined.callgrind",
                      static_cast<part_id>(i));
    std::map<std::string, json> rows;
    for (const auto& r : one["rows"])
      if (r["kind"] == "function" && (r["self"]["Ir"] != 0 || r["inclusive"]["Ir"] != 0))
        rows[function_of(r)] = {{"self", r["self"]["Ir"]}, {"inclusive", r["inclusive"]["Ir"]}};
    EXPECT_EQ(rows, want) << "part " << i + 1;
    std::size_t present = rows.size();
    EXPECT_GT(present, 10u);
  }
  EXPECT_EQ(p["totals"]["Ir"].get<std::uint64_t>(), sum);
  const json two = get_json(a, "/api/v1/functions?parts=2,3&limit=1");
  EXPECT_EQ(two["totals"]["Ir"], parts[1]["totals"]["Ir"].get<std::uint64_t>() +
                                     parts[2]["totals"]["Ir"].get<std::uint64_t>());
}

// The diff list is `calltree diff --json --threshold=0`'s: the same functions (calltree diff's
// (object, fl= file, name), not annotate's keys), counts, totals and numbers, on two pairs of
// corpus files: two threads of one run, and one program profiled with and without
// --separate-recs/--separate-callers (whose keys and functions differ: inlined code).
// part_columns=yes: each row of the window with its cost in each part, annotate --part=N's.
TEST(ServeApi, PartsSideBySide) {
  const fs::path path = fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate-combined.callgrind";
  auto s = load(path);
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const json list =
      get_json(a, "/api/v1/functions?limit=40&offset=3&cycles=no&events=Ir&part_columns=yes");
  ASSERT_EQ(list["part_columns"], 5);
  ASSERT_EQ(list["rows"].size(), 40u);
  for (std::size_t part = 1; part <= 5; ++part) {
    const auto want = model_numbers(path, static_cast<part_id>(part - 1));
    std::size_t nonzero = 0;
    for (const auto& r : list["rows"]) {
      const json& got = r["parts"][part - 1];
      auto it = want.find(function_of(r));
      const json zero = {{"Ir", 0}};
      EXPECT_EQ(got["self"], (it == want.end() ? zero : json{{"Ir", it->second["self"]}}))
          << function_of(r) << " part " << part;
      EXPECT_EQ(got["inclusive"], (it == want.end() ? zero : json{{"Ir", it->second["inclusive"]}}))
          << function_of(r) << " part " << part;
      nonzero += got["self"]["Ir"] != 0;
    }
    EXPECT_GT(nonzero, 0u) << "part " << part;
  }
  // Without it, no parts; a bad value is a 400.
  EXPECT_FALSE(get_json(a, "/api/v1/functions?limit=1")["rows"][0].contains("parts"));
  EXPECT_EQ(get(a, "/api/v1/functions?part_columns=maybe").status, 400);
}

TEST(ServeApi, DiffModeIsCalltreeDiffs) {
  const std::pair<const char*, const char*> pairs[] = {
      {"vg-threads-separate.t01.callgrind", "vg-threads-separate.t02.callgrind"},
      {"vg-recurse-default.callgrind", "vg-recurse-separate-recs-callers.callgrind"}};
  for (const auto& [old_name, new_name] : pairs) {
    SCOPED_TRACE(std::string(old_name) + " -> " + new_name);
    const fs::path old_path = fs::path(CALLTREE_CORPUS_DIR) / old_name;
    const fs::path new_path = fs::path(CALLTREE_CORPUS_DIR) / new_name;
    auto old_s = load(old_path);
    auto new_s = load(new_path);
    ASSERT_TRUE(old_s && new_s);
    server::api_options o;
    o.token = token;
    o.port = port;
    const server::api a(o, old_s, new_s);
    EXPECT_EQ(get_json(a, "/api/v1/profile")["mode"], "diff");
    const json d = json::parse(run(std::string(CALLTREE_BINARY) + " diff --json --threshold=0 '" +
                                   old_path.string() + "' '" + new_path.string() + "'"));
    const json list = get_json(a, "/api/v1/functions?limit=5000&unchanged=no");
    EXPECT_EQ(list["matching"], "functions");
    EXPECT_EQ(list["totals"], d["totals"]);
    // The counts are calltree diff's but for one word (issue 57): a function of both sides is
    // changed when the cost the list shows differs (self here, of any event asked), unchanged
    // otherwise: calltree diff's changed ones whose self costs are all the same are unchanged.
    auto shown_changed = [&](const json& f, const char* kind) {
      if (f["change"] != "changed") return false;
      for (const auto& [e, c] : f[kind].items())
        if (c["old"] != c["new"]) return true;
      return false;
    };
    for (const char* kind : {"self", "inclusive"}) {
      SCOPED_TRACE(kind);
      const json k = get_json(a, std::string("/api/v1/functions?limit=0&by=") + kind);
      std::size_t changed = 0;
      for (const auto& f : d["functions"]) changed += shown_changed(f, kind);
      EXPECT_EQ(k["counts"]["changed"], changed);
      EXPECT_EQ(k["counts"]["unchanged"], d["counts"]["unchanged"].get<std::size_t>() +
                                              d["counts"]["changed"].get<std::size_t>() - changed);
      EXPECT_EQ(k["counts"]["added"], d["counts"]["added"]);
      EXPECT_EQ(k["counts"]["removed"], d["counts"]["removed"]);
    }
    // Every function calltree diff lists whose self cost changed (or added, removed), with
    // its numbers.
    std::map<std::string, json> expected;
    for (const auto& f : d["functions"])
      if (f["change"] != "changed" || shown_changed(f, "self"))
        expected[f["object"].get<std::string>() + "|" + f["file"].get<std::string>() + "|" +
                 f["name"].get<std::string>()] = f;
    ASSERT_EQ(list["total_rows"].get<std::size_t>(), expected.size());
    EXPECT_GT(expected.size(), 10u);
    std::uint64_t last = UINT64_MAX;
    for (const auto& r : list["rows"]) {
      const std::string id = r["object"].get<std::string>() + "|" + r["file"].get<std::string>() +
                             "|" + r["name"].get<std::string>();
      auto it = expected.find(id);
      ASSERT_NE(it, expected.end()) << id;
      EXPECT_EQ(r["change"], it->second["change"]) << id;
      EXPECT_EQ(r["self"], it->second["self"]) << id;
      EXPECT_EQ(r["inclusive"], it->second["inclusive"]) << id;
      // An added function has no OLD id, a removed one no NEW id; the others open their key.
      EXPECT_EQ(r["id"].is_null(), r["change"] == "removed") << id;
      EXPECT_EQ(r["old_id"].is_null(), r["change"] == "added") << id;
      if (!r["id"].is_null()) {
        const json fn = get_json(a, "/api/v1/function/" + std::to_string(r["id"].get<int>()));
        EXPECT_EQ(fn["name"], r["name"]) << id;
      }
      // Biggest change first.
      const auto was = r["self"]["Ir"]["old"].get<std::uint64_t>();
      const auto now = r["self"]["Ir"]["new"].get<std::uint64_t>();
      const std::uint64_t size = now > was ? now - was : was - now;
      EXPECT_LE(size, last);
      last = size;
    }
    // With the unchanged ones: every function of either side.
    const json all = get_json(a, "/api/v1/functions?limit=5000");
    EXPECT_EQ(
        all["total_rows"].get<std::size_t>(),
        d["counts"]["changed"].get<std::size_t>() + d["counts"]["unchanged"].get<std::size_t>() +
            d["counts"]["added"].get<std::size_t>() + d["counts"]["removed"].get<std::size_t>());
    // Each side's routes, and the flame graph's changes (each frame's function's).
    get_json(a, "/api/v1/functions?side=old");
    const json fl = get_json(a, "/api/v1/flame");
    EXPECT_TRUE(fl["functions"].begin().value().contains("diff"));
  }
}

// A stated total the self costs do not sum to is said once (issue 57: Xdebug's Memory, twice
// on the page): the reader's summary-mismatch of pyprof2calltree's summary: is the tables'
// warning of the same figure, and is neither listed nor counted; vg-recurse-cacheuse's (a
// summary: of 0 AcCost1, no stated total the tables warn of) stays.
TEST(ServeApi, AMismatchIsSaidOnce) {
  auto codes = [](const json& p) {
    std::multiset<std::string> c;
    for (const auto& d : p["inputs"][0]["diagnostics"]["shown"]) c.insert(d["code"]);
    return c;
  };
  {
    auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "pyprof2calltree-work.callgrind");
    ASSERT_TRUE(s);
    const json p = get_json(make_api(s), "/api/v1/profile");
    const json& in = p["inputs"][0];
    EXPECT_EQ(codes(p).count("summary-mismatch"), 0u) << in["diagnostics"].dump();
    EXPECT_EQ(in["diagnostics"]["warnings"], 0) << in["diagnostics"].dump();
    for (const auto& c : in["diagnostics"]["by_code"]) EXPECT_NE(c["code"], "summary-mismatch");
    std::size_t said = 0;
    for (const auto& w : in["warnings"])
      said += w.get<std::string>().starts_with("the file states a total of 23661972 ns but ");
    EXPECT_EQ(said, 1u) << in["warnings"].dump();
  }
  {
    auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-cacheuse.callgrind");
    ASSERT_TRUE(s);
    const json p = get_json(make_api(s), "/api/v1/profile");
    EXPECT_EQ(codes(p).count("summary-mismatch"), 1u) << p["inputs"][0]["diagnostics"].dump();
    EXPECT_EQ(p["inputs"][0]["diagnostics"]["warnings"], 1);
  }
}

// The diff of two runs of one program where one function's self cost grew (issue 57, a diff
// opened from two Trend points): with Cost self, 1 changed (work; its callers' inclusive costs
// grew, their self costs did not), each row's change saying the same; with Cost inclusive,
// work and its callers.
TEST(ServeApi, DiffCountsTheCostShown) {
  const fs::path dir =
      fs::temp_directory_path() / ("calltree-diffcounts-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto write = [&](const char* name, int work) {
    const fs::path p = dir / name;
    std::FILE* f = std::fopen(p.c_str(), "w");
    std::fprintf(f,
                 "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=helper\ncalls=1 1\n1 %d\n"
                 "fn=helper\n2 3\ncfn=work\ncalls=1 1\n2 %d\nfn=work\n3 %d\n"
                 "fn=other\n4 7\n",
                 work + 3, work, work);
    std::fclose(f);
    return p;
  };
  const auto old_s = load(write("run5.callgrind", 100));
  const auto new_s = load(write("run6.callgrind", 130));
  ASSERT_TRUE(old_s && new_s);
  server::api_options o;
  o.token = token;
  o.port = port;
  const server::api a(o, old_s, new_s);
  auto change_of = [](const json& list) {
    std::map<std::string, std::string> m;
    for (const auto& r : list["rows"]) m[r["name"]] = r["change"];
    return m;
  };
  const json self = get_json(a, "/api/v1/functions?by=self&events=Ir");
  EXPECT_EQ(self["counts"]["changed"], 1) << self["counts"].dump();
  EXPECT_EQ(self["counts"]["unchanged"], 3) << self["counts"].dump();
  EXPECT_EQ(change_of(self), (std::map<std::string, std::string>{{"main", "unchanged"},
                                                                 {"helper", "unchanged"},
                                                                 {"work", "changed"},
                                                                 {"other", "unchanged"}}));
  EXPECT_EQ(get_json(a, "/api/v1/functions?by=self&unchanged=no")["total_rows"], 1);
  const json incl = get_json(a, "/api/v1/functions?by=inclusive&events=Ir");
  EXPECT_EQ(incl["counts"]["changed"], 3) << incl["counts"].dump();
  EXPECT_EQ(incl["counts"]["unchanged"], 1) << incl["counts"].dump();
  EXPECT_EQ(change_of(incl)["main"], "changed");
  fs::remove_all(dir);
}

// Grouped, the diff list answers each group's old and new cost: self summed over its
// functions (those of calltree diff), and only the group's rows with in_group.
TEST(ServeApi, DiffModeGroups) {
  auto old_s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate.t01.callgrind");
  auto new_s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate.t02.callgrind");
  ASSERT_TRUE(old_s && new_s);
  server::api_options o;
  o.token = token;
  o.port = port;
  const server::api a(o, old_s, new_s);
  const json all = get_json(a, "/api/v1/functions?limit=5000");
  for (const char* by : {"object", "file", "class"}) {
    SCOPED_TRACE(by);
    const json g = get_json(a, std::string("/api/v1/functions?limit=1&group=") + by);
    ASSERT_TRUE(g["groups"].is_array());
    ASSERT_GT(g["groups"].size(), std::string(by) == "class" ? 0u : 1u);  // (C: one "(global)")
    EXPECT_EQ(g["total_groups"].get<std::size_t>(), g["groups"].size());
    std::size_t functions = 0;
    std::uint64_t old_sum = 0, new_sum = 0, last = UINT64_MAX;
    for (const auto& grp : g["groups"]) {
      functions += grp["functions"].get<std::size_t>();
      const auto os = grp["self"]["Ir"]["old"].get<std::uint64_t>();
      const auto ns = grp["self"]["Ir"]["new"].get<std::uint64_t>();
      old_sum += os;
      new_sum += ns;
      const std::uint64_t size = ns > os ? ns - os : os - ns;  // ordered by the change
      EXPECT_LE(size, last);
      last = size;
      EXPECT_LE(grp["inclusive"]["Ir"]["new"].get<std::uint64_t>(),
                all["totals"]["Ir"]["new"].get<std::uint64_t>());
      // The group's own rows: their self costs sum to the group's.
      const json in = get_json(a, std::string("/api/v1/functions?limit=5000&group=") + by +
                                      "&in_group=" + grp["name"].get<std::string>());
      EXPECT_EQ(in["total_rows"].get<std::size_t>(), grp["functions"].get<std::size_t>());
      std::uint64_t o2 = 0, n2 = 0;
      for (const auto& r : in["rows"]) {
        o2 += r["self"]["Ir"]["old"].get<std::uint64_t>();
        n2 += r["self"]["Ir"]["new"].get<std::uint64_t>();
      }
      EXPECT_EQ(o2, os) << grp["name"];
      EXPECT_EQ(n2, ns) << grp["name"];
    }
    EXPECT_EQ(functions, all["total_rows"].get<std::size_t>());
    EXPECT_EQ(old_sum, all["totals"]["Ir"]["old"].get<std::uint64_t>());
    EXPECT_EQ(new_sum, all["totals"]["Ir"]["new"].get<std::uint64_t>());
  }
  EXPECT_EQ(get(a, "/api/v1/functions?group=nope").status, 400);
  EXPECT_EQ(get(a, "/api/v1/functions?in_group=x").status, 400);
}

// group=class (views/class_scope.h) on a C++ and a PHP profile: the groups the names give,
// every function in one, each group's self cost (every event) its functions' summed.
TEST(ServeApi, ClassGroupsSumTheirFunctions) {
  auto escaped = [](const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
      if (plain) {
        out += static_cast<char>(c);
      } else {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", c);
        out += hex;
      }
    }
    return out;
  };
  const std::pair<const char*, std::set<std::string>> profiles[] = {
      {"xdebug-classes.callgrind",
       {"(global)", "Base", "Circle", "Rect", "Registry", "Square", "php", "php::Exception"}},
      {"vg-wordfreq-cxx-O2g-default.callgrind", {"(global)", "wf", "std", "std::istream::sentry"}},
  };
  for (const auto& [file, some] : profiles) {
    SCOPED_TRACE(file);
    auto s = load(fs::path(CALLTREE_CORPUS_DIR) / file);
    ASSERT_TRUE(s);
    const server::api a = make_api(s);
    const json all = get_json(a, "/api/v1/functions?limit=1&cycles=no");
    const json g = get_json(a, "/api/v1/functions?limit=1&group=class&group_limit=5000");
    std::set<std::string> names;
    std::size_t functions = 0;
    for (const auto& grp : g["groups"]) {
      const std::string name = grp["name"];
      names.insert(name);
      functions += grp["functions"].get<std::size_t>();
      const json in =
          get_json(a, "/api/v1/functions?limit=5000&group=class&in_group=" + escaped(name));
      ASSERT_EQ(in["total_rows"].get<std::size_t>(), grp["functions"].get<std::size_t>()) << name;
      for (const auto& [event, want] : grp["self"].items()) {
        std::uint64_t sum = 0;
        for (const auto& r : in["rows"]) sum += r["self"][event].get<std::uint64_t>();
        EXPECT_EQ(sum, want.get<std::uint64_t>()) << name << " " << event;
        EXPECT_LE(want.get<std::uint64_t>(), grp["inclusive"][event].get<std::uint64_t>());
      }
    }
    EXPECT_EQ(functions, all["total_rows"].get<std::size_t>());
    for (const auto& n : some) EXPECT_TRUE(names.count(n)) << n;
    if (std::string(file).starts_with("xdebug")) {
      EXPECT_EQ(names, some);
    }
  }
}

// The list's window: an offset is any 64-bit number (one past the rows is an empty window,
// not an error), and a limit above 5000 is capped with the answer saying so; in both modes.
TEST(ServeApi, ListWindowOffsetsAndLimits) {
  auto one = load(fs::path(CALLTREE_SOURCE_DIR) / "examples/recurse.callgrind");
  auto old_s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate.t01.callgrind");
  auto new_s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate.t02.callgrind");
  ASSERT_TRUE(one && old_s && new_s);
  server::api_options o;
  o.token = token;
  o.port = port;
  const server::api single(o, one);
  const server::api diff(o, old_s, new_s);
  for (const server::api* a : {&single, &diff}) {
    SCOPED_TRACE(a == &single ? "serve FILE" : "serve OLD NEW");
    for (const char* offset : {"2147483648", "4294967296", "18446744073709551615"}) {
      SCOPED_TRACE(offset);
      const json past = get_json(*a, std::string("/api/v1/functions?offset=") + offset);
      EXPECT_EQ(past["offset"].dump(), offset);
      EXPECT_TRUE(past["rows"].empty());
      EXPECT_GT(past["total_rows"].get<std::size_t>(), 0u);
    }
    expect_error(get(*a, "/api/v1/functions?offset=18446744073709551616"), 400, "bad_offset");
    const json big = get_json(*a, "/api/v1/functions?limit=100000");
    EXPECT_EQ(big["limit"], 5000);
    EXPECT_EQ(big["max_limit"], 5000);
    EXPECT_EQ(big["limit_capped"], true);
    const json small = get_json(*a, "/api/v1/functions?limit=5000");
    EXPECT_EQ(small["limit"], 5000);
    EXPECT_EQ(small["limit_capped"], false);
    EXPECT_EQ(get_json(*a, "/api/v1/functions")["limit"], 100);
  }
}

TEST(ServeViews, BaseNames) {
  auto is_fn = [](std::string_view n) { return n == "g" || n == "main"; };
  EXPECT_EQ(views::base_name("f'2", is_fn), "f");
  EXPECT_EQ(views::base_name("f'g'main", is_fn), "f");
  EXPECT_EQ(views::base_name("f'h", is_fn), "f'h");
  EXPECT_EQ(views::base_name("f", is_fn), "f");
  EXPECT_EQ(views::base_name("'2", is_fn), "'2");
}

// The labels as base_name() gives them by text: a number per (file, base name), in the order
// of the keys; the session knows a base by a number instead (session_names.cc).
std::vector<std::uint32_t> labels_by_text(const views::session& s) {
  std::set<std::string, std::less<>> first_pieces;
  for (std::uint32_t k = 0; k < s.keys(); ++k) {
    const std::string_view n = s.t.function_name(k);
    first_pieces.emplace(n.substr(0, n.find('\'')));
  }
  auto is_function = [&](std::string_view piece) { return first_pieces.count(piece) != 0; };
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> ids;
  std::vector<std::uint32_t> out;
  for (std::uint32_t k = 0; k < s.keys(); ++k) {
    const std::string base(views::base_name(s.t.function_name(k), is_function));
    out.push_back(ids.emplace(std::pair(s.t.key_file[k], base), ids.size()).first->second);
  }
  return out;
}

void expect_names_indexed(const views::session& s) {
  EXPECT_EQ(s.label_of, labels_by_text(s));
  for (std::uint32_t k = 0; k < s.keys(); ++k) {
    const std::string_view n = s.t.function_name(k);
    ASSERT_LT(s.label_of[k], s.label_name.size());
    const std::string_view base = s.label_name[s.label_of[k]];
    EXPECT_TRUE(base == n || (n.substr(0, base.size()) == base && n[base.size()] == '\''))
        << n << " under " << base;
  }
  // The keys of each name, by (name id, key).
  ASSERT_EQ(s.keys_by_name.size(), s.keys());
  std::vector<std::uint32_t> all = s.keys_by_name;
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::pair(s.t.key_function[a], a) < std::pair(s.t.key_function[b], b);
  }));
  std::sort(all.begin(), all.end());
  for (std::uint32_t k = 0; k < s.keys(); ++k) EXPECT_EQ(all[k], k);
}

TEST(ServeViews, LabelsAreThoseOfBaseNamesByText) {
  std::size_t labels = 0, keys = 0;
  for (const auto& path : test::corpus_profiles(true)) {
    SCOPED_TRACE(path.string());
    auto s = load(path);
    ASSERT_TRUE(s);
    expect_names_indexed(*s);
    labels += s->label_name.size();
    keys += s->keys();
  }
  EXPECT_LT(labels, keys);  // (some keys are joined)
  // Caller contexts and recursion levels, a quote first, a context whose next piece is no
  // function, the same names in another file.
  const fs::path f = fs::path(testing::TempDir()) / "labels.callgrind";
  {
    std::FILE* out = std::fopen(f.c_str(), "w");
    ASSERT_TRUE(out);
    std::fputs(
        "events: Ir\nfl=a.c\nfn=f\n1 10\ncfn=f'2\ncalls=1 1\n1 5\nfn=f'2\n1 5\nfn=f'g\n1 3\n"
        "fn=g\n1 1\nfn=f'k\n1 2\nfn='x\n1 1\nfn=g'1a\n1 1\nfn=h'g'f\n1 1\nfn=f''\n1 1\n"
        "fl=b.c\nfn=f'g\n1 4\nfn=f\n1 1\nfn='x\n1 1\n",
        out);
    std::fclose(out);
  }
  auto s = load(f);
  ASSERT_TRUE(s);
  expect_names_indexed(*s);
  // f, f'2 and f'g one label in a.c; f'k, 'x, g'1a, f'' their own; h'g'f is h's (no key h).
  auto label = [&](std::string_view file, std::string_view name) {
    for (std::uint32_t k = 0; k < s->keys(); ++k)
      if (s->t.files[s->t.key_file[k]] == file && s->t.function_name(k) == name)
        return s->label_of[k];
    ADD_FAILURE() << name << " in " << file;
    return UINT32_MAX;
  };
  EXPECT_EQ(label("a.c", "f"), label("a.c", "f'2"));
  EXPECT_EQ(label("a.c", "f"), label("a.c", "f'g"));
  EXPECT_NE(label("a.c", "f"), label("a.c", "f'k"));
  EXPECT_NE(label("a.c", "g"), label("a.c", "g'1a"));
  EXPECT_NE(label("a.c", "f"), label("b.c", "f"));
  EXPECT_EQ(label("b.c", "f"), label("b.c", "f'g"));
  EXPECT_EQ(s->label_name[label("a.c", "h'g'f")], "h");
}

TEST(ServeViews, Targets) {
  server::request r;
  std::string err;
  ASSERT_TRUE(server::parse_target("/a%20b?x=1&y=a+b%2Bc&&z&x=2#frag", r, err));
  EXPECT_EQ(r.path, "/a b");
  ASSERT_EQ(r.params.size(), 4u);
  EXPECT_EQ(r.params[1], (std::pair<std::string, std::string>{"y", "a b+c"}));
  EXPECT_EQ(r.params[2], (std::pair<std::string, std::string>{"z", ""}));
  for (const char* bad : {"", "x", "/%", "/%4", "/%g0", "/a%00", "/?a=%0"})
    EXPECT_FALSE(server::parse_target(bad, r, err)) << bad;
}

}  // namespace
}  // namespace calltree

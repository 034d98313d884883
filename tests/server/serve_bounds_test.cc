// serve_bounds_test.cc — the serve API's answers stay small and slow ones do not pile up
// (docs/serve.md; docs/reliability.md, "The server under load").
//
// A source that is no file (`???`: code without debug information) sends none of its lines
// (they are every such function's: 209 MB of JSON on the real clang profile); a line's calls
// are cut to max_calls with the count and cost of the rest; a second ask for the same machine
// code runs no objdump (the answer is kept), another ask of the same function neither (the
// replies are kept); and past two answers of machine code being made at once a request is told
// to come back (503, Retry-After) while other routes still answer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "api.h"
#include "serve_test_util.h"

namespace calltree {
namespace {

using nlohmann::json;
using test::get;
using test::get_json;

const std::string no_debug_info =
    std::string(CALLTREE_CORPUS_DIR) + "/vg-sort-instr-noline.callgrind";

int file_id_of(const server::api& a, const std::string& name) {
  const json prof = get_json(a, "/api/v1/profile");
  for (const auto& f : prof["files"])
    if (f["name"] == name) return f["id"];
  ADD_FAILURE() << "no file " << name;
  return 0;
}

TEST(ServeBounds, NoFileSourceSendsNoLines) {
  auto s = test::load(no_debug_info);
  ASSERT_TRUE(s);
  server::api a = test::make_api(s);
  const int fid = file_id_of(a, "???");
  // A function of that file (the page asks with function=ID).
  int fn = -1;
  const json list = get_json(a, "/api/v1/functions?limit=100");
  for (const auto& r : list["rows"])
    if (r["file"] == "???" && r["kind"] == "function") {
      fn = r["id"];
      break;
    }
  ASSERT_GE(fn, 0);
  const server::response r =
      get(a, "/api/v1/source/" + std::to_string(fid) + "?function=" + std::to_string(fn));
  ASSERT_EQ(r.status, 200) << r.body;
  const json v = json::parse(r.body);
  EXPECT_TRUE(v["no_file"].get<bool>());
  EXPECT_TRUE(v["missing"].get<bool>());
  EXPECT_EQ(v["function"], fn);
  // (before: line 0 with the 300-odd calls of every function without a file, 120 KB)
  EXPECT_TRUE(v["lines"].empty()) << v["lines"].size() << " lines";
  EXPECT_TRUE(v["functions"].empty());
  EXPECT_LT(r.body.size(), 2000u);
  // --no-source says the same of it.
  server::api_options o;
  o.token = test::serve_token;
  o.port = test::serve_port;
  o.serve_sources = false;
  server::api quiet(o, s);
  const json q = get_json(quiet, "/api/v1/source/" + std::to_string(fid));
  EXPECT_TRUE(q["no_file"].get<bool>());
  EXPECT_TRUE(q["lines"].empty());
}

TEST(ServeBounds, ALinesCallsAreCutToMaxCalls) {
  auto s = test::load(std::string(CALLTREE_CORPUS_DIR) + "/vg-gxx-small-default.cc1plus.callgrind");
  ASSERT_TRUE(s);
  server::api a = test::make_api(s);
  // The line with the most calls of any file with lines.
  int best_file = -1;
  json best;
  const json prof = get_json(a, "/api/v1/profile");
  for (const auto& f : prof["files"]) {
    if (f["name"] == "???") continue;
    const json v =
        get_json(a, "/api/v1/source/" + std::to_string(f["id"].get<int>()) + "?max_calls=5000");
    EXPECT_EQ(v["max_calls"], 5000);
    for (const auto& l : v["lines"]) {
      EXPECT_FALSE(l.contains("more_calls"));
      if (l.contains("calls") && (best.is_null() || l["calls"].size() > best["calls"].size())) {
        best = l;
        best_file = f["id"];
      }
    }
  }
  ASSERT_GE(best_file, 0);
  const std::size_t n = best["calls"].size();
  ASSERT_GE(n, 3u) << "the corpus file has no line with 3 calls";
  const json v = get_json(a, "/api/v1/source/" + std::to_string(best_file) + "?max_calls=2");
  EXPECT_EQ(v["max_calls"], 2);
  json cut;
  for (const auto& l : v["lines"])
    if (l["line"] == best["line"]) cut = l;
  ASSERT_FALSE(cut.is_null());
  ASSERT_EQ(cut["calls"].size(), 2u);
  EXPECT_EQ(cut["calls"][0], best["calls"][0]);  // the costliest first
  EXPECT_EQ(cut["calls"][1], best["calls"][1]);
  ASSERT_TRUE(cut.contains("more_calls"));
  EXPECT_EQ(cut["more_calls"]["count"], n - 2);
  for (const auto& [event, value] : cut["more_calls"]["cost"].items()) {
    std::uint64_t rest = 0;
    for (std::size_t k = 2; k < n; ++k)
      rest += best["calls"][k]["cost"][event].get<std::uint64_t>();
    EXPECT_EQ(value.get<std::uint64_t>(), rest) << event;
  }
  // The default: 100.
  EXPECT_EQ(get_json(a, "/api/v1/source/" + std::to_string(best_file))["max_calls"], 100);
}

// A function of the no-debug-info profile (it has instruction addresses) that is no cycle.
int some_function(const server::api& a, int skip = 0) {
  const json list = get_json(a, "/api/v1/functions?by=self&limit=50");
  for (const auto& r : list["rows"])
    if (r["kind"] == "function" && skip-- == 0) return r["id"];
  ADD_FAILURE() << "no function";
  return 0;
}

TEST(ServeBounds, MachineCodeIsKept) {
  auto s = test::load(no_debug_info);
  ASSERT_TRUE(s);
  std::atomic<int> runs{0};
  server::api_options o;
  o.token = test::serve_token;
  o.port = test::serve_port;
  o.objdump = [&runs](const objdump_request& req) {
    ++runs;
    objdump_reply r;
    r.path = req.object;
    r.command = "objdump";
    return r;  // (ran, printed nothing: no symbols)
  };
  server::api a(o, s);
  const std::string asm_of = "/api/v1/asm/" + std::to_string(some_function(a));
  const json first = get_json(a, asm_of);
  ASSERT_TRUE(first["has_instructions"].get<bool>());
  const int made = runs.load();
  EXPECT_GT(made, 0);
  // The same again: the answer kept, objdump not run.
  EXPECT_EQ(get_json(a, asm_of), first);
  EXPECT_EQ(runs.load(), made);
  // Another answer of the same function (another hot share): objdump's replies kept.
  get_json(a, asm_of + "?hot=0.5");
  EXPECT_EQ(runs.load(), made);
}

TEST(ServeBounds, FewMachineCodeAnswersAtOnce) {
  auto s = test::load(no_debug_info);
  ASSERT_TRUE(s);
  std::mutex m;
  std::condition_variable cv;
  int inside = 0;
  bool open = false;
  server::api_options o;
  o.token = test::serve_token;
  o.port = test::serve_port;
  // objdump that waits until the test lets it go (5 s at most: then it ends anyway).
  o.objdump = [&](const objdump_request& req) {
    std::unique_lock<std::mutex> lock(m);
    ++inside;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(5), [&] { return open; });
    objdump_reply r;
    r.path = req.object;
    return r;
  };
  server::api a(o, s);
  const std::string one = "/api/v1/asm/" + std::to_string(some_function(a, 0));
  const std::string two = "/api/v1/asm/" + std::to_string(some_function(a, 1));
  const std::string three = "/api/v1/asm/" + std::to_string(some_function(a, 2));
  int status_one = 0, status_two = 0;
  std::thread t1([&] { status_one = get(a, one).status; });
  std::thread t2([&] { status_two = get(a, two).status; });
  {
    std::unique_lock<std::mutex> lock(m);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return inside >= 2; }));
  }
  // Two are being made: a third is told to come back at once, and other routes answer.
  const auto t0 = std::chrono::steady_clock::now();
  const server::response busy = get(a, three);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_EQ(busy.status, 503) << busy.body;
  EXPECT_NE(busy.body.find("\"busy\""), std::string::npos) << busy.body;
  bool retry_after = false;
  for (const auto& [k, v] : busy.headers)
    retry_after = retry_after || (k == "Retry-After" && v == "1");
  EXPECT_TRUE(retry_after);
  EXPECT_EQ(get(a, "/api/v1/functions?limit=5").status, 200);
  {
    std::lock_guard<std::mutex> lock(m);
    open = true;
  }
  cv.notify_all();
  t1.join();
  t2.join();
  EXPECT_EQ(status_one, 200);
  EXPECT_EQ(status_two, 200);
  EXPECT_EQ(get(a, three).status, 200);  // (a slot is free again)
}

}  // namespace
}  // namespace calltree

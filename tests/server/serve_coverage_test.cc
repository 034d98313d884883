// serve_coverage_test.cc — GET /api/v1/coverage/ID (All Callers, All Callees) and the cycle
// detection switch (detect_cycles=no) on corpus files, against the API's own callers and callees
// and inclusive costs: every entry within the function's cost, direct callers and callees at
// distance 1 with at least their calls' cost; with cycles off, no cycle anywhere, a former
// member's inclusive cost the calls into it, every other function's the same as with cycles.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api.h"
#include "serve_test_util.h"
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

std::uint64_t ir(const json& costs) { return costs["Ir"].get<std::uint64_t>(); }

class ServeCoverage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    session_ = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind");
  }
  static void TearDownTestSuite() { session_.reset(); }
  static std::shared_ptr<const views::session> session_;
};
std::shared_ptr<const views::session> ServeCoverage::session_;

TEST_F(ServeCoverage, ListsAgreeWithCallersAndCallees) {
  const server::api a = make_api(session_);
  const json top = get_json(a, "/api/v1/functions?by=inclusive&cycles=no&limit=25");
  std::size_t checked = 0;
  for (const auto& row : top["rows"]) {
    const std::string id = row["id"].dump();
    SCOPED_TRACE(row["name"].get<std::string>());
    const json f = get_json(a, "/api/v1/function/" + id + "?limit=5000");
    for (const char* dir : {"callers", "callees"}) {
      const json c = get_json(a, "/api/v1/coverage/" + id + "?limit=5000&direction=" + dir);
      EXPECT_EQ(c["direction"], dir);
      EXPECT_EQ(c["function"]["id"].dump(), id);
      const std::uint64_t total = ir(c["total"]);
      // The callers' top: the calls into it, its inclusive cost (in no cycle, not a root).
      if (std::string(dir) == "callers" && f["cycle"].is_null() && !f["callers"].empty()) {
        EXPECT_EQ(total, ir(f["inclusive"]));
      }
      std::map<std::string, const json*> by_id;
      std::uint64_t last = UINT64_MAX;
      for (const auto& e : c["entries"]) {
        EXPECT_NE(e["id"].dump(), id);
        EXPECT_LE(ir(e["cost"]), total) << e["name"];
        EXPECT_LE(ir(e["cost"]), last);
        EXPECT_GE(e["min_distance"].get<int>(), 1);
        EXPECT_LE(e["min_distance"].get<int>(), e["max_distance"].get<int>());
        EXPECT_GE(e["paths"].get<int>(), 1);
        last = ir(e["cost"]);
        by_id[e["id"].dump()] = &e;
      }
      EXPECT_EQ(c["total_entries"].get<std::size_t>(), c["entries"].size());
      // Each direct caller or callee (not itself, not a call within its cycle) is an entry at
      // distance 1 with at least the calls' cost (shares are whole units: 1 off at most).
      // (A member of a cycle starts from its inclusive cost, its self and its calls leaving
      // the cycle, which its callers from outside the cycle share in proportion to their
      // calls when these cost more: each gets its call's cost times total / their sum.)
      const std::uint64_t floor =
          static_cast<std::uint64_t>(static_cast<double>(total) * c["min"].get<double>());
      double in = 0;
      for (const auto& call : f[dir])
        if (!call["recursive"].get<bool>() && call["id"].dump() != id)
          in += static_cast<double>(ir(call["cost"]));
      const double scale = std::string(dir) == "callers" && in > static_cast<double>(total)
                               ? static_cast<double>(total) / in
                               : 1;
      for (const auto& call : f[dir]) {
        if (call["recursive"].get<bool>() || call["id"].dump() == id) continue;
        const auto expected =
            static_cast<std::uint64_t>(static_cast<double>(ir(call["cost"])) * scale);
        if (expected <= floor + 1) continue;  // (below the paths followed)
        auto it = by_id.find(call["id"].dump());
        ASSERT_NE(it, by_id.end()) << dir << " " << call["name"];
        EXPECT_EQ((*it->second)["min_distance"].get<int>(), 1) << call["name"];
        EXPECT_GE(ir((*it->second)["cost"]) + 1, expected) << call["name"];
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 50u);
  // A window of entries.
  const std::string main = std::to_string(id_of(a, "main"));
  const json all = get_json(a, "/api/v1/coverage/" + main);
  const json two = get_json(a, "/api/v1/coverage/" + main + "?offset=1&limit=2");
  ASSERT_GE(all["entries"].size(), 3u);
  EXPECT_EQ(two["entries"].size(), 2u);
  EXPECT_EQ(two["entries"][0], all["entries"][1]);
}

TEST_F(ServeCoverage, CycleDetectionOff) {
  const server::api a = make_api(session_);
  const json on = get_json(a, "/api/v1/functions?limit=5000");
  const json off = get_json(a, "/api/v1/functions?limit=5000&detect_cycles=no");
  std::map<std::string, const json*> on_by_id;
  std::size_t cycles = 0;
  for (const auto& r : on["rows"]) {
    on_by_id[r["id"].dump()] = &r;
    cycles += r["kind"] == "cycle";
  }
  EXPECT_EQ(cycles, 2u);
  EXPECT_EQ(off["total_rows"].get<std::size_t>() + cycles, on["total_rows"].get<std::size_t>());
  std::size_t members = 0;
  for (const auto& r : off["rows"]) {
    EXPECT_EQ(r["kind"], "function");
    EXPECT_TRUE(r["cycle"].is_null()) << r["name"];
    const json& was = *on_by_id.at(r["id"].dump());
    EXPECT_EQ(r["self"], was["self"]) << r["name"];
    if (was["cycle"].is_null()) {
      EXPECT_EQ(r["inclusive"], was["inclusive"]) << r["name"];
      continue;
    }
    // A former member: the calls into it from other functions, as its callers list says.
    ++members;
    const std::string id = r["id"].dump();
    const json f = get_json(a, "/api/v1/function/" + id + "?limit=5000&detect_cycles=no");
    EXPECT_TRUE(f["cycle"].is_null());
    std::uint64_t in = 0;
    for (const auto& c : f["callers"]) {
      if (c["id"].dump() == id) continue;
      EXPECT_FALSE(c["recursive"].get<bool>()) << c["name"];  // (only self-calls are)
      in += ir(c["cost"]);
    }
    EXPECT_EQ(ir(r["inclusive"]), in) << r["name"];
    EXPECT_EQ(ir(f["inclusive"]), in) << r["name"];
    // The caller map's top (the calls into it) is now its inclusive cost.
    const json up = get_json(a, "/api/v1/coverage/" + id + "?direction=callers&detect_cycles=no");
    EXPECT_EQ(ir(up["total"]), in);
    EXPECT_FALSE(up["detect_cycles"].get<bool>());
  }
  EXPECT_EQ(members, 5u);  // cyc_a'2, cyc_b'2, cyc_c'2, is_even'2, is_odd'2
  // The call graph marks no cycle; a cycle has nothing to show.
  const std::string cyc_c = std::to_string(id_of(a, "cyc_c"));
  const json g = get_json(a, "/api/v1/graph/" + cyc_c + "?down=3&detect_cycles=no");
  for (const auto& n : g["nodes"]) EXPECT_TRUE(n["cycle"].is_null()) << n["name"];
  const json gon = get_json(a, "/api/v1/graph/" + cyc_c + "?down=3");
  bool marked = false;
  for (const auto& n : gon["nodes"]) marked |= !n["cycle"].is_null();
  EXPECT_TRUE(marked);
  const std::string cycle1 = on["rows"][0]["id"].dump();
  ASSERT_EQ(on["rows"][0]["kind"], "cycle");
  EXPECT_EQ(get(a, "/api/v1/flame?root=" + cycle1 + "&detect_cycles=no").status, 400);
  EXPECT_EQ(get(a, "/api/v1/coverage/" + cycle1 + "?detect_cycles=no").status, 400);
  // With cycles, a cycle's lists are those of the cycle as one node.
  const json cy = get_json(a, "/api/v1/coverage/" + cycle1 + "?direction=callers");
  EXPECT_EQ(cy["entries"][0]["name"], "cyc_c");
}

TEST_F(ServeCoverage, BadRequests) {
  const server::api a = make_api(session_);
  const std::string main = std::to_string(id_of(a, "main"));
  auto code = [&](const std::string& target) {
    const server::response r = get(a, target);
    return std::to_string(r.status) + " " + json::parse(r.body)["error"]["code"].get<std::string>();
  };
  EXPECT_EQ(code("/api/v1/coverage/" + main + "?direction=up"), "400 bad_direction");
  EXPECT_EQ(code("/api/v1/coverage/" + main + "?detect_cycles=maybe"), "400 bad_detect_cycles");
  EXPECT_EQ(code("/api/v1/functions?detect_cycles=1"), "400 bad_detect_cycles");
  EXPECT_EQ(code("/api/v1/coverage/99999999"), "404 no_such_function");
  EXPECT_EQ(code("/api/v1/coverage/x"), "400 bad_id");
  EXPECT_EQ(code("/api/v1/coverage/" + main + "?sort=Nope"), "400 bad_event");
  EXPECT_EQ(code("/api/v1/coverage/" + main + "?min=2"), "400 bad_min");
}

// A file of several parts: one part's lists and costs without cycles.
TEST(ServeCoverageParts, OnePartWithoutCycles) {
  auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-threads-separate-combined.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const json off = get_json(a, "/api/v1/functions?parts=2&detect_cycles=no&limit=5000");
  for (const auto& r : off["rows"]) EXPECT_EQ(r["kind"], "function");
  const json on = get_json(a, "/api/v1/functions?parts=2&limit=5000");
  std::map<std::string, json> by_id;
  for (const auto& r : on["rows"]) by_id[r["id"].dump()] = r;
  for (const auto& r : off["rows"]) {
    if (by_id.at(r["id"].dump())["cycle"].is_null()) {
      EXPECT_EQ(r["inclusive"], by_id.at(r["id"].dump())["inclusive"]) << r["name"];
    }
  }
  const std::string top = off["rows"][0]["id"].dump();
  const json c = get_json(a, "/api/v1/coverage/" + top + "?parts=2&detect_cycles=no");
  for (const auto& e : c["entries"]) EXPECT_LE(ir(e["cost"]), ir(c["total"]));
}

// The members of a mutual recursion with cycle detection on, as KCachegrind shows them
// (tests/golden/t07-mutual-recursion: main -> a 50, a -> b 60, b -> a 30; self main 1, a 20,
// b 30; total 51): a member's maps and lists start from its inclusive cost (its self and its
// calls leaving the cycle: a 20, b 30) and follow no call inside the cycle, so nothing passes
// the total; with cycle detection off, b's callee map is its self and all its calls out, 60.
TEST(ServeCoverageCycles, MembersOfAMutualRecursion) {
  auto s =
      load(fs::path(CALLTREE_SOURCE_DIR) / "tests/golden/t07-mutual-recursion/input.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const std::string fa = std::to_string(id_of(a, "a")), fb = std::to_string(id_of(a, "b")),
                    fmain = std::to_string(id_of(a, "main"));
  // (the root frame's total, and each other frame as "name total" in preorder)
  auto map = [&](const std::string& id, const std::string& dir, const std::string& extra = "") {
    const json fl = get_json(a, "/api/v1/flame?root=" + id + "&direction=" + dir + extra);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < fl["frames"]["id"].size(); ++i)
      out.push_back(fl["functions"][fl["frames"]["id"][i].dump()]["name"].get<std::string>() + " " +
                    fl["frames"]["total"]["Ir"][i].dump());
    return out;
  };
  auto list = [&](const std::string& id, const std::string& dir) {
    const json c = get_json(a, "/api/v1/coverage/" + id + "?direction=" + dir);
    std::vector<std::string> out = {"total " + c["total"]["Ir"].dump()};
    for (const auto& e : c["entries"])
      out.push_back(e["name"].get<std::string>() + " " + e["cost"]["Ir"].dump());
    return out;
  };
  using v = std::vector<std::string>;
  EXPECT_EQ(map(fa, "callees"), v({"a 20"}));
  EXPECT_EQ(map(fb, "callees"), v({"b 30"}));
  EXPECT_EQ(list(fa, "callees"), v({"total 20"}));
  EXPECT_EQ(list(fb, "callees"), v({"total 30"}));
  // Callers: a's 20 all comes through main (its only caller outside the cycle); b has none.
  EXPECT_EQ(map(fa, "callers"), v({"a 20", "main 20"}));
  EXPECT_EQ(map(fb, "callers"), v({"b 30"}));
  EXPECT_EQ(list(fa, "callers"), v({"total 20", "main 20"}));
  EXPECT_EQ(list(fb, "callers"), v({"total 30"}));
  // From main the cycle is entered: a's frame is the call, 50, b's within it.
  const v down = map(fmain, "callees");
  ASSERT_EQ(down.size(), 3u);
  EXPECT_EQ(down[0], "main 51");
  EXPECT_EQ(down[1], "a 50");
  // Cycle detection off: a member's calls out are a sum over the nested calls, as in the file.
  EXPECT_EQ(map(fb, "callees", "&detect_cycles=no")[0], "b 60");
}

}  // namespace
}  // namespace calltree

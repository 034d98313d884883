// serve_numbers_test.cc — the numbers the page shows follow the inclusive model: recursive
// calls are marked (their cost is a sum over nested calls, not a share), a cycle member counts
// the calls its callers list, a cycle has a sandwich and a callee map, a stated total below
// the functions' costs is not a denominator, and the one warning that explains it is shown
// however many notes come before it. (tests/unit/view_sums_test.cc checks the sums on every
// corpus file.)
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "serve_test_util.h"

namespace calltree {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using test::get;
using test::get_json;
using test::id_of;
using test::load;
using test::make_api;

std::uint64_t u(const json& v) {
  return v.is_string() ? std::stoull(v.get<std::string>()) : v.get<std::uint64_t>();
}

TEST(ServeNumbers, RecursiveCallsAreMarkedAndHaveNoShare) {
  // hanoi calls itself (Xdebug, PHP): its self-call sums every level's cost again.
  // (Its script is the corpus's src/php/recursion.php, profiled under /tmp/cgcorpus.)
  views::load_options o = test::where();
  o.source_roots = {{"/tmp/cgcorpus/", std::string(CALLTREE_CORPUS_DIR) + "/"}};
  auto loaded = views::load_session(
      (fs::path(CALLTREE_CORPUS_DIR) / "xdebug-recursion.callgrind").string(), o);
  ASSERT_TRUE(loaded);
  std::shared_ptr<const views::session> s = std::move(*loaded);
  const server::api a = make_api(s);
  const int hanoi = id_of(a, "hanoi");
  const json d = get_json(a, "/api/v1/function/" + std::to_string(hanoi));
  const json& totals = d["totals"];
  bool self_call = false;
  for (const char* side : {"callers", "callees"})
    for (const auto& c : d[side]) {
      const bool recursive = c["recursive"];
      EXPECT_EQ(recursive, c["id"] == hanoi) << side << " " << c["name"];
      if (recursive) self_call = true;
      if (recursive) continue;
      for (auto& [e, v] : c["cost"].items()) EXPECT_LE(u(v), u(totals[e])) << c["name"];
    }
  EXPECT_TRUE(self_call);
  // Its source: the line where hanoi calls itself is marked (and every self-call of the
  // file); the calls that are not recursive cost at most the total.
  const std::uint64_t file = d["source"]["file_id"];
  const json src = get_json(a, "/api/v1/source/" + std::to_string(file));
  ASSERT_TRUE(src["has_costs"].get<bool>());
  bool marked = false;
  for (const auto& l : src["lines"])
    for (const auto& c : l.value("calls", json::array())) {
      if (c["callee"]["id"] == c["caller"]) {
        EXPECT_TRUE(c["recursive"].get<bool>()) << c["callee"]["name"];
      }
      marked |= c["recursive"].get<bool>() && c["caller"] == hanoi;
      if (c["recursive"].get<bool>()) continue;
      for (auto& [e, v] : c["cost"].items()) EXPECT_LE(u(v), u(totals[e])) << c["callee"]["name"];
    }
  EXPECT_TRUE(marked);
}

TEST(ServeNumbers, CycleMembersCountTheirCallsAndCyclesHaveMaps) {
  auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const json list = get_json(a, "/api/v1/functions?limit=3");
  ASSERT_EQ(list["rows"][0]["kind"], "cycle");
  const int cycle = list["rows"][0]["id"];
  const json c = get_json(a, "/api/v1/function/" + std::to_string(cycle));
  ASSERT_GE(c["members"].size(), 2u);
  for (const auto& m : c["members"]) {
    const json d = get_json(a, "/api/v1/function/" + m["id"].dump());
    // "Calls": every call its callers list, but its own.
    std::uint64_t listed = 0;
    for (const auto& r : d["callers"])
      if (r["id"] != m["id"]) listed += u(r["count"]);
    EXPECT_EQ(u(d["calls"]), listed) << m["name"];
    EXPECT_GT(listed, 0u) << m["name"];
    // Calls between members are recursive.
    for (const auto& r : d["callers"])
      EXPECT_EQ(r["recursive"].get<bool>(), r["cycle"] == d["cycle"] && !r["cycle"].is_null());
  }
  // The callee map and the sandwich of the cycle: one root frame, the cycle, of its cost.
  const json down = get_json(a, "/api/v1/flame?root=" + std::to_string(cycle));
  ASSERT_GE(down["frames"]["count"].get<int>(), 1);
  EXPECT_EQ(down["frames"]["id"][0], cycle);
  EXPECT_EQ(u(down["frames"]["total"]["Ir"][0]), u(c["inclusive"]["Ir"]));
  EXPECT_EQ(down["functions"][std::to_string(cycle)]["kind"], "cycle");
  const json up = get_json(a, "/api/v1/flame?root=" + std::to_string(cycle) + "&direction=callers");
  EXPECT_EQ(up["frames"]["id"][0], cycle);
  EXPECT_GT(up["frames"]["count"].get<int>(), 1);
  // A cycle's frames are never its members.
  for (const auto& id : down["frames"]["id"])
    for (const auto& m : c["members"]) EXPECT_NE(id, m["id"]);
}

// A profile whose summary: is below its self costs (as Xdebug's memory summary can be), with
// 150 notes before the one warning of the file.
fs::path stated_below_costs() {
  const fs::path path =
      fs::temp_directory_path() / ("serve-numbers-" + std::to_string(getpid()) + ".callgrind");
  std::ofstream o(path);
  o << "events: Ir\nsummary: 50\npositions: line\nfn=main\n1 40\n";
  for (int i = 0; i < 150; ++i) o << "cfn=work\ncalls=1 0 0\n2 1\n";
  o << "fn=work\n3 150\ntotals: 1\n";
  return path;
}

TEST(ServeNumbers, ATotalBelowTheCostsIsTheStatedOneAndSaidFirst) {
  // summary: 50 and totals: 1, both below the costs (190): the summary, as callgrind_annotate
  // takes it (calltree/totals.h), and the first warning says both figures.
  const fs::path path = stated_below_costs();
  auto s = load(path);
  fs::remove(path);
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const json p = get_json(a, "/api/v1/profile");
  EXPECT_EQ(u(p["totals"]["Ir"]), 50u);
  EXPECT_EQ(u(p["totals_stated"]["Ir"]), 50u);
  EXPECT_EQ(u(p["totals_summed"]["Ir"]), 190u);
  const json& in = p["inputs"][0];
  ASSERT_GE(in["warnings"].size(), 1u);
  EXPECT_EQ(in["warnings"][0].get<std::string>(),
            "the file states a total of 50 Ir but its self costs sum to 190 (380.0 % of it): "
            "percentages are of the stated total and can pass 100 %");
  // The warning is shown, first, though 150 notes came before it.
  const json& d = in["diagnostics"];
  EXPECT_EQ(d["notes"], 150);
  ASSERT_GE(d["shown"].size(), 1u);
  EXPECT_EQ(d["shown"][0]["code"], "totals-mismatch") << d["shown"].dump();
  EXPECT_EQ(d["shown"][0]["severity"], "warning");
  const json list = get_json(a, "/api/v1/functions");
  for (const auto& r : list["rows"]) EXPECT_LE(u(r["inclusive"]["Ir"]), 190u) << r["name"];
}

}  // namespace
}  // namespace calltree

// serve_filters_test.cc — the API's stack filters (focus=, ignore=, hide=, show= on /flame and
// /graph/ID): the same stacks as `export --focus` (the folded export of the same filter), what
// a filtered answer says it left out adds up, the views of one function agree with each other,
// an unfiltered answer is unchanged, and a bad expression is a 400 that says why. The
// transforms as steps (transform=, repeated) in the order given: results that differ by order,
// each the export's with the same steps, and the old parameters meaning what they meant.
#include <cctype>
#include <map>
#include <string>

#include "export/export.h"
#include "serve_test_util.h"
#include "stack_filter_regex.h"

namespace calltree::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::uint64_t roots_sum(const json& fl, const std::string& e) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < fl["frames"]["count"].get<std::size_t>(); ++i)
    if (fl["frames"]["parent"][i] == -1) sum += fl["frames"]["total"][e][i].get<std::uint64_t>();
  return sum;
}

// The folded export's lines ("a;b;c N") summed, with the filter given as the CLI takes it.
std::uint64_t folded_sum(const views::session& s, const server::stack_filter_text& text) {
  export_options o;
  o.format = export_format::folded;
  auto f = server::compile_stack_filter(text, {"--focus", "--ignore", "--hide", "--show-frames"});
  EXPECT_TRUE(f);
  o.filter = *f;
  std::string out;
  auto r = export_profile(s, o, [&](std::string_view b) { out += b; });
  EXPECT_TRUE(r);
  std::uint64_t sum = 0;
  for (std::size_t at = 0; at < out.size();) {
    const auto nl = out.find('\n', at);
    const std::string line = out.substr(at, nl - at);
    sum += std::stoull(line.substr(line.rfind(' ') + 1));
    at = nl == std::string::npos ? out.size() : nl + 1;
  }
  return sum;
}

class ServeFilters : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    session_ = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind");
  }
  static void TearDownTestSuite() { session_.reset(); }
  static std::shared_ptr<const views::session> session_;
};
std::shared_ptr<const views::session> ServeFilters::session_;

TEST_F(ServeFilters, TheProgramsFlameGraphIsTheFilteredExport) {
  auto a = make_api(session_);
  const json plain = get_json(a, "/api/v1/flame");
  EXPECT_FALSE(plain.contains("filter")) << "an unfiltered answer is as it was";
  const std::uint64_t total = plain["totals"]["Ir"];
  struct {
    std::string query;
    server::stack_filter_text cli;
  } const cases[] = {
      {"focus=%5Eackermann", {"^ackermann", {}, {}, {}, false, {}, {}, {}, {}, {}}},
      {"ignore=%5Ecyc_", {{}, "^cyc_", {}, {}, false, {}, {}, {}, {}, {}}},
      {"hide=%5E(main%7C__libc_start_main)",
       {{}, {}, "^(main|__libc_start_main)", {}, false, {}, {}, {}, {}, {}}},
      {"show=fib", {{}, {}, {}, "fib", false, {}, {}, {}, {}, {}}},
      {"focus=%5Ecyc_&ignore=%5Ecyc_b&hide=%5Emain%24",
       {"^cyc_", "^cyc_b", "^main$", {}, false, {}, {}, {}, {}, {}}},
      {"merge_clones=1&collapse_recursion=.&focus=%5Ecyc_",
       {"^cyc_", {}, {}, {}, true, ".", {}, {}, {}, {}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.query);
    const json fl = get_json(a, "/api/v1/flame?min=0&max_frames=200000&" + c.query);
    ASSERT_TRUE(fl.contains("filter"));
    EXPECT_EQ(fl["filter"]["total"]["Ir"], total);
    const std::uint64_t dropped = fl["filter"]["dropped"]["Ir"];
    // (hide leaves out only stacks with no frame left: main and its callers' own, of no cost.)
    if (!c.query.starts_with("hide")) {
      EXPECT_GT(dropped, 0u);
    }
    EXPECT_LT(dropped, total);
    EXPECT_EQ(roots_sum(fl, "Ir") + dropped, total) << "shown + left out = the total";
    EXPECT_EQ(roots_sum(fl, "Ir"), folded_sum(*session_, c.cli)) << "the export's stacks";
    EXPECT_TRUE(fl["filter"]["unmatched"].empty());
  }
  const json none = get_json(a, "/api/v1/flame?focus=nothing_is_called_this&hide=neither");
  EXPECT_EQ(none["frames"]["count"], 0);
  EXPECT_EQ(none["filter"]["dropped"]["Ir"], total);
  EXPECT_EQ(none["filter"]["unmatched"], json::array({"focus", "hide"}));
}

TEST_F(ServeFilters, TheViewsOfOneFunctionReadTheFilteredStacks) {
  auto a = make_api(session_);
  const std::string fib = std::to_string(id_of(a, "fib"));
  for (const std::string f : {"", "&ignore=%5Eackermann", "&hide=%5Emain%24", "&focus=fib"}) {
    SCOPED_TRACE(f);
    const std::string q = "focus=." + f;
    const json down = get_json(a, "/api/v1/flame?root=" + fib + "&direction=callees&min=0&" + q);
    const json up = get_json(a, "/api/v1/flame?root=" + fib + "&direction=callers&min=0&" + q);
    const json g = get_json(a, "/api/v1/graph/" + fib + "?min=0&" + q);
    ASSERT_GT(down["frames"]["count"], 0);
    // The function's frames in the filtered stacks: below, above and in the graph, the same.
    const std::uint64_t incl = down["frames"]["total"]["Ir"][0];
    EXPECT_EQ(up["frames"]["total"]["Ir"][0], incl);
    EXPECT_EQ(g["nodes"][0]["id"].get<int>(), std::stoi(fib));
    EXPECT_EQ(g["nodes"][0]["inclusive"]["Ir"], incl);
    EXPECT_EQ(g["filter"]["dropped"], down["filter"]["dropped"]);
    // Each call out of the function costs what the callee map's frame of that callee holds.
    std::map<int, std::uint64_t> below;
    for (std::size_t i = 0; i < down["frames"]["count"].get<std::size_t>(); ++i)
      if (down["frames"]["parent"][i] == 0)
        below[down["frames"]["id"][i]] += down["frames"]["total"]["Ir"][i].get<std::uint64_t>();
    for (const json& e : g["edges"])
      if (e["from"] == std::stoi(fib) && e["to"] != std::stoi(fib)) {
        EXPECT_EQ(e["cost"]["Ir"], below[e["to"]]) << e.dump();
      }
  }
  // Ignoring the function itself leaves it nothing.
  const json g = get_json(a, "/api/v1/graph/" + fib + "?ignore=%5Efib");
  EXPECT_EQ(g["nodes"][0]["inclusive"]["Ir"], 0);
  const json down = get_json(a, "/api/v1/flame?root=" + fib + "&ignore=%5Efib");
  EXPECT_EQ(down["frames"]["count"], 0);
}

TEST_F(ServeFilters, TransformStepsApplyInTheirOrder) {
  auto a = make_api(session_);
  const json plain = get_json(a, "/api/v1/flame?min=0&max_frames=200000");
  const std::uint64_t total = plain["totals"]["Ir"];
  // The path from a root to a frame fib'2 under fib (--separate-recs' second level).
  auto name = [&](std::size_t i) {
    return plain["functions"][std::to_string(plain["frames"]["id"][i].get<int>())]["name"]
        .get<std::string>();
  };
  std::string path;
  for (std::size_t i = 0; i < plain["frames"]["count"].get<std::size_t>() && path.empty(); ++i) {
    const int parent = plain["frames"]["parent"][i];
    if (name(i) != "fib'2" || parent < 0 || name(parent) != "fib") continue;
    for (int f = static_cast<int>(i); f >= 0; f = plain["frames"]["parent"][f].get<int>())
      path = name(f) + (path.empty() ? "" : ";") + path;
  }
  ASSERT_FALSE(path.empty());
  const std::string focus = "transform=focus_path:" + encoded(path);
  const std::string collapse = "transform=collapse_recursion:" + encoded("^fib$");
  const std::string q = "/api/v1/flame?min=0&max_frames=200000&";

  // Focus on fib'2's path, then collapse fib's recursion: fib'2 is the root, fib'3... in it.
  const json focus_first = get_json(a, q + focus + "&" + collapse);
  server::stack_filter_text steps;
  steps.steps = {{"focus_path", path}, {"collapse_recursion", "^fib$"}};
  ASSERT_GT(focus_first["frames"]["count"], 0);
  EXPECT_TRUE(focus_first["filter"]["unmatched"].empty());
  EXPECT_EQ(focus_first["filter"]["text"], "focus_path=" + path + " collapse_recursion=^fib$");
  const std::uint64_t dropped = focus_first["filter"]["dropped"]["Ir"];
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(roots_sum(focus_first, "Ir") + dropped, total);
  EXPECT_EQ(roots_sum(focus_first, "Ir"), folded_sum(*session_, steps));
  for (std::size_t i = 0; i < focus_first["frames"]["count"].get<std::size_t>(); ++i) {
    const std::string n =
        focus_first["functions"][std::to_string(focus_first["frames"]["id"][i].get<int>())]["name"];
    if (focus_first["frames"]["parent"][i] == -1)
      EXPECT_EQ(n, "fib'2");
    else
      EXPECT_FALSE(n == "fib" || n.starts_with("fib'")) << "fib under the root fib'2: " << n;
  }
  // Collapse first: no fib'2 under fib is left for the focus, the whole total left out.
  const json collapse_first = get_json(a, q + collapse + "&" + focus);
  EXPECT_EQ(collapse_first["frames"]["count"], 0);
  EXPECT_EQ(collapse_first["filter"]["dropped"]["Ir"], total);
  EXPECT_EQ(collapse_first["filter"]["unmatched"], json::array({"focus_path"}));
  // The old parameters are their fixed order (collapse, then focus) whatever their order.
  const json old =
      get_json(a, q + "focus_path=" + encoded(path) + "&collapse_recursion=" + encoded("^fib$"));
  EXPECT_EQ(old["frames"]["count"], 0);
  EXPECT_EQ(old["filter"]["text"], "collapse_recursion=^fib$ focus_path=" + path);
  // A step of no transform, or of a bad expression: 400.
  for (const std::string t : {"transform=fold", "transform=collapse_object",
                              "transform=collapse_recursion:(a", "transform=merge_clones:x"}) {
    server::response r = get(a, "/api/v1/flame?" + t);
    EXPECT_EQ(r.status, 400) << t;
    EXPECT_EQ(json::parse(r.body)["error"]["code"], "bad_regex") << t;
  }
}

// The list with transforms: fib's recursion levels one row, whose costs are the levels' summed
// self costs and fib's own inclusive cost (exact: fib'2 is called by fib alone), as the flame
// graph with the same step holds them; every recursion collapsed, cyc_a's row is entered again
// below itself (cyc_a'2 under cyc_c): an upper bound. The self costs sum to the total still;
// without transforms the answer has none of their fields.
TEST_F(ServeFilters, TheListMergesRowsAsTheTransformsMergeFrames) {
  auto a = make_api(session_);
  const std::string q = "/api/v1/functions?cycles=no&limit=5000&sort=Ir&by=self";
  const json plain = get_json(a, q);
  EXPECT_FALSE(plain.contains("transforms"));
  EXPECT_FALSE(plain["rows"][0].contains("functions"));
  std::uint64_t fib_self = 0, levels = 0, total_self = 0;
  std::uint64_t fib_inclusive = 0;
  for (const json& r : plain["rows"]) {
    const std::string n = r["name"];
    total_self += r["self"]["Ir"].get<std::uint64_t>();
    if (n == "fib" || n.starts_with("fib'")) fib_self += r["self"]["Ir"].get<std::uint64_t>();
    if (n.starts_with("fib'")) ++levels;
    if (n == "fib") fib_inclusive = r["inclusive"]["Ir"];
  }
  ASSERT_GT(levels, 0u);

  const json merged = get_json(a, q + "&transform=collapse_recursion:" + encoded("^fib$"));
  ASSERT_TRUE(merged.contains("transforms"));
  EXPECT_EQ(merged["transforms"]["functions_merged"], levels);
  EXPECT_EQ(merged["transforms"]["focus_path_not_applied"], false);
  EXPECT_EQ(merged["total_rows"], plain["total_rows"].get<std::uint64_t>() - levels);
  std::uint64_t sum = 0;
  const json* fib = nullptr;
  for (const json& r : merged["rows"]) {
    sum += r["self"]["Ir"].get<std::uint64_t>();
    EXPECT_FALSE(r["name"].get<std::string>().starts_with("fib'")) << r.dump();
    if (r["name"] == "fib") fib = &r;
  }
  EXPECT_EQ(sum, total_self);
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ((*fib)["functions"], levels + 1);
  EXPECT_EQ((*fib)["self"]["Ir"], fib_self);
  EXPECT_EQ((*fib)["inclusive"]["Ir"], fib_inclusive);
  EXPECT_EQ((*fib)["inclusive_exact"], true);
  // The flame graph with the same step: fib's outermost frames hold that inclusive cost, and
  // its frames that self cost.
  const json fl = get_json(
      a, "/api/v1/flame?min=0&max_frames=200000&transform=collapse_recursion:" + encoded("^fib$"));
  const int fib_id = (*fib)["id"];
  std::uint64_t outer = 0, frames_self = 0;
  const std::size_t n = fl["frames"]["count"];
  std::vector<int> inside(n, 0);  // a frame below a frame of fib
  for (std::size_t i = 0; i < n; ++i) {
    const int p = fl["frames"]["parent"][i];
    const bool is_fib = fl["frames"]["id"][i] == fib_id;
    if (is_fib) frames_self += fl["frames"]["self"]["Ir"][i].get<std::uint64_t>();
    if (is_fib && (p < 0 || !inside[p]))
      outer += fl["frames"]["total"]["Ir"][i].get<std::uint64_t>();
    inside[i] = is_fib || (p >= 0 && inside[p]);
  }
  EXPECT_EQ(outer, fib_inclusive);
  EXPECT_EQ(frames_self, fib_self);

  // Every recursion: cyc_a'2 (under cyc_c) is cyc_a's row, entered again below itself.
  const json all = get_json(a, q + "&transform=collapse_recursion:" + encoded("."));
  bool cyc_a = false;
  for (const json& r : all["rows"])
    if (r["name"] == "cyc_a") {
      cyc_a = true;
      EXPECT_GT(r["functions"], 1) << r.dump();
      EXPECT_EQ(r["inclusive_exact"], false) << r.dump();
    }
  EXPECT_TRUE(cyc_a);
  // A focus on a call path: no row merged, and the answer says it was not applied.
  const json focus = get_json(a, q + "&transform=focus_path:main");
  EXPECT_EQ(focus["transforms"]["focus_path_not_applied"], true);
  EXPECT_EQ(focus["transforms"]["functions_merged"], 0);
  EXPECT_EQ(focus["total_rows"], plain["total_rows"]);
  // A bad step is a 400, as the stack views'.
  EXPECT_EQ(get(a, "/api/v1/functions?transform=collapse_object").status, 400);
}

TEST_F(ServeFilters, ABadExpressionSaysWhy) {
  auto a = make_api(session_);
  const std::string fib = std::to_string(id_of(a, "fib"));
  struct {
    std::string target, message;
  } const cases[] = {
      {"/api/v1/flame?focus=(a", "focus: bad regular expression: missing ): (a"},
      {"/api/v1/flame?root=" + fib + "&show=*x", "show: bad regular expression"},
      {"/api/v1/graph/" + fib + "?hide=a%5C", "hide: bad regular expression"},
      {"/api/v1/flame?ignore=" + std::string(1001, 'a'),
       "ignore: the regular expression is "
       "longer than 1000 bytes"},
  };
  for (const auto& c : cases) {
    server::response r = get(a, c.target);
    EXPECT_EQ(r.status, 400) << c.target;
    const json body = json::parse(r.body);
    EXPECT_EQ(body["error"]["code"], "bad_regex");
    EXPECT_NE(body["error"]["message"].get<std::string>().find(c.message), std::string::npos)
        << body.dump();
  }
  // A cycle's views take no filter.
  const json list = get_json(a, "/api/v1/functions?cycles=yes&filter=%3Ccycle");
  ASSERT_FALSE(list["rows"].empty());
  const std::string cycle = std::to_string(list["rows"][0]["id"].get<int>());
  EXPECT_EQ(get(a, "/api/v1/flame?root=" + cycle + "&focus=a").status, 400);
  EXPECT_EQ(get(a, "/api/v1/graph/" + cycle + "?focus=a").status, 400);
}

}  // namespace
}  // namespace calltree::test

// serve_locate_test.cc — the function list's locate=ID (GET /api/v1/functions): the index of
// a function's row in the list as it is ordered, filtered and grouped, which the page scrolls
// its list to when a function is selected elsewhere (a caller followed). Checked against the
// whole list read page by page, in each order; a function filtered out is null; with the
// transforms, a clone is found at its function's row; a bad id is a 400; without locate= the
// answer is as it was.
#include <algorithm>
#include <string>
#include <vector>

#include "serve_test_util.h"

namespace calltree::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The ids of every row of the list that `query` asks for, in its order.
std::vector<int> all_rows(const server::api& a, const std::string& query) {
  std::vector<int> ids;
  for (std::size_t offset = 0;; offset += 5000) {
    const json page = get_json(a, "/api/v1/functions?limit=5000&offset=" +
                                      std::to_string(offset) + (query.empty() ? "" : "&" + query));
    for (const auto& r : page["rows"]) ids.push_back(r["id"]);
    if (ids.size() >= page["total_rows"].get<std::size_t>() || page["rows"].empty()) return ids;
  }
}

TEST(ServeLocate, TheIndexOfARowInEachOrder) {
  auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-gxx-small-default.cc1plus.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  const std::string libc = encoded("/usr/lib/x86_64-linux-gnu/libc.so.6");
  for (const std::string& query :
       std::vector<std::string>{"", "by=inclusive", "by=calls", "by=name", "by=self&dir=asc",
                                "filter=^ggc_", "group=object&in_group=" + libc}) {
    SCOPED_TRACE(query);
    const std::vector<int> ids = all_rows(a, query);
    ASSERT_GT(ids.size(), 3u);
    // The first row, the last, and some between (cycles among them).
    for (const std::size_t i : {std::size_t{0}, ids.size() / 3, ids.size() / 2, ids.size() - 1}) {
      const json l = get_json(a, "/api/v1/functions?limit=1&locate=" + std::to_string(ids[i]) +
                                     (query.empty() ? "" : "&" + query));
      EXPECT_EQ(l["located"], i) << "row of " << ids[i];
      EXPECT_EQ(l["rows"].size(), 1u);  // (the window as asked)
    }
  }
  // Filtered out, or no such id: null.
  const int main_id = id_of(a, "main");
  EXPECT_TRUE(get_json(a, "/api/v1/functions?filter=^ggc_&locate=" + std::to_string(main_id))
                  ["located"].is_null());
  EXPECT_TRUE(get_json(a, "/api/v1/functions?locate=4000000000")["located"].is_null());
  // Without locate=: no such field, the answer as it was.
  EXPECT_FALSE(get_json(a, "/api/v1/functions?limit=1").contains("located"));
  for (const char* bad : {"abc", "-1", "99999999999"}) {
    const server::response r = get(a, std::string("/api/v1/functions?locate=") + bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_NE(r.body.find("bad_locate"), std::string::npos) << r.body;
  }
}

TEST(ServeLocate, AMergedFunctionIsItsRow) {
  auto s = load(fs::path(CALLTREE_CORPUS_DIR) / "vg-gxx-small-default.cc1plus.callgrind");
  ASSERT_TRUE(s);
  const server::api a = make_api(s);
  // A function merged into another's row: libc's functions in the row of libc.
  const std::string collapse = "transform=" + encoded("collapse_object:libc\\.so");
  const json merged = get_json(a, "/api/v1/functions?limit=5000&" + collapse);
  int row = -1, clone = -1;
  for (std::size_t i = 0; i < merged["rows"].size() && clone < 0; ++i) {
    const json& r = merged["rows"][i];
    if (!r.contains("members")) continue;
    for (const auto& m : r["members"])
      if (m != r["id"]) {
        row = static_cast<int>(i);
        clone = m;
        break;
      }
  }
  ASSERT_GE(clone, 0) << "a row of several functions among the first 5000";
  const json l =
      get_json(a, "/api/v1/functions?limit=1&" + collapse + "&locate=" + std::to_string(clone));
  EXPECT_EQ(l["located"], row);
  // Untransformed, it is a row of its own.
  const std::vector<int> plain = all_rows(a, "");
  const auto at = std::find(plain.begin(), plain.end(), clone);
  ASSERT_NE(at, plain.end());
  EXPECT_EQ(get_json(a, "/api/v1/functions?limit=1&locate=" + std::to_string(clone))["located"],
            at - plain.begin());
}

}  // namespace
}  // namespace calltree::test

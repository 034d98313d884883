// serve_runs_test.cc — the serve API on profiles that change (status, reload) and on runs of
// several files, in-process (the binary's side: serve_reload.py, web/tests/browser_runs).
#include <atomic>
#include <filesystem>
#include <thread>

#include "serve_test_util.h"

namespace calltree::test {
namespace {

namespace fs = std::filesystem;
const fs::path corpus = CALLTREE_CORPUS_DIR;

// Reloads read the file *which names (none: an error).
void enable_reload(server::api& a, const fs::path& file, std::string* which) {
  a.enable_reload({server::stamp_of(file.string())}, [which]() -> result<server::served_files> {
    if (which->empty()) return error{"gone"};
    auto s = views::load_session(*which, where());
    if (!s) return s.error();
    server::served_files out;
    out.files.push_back(server::stamp_of(*which));
    out.sessions.push_back(std::move(*s));
    return out;
  });
}

TEST(ServeReload, WithoutFilesNothingReloads) {
  server::api a = make_api(load(corpus / "vg-threads-separate.t03.callgrind"));
  const nlohmann::json st = get_json(a, "/api/v1/status");
  EXPECT_EQ(st["generation"], 1);
  EXPECT_EQ(st["reloadable"], false);
  EXPECT_EQ(st["changed"], false);
  EXPECT_TRUE(st["files"].empty());
  const server::response r = get(a, "/api/v1/reload");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("no_reload"), std::string::npos);
}

TEST(ServeReload, ReadsAgainAndKeepsTheFunctionByName) {
  const fs::path t03 = corpus / "vg-threads-separate.t03.callgrind";
  const fs::path t02 = corpus / "vg-threads-separate.t02.callgrind";
  std::string which = t02.string();
  server::api a = make_api(load(t03));
  enable_reload(a, t03, &which);
  const nlohmann::json st = get_json(a, "/api/v1/status");
  EXPECT_EQ(st["reloadable"], true);
  ASSERT_EQ(st["files"].size(), 1u);
  EXPECT_EQ(st["files"][0]["state"], "same");
  const int before = id_of(a, "worker");
  const nlohmann::json r =
      get_json(a, "/api/v1/reload?generation=1&keep=" + std::to_string(before));
  EXPECT_EQ(r["generation"], 2);
  const int after = id_of(a, "worker");
  EXPECT_NE(before, after);  // (another file: the ids differ, the name is kept)
  EXPECT_EQ(r["function"], after);
  EXPECT_EQ(get_json(a, "/api/v1/profile")["totals"]["Ir"], 9046032);  // t02's
  // A failed reload keeps what is served.
  which.clear();
  const server::response bad = get(a, "/api/v1/reload?generation=2");
  EXPECT_EQ(bad.status, 422) << bad.body;
  EXPECT_NE(bad.body.find("reload_failed"), std::string::npos);
  EXPECT_EQ(get_json(a, "/api/v1/profile")["totals"]["Ir"], 9046032);
  EXPECT_EQ(get_json(a, "/api/v1/status")["generation"], 2);
}

// Requests while the profile is replaced under them: each answers from the session it began
// with (no crash, no error), and the last answers are of the last file read.
TEST(ServeReload, RequestsDuringReloads) {
  const fs::path t02 = corpus / "vg-threads-separate.t02.callgrind";
  const fs::path t04 = corpus / "vg-threads-separate.t04.callgrind";
  std::string which = t04.string();
  server::api a = make_api(load(t02));
  enable_reload(a, t02, &which);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0}, answered{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 2; ++i)
    clients.emplace_back([&] {
      while (!done) {
        for (const char* t : {"/api/v1/functions?limit=50&by=inclusive", "/api/v1/flame",
                              "/api/v1/profile", "/api/v1/function/3"})
          if (get(a, t).status != 200) ++failures;
        ++answered;
      }
    });
  for (int k = 0; k < 4; ++k) {
    which = (k % 2 ? t02 : t04).string();
    EXPECT_EQ(get(a, "/api/v1/reload").status, 200);
  }
  done = true;
  for (auto& c : clients) c.join();
  EXPECT_EQ(failures, 0);
  EXPECT_GT(answered, 0);
  EXPECT_EQ(get_json(a, "/api/v1/status")["generation"], 5);
  EXPECT_EQ(get_json(a, "/api/v1/profile")["totals"]["Ir"], 9046032);
}

}  // namespace
}  // namespace calltree::test

// serve_runs_test.cc — the serve API on profiles that change (status, reload) and on runs of
// several files, in-process (the binary's side: serve_reload.py, web/tests/browser_runs).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
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

// A run of five --separate-threads files (tests/runs/threads) served together: each thread's
// stacks stay its own. The workers' entry (clone, in each worker's file) is a root, never under
// the main thread's main -> pthread_create -> clone3 (clone is one function in both); the roots
// sum to the total, and to each part's total for that part alone; no frame is above its
// function's inclusive cost (but by the units the estimate says no frame had room for,
// `unfitted`: rounding); children fit in their parent; main's frame is main's inclusive cost.
void check_thread_flame(const server::api& a, const std::string& parts) {
  const std::string q = parts.empty() ? "" : "&parts=" + parts;
  const nlohmann::json fl = get_json(a, "/api/v1/flame?min=0&max_frames=200000&merge=no" + q);
  const nlohmann::json list = get_json(a, "/api/v1/functions?cycles=no&limit=100000" + q);
  std::map<std::uint64_t, std::uint64_t> inclusive;
  std::map<std::uint64_t, std::string> name;
  for (const auto& r : list["rows"]) {
    inclusive[r["id"]] = r["inclusive"]["Ir"];
    name[r["id"]] = r["name"];
  }
  const auto& fr = fl["frames"];
  const std::size_t n = fr["count"];
  std::vector<std::uint64_t> kids(n, 0);
  std::uint64_t roots = 0;
  const std::uint64_t slack = fl["unfitted"];
  EXPECT_LE(slack, 4u) << "parts " << parts;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t total = fr["total"]["Ir"][i];
    const std::uint64_t id = fr["id"][i];
    const std::int64_t p = fr["parent"][i];
    if (p < 0)
      roots += total;
    else
      kids[static_cast<std::size_t>(p)] += total;
    if (inclusive.count(id)) {
      EXPECT_LE(total, inclusive[id] + slack)
          << name[id] << " (frame " << i << ", parts " << parts << ")";
    }
    if (name[id] == "main") {  // (within the units of rounding)
      EXPECT_LE(total, inclusive[id] + slack) << "parts " << parts;
      EXPECT_GE(total + 4, inclusive[id]) << "parts " << parts;
    }
    if (name[id] == "worker") {
      for (std::int64_t up = p; up >= 0; up = fr["parent"][static_cast<std::size_t>(up)])
        EXPECT_NE(name[fr["id"][static_cast<std::size_t>(up)]], "main")
            << "a worker's stack under the main thread's main (parts " << parts << ")";
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_EQ(kids[i] + fr["self"]["Ir"][i].get<std::uint64_t>(), fr["total"]["Ir"][i])
        << "frame " << i;
  EXPECT_EQ(roots, fl["totals"]["Ir"].get<std::uint64_t>()) << "parts " << parts;
}

// The five --separate-threads files of tests/runs/threads read as one run (serve FILE...).
std::shared_ptr<const views::session> threads_run() {
  const fs::path dir = fs::path(CALLTREE_SOURCE_DIR) / "tests/runs/threads";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files.size(), 5u);
  auto s = views::load_run(files, where());
  EXPECT_TRUE(s) << s.error().message;
  return s ? std::shared_ptr<const views::session>(std::move(*s)) : nullptr;
}

TEST(ServeRuns, EachThreadsStacksAreItsOwn) {
  auto run = threads_run();
  ASSERT_TRUE(run);
  server::api a = make_api(run);
  check_thread_flame(a, "");
  for (const char* p : {"1", "2", "3", "2,4", "1,3,5"}) check_thread_flame(a, p);
  // Every part's entry is a root: the main thread's (the program's entry) and clone, the four
  // workers' (one frame: the same stack in four threads is one).
  const nlohmann::json fl = get_json(a, "/api/v1/flame?min=0&merge=no");
  const int clone = id_of(a, "clone"), worker = id_of(a, "worker");
  std::size_t clone_roots = 0;
  for (std::size_t i = 0; i < fl["frames"]["count"].get<std::size_t>(); ++i)
    if (fl["frames"]["parent"][i] == -1 && fl["frames"]["id"][i] == clone) ++clone_roots;
  EXPECT_EQ(clone_roots, 1u);
  // The sandwich of worker: its callers are clone's start_thread, in the workers alone.
  const nlohmann::json up =
      get_json(a, "/api/v1/flame?direction=callers&min=0&root=" + std::to_string(worker));
  for (std::size_t i = 0; i < up["frames"]["count"].get<std::size_t>(); ++i)
    EXPECT_NE(up["frames"]["id"][i], id_of(a, "main"));
}

// by_thread=1 (issue 61): one root frame per selected part (id -1, in the parts' order), its
// total the part's total in /profile, the roots summing to the parts' total; below each, the
// frames of that part alone: summed per function, their self costs are the part's own
// (/functions?parts=N), every unit placed under its thread.
void check_by_thread(const server::api& a, const std::string& parts) {
  const std::string q = parts.empty() ? "" : "&parts=" + parts;
  const nlohmann::json fl =
      get_json(a, "/api/v1/flame?by_thread=1&min=0&max_frames=200000&merge=no" + q);
  const nlohmann::json pr = get_json(a, "/api/v1/profile");
  ASSERT_TRUE(fl["by_thread"].get<bool>());
  const auto& fr = fl["frames"];
  const auto& threads = fl["threads"];
  const std::size_t n = fr["count"];
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < n; ++i)
    if (fr["parent"][i] == -1) roots.push_back(i);
  const std::size_t chosen = parts.empty() ? pr["inputs"].back()["parts"].size()
                                           : 1 + std::count(parts.begin(), parts.end(), ',');
  ASSERT_EQ(threads.size(), chosen) << "parts " << parts;
  ASSERT_EQ(roots.size(), threads.size()) << "parts " << parts;
  std::uint64_t sum = 0;
  std::vector<std::size_t> thread_of(n);
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const std::size_t f = roots[t];
    EXPECT_EQ(threads[t]["frame"].get<std::size_t>(), f);
    EXPECT_EQ(fr["id"][f], -1);
    EXPECT_EQ(fr["self"]["Ir"][f], 0);
    const std::size_t part = threads[t]["part"];
    if (t > 0) {
      EXPECT_GT(part, threads[t - 1]["part"].get<std::size_t>()) << "in order";
    }
    const auto& stated = pr["inputs"].back()["parts"][part - 1]["totals"]["Ir"];
    EXPECT_EQ(fr["total"]["Ir"][f], stated) << "thread " << part;
    EXPECT_EQ(threads[t]["totals"]["Ir"], stated);
    EXPECT_EQ(threads[t]["name"], "thread " + std::to_string(threads[t]["thread"].get<int>()));
    sum += fr["total"]["Ir"][f].get<std::uint64_t>();
  }
  EXPECT_EQ(sum, fl["totals"]["Ir"].get<std::uint64_t>()) << "parts " << parts;
  // Each frame's thread (frames in preorder: a root's subtree up to the next root).
  std::map<std::size_t, std::map<std::uint64_t, std::uint64_t>> self;  // thread -> id -> self
  for (std::size_t i = 0, t = 0; i < n; ++i) {
    if (fr["parent"][i] == -1) {
      t = static_cast<std::size_t>(std::find(roots.begin(), roots.end(), i) - roots.begin());
      continue;
    }
    EXPECT_NE(fr["id"][i], -1);
    self[t][fr["id"][i].get<std::uint64_t>()] += fr["self"]["Ir"][i].get<std::uint64_t>();
  }
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const std::string part = std::to_string(threads[t]["part"].get<int>());
    const nlohmann::json list =
        get_json(a, "/api/v1/functions?cycles=no&limit=100000&parts=" + part);
    std::map<std::uint64_t, std::uint64_t> want;
    for (const auto& r : list["rows"])
      if (r["self"]["Ir"].get<std::uint64_t>()) want[r["id"]] = r["self"]["Ir"];
    std::erase_if(self[t], [](const auto& kv) { return kv.second == 0; });
    EXPECT_EQ(self[t], want) << "thread frame of part " << part;
  }
}

TEST(ServeRuns, ByThreadOneRootPerThread) {
  auto run = threads_run();
  ASSERT_TRUE(run);
  server::api a = make_api(run);
  for (const char* p : {"", "2", "2,4", "1,3,5"}) check_by_thread(a, p);
  // The same file of five parts (--combine-dumps): the same roots.
  server::api c = make_api(load(corpus / "vg-threads-separate-combined.callgrind"));
  for (const char* p : {"", "3"}) check_by_thread(c, p);
  // From a function, no thread frames; anything but 1 or 0 is refused; without it, no field.
  const std::string clone = std::to_string(id_of(c, "clone"));
  EXPECT_FALSE(get_json(c, "/api/v1/flame?by_thread=1&root=" + clone)["by_thread"].get<bool>());
  EXPECT_EQ(get(c, "/api/v1/flame?by_thread=yes").status, 400);
  EXPECT_FALSE(get_json(c, "/api/v1/flame").contains("threads"));
  EXPECT_EQ(get(c, "/api/v1/flame?by_thread=0").body, get(c, "/api/v1/flame").body);
}

// The Source of one part (parts=N): that part's lines alone, read again from the file; each
// line's costs and calls in the parts alone sum to its cost in all of them, for the five
// files of a run and for the same run in one file; several parts answer every part's lines;
// a file changed since it was read is a 409 that says so.
// /api/v1/source/FILE?function=ID of sort_work (src/c/threads.c).
std::string sort_work_source(const server::api& a) {
  const auto row = get_json(a, "/api/v1/functions?filter=%5Esort_work%24&limit=1")["rows"][0];
  return "/api/v1/source/" + std::to_string(row["file_id"].get<std::uint64_t>()) +
         "?function=" + std::to_string(row["id"].get<std::uint64_t>());
}

void check_source_parts(const server::api& a, std::size_t parts) {
  using nlohmann::json;
  const std::string q = sort_work_source(a);
  const json all = get_json(a, q);
  EXPECT_FALSE(all.contains("part"));
  std::map<std::uint64_t, std::uint64_t> want, got, want_calls, got_calls;
  auto add = [](const json& src, auto& self, auto& calls) {
    for (const json& l : src["lines"]) {
      self[l["line"]] += l["self"]["Ir"].get<std::uint64_t>();
      if (l.contains("calls"))
        for (const json& c : l["calls"]) calls[l["line"]] += c["cost"]["Ir"].get<std::uint64_t>();
    }
  };
  add(all, want, want_calls);
  for (std::size_t p = 1; p <= parts; ++p) {
    const json one = get_json(a, q + "&parts=" + std::to_string(p));
    EXPECT_EQ(one["part"], p);
    add(one, got, got_calls);
  }
  std::erase_if(got, [](const auto& kv) { return kv.second == 0; });
  std::erase_if(want, [](const auto& kv) { return kv.second == 0; });
  EXPECT_EQ(got, want);
  EXPECT_EQ(got_calls, want_calls);
  EXPECT_NE(get_json(a, q + "&parts=2")["lines"], all["lines"]);
  EXPECT_EQ(get(a, q + "&parts=2,4").body, get(a, q).body);
}

TEST(ServeRuns, TheSourceOfOnePartIsItsLinesAlone) {
  auto run = threads_run();
  ASSERT_TRUE(run);
  check_source_parts(make_api(run), 5);
  check_source_parts(make_api(load(corpus / "vg-threads-separate-combined.callgrind")), 5);

  // The file changed since it was read: no part's lines, a 409 that says why.
  const fs::path copy = fs::temp_directory_path() /
                        ("calltree-source-parts-" + std::to_string(::getpid()) + ".callgrind");
  fs::copy_file(corpus / "vg-threads-separate-combined.callgrind", copy,
                fs::copy_options::overwrite_existing);
  server::api c = make_api(load(copy));
  const std::string q = sort_work_source(c);
  EXPECT_EQ(get(c, q).status, 200);
  std::ofstream(copy, std::ios::app) << "# changed\n";
  server::response r = get(c, q + "&parts=2");
  EXPECT_EQ(r.status, 409);
  EXPECT_NE(r.body.find("changed since it was read"), std::string::npos) << r.body;
  fs::remove(copy);
}

// A call that costs more than its callee's lines (tests/runs/calls-above-lines.callgrind:
// main calls f for 200, f's lines are 110, f calls g for 100): the profile says so, and no
// view scales g up to fill the call (g's frame is its call, 100, in every tree).
TEST(ServeRuns, ACallAboveItsCalleesLinesIsNotScaledUp) {
  server::api a =
      make_api(load(fs::path(CALLTREE_SOURCE_DIR) / "tests/runs/calls-above-lines.callgrind"));
  const nlohmann::json pr = get_json(a, "/api/v1/profile");
  const std::string warnings = pr["inputs"].back()["warnings"].dump();
  EXPECT_NE(warnings.find("[calls-above-lines] 1 function"), std::string::npos) << warnings;
  const int f = id_of(a, "f"), g = id_of(a, "g");
  for (const std::string& q : std::vector<std::string>{
           "/api/v1/flame?min=0", "/api/v1/flame?min=0&root=" + std::to_string(f)}) {
    const nlohmann::json fl = get_json(a, q);
    for (std::size_t i = 0; i < fl["frames"]["count"].get<std::size_t>(); ++i) {
      if (fl["frames"]["id"][i] == g) {
        EXPECT_EQ(fl["frames"]["total"]["Ir"][i], 100) << q;
      }
    }
  }
}

// A file of differences (negative costs): its sums are signed, and check gives no
// calls-above-lines note; neither does the profile's answer (a call of -1 against lines of 5
// was 2^64-1 called, read unsigned).
TEST(ServeRuns, AFileOfDifferencesHasNoCallsAboveLinesNote) {
  server::api a =
      make_api(load(fs::path(CALLTREE_SOURCE_DIR) / "tests/signed/call-down.callgrind"));
  const std::string warnings = get_json(a, "/api/v1/profile")["inputs"].back()["warnings"].dump();
  EXPECT_EQ(warnings.find("calls-above-lines"), std::string::npos) << warnings;
}

// Issue 67: each part of a run is its file, so its total is that file's total read alone, in
// /profile (the page's part menu and Parts tab), in /functions of that part (every share of
// it) and in the flame graph's thread frames; and the parts' totals sum to the run's.
void check_part_totals(const std::vector<std::string>& files) {
  auto run = views::load_run(files, where());
  ASSERT_TRUE(run) << run.error().message;
  server::api a = make_api(std::shared_ptr<const views::session>(std::move(*run)));
  const nlohmann::json pr = get_json(a, "/api/v1/profile");
  const nlohmann::json& parts = pr["inputs"].back()["parts"];
  ASSERT_EQ(parts.size(), files.size());
  const nlohmann::json threads = get_json(a, "/api/v1/flame?by_thread=1&min=0")["threads"];
  ASSERT_EQ(threads.size(), files.size());
  std::map<std::string, std::uint64_t> sum;
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i]);
    const nlohmann::json alone = get_json(make_api(load(files[i])), "/api/v1/profile")["totals"];
    const std::string n = std::to_string(i + 1);
    EXPECT_EQ(parts[i]["totals"], alone) << "part " << n << " in /profile";
    EXPECT_EQ(get_json(a, "/api/v1/functions?limit=1&parts=" + n)["totals"], alone)
        << "part " << n << " in /functions";
    EXPECT_EQ(threads[i]["totals"], alone) << "part " << n << "'s thread frame";
    for (const auto& [e, v] : alone.items()) sum[e] += v.get<std::uint64_t>();
  }
  EXPECT_EQ(pr["totals"], nlohmann::json(sum));
}

// Every run of several files the tests serve: valgrind's threads and dumps (tests/runs), and
// the corpus's --separate-threads files.
TEST(ServeRuns, EachPartsTotalIsItsFiles) {
  for (const char* run_dir : {"threads", "dumps"}) {
    std::vector<std::string> files;
    for (const auto& e :
         fs::directory_iterator(fs::path(CALLTREE_SOURCE_DIR) / "tests/runs" / run_dir))
      files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    check_part_totals(files);
  }
  std::vector<std::string> corpus_threads;
  for (int t = 1; t <= 5; ++t)
    corpus_threads.push_back(
        (corpus / ("vg-threads-separate.t0" + std::to_string(t) + ".callgrind")).string());
  check_part_totals(corpus_threads);
}

// ruby-prof's files of one thread each state no total (`events: wall_time`, no summary: or
// totals: line): a part's total is the sum of its self costs, once (served doubled before:
// 204, 408 and 612 for files of 102, 204 and 306). The same parts in one file: the same.
TEST(ServeRuns, APartThatStatesNoTotalIsItsCostsOnce) {
  const fs::path dir =
      fs::temp_directory_path() / ("calltree-ruby-prof-run-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> files;
  std::string all;
  for (int t = 1; t <= 3; ++t) {
    const std::string text = "events: wall_time\n\nfl=\nfn=Object::hanoi\n3 " +
                             std::to_string(100 * t) + "\n\nfl=\nfn=Thread::run\n1 " +
                             std::to_string(2 * t) + "\ncfl=\ncfn=Object::hanoi\ncalls=1 3\n1 " +
                             std::to_string(100 * t) + "\n";
    files.push_back((dir / ("thread" + std::to_string(t) + ".callgrind")).string());
    std::ofstream(files.back()) << text;
    all += text;
  }
  check_part_totals(files);
  EXPECT_EQ(get_json(make_api(load(files[1])), "/api/v1/profile")["totals"]["wall_time"], 204);
  const fs::path one = dir / "threads.callgrind";
  std::ofstream(one) << all;
  server::api a = make_api(load(one));
  const nlohmann::json parts = get_json(a, "/api/v1/profile")["inputs"].back()["parts"];
  ASSERT_EQ(parts.size(), 3u);
  for (int t = 1; t <= 3; ++t)
    EXPECT_EQ(parts[t - 1]["totals"]["wall_time"], 102 * t) << "part " << t << " of one file";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace calltree::test

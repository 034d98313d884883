// history_test.cc — the pieces of src/history/ on their own: change points (exact and
// robust), natural order, the index's blob (every cut and flipped byte refused or decoded,
// never a crash) and the index as a cache (a file that is no database, a foreign one).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "history/change_points.h"
#include "history/index.h"
#include "history/run_order.h"

namespace calltree::history {
namespace {

std::vector<std::size_t> runs_of(const std::vector<change_point>& v) {
  std::vector<std::size_t> out;
  for (const auto& c : v) out.push_back(c.run);
  return out;
}

TEST(ChangePoints, ExactStepIsFoundAtItsRun) {
  const std::vector<double> x{100, 100, 100, 100, 100, 130, 130, 130};
  auto c = find_change_points(x, {});
  ASSERT_EQ(runs_of(c), (std::vector<std::size_t>{5}));
  EXPECT_EQ(c[0].before, 100);
  EXPECT_EQ(c[0].after, 130);
  EXPECT_NEAR(*step_percent(c[0].before, c[0].after), 30, 1e-9);
}

TEST(ChangePoints, ExactSpikeIsNoChangeButTwoStepsAreTwo) {
  EXPECT_TRUE(find_change_points(std::vector<double>{100, 100, 150, 100, 100}, {}).empty());
  EXPECT_EQ(runs_of(find_change_points(std::vector<double>{100, 100, 110, 110, 140, 140}, {})),
            (std::vector<std::size_t>{2, 4}));
  // Below the threshold: no change; a wiggle of 0.5 % neither.
  change_options o;
  o.threshold_percent = 5;
  EXPECT_TRUE(find_change_points(std::vector<double>{100, 100, 104, 104}, o).empty());
  EXPECT_TRUE(find_change_points(std::vector<double>{1000, 1005, 1000, 1005}, {}).empty());
  // A step at the last run is a change (exact counts: one run is enough).
  EXPECT_EQ(runs_of(find_change_points(std::vector<double>{100, 100, 100, 120}, {})),
            (std::vector<std::size_t>{3}));
  // From nothing.
  auto c = find_change_points(std::vector<double>{0, 0, 5, 5}, {});
  ASSERT_EQ(runs_of(c), (std::vector<std::size_t>{2}));
  EXPECT_FALSE(step_percent(c[0].before, c[0].after).has_value());
}

TEST(ChangePoints, RobustIgnoresOutliersAndFindsTheStep) {
  change_options o;
  o.how = detector::robust;
  // Noise of +-10 %, one outlier of 3x, then a step of 2x from run 6 on.
  const std::vector<double> x{100, 108, 93, 300, 97, 104, 205, 190, 210, 199, 207};
  auto c = find_change_points(x, o);
  ASSERT_EQ(runs_of(c), (std::vector<std::size_t>{6}));
  EXPECT_GT(c[0].after / c[0].before, 1.8);
  // Noise alone: nothing.
  EXPECT_TRUE(
      find_change_points(std::vector<double>{100, 130, 80, 120, 90, 125, 85, 110}, o).empty());
  // The last run alone cannot be told from noise; last_step compares it with the median.
  const std::vector<double> y{100, 104, 96, 101, 99, 150};
  EXPECT_TRUE(find_change_points(y, o).empty());
  auto last = last_step(y, o);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->before, 100);
  EXPECT_EQ(last->after, 150);
}

TEST(ChangePoints, TimedEvents) {
  EXPECT_TRUE(timed_event("Time_(10ns)"));
  EXPECT_TRUE(timed_event("cpu(nanoseconds)"));
  EXPECT_TRUE(timed_event("samples"));
  EXPECT_FALSE(timed_event("Ir"));
  EXPECT_FALSE(timed_event("Memory_(bytes)"));
  EXPECT_FALSE(timed_event("D1mr"));
  // Timing profilers' units alone (issue 67): cProfile's ns, ruby-prof's wall_time, and
  // gperftools' Hits (samples); a word that holds the letters is no unit.
  EXPECT_TRUE(timed_event("ns"));
  EXPECT_TRUE(timed_event("cpu_ns"));
  EXPECT_TRUE(timed_event("wall_us"));
  EXPECT_TRUE(timed_event("wall_time"));
  EXPECT_TRUE(timed_event("Hits"));
  EXPECT_FALSE(timed_event("hits"));  // (pprofile's deterministic line hits: counted)
  EXPECT_FALSE(timed_event("Dmsr"));
  EXPECT_FALSE(timed_event("insns"));
}

TEST(ChangePoints, TimingProfilersEveryEventIsTimed) {
  EXPECT_TRUE(timed_creator("xdebug 3.2.0 (PHP 8.2.36)"));
  EXPECT_TRUE(timed_creator("Python cProfile (pstats)"));
  EXPECT_TRUE(timed_creator("V8 CPU profile"));
  EXPECT_TRUE(timed_creator("pprofile"));
  EXPECT_FALSE(timed_creator("callgrind-3.19.0"));
  EXPECT_FALSE(timed_creator("cachegrind"));
  EXPECT_FALSE(timed_creator("calltree 1.0.0 merge"));
  EXPECT_FALSE(timed_creator(""));
}

TEST(RunOrder, NaturalOrder) {
  EXPECT_TRUE(natural_less("run9", "run10"));
  EXPECT_FALSE(natural_less("run10", "run9"));
  EXPECT_TRUE(natural_less("out.2.callgrind", "out.10.callgrind"));
  EXPECT_TRUE(natural_less("a", "b"));
  EXPECT_TRUE(natural_less("run7", "run07"));
  EXPECT_FALSE(natural_less("run", "run"));
  std::vector<run_file> f{{"d/run10", 0, 1}, {"d/run9", 0, 3}, {"d/run1", 0, 2}};
  order_runs(f, run_order::name);
  EXPECT_EQ(f[0].path, "d/run1");
  EXPECT_EQ(f[2].path, "d/run10");
  order_runs(f, run_order::time);
  EXPECT_EQ(f[0].path, "d/run10");
  EXPECT_EQ(f[2].path, "d/run9");
}

run_costs sample() {
  run_costs r;
  r.creator = "callgrind-3.19.0";
  r.cmd = "./steps 100000";
  r.events = {"Ir", "Dr"};
  r.total = {2504724, 12345678901234ull};
  r.functions.push_back({"/bin/steps", "steps.c", "work", {600006, 5}, {600006, 7}});
  r.functions.push_back({"", "", "main", {10, 0}, {2400855, 1ull << 62}});
  return r;
}

TEST(Index, BlobRoundTripsAndRefusesDamage) {
  const run_costs r = sample();
  const std::string blob = encode_run(r);
  auto back = decode_run(blob);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(encode_run(*back), blob);
  EXPECT_EQ(back->functions[1].inclusive[1], 1ull << 62);
  // Every cut is refused; every flipped byte is refused or decodes to something (no crash).
  for (std::size_t n = 0; n < blob.size(); ++n) EXPECT_FALSE(decode_run(blob.substr(0, n))) << n;
  for (std::size_t i = 0; i < blob.size(); ++i) {
    std::string b = blob;
    b[i] = static_cast<char>(b[i] ^ 0xff);
    (void)decode_run(b);
  }
  // A count far beyond the blob is refused before anything is reserved.
  std::string huge = "CTR1";
  huge += '\0';
  huge += '\0';
  huge += "\xff\xff\xff\xff\xff\xff\xff\xff\x7f";
  EXPECT_FALSE(decode_run(huge));
}

TEST(Index, ACacheThatRebuildsWhatItCannotTrust) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("calltree-history-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "sub" / "index.sqlite").string();
  {
    auto x = run_index::open(path);
    ASSERT_TRUE(x) << x.error().message;
    EXPECT_EQ((*x)->note(), "");
    (*x)->put("/a/run1", 10, 20, {{}, sample()});
    (*x)->put("/a/README", 5, 6, {"holds no profile", {}});
  }
  {
    auto x = run_index::open(path);
    ASSERT_TRUE(x);
    auto hit = (*x)->find("/a/run1", 10, 20);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(encode_run(hit->costs), encode_run(sample()));
    EXPECT_FALSE((*x)->find("/a/run1", 11, 20).has_value());  // another size: a miss
    EXPECT_FALSE((*x)->find("/a/run1", 10, 21).has_value());  // another time: a miss
    EXPECT_EQ((*x)->find("/a/README", 5, 6)->problem, "holds no profile");
  }
  // A file that is no database: made again.
  for (const char* s : {"-wal", "-shm"}) std::filesystem::remove(path + s);
  { std::ofstream(path, std::ios::trunc) << std::string(5000, 'x'); }
  {
    auto x = run_index::open(path);
    ASSERT_TRUE(x) << x.error().message;
    EXPECT_NE((*x)->note().find("made again"), std::string::npos);
    EXPECT_FALSE((*x)->find("/a/run1", 10, 20).has_value());
    (*x)->put("/a/run1", 10, 20, {{}, sample()});
  }
  {
    auto x = run_index::open(path);
    ASSERT_TRUE(x);
    EXPECT_EQ((*x)->note(), "");
    EXPECT_TRUE((*x)->find("/a/run1", 10, 20).has_value());
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace calltree::history

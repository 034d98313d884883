// load_test.cc — calltree::load (load.h): one call, one value (the profile, its diagnostics,
// how far the file was read), one ok(); the errors of a file that holds no profile, and
// value() throwing bad_result_access (result.h) with the error whole.
#include "calltree/load.h"
#include "profile_files.h"

#include "calltree/analysis/callers.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/folded.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace calltree {
namespace {

namespace fs = std::filesystem;

const std::string corpus = CALLTREE_CORPUS_DIR;
const std::string recurse = corpus + "/vg-recurse-default.callgrind";

fs::path temp_file(const std::string& name, const std::string& bytes) {
  const fs::path p = fs::temp_directory_path() / ("calltree_load_test_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Load, AWholeProfileIsOkAndTheSameAsLoadProfile) {
  auto loaded = load(recurse);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_TRUE(loaded->ok());
  EXPECT_EQ(loaded->stats.state, read_state::complete);
  EXPECT_EQ(loaded->diagnostics.errors(), 0u);

  profile p;
  diagnostic_collector diags;
  auto stats = load_profile(recurse, p, diags);
  ASSERT_TRUE(stats);
  EXPECT_EQ(loaded->profile.functions.size(), p.functions.size());
  EXPECT_EQ(loaded->profile.calls.size(), p.calls.size());
  EXPECT_EQ(loaded->profile.total(), p.total());
  EXPECT_EQ(loaded->stats.lines, stats->lines);
  ASSERT_FALSE(p.functions.empty());
  // The names are whole, and stay valid when the value moves.
  const std::string first(loaded->profile.function_name(function_id{0}));
  loaded_profile moved = std::move(*loaded);
  EXPECT_EQ(moved.profile.function_name(function_id{0}), first);
  EXPECT_EQ(first, p.function_name(function_id{0}));
}

TEST(Load, AFileCutShortIsAProfileThatIsNotOk) {
  const std::string whole = read_all(recurse);
  const fs::path cut = temp_file("cut", whole.substr(0, 30000));
  auto loaded = load(cut.string());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_FALSE(loaded->ok());
  EXPECT_EQ(loaded->stats.state, read_state::likely_truncated);
  EXPECT_GT(loaded->diagnostics.count(diag_code::likely_truncated), 0u);
  EXPECT_FALSE(loaded->profile.functions.empty());
  ASSERT_FALSE(loaded->diagnostics.kept().empty());
  EXPECT_EQ(loaded->diagnostics.kept().front().file, cut.string());  // named by its path
  fs::remove(cut);
}

TEST(Load, MalformedLinesAreAProfileThatIsNotOk) {
  const fs::path bad = temp_file("bad", "events: Ir\nfn=main\n1 10\n2 x\ntotals: 10\n");
  auto loaded = load(bad.string());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->stats.state, read_state::complete);
  EXPECT_EQ(loaded->diagnostics.errors(), 1u);
  EXPECT_FALSE(loaded->ok());
  EXPECT_EQ(loaded->profile.total(), std::vector<std::uint64_t>{10});
  fs::remove(bad);
}

TEST(Load, NoProfileIsTheError) {
  auto missing = load("/nonexistent/calltree/x.out");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, error_code::not_found);
  EXPECT_EQ(missing.error().sys_errno, ENOENT);
  EXPECT_EQ(missing.error().message, "/nonexistent/calltree/x.out: No such file or directory");

  auto directory = load(fs::temp_directory_path().string());
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().code, error_code::is_directory);

  const fs::path empty = temp_file("empty", "");
  auto nothing = load(empty.string());
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().code, error_code::no_profile);
  fs::remove(empty);
}

TEST(Load, ValueOfAnErrorThrowsTheError) {
  auto missing = load("/nonexistent/calltree/x.out");
  try {
    (void)missing.value();
    FAIL() << "value() of an error did not throw";
  } catch (const bad_result_access& e) {
    EXPECT_EQ(e.error().code, error_code::not_found);
    EXPECT_EQ(e.error().sys_errno, ENOENT);
    EXPECT_STREQ(e.what(), "/nonexistent/calltree/x.out: No such file or directory");
  }
  // (A std::runtime_error, for a program that catches those.)
  EXPECT_THROW((void)*missing, std::runtime_error);
  EXPECT_THROW((void)std::move(missing).value(), bad_result_access);
}

TEST(Load, OptionsAreTheReadersAndTheBuilders) {
  load_options o;
  o.read.display_name = "shown.out";
  o.build.keep_jumps = false;
  o.kept_per_code = 1;
  const std::string whole = read_all(recurse);
  const fs::path cut = temp_file("cut2", whole.substr(0, 30000));
  auto loaded = load(cut.string(), o);
  ASSERT_TRUE(loaded);
  ASSERT_FALSE(loaded->diagnostics.kept().empty());
  EXPECT_EQ(loaded->diagnostics.kept().front().file, "shown.out");
  EXPECT_LE(loaded->diagnostics.kept().size(), 1u * (static_cast<std::size_t>(last_diag_code) + 1));
  fs::remove(cut);
}

// call_counts: per function, the calls into it from other functions, which is what its callers
// in calls_of sum to, without the call of a function to itself.
TEST(CallCounts, TheCallersCountsSummedWithoutSelfCalls) {
  for (const char* name : {"vg-recurse-default.callgrind", "xdebug-recursion.callgrind"}) {
    auto loaded = load(corpus + "/" + name);
    ASSERT_TRUE(loaded) << name;
    const profile& p = loaded->profile;
    const inclusive_result inc = compute_inclusive(p);
    const auto counts = call_counts(p);
    ASSERT_EQ(counts.size(), p.functions.size());
    std::uint64_t called = 0;
    for (function_id f : p.functions.ids()) {
      std::uint64_t sum = 0;
      for (const call_summary& c : calls_of(p, inc, f).callers)
        if (c.function != f) sum += c.count;
      EXPECT_EQ(counts[f], sum) << name << ": " << p.function_name(f);
      called += counts[f] != 0;
    }
    EXPECT_GT(called, 3u) << name;
  }
  // main is called once, by (below main); a part of its own: only that part's calls.
  auto loaded = load(recurse);
  ASSERT_TRUE(loaded);
  const auto main_id = find_function(loaded->profile, "main");
  ASSERT_TRUE(main_id);
  EXPECT_EQ(call_counts(loaded->profile)[*main_id], 1u);
  EXPECT_EQ(call_counts(loaded->profile, part_id{0})[*main_id], 1u);
}

// folded_stacks: the lines of `calltree export --to=folded`, byte for byte, on every profile of
// the corpus the tool exports (it refuses one with errors: then the report says so).
TEST(FoldedStacks, TheLinesOfExportToFolded) {
  const fs::path out = fs::temp_directory_path() / "calltree_load_test_folded";
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string path = entry.path().string();
    const std::string ext = entry.path().extension().string();
    if (ext == ".txt" || ext == ".md" || ext == ".sh" || !entry.is_regular_file() ||
        entry.file_size() > test::largest_test_profile())
      continue;
    const std::string command = std::string(CALLTREE_BINARY) + " export --to=folded '" + path +
                                "' -o '" + out.string() + "' 2>/dev/null";
    const int status = std::system(command.c_str());
    auto folded = folded_stacks(path);
    if (status != 0) {  // the tool writes nothing: a file with errors, or no profile at all
      if (folded) {
        EXPECT_FALSE(folded->report.ok()) << path;
      }
      continue;
    }
    ASSERT_TRUE(folded) << path << ": " << folded.error().message;
    EXPECT_TRUE(folded->report.ok()) << path;
    const std::string tool = read_all(out.string());
    EXPECT_EQ(folded->text, tool) << path;
    EXPECT_EQ(folded->report.lines,
              static_cast<std::uint64_t>(std::count(tool.begin(), tool.end(), '\n')));
    folded_options two;
    two.threads = 2;
    EXPECT_EQ(folded_stacks(path, two)->text, tool) << path << " (2 threads)";
    ++compared;
  }
  fs::remove(out);
  EXPECT_GT(compared, 20u);
  // An event by name; one the file does not have, and a part it does not have, are errors.
  folded_options dr;
  dr.event = "Ir";
  EXPECT_EQ(folded_stacks(recurse, dr)->text, folded_stacks(recurse)->text);
  dr.event = "NoSuchEvent";
  EXPECT_FALSE(folded_stacks(recurse, dr));
  folded_options part;
  part.parts = {part_id{7}};
  EXPECT_FALSE(folded_stacks(recurse, part));
  EXPECT_EQ(folded_stacks("/nonexistent/x.out").error().code, error_code::not_found);
}

}  // namespace
}  // namespace calltree

// import_test.cc — other profilers' formats (src/import/): told apart by content, never a
// callgrind file taken for one; folded stacks and V8 .cpuprofile read exactly, recursion
// counted once per stack; their mistakes said with their place and code.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "calltree/analysis/inclusive.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "import/formats.h"
#include "profile_files.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;
using detail::profile_format;

struct loaded {
  profile p;
  diagnostic_collector diags;
  read_stats stats;
};

std::unique_ptr<loaded> load(const std::string& bytes,
                             std::optional<profile_format> from = std::nullopt) {
  auto l = std::make_unique<loaded>();
  auto in = memory_input(bytes);
  profile_builder b(l->p, &l->diags, "test");
  detail::read_hooks h;
  h.any_input = true;
  h.format = from;
  auto r = detail::read_with_hooks(*in, l->p.strings, b, l->diags, {}, h);
  EXPECT_TRUE(r.has_value());
  if (r) l->stats = *r;
  return l;
}

// Self and inclusive cost (callgrind_annotate's sums: every call into a function) of each
// function by name, for event `e`.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> costs(const profile& p,
                                                                     std::size_t e = 0) {
  inclusive_options o;
  o.raw = true;
  const auto r = compute_inclusive(p, o);
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  for (function_id f : p.functions.ids())
    out[std::string(p.function_name(f))] = {r.self_of(f)[e], r.inclusive_of(f)[e]};
  return out;
}

// The format of a file's first block, as the reader looks at it.
profile_format sniffed(const fs::path& p) {
  auto in = open_input(p.string());
  if (!in) return profile_format::callgrind;
  auto block = (*in)->next();
  if (!block) return profile_format::callgrind;
  return detail::sniff_format(std::string_view(block->data(), block->size()),
                              block->size() == fs::file_size(p));
}

TEST(Import, NoCallgrindFileIsTakenForAnotherFormat) {
  std::vector<fs::path> files = test::every_profile(true);
  const fs::path src = CALLTREE_SOURCE_DIR;
  for (const char* dir : {"tests/malformed", "tests/golden", "examples", "tests/runs",
                          "tests/signed"})
    for (const auto& e : fs::recursive_directory_iterator(src / dir))
      if (e.is_regular_file() && e.path().extension() != ".md" && e.path().extension() != ".txt")
        files.push_back(e.path());
  ASSERT_GT(files.size(), 100u);
  for (const auto& f : files)
    EXPECT_EQ(sniffed(f), profile_format::callgrind) << f;
}

TEST(Import, EachFormatIsToldByItsFirstBytes) {
  EXPECT_EQ(detail::sniff_format("main;f;g 3\nmain 1\n", false), profile_format::folded);
  EXPECT_EQ(detail::sniff_format("main;f;g 3", true), profile_format::folded);
  EXPECT_EQ(detail::sniff_format("main;f;g 3", false), profile_format::callgrind);
  EXPECT_EQ(detail::sniff_format("{\"nodes\":[{\"id\":1}]", false), profile_format::cpuprofile);
  EXPECT_EQ(detail::sniff_format(" {\n  \"startTime\": 1", false), profile_format::cpuprofile);
  EXPECT_EQ(detail::sniff_format("{\"traceEvents\":[]}", true), profile_format::callgrind);
  // callgrind lines that end in a number are not folded stacks
  EXPECT_EQ(detail::sniff_format("version: 1\nevents: Ir\n", true), profile_format::callgrind);
  EXPECT_EQ(detail::sniff_format("summary: 12\n", true), profile_format::callgrind);
  EXPECT_EQ(detail::sniff_format("16 3\n17 4\n", true), profile_format::callgrind);
  EXPECT_EQ(detail::sniff_format("fn=main 3\n", true), profile_format::callgrind);
  EXPECT_EQ(detail::sniff_format(std::string("\x0a\x04\x08\x01\x10\x02", 6), true),
            profile_format::pprof);
  EXPECT_EQ(detail::sniff_format(std::string("\xfb\xa9\x03", 3), true), profile_format::pstats);
  EXPECT_EQ(detail::sniff_format("prog 1234 [001] 12345.678901:     250000 cpu-clock:u: \n"
                                 "\t    55d0c0a1b2c3 main+0x13 (/tmp/prog)\n",
                                 false),
            profile_format::perf_script);
  for (auto f : {profile_format::callgrind, profile_format::folded, profile_format::cpuprofile,
                 profile_format::pprof, profile_format::pstats, profile_format::perf_script})
    EXPECT_EQ(detail::format_named(detail::to_string(f)), f);
  EXPECT_EQ(detail::format_named("perf"), profile_format::perf_script);
  EXPECT_EQ(detail::format_named("gprof"), std::nullopt);
}

// Folded stacks: self where a stack ends, inclusive once per stack (f on main;f;g;f once).
TEST(ImportFolded, SelfAndInclusiveOncePerStack) {
  auto l = load("main;f;g 3\nmain;f 2\nmain;f;g;f 5\n\nmain;h;h;h 4\n");
  EXPECT_EQ(l->diags.errors(), 0u);
  auto c = costs(l->p);
  EXPECT_EQ(c["main"], (std::pair<std::uint64_t, std::uint64_t>{0, 14}));
  EXPECT_EQ(c["f"], (std::pair<std::uint64_t, std::uint64_t>{7, 10}));
  EXPECT_EQ(c["g"], (std::pair<std::uint64_t, std::uint64_t>{3, 8}));
  EXPECT_EQ(c["h"], (std::pair<std::uint64_t, std::uint64_t>{4, 4}));
  ASSERT_EQ(l->p.events.size(), 1u);
  EXPECT_EQ(l->p.events[event_id{0}].name, "samples");
  // calltree's own inclusive cost (self-calls never count) agrees where no cycle is
  const auto r = compute_inclusive(l->p);
  for (function_id f : l->p.functions.ids()) {
    if (l->p.function_name(f) == "h") {
      EXPECT_EQ(r.inclusive_of(f)[0], 4u);
    }
  }
  // the part says its call counts are samples
  const auto& d = l->p.parts[part_id{0}].header.descriptions;
  EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](auto& x) { return x.first == "Call counts"; }));
}

TEST(ImportFolded, PySpyFramesNameTheirFileAndLine) {
  auto l = load("<module> (app.py:3);work (app.py:12) 4\n");
  EXPECT_EQ(l->diags.errors(), 0u);
  bool found = false;
  for (function_id f : l->p.functions.ids())
    if (l->p.function_name(f) == "work") {
      found = true;
      EXPECT_EQ(l->p.file_name(l->p.functions[f].file), "app.py");
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(costs(l->p)["work"].first, 4u);
}

TEST(ImportFolded, ALineWithoutItsCountIsAnErrorAndTheRestIsRead) {
  auto l = load("main;f 3\nmain;g\nmain;f x1\n", profile_format::folded);
  EXPECT_EQ(l->diags.errors(), 2u);
  ASSERT_FALSE(l->diags.kept().empty());
  const auto& d = l->diags.kept().front();
  EXPECT_EQ(d.code, diag_code::bad_folded_line);
  EXPECT_EQ(d.line, 2u);
  EXPECT_EQ(d.column, 7u);
  EXPECT_EQ(costs(l->p)["f"].first, 3u);
}

TEST(ImportFolded, NothingToReadIsNoProfile) {
  auto in = memory_input("a b\n");
  profile p;
  diagnostic_collector diags;
  profile_builder b(p, &diags, "test");
  detail::read_hooks h;
  h.format = profile_format::folded;
  auto r = detail::read_with_hooks(*in, p.strings, b, diags, {}, h);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, error_code::no_profile);
}

// V8: a sample's time runs to the next sample, the last one's to endTime; positionTicks split
// a node's samples by line, its time in the same shares.
TEST(ImportCpuprofile, SamplesAndTheirTimes) {
  const std::string doc = R"json({"nodes":[
    {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2]},
    {"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"file:///app.js","lineNumber":0,"columnNumber":0},"hitCount":1,"children":[3]},
    {"id":3,"callFrame":{"functionName":"f","scriptId":"1","url":"file:///app.js","lineNumber":4,"columnNumber":2},"hitCount":2,"positionTicks":[{"line":7,"ticks":1},{"line":9,"ticks":1}]}],
    "startTime":100,"endTime":160,"samples":[2,3,3],"timeDeltas":[5,10,20]})json";
  auto l = load(doc);
  EXPECT_EQ(l->diags.errors(), 0u);
  ASSERT_EQ(l->p.events.size(), 2u);
  auto samples = costs(l->p, 0), time = costs(l->p, 1);
  EXPECT_EQ(samples["main"], (std::pair<std::uint64_t, std::uint64_t>{1, 3}));
  EXPECT_EQ(samples["f"], (std::pair<std::uint64_t, std::uint64_t>{2, 2}));
  EXPECT_EQ(time["main"], (std::pair<std::uint64_t, std::uint64_t>{10, 55}));
  EXPECT_EQ(time["f"], (std::pair<std::uint64_t, std::uint64_t>{45, 45}));
  EXPECT_EQ(samples.count("(root)"), 0u);
  EXPECT_EQ(l->stats.parts, 1u);
}

TEST(ImportCpuprofile, BadJsonSaysWhere) {
  auto in = memory_input("{\"nodes\": [1, 2,, 3]}");
  profile p;
  diagnostic_collector diags;
  profile_builder b(p, &diags, "test");
  detail::read_hooks h;
  h.any_input = true;
  auto r = detail::read_with_hooks(*in, p.strings, b, diags, {}, h);
  ASSERT_TRUE(r.has_value());
  ASSERT_FALSE(diags.kept().empty());
  EXPECT_EQ(diags.kept().front().code, diag_code::bad_cpuprofile);
  EXPECT_EQ(diags.kept().front().line, 1u);
  EXPECT_EQ(diags.kept().front().column, 17u);
}

}  // namespace
}  // namespace calltree

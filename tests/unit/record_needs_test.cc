// record_sink::needs: the reader reads as the sink asks (sums per run or per context, per line
// (for the files a run_sink names), jumps or none) with nothing set in reader_options, and
// tee_sink asks for the finest of its sinks.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/checker.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "model/run_sink.h"
#include "reader/read_hooks.h"

using namespace calltree;
using grain = record_needs::grain;

namespace {

// Counts what it is given, and asks for `asked` (and sums per line for the files of `lines_of`
// only, if set: run_sink.h).
struct counting_sink final : run_sink {
  record_needs asked;
  std::function<bool(std::string_view)> lines_of;
  std::vector<std::uint64_t> cost_lines;  // `line` of each cost record
  std::vector<std::uint64_t> self;        // the first event's cost of each cost record
  int calls = 0, jumps = 0;
  record_needs needs() const override { return asked; }
  read_needs reader_needs() const override {
    read_needs n = asked;
    n.lines_of = lines_of;
    return n;
  }
  void on_cost(const cost_record& r) override {
    cost_lines.push_back(r.line);
    self.push_back(r.costs[0]);
  }
  void on_call(const call_record&) override { ++calls; }
  void on_jump(const jump_record&) override { ++jumps; }
};

// Two functions; f has a run of three lines on two source lines, a call between, and a jump.
const std::string text =
    "events: Ir\n"
    "fl=a.c\n"
    "fn=f\n"
    "10 1\n"
    "10 2\n"
    "11 4\n"
    "cfn=g\n"
    "calls=1 20\n"
    "12 100\n"
    "13 8\n"
    "jump=3 10\n"
    "13\n"
    "fn=g\n"
    "20 100\n";

counting_sink read(const record_needs& n,
                   std::function<bool(std::string_view)> lines_of = nullptr) {
  counting_sink s;
  s.asked = n;
  s.lines_of = std::move(lines_of);
  auto in = memory_input(text);
  string_pool names;
  diagnostic_collector diags;
  auto st = detail::read_profile(*in, names, s, diags, {}, detail::any_input());
  EXPECT_TRUE(st);
  EXPECT_EQ(st->jump_lines, 1u);  // read and counted, whatever the sink asks
  EXPECT_EQ(diags.errors() + diags.warnings(), 0u);
  return s;
}

}  // namespace

TEST(RecordNeeds, TheReaderReadsAsTheSinkAsks) {
  record_needs n;
  const auto lines = read(n);
  EXPECT_EQ(lines.cost_lines, (std::vector<std::uint64_t>{4, 5, 6, 10, 14}));
  EXPECT_EQ(lines.jumps, 1);
  EXPECT_EQ(lines.calls, 1);

  n.costs = grain::sums_per_run;
  n.jumps = false;
  const auto runs = read(n);
  // f's first three lines are one run (the call after it ends it), then 13, then g.
  EXPECT_EQ(runs.cost_lines, (std::vector<std::uint64_t>{4, 10, 14}));
  EXPECT_EQ(runs.self, (std::vector<std::uint64_t>{7, 8, 100}));
  EXPECT_EQ(runs.jumps, 0);
  EXPECT_EQ(runs.calls, 1);

  n.per_line = true;  // runs end where the line changes, for every file (no lines_of)
  const auto by_line = read(n);
  EXPECT_EQ(by_line.self, (std::vector<std::uint64_t>{3, 4, 8, 100}));
  // not a.c: per run again
  EXPECT_EQ(read(n, [](std::string_view f) { return f == "b.c"; }).self, runs.self);
  EXPECT_EQ(read(n, [](std::string_view f) { return f == "a.c"; }).self, by_line.self);
}

TEST(RecordNeeds, TeeAsksForTheFinest) {
  record_needs sums, lines, by_line;
  sums.costs = by_line.costs = grain::sums_per_context;
  sums.jumps = by_line.jumps = false;
  by_line.per_line = true;

  auto f = record_needs::finest(sums, lines);
  EXPECT_EQ(f.costs, grain::each_line);
  EXPECT_TRUE(f.jumps);
  EXPECT_FALSE(f.per_line);

  f = record_needs::finest(sums, by_line);
  EXPECT_EQ(f.costs, grain::sums_per_context);
  EXPECT_FALSE(f.jumps);
  EXPECT_TRUE(f.per_line);
  f = record_needs::finest(by_line, sums);
  EXPECT_TRUE(f.per_line);
  f.costs = grain::sums_per_run;
  EXPECT_EQ(record_needs::finest(f, by_line).costs, grain::sums_per_run);

  // A tee of the checker (sums) and a profile builder keeping positions (each line) reads
  // each line; a tee of two sinks asking for sums reads sums, per line where one asks it (for
  // every file: the tee asks what record_needs says).
  checker chk;
  profile p;
  profile_builder b(p);
  EXPECT_EQ(tee_sink({&chk, &b}).needs().costs, grain::each_line);
  counting_sink s;
  s.asked = by_line;
  s.lines_of = [](std::string_view name) { return name == "a.c"; };
  tee_sink both({&chk, &s});
  const auto t = both.needs();
  EXPECT_EQ(t.costs, grain::sums_per_context);
  EXPECT_TRUE(t.jumps);  // the checker counts jumps
  EXPECT_TRUE(t.per_line);
  EXPECT_FALSE(reader_needs_of(both).lines_of);
  EXPECT_TRUE(reader_needs_of(s).lines_of("a.c"));
}

TEST(RecordNeeds, TheBuildersNeedsFollowItsOptions) {
  profile p;
  EXPECT_EQ(profile_builder(p).needs().costs, grain::each_line);
  EXPECT_TRUE(profile_builder(p).needs().jumps);
  builder_options o;
  o.keep_positions = 0;
  o.keep_jumps = false;
  const auto n = profile_builder(p, nullptr, {}, o).needs();
  EXPECT_EQ(n.costs, grain::sums_per_context);
  EXPECT_FALSE(n.jumps);
  EXPECT_EQ(checker().needs().costs, grain::sums_per_context);
}

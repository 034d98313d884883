// hostile_test.cc — hostile inputs against the calltree binary: diagnostic, exit status and
// bounded time and memory for each.
//
// Every input is generated at test time into a temporary directory (nothing big is committed).
// Each test runs `calltree check` (the streaming path) and, where a model is built, `calltree
// annotate` (reader + builder + iterative inclusive-cost analysis), and asserts:
//   * the exit status: 1 when the file has errors, 0 when it is valid with warnings;
//   * the diagnostic's stable [code] on stderr, and what the summary says was read/skipped;
//   * no crash, no sanitizer report (the sanitizer build runs these too), no hang: a run that
//     outlives its deadline is killed and fails;
//   * peak RSS of the calltree process (wait4's ru_maxrss) under a ceiling. Ceilings are for a
//     plain build; hostile_process.h scales them for ASan. docs/reliability.md lists measured
//     figures.
// The measured RSS and CPU time of each run are printed as "[hostile] ..." lines.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "hostile_process.h"

namespace calltree {
namespace {

using hostile::file_writer;
using hostile::memory_budget_kb;
using hostile::run_calltree;
using hostile::run_result;
using hostile::temp_dir;

// (Not "[" + std::string(...) + "]": GCC 12 at -O2 warns, wrongly, -Wrestrict on a literal +
// std::string&&, GCC bug 105651.)
std::string code(diag_code c) { return std::string("[").append(to_string(c)).append("]"); }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Runs `calltree ARGS...` and checks the bounds every hostile run must keep.
run_result run_bounded(const std::string& what, const std::vector<std::string>& args,
                       const temp_dir& dir, long plain_mb, const std::string& stdin_path = {}) {
  run_result r = run_calltree(args, dir.path(), 600, stdin_path);
  std::printf("[hostile] %-28s exit %d, peak RSS %5ld MB, cpu %6.2f s\n", what.c_str(), r.exit_code,
              r.max_rss_kb / 1024, r.cpu_seconds);
  EXPECT_FALSE(r.timed_out) << what << ": " << hostile::describe(r);
  EXPECT_EQ(r.signal, 0) << what << ": " << hostile::describe(r);
  EXPECT_FALSE(contains(r.err, "Sanitizer")) << what << ": " << hostile::describe(r);
  EXPECT_LE(r.max_rss_kb, memory_budget_kb(plain_mb)) << what << ": " << hostile::describe(r);
  return r;
}

// --- A 100 MB line --------------------------------------------------------------------------

TEST(hostile, line_of_100_mb_is_skipped_and_the_rest_is_read) {
  temp_dir dir;
  const auto path = dir / "long-line.callgrind";
  {
    file_writer w(path);
    w << "events: Ir\nfl=a.c\nfn=main\n1 5\nfn=";
    w.fill('x', 100u << 20);
    w << "\n2 7\n";
  }
  // The line is gathered up to the 64 MiB line limit (a string that may double its capacity
  // while it grows), then skipped to its end.
  auto r = run_bounded("100 MB line (file)", {"check", path.string()}, dir, 200);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::line_too_long))) << r.err;
  EXPECT_TRUE(contains(r.out, "totals Ir=12")) << r.out;  // the lines around it are kept
  EXPECT_TRUE(contains(r.out, "1 of 6 lines skipped")) << r.out;

  // Standard input: read in blocks, the same bound.
  auto s = run_bounded("100 MB line (stdin)", {"check", "-"}, dir, 200, path.string());
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_TRUE(contains(s.err, code(diag_code::line_too_long))) << s.err;
  EXPECT_TRUE(contains(s.out, "totals Ir=12")) << s.out;
}

// --- A file of only newlines ------------------------------------------------------------------

TEST(hostile, file_of_only_newlines_has_no_events) {
  temp_dir dir;
  const auto path = dir / "newlines.callgrind";
  {
    file_writer w(path);
    w.fill('\n', 20u << 20);
  }
  auto r = run_bounded("20 M newlines", {"check", path.string()}, dir, 40);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::no_events))) << r.err;
  EXPECT_TRUE(contains(r.out, "of 20971520 lines skipped")) << r.out;
}

// --- Costs of 2^64 and sums that overflow ------------------------------------------------------

TEST(hostile, costs_of_2_64_and_overflowing_sums_are_reported_never_wrapped) {
  temp_dir dir;
  const auto path = dir / "overflow.callgrind";
  {
    file_writer w(path);
    w << "events: Ir\nfl=a.c\nfn=main\n";
    w << "1 18446744073709551616\n";                             // 2^64: does not fit
    w << "2 9223372036854775808\n3 9223372036854775808\n4 1\n";  // 2^63 + 2^63 + 1
    // Call costs that overflow when the builder sums two calls of one site.
    w << "cfn=f\ncalls=1 10\n5 18446744073709551615\ncfn=f\ncalls=1 10\n5 1\n";
    w << "fn=f\n10 1\n";
  }
  auto r = run_bounded("2^64 costs (check)", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::number_overflow))) << r.err;
  EXPECT_TRUE(contains(r.err, code(diag_code::cost_overflow))) << r.err;
  EXPECT_TRUE(contains(r.out, "Ir=18446744073709551615")) << r.out;  // held at 2^64-1
  EXPECT_TRUE(contains(r.out, "1 of 15 lines skipped")) << r.out;

  auto a = run_bounded("2^64 costs (annotate)",
                       {"annotate", "--inclusive=yes", "--auto=no", path.string()}, dir, 20);
  EXPECT_EQ(a.exit_code, 1);  // the report of what was read, and the errors' status
  EXPECT_TRUE(contains(a.out, "18,446,744,073,709,551,615")) << a.out;
  EXPECT_FALSE(contains(a.out, "18,446,744,073,709,551,614")) << a.out;  // no wrap to 2^64-2
}

// --- A million distinct functions --------------------------------------------------------------

TEST(hostile, million_distinct_functions) {
  temp_dir dir;
  const auto path = dir / "functions.callgrind";
  {
    file_writer w(path);
    w << "events: Ir\nfl=(1) a.c\n";
    for (std::uint64_t i = 0; i < 1000000; ++i)
      w << "fn=(" << i + 1 << ") function_number_" << i << "\n" << i + 1 << " 1\n";
  }
  auto r = run_bounded("1M functions (check)", {"check", path.string()}, dir, 400);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "1000000 functions")) << r.out;
  auto a =
      run_bounded("1M functions (annotate)", {"annotate", "--auto=no", path.string()}, dir, 1200);
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_TRUE(contains(a.out, "1,000,000 (100.0%)  PROGRAM TOTALS")) << a.out.substr(0, 2000);
}

// --- A call chain a million deep, and a cycle of a million functions --------------------------

// f0 -> f1 -> ... -> f(n-1); each has self cost 1; a cycle closes f(n-1) -> f0.
void write_chain(const hostile::fs::path& path, std::uint64_t n, bool cycle) {
  file_writer w(path);
  w << "events: Ir\nfl=(1) a.c\n";
  for (std::uint64_t i = 0; i < n; ++i) {
    w << "fn=(" << i + 1 << ") f" << i << "\n1 1\n";
    if (i + 1 < n) {
      w << "cfn=(" << i + 2 << ") f" << i + 1 << "\ncalls=1 1\n2 " << (cycle ? 5 : n - i - 1)
        << "\n";
    } else if (cycle) {
      w << "cfn=(1)\ncalls=1 1\n2 5\n";
    }
  }
}

TEST(hostile, call_chain_a_million_deep) {
  temp_dir dir;
  const auto path = dir / "chain.callgrind";
  write_chain(path, 1000000, false);
  auto r = run_bounded("1M-deep chain (check)", {"check", path.string()}, dir, 400);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "1000000 functions, 999999 calls")) << r.out;
  // Inclusive costs walk the whole chain: an algorithm recursing per call would overflow the
  // stack here (and under ASan, long before).
  auto a = run_bounded("1M-deep chain (annotate)",
                       {"annotate", "--inclusive=yes", "--auto=no", "--threshold=1", path.string()},
                       dir, 1500);
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_TRUE(contains(a.out, "1,000,000 (100.0%)  a.c:f0")) << a.out.substr(0, 2000);
}

TEST(hostile, cycle_of_a_million_functions) {
  temp_dir dir;
  const auto path = dir / "cycle.callgrind";
  write_chain(path, 1000000, true);
  auto r = run_bounded("1M cycle (check)", {"check", path.string()}, dir, 400);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "1000000 functions, 1000000 calls")) << r.out;
  auto a = run_bounded("1M cycle (annotate)",
                       {"annotate", "--inclusive=yes", "--auto=no", "--threshold=1", path.string()},
                       dir, 1500);
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_TRUE(contains(a.out, "1,000,000 (100.0%)  <cycle 1>")) << a.out.substr(0, 2000);
}

// --- Name ids up to 2^63 ----------------------------------------------------------------------

TEST(hostile, name_ids_up_to_2_63_and_beyond) {
  temp_dir dir;
  const auto path = dir / "ids.callgrind";
  {
    file_writer w(path);
    w << "events: Ir\nfl=(9223372036854775807) a.c\n";
    for (std::uint64_t i = 0; i < 100000; ++i)  // sparse ids near 2^63
      w << "fn=(" << (std::uint64_t{1} << 63) - 1 - i * 7919 << ") f" << i << "\n1 1\n";
    w << "fn=(9223372036854775808) two_to_the_63\n1 1\n";
    w << "fn=(18446744073709551615) max\n1 1\n";
    w << "fn=(18446744073709551616) too_big\n1 1\n";  // 2^64: not an id
    w << "fn=(9223372036854775808)\n1 1\n";           // a reference to a huge id
  }
  auto r = run_bounded("ids near 2^63", {"check", path.string()}, dir, 100);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::bad_compressed_name))) << r.err;
  EXPECT_TRUE(contains(r.out, "100002 functions")) << r.out;
  // too_big's cost line goes to the function before it (max); the reference names 2^63's.
  EXPECT_TRUE(contains(r.out, "totals Ir=100004")) << r.out;
}

// --- positions: with many subpositions --------------------------------------------------------

TEST(hostile, positions_with_many_subpositions) {
  temp_dir dir;
  const auto path = dir / "positions.callgrind";
  {
    file_writer w(path);
    w << "positions:";
    for (int i = 0; i < 300000; ++i) w << " instr bb line";
    w << "\nevents: Ir\nfl=a.c\nfn=main\n";
    for (int i = 0; i < 1000000; ++i) w << "1 ";  // a million numbers on one line
    w << "\n0x10 2 3 4\n";
    w << "cfn=f\ncalls=1";
    for (int i = 0; i < 100000; ++i) w << " +1";  // a call target with 100,000 tokens
    w << "\n0x10 2 3 10\nfn=f\n0x11 3 4 10\n";
  }
  auto r = run_bounded("900k position kinds", {"check", path.string()}, dir, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::too_many_costs))) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, code(diag_code::extra_call_target))) << r.err.substr(0, 2000);
  EXPECT_LT(r.err.size(), 20000u);  // diagnostics quote lines cut to a sane length
  EXPECT_TRUE(contains(r.out, "2 functions, 1 calls")) << r.out;
}

// --- NUL bytes, invalid UTF-8, random binary --------------------------------------------------

TEST(hostile, nul_bytes_in_lines) {
  temp_dir dir;
  const auto path = dir / "nul.callgrind";
  {
    file_writer w(path);
    w << "# callgrind format\nversion: 1\ncreator: hostile test\ncmd: ./a.out\n";
    w << "positions: line\nevents: Ir\nfl=a.c\nfn=main\n1 5\n";
    w << std::string_view("fn=ma\0in\n", 9);  // a NUL inside a name
    w << std::string_view("2\0 7\n", 5);      // a NUL inside a cost line
    w << "3 1\n";
    for (int i = 0; i < 50; ++i) w << "# padding so the file reads as text\n";
  }
  auto r = run_bounded("NUL bytes", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::nul_byte))) << r.err;
  EXPECT_TRUE(contains(r.out, "totals Ir=6")) << r.out;
  EXPECT_TRUE(contains(r.out, "2 of 62 lines skipped")) << r.out;
}

TEST(hostile, invalid_utf8_names_are_bytes_and_json_stays_valid) {
  temp_dir dir;
  const auto path = dir / "utf8.callgrind";
  {
    file_writer w(path);
    w << "events: Ir\nfl=\xff\xfe.c\nfn=\xc3\x28 bad \xe2\x82\n1 5\n";
    w << "cfn=\xf0\x90\x80\ncalls=1 2\n1 3\n";
    w << "\xc3\x28 bad line \xff\n";  // an unknown line quoted in a diagnostic
  }
  auto r = run_bounded("invalid UTF-8", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // names are bytes: valid, with a warning for the line
  EXPECT_TRUE(contains(r.err, code(diag_code::unknown_line))) << r.err;
  EXPECT_TRUE(contains(r.out, "2 functions, 1 calls")) << r.out;

  auto j = run_bounded("invalid UTF-8 (--json)", {"check", "--json", path.string()}, dir, 20);
  EXPECT_EQ(j.exit_code, 0);
  // The JSON must parse (invalid bytes escaped or replaced), whatever the names hold.
  const auto json_path = dir / "check.json";
  file_writer(json_path) << j.out;
  const std::string cmd =
      "python3 -c 'import json,sys; json.loads(open(sys.argv[1], encoding=\"utf-8\").read())' " +
      json_path.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << j.out;
}

TEST(hostile, random_binary_is_refused_at_once) {
  temp_dir dir;
  const auto path = dir / "random.bin";
  {
    file_writer w(path);
    std::mt19937_64 rng(42);
    std::string chunk(1 << 20, '\0');
    for (auto& c : chunk) c = static_cast<char>(rng());
    w << chunk;
  }
  auto r = run_bounded("1 MB random binary", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::binary_input))) << r.err;
  EXPECT_TRUE(contains(r.out, "0 of 0 lines skipped, reading stopped early")) << r.out;
}

// --- A gzip or zstd stream cut in the middle ---------------------------------------------------

class truncated_stream : public ::testing::TestWithParam<std::string> {};

TEST_P(truncated_stream, keeps_what_came_before_and_says_where_it_stopped) {
  const std::string tool = GetParam();
  temp_dir dir;
  const auto text = dir / "profile.callgrind";
  {
    file_writer w(text);
    w << "events: Ir Dr\nfl=(1) a.c\n";
    for (int f = 0; f < 20000; ++f) {
      w << "fn=(" << static_cast<std::uint64_t>(f + 1) << ") function_" << std::to_string(f)
        << "\n";
      for (int l = 0; l < 20; ++l)
        w << std::to_string(l + 1) << " " << std::to_string(f * 7 + l) << " 3\n";
    }
  }
  const auto packed = dir / ("profile." + tool);
  const auto cut = dir / ("cut." + tool);
  const std::string cmd = tool + " -c < " + text.string() + " > " + packed.string() +
                          " 2>/dev/null && head -c $(( $(stat -c %s " + packed.string() +
                          ") / 2 )) " + packed.string() + " > " + cut.string();
  ASSERT_EQ(std::system(("bash -c '" + cmd + "'").c_str()), 0) << cmd;
  auto r = run_bounded("cut " + tool + " stream", {"check", cut.string()}, dir, 40);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::truncated_input))) << r.err;
  EXPECT_TRUE(contains(r.out, "reading stopped early")) << r.out;
  // About half the functions were read before the cut.
  EXPECT_TRUE(contains(r.out, " functions")) << r.out;
  EXPECT_FALSE(contains(r.out, " 0 functions")) << r.out;
  EXPECT_FALSE(contains(r.out, "20000 functions")) << r.out;
}

INSTANTIATE_TEST_SUITE_P(tools, truncated_stream, ::testing::Values("gzip", "zstd", "xz", "bzip2"),
                         [](const auto& p) { return p.param; });

// --- Calls: a file ending inside a calls= pair, counts of zero --------------------------------

TEST(hostile, file_ending_inside_a_calls_pair) {
  temp_dir dir;
  const auto path = dir / "calls-eof.callgrind";
  file_writer(path) << "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=1 10";
  auto r = run_bounded("EOF inside calls=", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, code(diag_code::call_without_cost))) << r.err;
  EXPECT_TRUE(contains(r.out, "totals Ir=5")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 of 6 lines skipped")) << r.out;
}

TEST(hostile, calls_with_a_count_of_zero) {
  temp_dir dir;
  const auto path = dir / "calls0.callgrind";
  file_writer(path) << "events: Ir\nfl=a.c\nfn=main\n1 1\ncfn=f\ncalls=0 5\n1 40\nfn=f\n5 40\n";
  auto r = run_bounded("calls=0", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 0);  // valid: a call begun in an earlier dump, or a sampling profile
  EXPECT_TRUE(contains(r.err, code(diag_code::zero_call_count))) << r.err;
  EXPECT_TRUE(contains(r.out, "totals Ir=41")) << r.out;  // the call cost is not self cost
  auto a = run_bounded("calls=0 (annotate)",
                       {"annotate", "--inclusive=yes", "--auto=no", path.string()}, dir, 20);
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_TRUE(contains(a.out, "41 (100.0%)  PROGRAM TOTALS")) << a.out;
}

// --- Negative costs (signed), one id defined twice, + and - chains below zero
// ---------------------------

TEST(hostile, negative_costs_are_signed_and_past_int64_an_error) {
  temp_dir dir;
  const auto path = dir / "negative.callgrind";
  file_writer(path) << "events: Ir Dr\nfl=a.c\nfn=main\n1 -5 3\n2 4 -18446744073709551615\n"
                       "3 -18446744073709551616\n4 1\n";
  auto r = run_bounded("negative costs", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 1);  // below -2^63: errors (lines skipped); -5 is a difference
  EXPECT_TRUE(contains(r.err, code(diag_code::negative_cost))) << r.err;
  EXPECT_TRUE(contains(r.err, code(diag_code::number_overflow))) << r.err;
  EXPECT_TRUE(contains(r.out, "totals Ir=-4 Dr=3")) << r.out;

  const auto note_only = dir / "negative-note.callgrind";
  file_writer(note_only) << "events: Ir\nfl=a.c\nfn=main\n1 -5\n2 4\n";
  auto w = run_bounded("negative costs (valid)", {"check", note_only.string()}, dir, 20);
  EXPECT_EQ(w.exit_code, 0);
  EXPECT_TRUE(contains(w.err, code(diag_code::negative_cost))) << w.err;
  EXPECT_TRUE(contains(w.out, "totals Ir=-1")) << w.out;
}

TEST(hostile, same_id_defined_twice_with_different_names) {
  temp_dir dir;
  const auto path = dir / "redefined.callgrind";
  file_writer(path) << "events: Ir\nfl=(1) a.c\nfn=(1) a\n1 1\nfl=(1) b.c\nfn=(1) b\n2 2\n"
                       "fn=(1)\n3 3\n";
  auto r = run_bounded("id defined twice", {"check", path.string()}, dir, 20);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.err, "id (1) redefined from 'a' to 'b'")) << r.err;
  EXPECT_TRUE(contains(r.err, code(diag_code::redefined_name))) << r.err;
  EXPECT_TRUE(contains(r.out, "2 functions")) << r.out;  // a in a.c, b in b.c
}

TEST(hostile, deep_relative_chains_below_zero_and_above_2_64) {
  temp_dir dir;
  const auto path = dir / "relative.callgrind";
  {
    file_writer w(path);
    w << "positions: instr line\nevents: Ir\nfl=a.c\nfn=main\n0x100 100 1\n";
    for (int i = 0; i < 1000000; ++i) w << "-7 -3 1\n";
    w << "+5 +5 1\n0xfffffffffffffff0 18446744073709551600 1\n";
    for (int i = 0; i < 10; ++i) w << "+3 +3 1\n";
  }
  auto r = run_bounded("1M lines below zero", {"check", path.string()}, dir, 30);
  EXPECT_EQ(r.exit_code, 1);  // going above 2^64-1 is an error; below 0 a warning (0 is used)
  EXPECT_TRUE(contains(r.err, code(diag_code::position_below_zero))) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, code(diag_code::position_overflow))) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, "more [position-below-zero] diagnostics not shown"));
  EXPECT_LT(r.err.size(), 50000u);  // a million warnings are counted, twenty are shown
  EXPECT_TRUE(contains(r.out, "totals Ir=1000008")) << r.out;
}

// --- A million events, and the memory guard ---------------------------------------------------

TEST(hostile, million_events_on_one_line) {
  temp_dir dir;
  const auto path = dir / "events.callgrind";
  {
    file_writer w(path);
    w << "events:";
    for (int i = 0; i < 1000000; ++i) w << " e" << static_cast<std::uint64_t>(i);
    w << " e17\nfl=a.c\nfn=main\n";
    for (int l = 0; l < 20; ++l) w << static_cast<std::uint64_t>(l + 1) << " 1 2 3\n";
  }
  auto r = run_bounded("1M events (check)", {"check", "-q", path.string()}, dir, 400);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.out, "e999999=0")) << r.out.substr(0, 200);
}

TEST(hostile, max_memory_stops_a_model_that_would_not_fit) {
  temp_dir dir;
  const auto path = dir / "wide.callgrind";
  {
    // 20,000 events: each distinct cost line is a 160 KB row; 20,000 lines would be 3.2 GB.
    file_writer w(path);
    w << "events:";
    for (int i = 0; i < 20000; ++i) w << " e" << static_cast<std::uint64_t>(i);
    w << "\nfl=a.c\nfn=main\n";
    for (int l = 0; l < 20000; ++l) w << static_cast<std::uint64_t>(l + 1) << " 1\n";
  }
  {
    // The source, found through --include, so that annotate keeps a row per line of it (it
    // keeps none for a file it cannot open).
    file_writer w(dir / "a.c");
    for (int l = 0; l < 20000; ++l) w << "x;\n";
  }
  // The report stops keeping rows at 64 MiB: peak RSS stays near it, not at 3.2 GB.
  auto r = run_bounded("wide rows --max-memory=64M",
                       {"annotate", "--max-memory=64M", "--auto=yes", "--show=e0",
                        "--include=" + dir.path().string(), path.string()},
                       dir, 200);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // annotate reports what it kept: --max-memory is an error
  EXPECT_TRUE(contains(r.err, "1 errors")) << r.err;
  // Without source annotation no line is kept: the 20,000 lines are one row, within the limit.
  auto one = run_bounded("wide rows --auto=no --max-memory=64M",
                         {"annotate", "--max-memory=64M", "--auto=no", "--show=e0", path.string()},
                         dir, 200);
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_FALSE(contains(one.err, "errors")) << one.err;

  // The reader side: names alone past the limit stop `check` (which builds no model).
  const auto names = dir / "names.callgrind";
  {
    file_writer w(names);
    w << "events: Ir\nfl=a.c\n";
    for (std::uint64_t i = 0; i < 200000; ++i) w << "fn=function_" << i << "\n1 1\n";
  }
  auto c =
      run_bounded("names --max-memory=1M", {"check", "--max-memory=1M", names.string()}, dir, 40);
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(contains(c.err, code(diag_code::limit_exceeded))) << c.err;
  EXPECT_TRUE(contains(c.out, "reading stopped early")) << c.out;
  auto m = run_bounded("bad --max-memory", {"check", "--max-memory=lots", names.string()}, dir, 20);
  EXPECT_EQ(m.exit_code, 2);  // a usage error
}

}  // namespace
}  // namespace calltree

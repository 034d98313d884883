// record_test.cc — the pure pieces of `calltree record`: the names of the runs of a folder
// (history/run_names.h: made, read back, numbered, the run before) and the Valgrind options
// checked before a run (cli/valgrind_options.h: the names of a help text, the spelling
// suggested for a misspelt one, the options record keeps for itself).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "history/run_names.h"
#include "history/run_order.h"
#include "valgrind_options.h"

namespace calltree {
namespace {

using history::run_name;

TEST(RunNames, MadeAndReadBack) {
  run_name r{7, "bench", "20261128-043000", "", "callgrind"};
  EXPECT_EQ(history::format_run_name(r), "0007-bench-20261128-043000.callgrind");
  r.signal = "SIGSEGV";
  r.number = 12345;
  r.label = "my_prog.py";
  const std::string s = history::format_run_name(r);
  EXPECT_EQ(s, "12345-my_prog.py-20261128-043000-SIGSEGV.callgrind");
  auto back = history::parse_run_name(s);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->number, 12345u);
  EXPECT_EQ(back->label, "my_prog.py");
  EXPECT_EQ(back->stamp, "20261128-043000");
  EXPECT_EQ(back->signal, "SIGSEGV");
  EXPECT_EQ(back->extension, "callgrind");
}

TEST(RunNames, OtherNamesAreNoRuns) {
  for (const char* n : {"callgrind.out.1234", "README.md", "0001-x.callgrind",
                        "0001-bench-2026112-043000.callgrind", "x001-bench-20261128-043000.pstats",
                        "0001-bench-20261128-043000", "0001-be/ch-20261128-043000.callgrind"})
    EXPECT_FALSE(history::parse_run_name(n)) << n;
}

TEST(RunNames, SafeLabel) {
  EXPECT_EQ(history::safe_label("bench.py"), "bench.py");
  EXPECT_EQ(history::safe_label("a b/c-d"), "a_b_c_d");
  EXPECT_EQ(history::safe_label(".hidden"), "hidden");
  EXPECT_EQ(history::safe_label(""), "run");
  EXPECT_EQ(history::safe_label(std::string(100, 'x')).size(), 40u);
}

TEST(RunNames, NumbersFollowTheHighestAndSortAsTrendSortsThem) {
  std::vector<std::string> names{"README.md", "0003-a-20261128-043000.callgrind",
                                 "0009-b-20261128-043001-SIGINT.pstats"};
  EXPECT_EQ(history::next_run_number(names), 10u);
  EXPECT_EQ(history::next_run_number({}), 1u);
  // 0009 < 0010 < 9999 < 10000 by name, as trend --order=name sorts.
  std::vector<std::string> ordered{
      "0009-a-20261128-043000.callgrind", "0010-a-20261128-043000.callgrind",
      "9999-a-20261128-043000.callgrind", "10000-a-20261128-043000.callgrind"};
  for (std::size_t i = 0; i + 1 < ordered.size(); ++i)
    EXPECT_TRUE(history::natural_less(ordered[i], ordered[i + 1])) << ordered[i];
}

TEST(RunNames, PreviousRunIsOfTheSameLabelAndNotKilled) {
  std::vector<std::string> names{
      "0001-a-20261128-043000.callgrind", "0002-b-20261128-043001.callgrind",
      "0003-a-20261128-043002.callgrind", "0004-a-20261128-043003-SIGSEGV.callgrind",
      "0005-a-20261128-043004.callgrind"};
  EXPECT_EQ(history::previous_run(names, "a", 5), "0003-a-20261128-043002.callgrind");
  EXPECT_EQ(history::previous_run(names, "a", 3), "0001-a-20261128-043000.callgrind");
  EXPECT_EQ(history::previous_run(names, "b", 5), "0002-b-20261128-043001.callgrind");
  EXPECT_FALSE(history::previous_run(names, "a", 1));
  EXPECT_FALSE(history::previous_run(names, "c", 9));
}

// What `valgrind --tool=callgrind --help-debug` prints, in part (Valgrind 3.19).
constexpr const char* help = R"(usage: valgrind [options] prog-and-args

  tool-selection option, with default in [ ]:
    --tool=<name>             use the Valgrind tool named <name> [memcheck]

  basic user options for all Valgrind tools, with defaults in [ ]:
    -h --help                 show this message
    -q --quiet                run silently; only print error msgs
    --trace-children=no|yes   Valgrind-ise child processes (follow execve)? [no]
    --fullpath-after=         (with nothing after the '=')
    --allow-mismatched-debuginfo=no|yes  [no]
                              for the above two flags only, accept debuginfo
                              objects that don't "match" the main object
    -s                        same as --show-error-list=yes

  user options for Callgrind:
    --dump-instr=no|yes       Dump instruction address of costs? [no]
    --collect-atstart=no|yes  Collect at process/thread start [yes]
    --toggle-collect=<func>   Toggle collection on enter/leave function
    --separate-callers<n>=<f> Separate <n> callers for function <f>
    --cache-sim=no|yes        Do cache simulation [no]
)";

TEST(ValgrindOptions, NamesOfTheHelpText) {
  const auto names = cli::valgrind_option_names(help);
  const std::vector<std::string> want{"allow-mismatched-debuginfo",
                                      "cache-sim",
                                      "collect-atstart",
                                      "dump-instr",
                                      "fullpath-after",
                                      "h",
                                      "help",
                                      "q",
                                      "quiet",
                                      "s",
                                      "separate-callers<n>",
                                      "toggle-collect",
                                      "tool",
                                      "trace-children"};
  EXPECT_EQ(names, want);
}

TEST(ValgrindOptions, KnownAndUnknown) {
  const auto names = cli::valgrind_option_names(help);
  EXPECT_EQ(cli::option_name("--cache-sim=yes"), "cache-sim");
  EXPECT_EQ(cli::option_name("-q"), "q");
  EXPECT_FALSE(cli::option_name("cache-sim=yes"));
  EXPECT_TRUE(cli::known_option("cache-sim", names));
  EXPECT_TRUE(cli::known_option("separate-callers3", names));
  EXPECT_TRUE(cli::known_option("q", names));
  EXPECT_FALSE(cli::known_option("collect-at-start", names));
  EXPECT_FALSE(cli::known_option("separate-callers", names));
}

TEST(ValgrindOptions, TheRightSpellingIsSuggested) {
  const auto names = cli::valgrind_option_names(help);
  using v = std::vector<std::string>;
  EXPECT_EQ(cli::similar_options("collect-at-start", names), v{"collect-atstart"});
  EXPECT_EQ(cli::similar_options("colect-atstart", names), v{"collect-atstart"});
  EXPECT_EQ(cli::similar_options("collect-atsatrt", names), v{"collect-atstart"});  // a swap
  EXPECT_EQ(cli::similar_options("dump-instrs", names), v{"dump-instr"});
  EXPECT_EQ(cli::similar_options("trace-child", names), v{"trace-children"});
  EXPECT_EQ(cli::similar_options("cachesim", names), v{"cache-sim"});
  EXPECT_TRUE(cli::similar_options("frobnicate", names).empty());
  EXPECT_TRUE(cli::similar_options("x", names).empty());  // (no one-letter option offered)
}

TEST(ValgrindOptions, RecordKeepsItsOwn) {
  EXPECT_FALSE(cli::reserved_option("tool").empty());
  EXPECT_FALSE(cli::reserved_option("callgrind-out-file").empty());
  EXPECT_FALSE(cli::reserved_option("log-file").empty());
  EXPECT_TRUE(cli::reserved_option("cache-sim").empty());
}

}  // namespace
}  // namespace calltree

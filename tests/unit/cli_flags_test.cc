// cli_flags_test.cc — the command-line parser (cli/args.h) and the typed flag tables
// (cli/flag_table.h): values into fields, repeatable flags, `--name` alone, errors, and the
// options of every command taken out of a command's arguments (main.cc's take_flags).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "args.h"
#include "flag_table.h"

namespace calltree::cli {
namespace {

struct sample_flags {
  bool json = false, help = false;
  std::optional<std::string> threshold, output, percs;
  std::vector<std::string> include;
};

constexpr auto sample_table = make_flag_table<sample_flags>({
    {"json", 0, &sample_flags::json, "JSON"},
    {"threshold", 0, &sample_flags::threshold, "a threshold", "N"},
    {"output", 'o', &sample_flags::output, "the file", "FILE"},
    {"include", 'I', &sample_flags::include, "a directory (repeatable)", "DIR"},
    {"show-percs", 0, &sample_flags::percs, "percentages", "yes|no", alone_means{"yes"}},
    {"max-memory", 0, taken_by_main, "documented here, taken by main", "SIZE"},
    {"help", 'h', &sample_flags::help, "help"},
});

// The options of every command, as main.cc declares them.
struct every_command_flags {
  std::optional<std::string> max_memory, color;
};
constexpr auto every_command_table = make_flag_table<every_command_flags>({
    {"max-memory", 0, &every_command_flags::max_memory, "a limit", "SIZE"},
    {"color", 0, &every_command_flags::color, "colours", "auto|always|never"},
});

std::optional<command_line<sample_flags>> parse(std::vector<std::string_view> args,
                                                std::string& err) {
  return parse_flags(args, sample_table, err);
}

TEST(CliFlags, TableGivesTheFlagsHelpShows) {
  static_assert(sample_table.flags.size() == 7);
  EXPECT_EQ(sample_table.flags[0].long_name, "json");
  EXPECT_FALSE(sample_table.flags[0].takes_value);
  EXPECT_TRUE(sample_table.flags[1].takes_value);  // (from the field's type)
  EXPECT_EQ(sample_table.flags[1].value_name, "N");
  EXPECT_EQ(sample_table.flags[2].short_name, 'o');
  EXPECT_TRUE(sample_table.flags[5].takes_value);
  EXPECT_EQ(format_help("x", "FILE", "Does x.", sample_table.flags),
            "Usage: calltree x FILE\n\nDoes x.\n\nOptions:\n"
            "  --json                    JSON\n"
            "  --threshold=N             a threshold\n"
            "  -o, --output=FILE         the file\n"
            "  -I, --include=DIR         a directory (repeatable)\n"
            "  --show-percs=yes|no       percentages\n"
            "  --max-memory=SIZE         documented here, taken by main\n"
            "  -h, --help                help\n");
}

TEST(CliFlags, TypedValues) {
  std::string err;
  auto a = parse({"--json", "--threshold=5", "FILE", "-o", "out", "-I", "a", "-Ib", "--include=c",
                  "--threshold", "7", "second"},
                 err);
  ASSERT_TRUE(a) << err;
  EXPECT_TRUE(a->json);
  EXPECT_FALSE(a->help);
  EXPECT_EQ(a->threshold, "7");  // the last one wins
  EXPECT_EQ(a->output, "out");
  EXPECT_EQ(a->include, (std::vector<std::string>{"a", "b", "c"}));  // every one, in order
  EXPECT_FALSE(a->percs);
  EXPECT_EQ(a->positional, (std::vector<std::string>{"FILE", "second"}));
}

TEST(CliFlags, NothingGiven) {
  std::string err;
  auto a = parse({}, err);
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->json);
  EXPECT_FALSE(a->threshold);
  EXPECT_TRUE(a->include.empty());
  EXPECT_TRUE(a->positional.empty());
}

TEST(CliFlags, AloneMeansItsValue) {
  std::string err;
  auto a = parse({"--show-percs", "FILE"}, err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(a->percs, "yes");
  EXPECT_EQ(a->positional, (std::vector<std::string>{"FILE"}));  // not taken as its value
  a = parse({"--show-percs=no"}, err);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->percs, "no");
}

TEST(CliFlags, DashesAndDoubleDash) {
  std::string err;
  auto a = parse({"-", "--", "--json", "-o"}, err);
  ASSERT_TRUE(a) << err;
  EXPECT_FALSE(a->json);
  EXPECT_EQ(a->positional, (std::vector<std::string>{"-", "--json", "-o"}));
  a = parse({"--threshold=", "--output", "--json"}, err);  // a value may look like a flag
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(a->threshold, "");
  EXPECT_EQ(a->output, "--json");
  EXPECT_FALSE(a->json);
}

TEST(CliFlags, Errors) {
  std::string err;
  EXPECT_FALSE(parse({"--jsn"}, err));
  EXPECT_EQ(err, "unknown option '--jsn'");
  EXPECT_FALSE(parse({"--nope=3"}, err));
  EXPECT_EQ(err, "unknown option '--nope'");
  EXPECT_FALSE(parse({"-x"}, err));
  EXPECT_EQ(err, "unknown option '-x'");
  EXPECT_FALSE(parse({"FILE", "--threshold"}, err));
  EXPECT_EQ(err, "option '--threshold' needs a value");
  EXPECT_FALSE(parse({"--json=yes"}, err));
  EXPECT_EQ(err, "option '--json' takes no value");
  EXPECT_FALSE(parse({"-hx"}, err));
  EXPECT_EQ(err, "option '-h' takes no value");
}

TEST(CliFlags, OptionsOfEveryCommandBeforeTheCommand) {
  std::string err;
  const std::vector<std::string_view> args{"--max-memory=1G", "--color", "never",
                                           "check",           "FILE",    "--color=always"};
  auto leading = parse_args(args, every_command_table.flags, err, /*stop_at_positional=*/true);
  ASSERT_TRUE(leading) << err;
  every_command_flags f;
  store_flags(every_command_table, *leading, f);
  EXPECT_EQ(f.max_memory, "1G");
  EXPECT_EQ(f.color, "never");
  // Everything from the command's name on is left for the command.
  EXPECT_EQ(leading->positional, (std::vector<std::string>{"check", "FILE", "--color=always"}));

  EXPECT_FALSE(parse_args(std::vector<std::string_view>{"--colour=never", "check"},
                          every_command_table.flags, err, true));
  EXPECT_EQ(err, "unknown option '--colour'");
}

TEST(CliFlags, OptionsOfEveryCommandAfterTheCommand) {
  std::string err;
  // Read with the command's table: -o's and --threshold's values are theirs, not options.
  const std::vector<std::string_view> args{
      "-o",     "--color=always", "--max-memory", "2G",    "FILE", "--threshold",   "--color",
      "--json", "--unknown",      "--color",      "never", "--",   "--color=always"};
  parsed_args taken;
  ASSERT_TRUE(take_flags(args, every_command_table.flags, sample_table.flags, taken, err)) << err;
  every_command_flags f;
  store_flags(every_command_table, taken, f);
  EXPECT_EQ(f.max_memory, "2G");
  EXPECT_EQ(f.color, "never");
  EXPECT_EQ(taken.positional,
            (std::vector<std::string>{"-o", "--color=always", "FILE", "--threshold", "--color",
                                      "--json", "--unknown", "--", "--color=always"}));
  // What is left parses as the command's own.
  std::vector<std::string_view> rest(taken.positional.begin(), taken.positional.end());
  auto a =
      parse_flags(std::vector<std::string_view>(rest.begin(), rest.begin() + 6), sample_table, err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(a->output, "--color=always");
  EXPECT_EQ(a->threshold, "--color");
  EXPECT_TRUE(a->json);

  // A row of both tables (check's --max-memory) is taken.
  parsed_args both;
  ASSERT_TRUE(take_flags(std::vector<std::string_view>{"--max-memory", "1G", "FILE"},
                         every_command_table.flags, sample_table.flags, both, err));
  ASSERT_EQ(both.flags.size(), 1u);
  EXPECT_EQ(both.flags[0].first, 0u);
  EXPECT_EQ(both.flags[0].second, "1G");
  EXPECT_EQ(both.positional, (std::vector<std::string>{"FILE"}));

  parsed_args bad;
  EXPECT_FALSE(take_flags(std::vector<std::string_view>{"FILE", "--color"},
                          every_command_table.flags, sample_table.flags, bad, err));
  EXPECT_EQ(err, "option '--color' needs a value");
}

}  // namespace
}  // namespace calltree::cli

// header_read_test.cc — views::read_header (serve DIR's table) says of every profile of the
// corpus, tests/golden and tests/malformed what reading the whole file says: the first part's
// creator:, cmd: and events, and for a file read whole (smaller than the block) its parts and
// the total of its first event (the summary: lines when stated, else the sum of self costs,
// as `calltree check` counts them); a file read to its header only states the first part's
// summary: or no total. Each file is read with the default block and with a block of 256
// bytes (a header longer than that is read again to 1 MiB), so both paths see every file.
#include "views/header_read.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "calltree/checker.h"
#include "calltree/reader.h"
#include "profile_files.h"

namespace calltree {
namespace {

class first_header final : public record_sink {
 public:
  void on_part_begin(const part_header& h) override {
    if (parts_++ == 0) first_ = h;
  }
  part_header first_;
  std::uint64_t parts_ = 0;
};

struct whole_read {
  bool profile = false;
  part_header first;
  check_result check;
};

whole_read read_whole(const std::string& path) {
  whole_read w;
  auto in = open_input(path);
  if (!in) return w;
  string_pool names;
  first_header h;
  checker c;
  tee_sink both({&h, &c});
  diagnostic_collector diags(0);
  auto r = read_callgrind(**in, names, both, diags);
  w.profile = r.has_value() && h.parts_ > 0;
  w.first = h.first_;
  w.check = c.result();
  return w;
}

TEST(HeaderRead, AgreesWithTheWholeFileOnEveryProfile) {
  int whole = 0, header_only = 0;
  for (const auto& file : test::every_profile(true)) {
    const std::string path = file.string();
    SCOPED_TRACE(path);
    const whole_read w = read_whole(path);
    for (std::size_t block : {std::size_t(64) << 10, std::size_t(256)}) {
      SCOPED_TRACE(block);
      const views::header_facts f = views::read_header(path, block);
      if (!w.profile) {
        EXPECT_FALSE(f.problem.empty());
        continue;
      }
      if (f.problem.starts_with("not a profile") || f.problem.starts_with("no cost line")) {
        ADD_FAILURE() << f.problem;
        continue;
      }
      EXPECT_EQ(f.creator, w.first.creator);
      EXPECT_EQ(f.cmd, w.first.cmd);
      EXPECT_EQ(f.events, w.first.events);
      if (f.whole) {
        ++whole;
        EXPECT_EQ(f.parts, w.check.parts);
        // (the program total of calltree/totals.h, as annotate prints it: issue 57)
        if (!w.check.program.empty()) {
          ASSERT_TRUE(f.first_total.has_value());
          EXPECT_EQ(*f.first_total, w.check.program.front().program);
          EXPECT_EQ(f.source, views::header_facts::total_source::read);
        }
      } else {
        ++header_only;
        EXPECT_LE(f.block, std::uint64_t(1) << 20);
        if (w.first.summary && !w.first.summary->empty()) {
          ASSERT_TRUE(f.first_total.has_value());
          EXPECT_EQ(*f.first_total, w.first.summary->front());
          EXPECT_EQ(f.source, views::header_facts::total_source::summary);
        } else {
          EXPECT_FALSE(f.first_total.has_value());
        }
      }
    }
  }
  EXPECT_GT(whole, 20);
  EXPECT_GT(header_only, 20);
}

TEST(HeaderRead, ProblemsOfFilesThatAreNoProfile) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(views::read_header(dir + "/no-such-file").problem.rfind("cannot open it", 0), 0u);
  EXPECT_EQ(views::read_header(dir).problem, "not a regular file");
  const std::string empty = dir + "/header_read_empty";
  std::ofstream(empty).close();
  EXPECT_EQ(views::read_header(empty).problem, "an empty file");
  const std::string text = dir + "/header_read_text";
  std::ofstream(text) << "hello\n";
  EXPECT_EQ(views::read_header(text).problem.rfind("not a profile: header_read_text:", 0), 0u);
}

}  // namespace
}  // namespace calltree

// annotate_test.cc — the annotate report's grouping and numbers on small hand-made profiles
// (docs/annotate.md), read as the command reads them (annotate_read.h); the corpus comparisons
// are in tests/cli/annotate_*.sh.
#include "report/annotate.h"

#include <gtest/gtest.h>

#include <string>

#include "annotate_read.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

std::string table(const std::string& text, annotate_options o = {}) {
  o.auto_annotate = false;
  // (A std::string, not the bare "t": GCC 12 at -O2 warns, wrongly, -Wrestrict on assigning a
  // one-character literal to a std::string, GCC bug 105329.)
  o.input_name = std::string("t");
  o.threshold = "100";
  auto r = test::annotate_read(text, o);
  EXPECT_TRUE(r.has_value());
  if (!r) return {};
  std::string s = *r;
  auto pos = s.find("file:function\n");
  return pos == std::string::npos ? s : s.substr(s.find('\n', s.find('\n', pos) + 1) + 1);
}

TEST(Annotate, InlinedCodeIsAPseudoFunctionUnderItsFiFile) {
  // T8: main's cost at h.h:3 is listed as h.h:main, as callgrind_annotate does; the call
  // from inlined code comes from h.h:main; helper's file is h.h (no cfi=).
  const char* t8 =
      "events: Ir\nfl=(1) m.c\nfn=(1) main\n5 1\nfi=(2) h.h\n3 10\ncfn=(2) helper\n"
      "calls=1 7\n3 4\nfe=(1)\n6 1\nfl=(2)\nfn=(2)\n7 4\n";
  EXPECT_EQ(table(t8),
            "10 (62.50%)  h.h:main\n"
            " 4 (25.00%)  h.h:helper\n"
            " 2 (12.50%)  m.c:main\n\n");
  annotate_options o;
  o.inclusive = true;
  EXPECT_EQ(table(t8, o),
            "14 (87.50%)  h.h:main\n"
            " 4 (25.00%)  h.h:helper\n"
            " 2 (12.50%)  m.c:main\n\n");
}

TEST(Annotate, OmittedCostsPrintAsDotsExplicitZerosAsZero) {
  const char* t = "events: Ir Dr Dw\nfl=a.c\nfn=f\n1 5 0\nfn=g\n2 3\nfn=h\n3 1 2 3\n";
  EXPECT_EQ(table(t),
            "5 (55.56%) 0          .           a.c:f\n"
            "3 (33.33%) .          .           a.c:g\n"
            "1 (11.11%) 2 (100.0%) 3 (100.0%)  a.c:h\n\n");
}

TEST(Annotate, CallsWithCountZeroAreCallsNotSelfCost) {
  const char* t = "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=0 10\n1 20\nfn=f\n10 20\n";
  EXPECT_EQ(table(t), "20 (80.00%)  a.c:f\n 5 (20.00%)  a.c:main\n\n");
  annotate_options raw;
  raw.raw = true;
  EXPECT_EQ(table(t, raw), "25 (55.56%)  a.c:main\n20 (44.44%)  a.c:f\n\n");
}

TEST(Annotate, CurrentDirectoryIsStrippedFromCallerAndCalleeFiles) {
  const char* t =
      "events: Ir\nfl=/w/a.c\nfn=main\n1 5\ncfl=/w/a.c\ncfn=f\ncalls=1 10\n1 20\n"
      "fn=f\n10 20\n";
  annotate_options o;
  o.cwd = "/w/";
  o.inclusive = true;
  EXPECT_EQ(table(t, o), "25 (100.0%)  a.c:main\n20 (80.00%)  a.c:f\n\n");
}

TEST(Annotate, DerivedEventsCanBeShownAndSorted) {
  const char* t = "event: Both = Ir + 2 Dr\nevents: Ir Dr\nfl=a.c\nfn=f\n1 10 1\nfn=g\n2 1 10\n";
  annotate_options o;
  o.show = {"Both", "Ir"};
  o.sort = {"Both"};
  EXPECT_EQ(table(t, o),
            "21 (63.64%)  1 ( 9.09%)  a.c:g\n"
            "12 (36.36%) 10 (90.91%)  a.c:f\n\n");
  o.show = {"Nope"};
  auto r = test::annotate_read(t, o);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("--show event `Nope' did not appear in input"),
            std::string::npos);
}

TEST(Annotate, JsonHasSchemaTotalsFunctionsAndCycles) {
  const char* t7 =
      "events: Ir\nfl=c.c\nfn=main\n1 1\ncfn=a\ncalls=1 10\n1 50\n"
      "fn=a\n10 20\ncfn=b\ncalls=2 20\n10 60\n"
      "fn=b\n20 30\ncfn=a\ncalls=1 10\n20 30\n";
  annotate_options o;
  o.input_name = "t7";
  auto r = test::annotate_read(t7, o, true);
  ASSERT_TRUE(r.has_value());
  const std::string& j = *r;
  EXPECT_NE(j.find("\"schema\":\"calltree-annotate\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"version\":1"), std::string::npos);
  EXPECT_NE(j.find("\"totals\":{\"Ir\":51}"), std::string::npos);
  EXPECT_NE(j.find("\"members\":[\"c.c:a\",\"c.c:b\"],\"inclusive\":{\"Ir\":50}"),
            std::string::npos)
      << j;
}

}  // namespace
}  // namespace calltree

namespace calltree {
namespace {

// Auto-annotation of a sampling profiler's frames of no file (issue 67): no "could not be
// found" section with a nameless line; a callgrind file's own `fl=` of no name keeps it, as
// callgrind_annotate prints it.
TEST(Annotate, ASampledProfilesFramesOfNoFileAreNotAFileNotFound) {
  annotate_options o;
  o.input_name = std::string("t");
  auto folded = test::annotate_read("main;f 3\nmain;g 2\n", o);
  ASSERT_TRUE(folded.has_value());
  EXPECT_NE(folded->find("Events recorded:  samples\n"), std::string::npos) << *folded;
  EXPECT_EQ(folded->find("could not be found"), std::string::npos) << *folded;
  auto callgrind = test::annotate_read("events: Ir\nfl=\nfn=main\n1 5\n", o);
  ASSERT_TRUE(callgrind.has_value());
  EXPECT_NE(callgrind->find("could not be found:\n"
                            "--------------------------------------------------------------------"
                            "------------\n  \n"),
            std::string::npos)
      << *callgrind;
}

}  // namespace
}  // namespace calltree

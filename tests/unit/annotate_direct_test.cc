// annotate_direct_test.cc — annotate's one filler of tables gives one report, however the
// records come.
//
// `calltree annotate` sums the records straight into the report's tables
// (report/annotate_direct.h), and a profile already built is replayed through the same sink.
// On every corpus, golden and malformed file and several option sets (inclusive costs, trees,
// thresholds, derived events, --raw, --part, source annotation), its text and its diagnostics
// must be the same whichever way the reader hands the records over: one per line, sums per
// context (per line for source annotation) on one thread and on the parallel path (every chunk
// speculated); and a profile built and replayed gives the report of its file.
// Crafted profiles cover what the corpus has little of: parts with different `events:` lists
// and omitted costs ("." columns), one function name in several objects and files, inlined
// files, callers with no self cost, cycles across parts.
#include "views/annotate_direct.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/string_pool_access.h"
#include "profile_files.h"
#include "reader/read_hooks.h"
#include "report/annotate.h"

namespace calltree {
namespace {

// How the reader hands records over.
enum class mode { plain, summed, parallel };

// The reader's options and hooks for `m` (records as asked for here, whatever the sink asks).
struct read_as {
  reader_options ro;
  detail::read_hooks hooks;
};
read_as options_for(mode m, bool per_line = false) {
  read_as r;
  r.hooks.any_input = true;  // (every file, a profile or not, as the tool reads it)
  read_needs& n = r.hooks.needs.emplace();
  n.jumps = false;
  if (m != mode::plain) n.costs = read_needs::grain::sums_per_context;
  n.per_line = per_line;
  if (m == mode::parallel) {
    r.ro.threads = 2;
    r.hooks.chunk_bytes = 4096;
    r.hooks.speculate_every_chunk = true;
  }
  return r;
}

struct report {
  bool ok = false;
  std::string text;  // the report, or the error
  std::vector<std::string> warnings;
  std::uint64_t errors = 0;  // diagnostics of severity error
  std::size_t parts = 0;
};

struct error_counter final : diagnostic_sink {
  void report(diagnostic d) override {
    if (d.severity == severity::error) ++errors;
  }
  std::uint64_t errors = 0;
};

// (With source annotation, summed per line: as the command reads for it.)
report direct_report(std::unique_ptr<input> in, const annotate_options& o, mode m) {
  report r;
  profile p;
  p.strings = string_pool_access::make(pool_mode::spill);
  error_counter diags;
  annotate_direct sink(p, o, &diags, "test");
  const bool by_line = o.auto_annotate || !o.user_files.empty();
  read_as as = options_for(m, by_line);
  if (by_line) as.hooks.needs->lines_of = sink.lines_of();
  // (--raw keeps calls by target line: each line, whatever else is asked.)
  if (o.raw) as.hooks.needs->costs = read_needs::grain::each_line;
  EXPECT_TRUE(detail::read_with_hooks(*in, p.strings, sink, diags, as.ro, as.hooks).has_value());
  r.errors = diags.errors;
  r.parts = p.parts.size();
  auto s = annotate_text_of(
      sink, [&](std::string_view piece) { r.text.append(piece); }, &r.warnings);
  r.ok = s.has_value();
  if (!s) r.text = s.error().message;
  return r;
}

// The profile built from the same records, replayed through the same sink (annotate_text).
report replayed_report(std::unique_ptr<input> in, const annotate_options& o) {
  report r;
  profile p;
  error_counter diags;
  profile_builder b(p, &diags, "test");
  EXPECT_TRUE(read_callgrind(*in, p.strings, b, diags, {}).has_value());
  r.errors = diags.errors;
  r.parts = p.parts.size();
  auto s = annotate_text(p, o, &r.warnings);
  r.ok = s.has_value();
  r.text = s ? *s : s.error().message;
  return r;
}

std::unique_ptr<input> open_file(const std::string& path) {
  auto in = open_input(path);
  EXPECT_TRUE(in.has_value()) << path;
  return in ? std::move(*in) : nullptr;
}

// The option sets, for a file whose first event is `first` (for a derived event of its own).
std::vector<annotate_options> option_sets(const std::string& first) {
  std::vector<annotate_options> v;
  annotate_options o;
  o.input_name = "x";
  o.auto_annotate = false;
  v.push_back(o);  // --auto=no
  o.inclusive = true;
  v.push_back(o);  // --inclusive=yes
  o.inclusive = false;
  o.tree_caller = o.tree_calling = true;
  v.push_back(o);  // --tree=both
  o.inclusive = true;
  v.push_back(o);  // --inclusive=yes --tree=both
  o.threshold = "100";
  v.push_back(o);  // the same, every function
  annotate_options t;
  t.input_name = "x";
  t.auto_annotate = false;
  t.threshold = "0";
  t.tree_caller = true;
  v.push_back(t);  // --threshold=0 --tree=caller
  if (!first.empty()) {
    annotate_options d = t;
    d.threshold = "100";
    d.inclusive = true;
    d.tree_calling = true;
    d.event_definitions = {"Twice = 2 " + first + " + 1 Unknown"};
    d.show = {first, "Twice", "CEst"};
    d.sort = {"Twice"};
    v.push_back(d);  // derived events (one from the file's event, KCachegrind's CEst)
  }
  annotate_options r;
  r.input_name = "x";
  r.auto_annotate = false;
  r.raw = true;
  r.inclusive = true;
  r.tree_caller = r.tree_calling = true;
  v.push_back(r);  // --raw --inclusive=yes --tree=both
  annotate_options q;
  q.input_name = "x";
  q.auto_annotate = false;
  q.part = part_id{0};
  q.inclusive = true;
  q.tree_calling = true;
  v.push_back(q);  // --part=1 --inclusive=yes --tree=calling
  return v;
}

// Source annotation (read one record per line, as the command reads for it): the corpus's
// sources are found through an include directory.
std::vector<annotate_options> source_option_sets() {
  std::vector<annotate_options> v;
  annotate_options o;
  o.input_name = "x";
  o.include_dirs = {CALLTREE_CORPUS_DIR};
  v.push_back(o);  // --auto=yes
  o.inclusive = true;
  o.tree_caller = o.tree_calling = true;
  v.push_back(o);  // --inclusive=yes --tree=both
  annotate_options u;
  u.input_name = "x";
  u.auto_annotate = false;
  u.threshold = "100";
  u.context = 1;
  u.include_dirs = {CALLTREE_CORPUS_DIR};
  u.user_files = {"src/c/recurse.c"};
  v.push_back(u);  // --auto=no --threshold=100 --context=1 src/c/recurse.c
  annotate_options r;
  r.input_name = "x";
  r.include_dirs = {CALLTREE_CORPUS_DIR};
  r.raw = true;
  r.part = part_id{0};
  v.push_back(r);  // --auto=yes --raw --part=1
  return v;
}

std::string describe(const annotate_options& o) {
  std::string s = "threshold " + o.threshold;
  if (o.auto_annotate) s += " --auto=yes";
  for (const auto& f : o.user_files) s += " " + f;
  if (o.inclusive) s += " --inclusive=yes";
  if (o.raw) s += " --raw";
  if (o.part) s += " --part=" + std::to_string(o.part->index() + 1);
  if (o.tree_caller || o.tree_calling)
    s += std::string(" --tree=") + (o.tree_caller && o.tree_calling ? "both"
                                    : o.tree_caller                 ? "caller"
                                                                    : "calling");
  for (const auto& e : o.show) s += " show:" + e;
  return s;
}

void expect_same(const report& want, const report& got, const std::string& what) {
  EXPECT_EQ(want.ok, got.ok) << what;
  EXPECT_TRUE(want.text == got.text) << what << ": the reports differ";
  EXPECT_EQ(want.warnings, got.warnings) << what;
  EXPECT_EQ(want.errors, got.errors) << what;
  EXPECT_EQ(want.parts, got.parts) << what;
}

// The first event of a file's first part ("" if none).
std::string first_event(const std::string& path) {
  profile p;
  auto in = open_file(path);
  if (!in) return {};
  diagnostic_collector diags;
  profile_builder b(p, &diags, "test");
  EXPECT_TRUE(detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input()).has_value());
  for (const auto& pt : p.parts)
    if (!pt.header.events.empty()) return pt.header.events[0];
  return {};
}

TEST(annotate_direct, same_report_however_the_records_come_on_every_file) {
  std::size_t compared = 0;
  for (const auto& file : test::every_profile(true)) {
    const std::string path = file.string();
    const auto sets = option_sets(first_event(path));
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const annotate_options& o = sets[i];
      // Records one per line, summed per context, and summed per chunk on the parallel path.
      const report want = direct_report(open_file(path), o, mode::plain);
      expect_same(want, direct_report(open_file(path), o, mode::summed), path + " " + describe(o));
      ++compared;
      if (i == 0 || i == 3 || o.raw || o.part)
        expect_same(want, direct_report(open_file(path), o, mode::parallel),
                    path + " (parallel) " + describe(o));
    }
  }
  EXPECT_GT(compared, 400u);
}

TEST(annotate_direct, same_source_annotation_however_the_records_come_on_every_file) {
  std::size_t compared = 0, annotated = 0;
  for (const auto& file : test::every_profile(true)) {
    const std::string path = file.string();
    for (const annotate_options& o : source_option_sets()) {
      const report want = direct_report(open_file(path), o, mode::plain);
      // Records one per line, summed per line, and summed per line and chunk on two threads.
      for (mode m : {mode::summed, mode::parallel})
        expect_same(want, direct_report(open_file(path), o, m),
                    path + " (mode " + std::to_string(static_cast<int>(m)) + ") " + describe(o));
      ++compared;
      if (want.text.find("-- Auto-annotated source:") != std::string::npos) ++annotated;
    }
  }
  EXPECT_GT(compared, 200u);
  EXPECT_GT(annotated, 20u);  // sources were found and annotated, not only listed as missing
}

// The same report from records one per line and summed; with `replayed`, also from the profile
// built and replayed through the sink (a text whose lines give every column: the model does not
// keep which ones a line left out).
void expect_same_on_text(const std::string& text, const std::string& what, bool replayed = false) {
  for (const annotate_options& o : option_sets("Ir")) {
    const report want = direct_report(memory_input(text), o, mode::plain);
    EXPECT_TRUE(want.ok) << what;
    expect_same(want, direct_report(memory_input(text), o, mode::summed), what + " " + describe(o));
    if (replayed)
      expect_same(want, replayed_report(memory_input(text), o),
                  what + " (replayed) " + describe(o));
  }
}

TEST(annotate_direct, parts_with_other_events_and_omitted_costs) {
  // Part 1 has Ir Dr, part 2 Dr Ir Bm, part 3 Ir alone; lines give fewer values than the part
  // has events, so some columns print "." and some "0".
  const std::string text =
      "events: Ir Dr\n"
      "fl=a.c\nfn=main\n1 5\n2 6 0\ncfn=f\ncalls=1 10\n3 20\n"
      "fn=f\n10 20\ncfn=g\ncalls=2 30\n11 7\n"
      "fn=g\n30 7\n"
      "totals: 32 0\n"
      "events: Dr Ir Bm\n"
      "fl=a.c\nfn=f\n10 1 2\ncfn=h\ncalls=1 40\n12 3 4 5\n"
      "fn=h\n40 3 4 5\n"
      "fl=b.c\nfn=k\n1\n"
      "events: Ir\n"
      "fl=a.c\nfn=g\n30 9\nfn=main\ncfn=g\ncalls=1 30\n4 9\n";
  expect_same_on_text(text, "three layouts");
}

TEST(annotate_direct, objects_files_inlining_and_order) {
  // One name in two objects (the last function block wins the object), inlined files (a key of
  // their own), a caller with no self cost, calls before self cost, a callee never defined, a
  // cycle a -> b -> a, and costs given twice for one line.
  const std::string text =
      "events: Ir\n"
      "ob=x.so\nfl=a.c\nfn=caller_only\ncfn=a\ncalls=1 1\n1 100\ncfn=nowhere\ncalls=3 1\n2 9\n"
      "ob=y.so\nfl=a.c\nfn=a\ncfn=b\ncalls=1 1\n5 60\n1 10\nfi=inl.h\n7 3\nfe=a.c\n2 4\n"
      "ob=x.so\nfl=a.c\nfn=b\n3 20\ncfn=a\ncalls=1 1\n4 30\nfi=inl.h\nfn=c\n9 2\n"
      "ob=z.so\nfl=a.c\nfn=a\n8 5\n8 5\n"
      "ob=x.so\nfl=c.c\nfn=a\n1 1\n"
      "ob=x.so\nfl=a.c\nfn=main\n1 1\ncfn=caller_only\ncalls=1 1\n2 210\n";
  expect_same_on_text(text, "objects and order", true);
  // The same with several parts: cycles are solved part by part.
  expect_same_on_text(text + text + "events: Ir Dr\nfl=a.c\nfn=b\n3 1 1\n" + text,
                      "objects and order, four parts", true);
}

// Without --inclusive or --tree nothing shows a call's count or cost, so calls are not kept:
// the same report, and a sum of call costs above 2^64-1 is not summed, so not reported (as
// `calltree check`, which does not sum calls either); with --inclusive it is summed and reported.
TEST(annotate_direct, calls_are_summed_only_when_a_report_shows_them) {
  const std::string text =
      "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=1 1\n2 9223372036854775808\n"
      "cfn=f\ncalls=1 1\n2 9223372036854775808\nfn=f\n1 3\n";
  annotate_options plain;
  const report light = direct_report(memory_input(text), plain, mode::plain);
  EXPECT_TRUE(light.ok);
  EXPECT_EQ(light.errors, 0u);
  EXPECT_NE(light.text.find("5 (62.50%)  a.c:main"), std::string::npos) << light.text;
  annotate_options inclusive;
  inclusive.inclusive = true;
  const report full = direct_report(memory_input(text), inclusive, mode::plain);
  EXPECT_EQ(full.errors, 1u);  // cost-overflow
  expect_same(full, direct_report(memory_input(text), inclusive, mode::summed), "call overflow");
}

}  // namespace
}  // namespace calltree

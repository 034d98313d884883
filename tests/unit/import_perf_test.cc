// import_perf_test.cc — `perf script`'s text (src/import/perf_script.cc): its header's variants
// (cpu, time, period, pid/tid, blanks), frames with and without -g, [unknown], kernel frames
// kept apart, a last sample without its blank line, and lines that are none of these.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

#include "calltree/analysis/inclusive.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "import/formats.h"
#include "import/perf_lines.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

using detail::profile_format;

struct loaded {
  profile p;
  diagnostic_collector diags;
  read_stats stats;
  bool ok = false;
};

std::unique_ptr<loaded> load(const std::string& bytes, bool force = true, bool any = true) {
  auto l = std::make_unique<loaded>();
  auto in = memory_input(bytes);
  profile_builder b(l->p, &l->diags, "test");
  detail::read_hooks h;
  h.any_input = any;
  if (force) h.format = profile_format::perf_script;
  auto r = detail::read_with_hooks(*in, l->p.strings, b, l->diags, {}, h);
  l->ok = r.has_value();
  if (r) l->stats = *r;
  return l;
}

// (object, function) -> (self, inclusive) for the event named `event`.
using costs_t = std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, std::uint64_t>>;
costs_t costs(const profile& p, std::string_view event) {
  std::size_t e = 0;
  while (e < p.events.size() && p.events[event_id{static_cast<std::uint32_t>(e)}].name != event)
    ++e;
  EXPECT_LT(e, p.events.size()) << event;
  inclusive_options o;
  o.raw = true;
  const auto r = compute_inclusive(p, o);
  costs_t out;
  for (function_id f : p.functions.ids()) {
    const auto key = std::make_pair(std::string(p.object_name(p.functions[f].object)),
                                    std::string(p.function_name(f)));
    out[key] = {r.self_of(f)[e], r.inclusive_of(f)[e]};
  }
  return out;
}

std::pair<std::uint64_t, std::uint64_t> at(const costs_t& c, const std::string& object,
                                           const std::string& function) {
  const auto it = c.find({object, function});
  return it == c.end() ? std::pair<std::uint64_t, std::uint64_t>{} : it->second;
}

std::vector<std::string> events(const profile& p) {
  std::vector<std::string> out;
  for (std::uint32_t e = 0; e < p.events.size(); ++e) out.push_back(p.events[event_id{e}].name);
  return out;
}

using pair = std::pair<std::uint64_t, std::uint64_t>;

TEST(PerfScriptLines, HeaderVariants) {
  using detail::perf::parse_header;
  auto h = parse_header("hot 15511/15512 [003] 17613.954424:    1003009 cpu-clock:u: ");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->comm, "hot");
  EXPECT_EQ(h->pid, 15511u);
  EXPECT_EQ(h->tid, 15512u);
  EXPECT_TRUE(h->has_time);
  EXPECT_EQ(h->period, 1003009u);
  EXPECT_EQ(h->event, "cpu-clock:u");
  h = parse_header("Web Content  4242 [000] 1.000001: cycles: ");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->comm, "Web Content");
  EXPECT_EQ(h->tid, 4242u);
  EXPECT_FALSE(h->period);
  h = parse_header("func_ab 15294 cpu-clock: ");  // no time
  ASSERT_TRUE(h);
  EXPECT_FALSE(h->has_time);
  EXPECT_EQ(h->event, "cpu-clock");
  h = parse_header("   swapper     0 [001]  1333.768770: cpu-clock:  ffffffff810013aa "
                   "xen_hypercall_sched_op+0xa ([kernel.kallsyms])");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->comm, "swapper");
  EXPECT_EQ(h->rest, "ffffffff810013aa xen_hypercall_sched_op+0xa ([kernel.kallsyms])");
  EXPECT_FALSE(parse_header("\t  400577 func_b (/opt/lang/func_ab)"));
  EXPECT_FALSE(parse_header("summary: 12"));
  EXPECT_FALSE(parse_header("calls=3 0x12"));
}

TEST(PerfScriptLines, FrameVariants) {
  using detail::perf::parse_frame;
  auto f = parse_frame("\t    55d0c0a1b2c3 main+0x13 (/tmp/prog)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->address, 0x55d0c0a1b2c3u);
  EXPECT_EQ(f->symbol, "main");
  EXPECT_EQ(f->dso, "/tmp/prog");
  f = parse_frame("  7f1e StealTask::do_it(GCTaskManager*, unsigned int) (/x/libjvm.so)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->symbol, "StealTask::do_it(GCTaskManager*, unsigned int)");
  EXPECT_EQ(f->dso, "/x/libjvm.so");
  f = parse_frame("\t 1234 f+0x10 (/tmp/a.out (deleted))");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->dso, "/tmp/a.out (deleted)");
  f = parse_frame("\t 0 [unknown] ([unknown])");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->symbol, "[unknown]");
  EXPECT_EQ(f->dso, "[unknown]");
  f = parse_frame("\t 1234 operator+=+0x1f");  // no dso printed
  ASSERT_TRUE(f);
  EXPECT_EQ(f->symbol, "operator+=");
  EXPECT_FALSE(f->has_dso);
  EXPECT_FALSE(parse_frame("\thello world"));
}

// With -g: the period is the cost, a second event counts the samples; the comm is the root.
TEST(ImportPerfScript, CallChainsWithPeriods) {
  const std::string text =
      "prog 100/101 [000] 1.000001:     250 cpu-clock: \n"
      "\t    4005b1 leaf+0x11 (/tmp/prog)\n"
      "\t    4005c0 main+0x20 (/tmp/prog)\n"
      "\n"
      "prog 100/102 [001] 1.000002:     300 cpu-clock: \n"
      "\t    4005d1 fib+0x11 (/tmp/prog)\n"
      "\t    4005d2 fib+0x22 (/tmp/prog)\n"
      "\t    4005c0 main+0x20 (/tmp/prog)\n"
      "\n";
  auto l = load(text, false);  // sniffed
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(events(l->p), (std::vector<std::string>{"cpu-clock", "cpu-clock_samples"}));
  auto c = costs(l->p, "cpu-clock");
  EXPECT_EQ(at(c, "/tmp/prog", "leaf"), (pair{250, 250}));
  EXPECT_EQ(at(c, "/tmp/prog", "fib"), (pair{300, 300}));  // once a stack
  EXPECT_EQ(at(c, "/tmp/prog", "main"), (pair{0, 550}));
  EXPECT_EQ(at(c, "", "prog"), (pair{0, 550}));
  auto s = costs(l->p, "cpu-clock_samples");
  EXPECT_EQ(at(s, "/tmp/prog", "main"), (pair{0, 2}));
}

// Without a period each sample costs 1, and the event counts samples: it is named EVENT_samples
// (not `cycles`, which would read as cycles); two events, two columns.
TEST(ImportPerfScript, NoPeriodTwoEvents) {
  const std::string text =
      "noploop 21796 [001] 1410597.984841: instructions: \n"
      "\t             993 main (/opt/noploop)\n"
      "\n"
      "noploop 21796 [001] 1410597.984850: cycles: \n"
      "\t             993 main (/opt/noploop)\n"
      "\n"
      "noploop 21796 [001] 1410597.984860: instructions: \n"
      "\t             99a main (/opt/noploop)\n"
      "\n";
  auto l = load(text, false);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(events(l->p), (std::vector<std::string>{"instructions_samples", "cycles_samples"}));
  EXPECT_EQ(at(costs(l->p, "instructions_samples"), "/opt/noploop", "main"), (pair{2, 2}));
  EXPECT_EQ(at(costs(l->p, "cycles_samples"), "/opt/noploop", "main"), (pair{1, 1}));
}

// Without -g: one line a sample, comm right-aligned; the header's own frame is the stack.
TEST(ImportPerfScript, WithoutCallChains) {
  const std::string text =
      "             hot 15563 17615.544234:    1000 cpu-clock:      7fb88b65e6a8 "
      "dl_main+0x6e8 (/usr/lib/ld.so)\n"
      "             hot 15563 17615.550146:    1000 cpu-clock:  ffffffff8225fd19 "
      "pvm_irq_enable+0x19 ([kernel.kallsyms])\n"
      "             hot 15563 17615.551129:    1000 cpu-clock:      55639542c2b8 "
      "leaf+0x38 (/tmp/hot)\n";
  auto l = load(text, false);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 0u);
  auto c = costs(l->p, "cpu-clock");
  EXPECT_EQ(at(c, "/tmp/hot", "leaf"), (pair{1000, 1000}));
  EXPECT_EQ(at(c, "[kernel.kallsyms]", "pvm_irq_enable"), (pair{1000, 1000}));
  EXPECT_EQ(at(c, "", "hot"), (pair{0, 3000}));
}

// A kernel function and a program's of one name are two; [unknown] stays in its dso.
TEST(ImportPerfScript, KernelFramesAndUnknownsKeptApart) {
  const std::string text =
      "a 1 1.000001: cpu-clock: \n"
      "\tffffffff81000000 read+0x1 ([kernel.kallsyms])\n"
      "\t    7f0000000000 read+0x2 (/lib/libc.so.6)\n"
      "\t             246 [unknown] (/bin/dd)\n"
      "\t               0 [unknown] ([unknown])\n"
      "\n"
      "a 1 1.000002: cpu-clock: \n"
      "\t    7f0000000000 read+0x2 (/lib/libc.so.6)\n"
      "\t               0 [unknown] ([unknown])\n";  // the last sample, no blank line after
  auto l = load(text, false);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 0u);
  auto c = costs(l->p, "cpu-clock_samples");
  EXPECT_EQ(at(c, "[kernel.kallsyms]", "read"), (pair{1, 1}));
  EXPECT_EQ(at(c, "/lib/libc.so.6", "read"), (pair{1, 2}));
  EXPECT_EQ(at(c, "/bin/dd", "[unknown]"), (pair{0, 1}));
  EXPECT_EQ(at(c, "[unknown]", "[unknown]"), (pair{0, 2}));
  EXPECT_EQ(at(c, "", "a"), (pair{0, 2}));
}

// Old perf: no time, frames not indented; an (inlined) frame in its address's object,
// else in the nearest address's.
TEST(ImportPerfScript, OldPerfAndInlinedFrames) {
  const std::string text =
      "java 19983 cycles:\n"
      "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n"
      "ffffffff810275f1 intel_pmu_enable_all ([kernel.kallsyms])\n"
      "\n"
      "hot 15669 17620.126886:    10 cpu-clock: \n"
      "\t            1213 helper (inlined)\n"
      "\t            1213 leaf+0x2b (/tmp/hot)\n"
      "\t           27249 __libc_start_call_main+0x79 (/lib/libc.so.6)\n"
      "\t           27304 __libc_start_main_impl+0x84 (inlined)\n"
      "\t            1120 _start+0x20 (/tmp/hot)\n"
      "\n";
  auto l = load(text, false);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 0u);
  auto c = costs(l->p, "cycles_samples");
  EXPECT_EQ(at(c, "[kernel.kallsyms]", "native_write_msr_safe"), (pair{1, 1}));
  auto t = costs(l->p, "cpu-clock");
  EXPECT_EQ(at(t, "/tmp/hot", "helper"), (pair{10, 10}));
  EXPECT_EQ(at(t, "/lib/libc.so.6", "__libc_start_main_impl"), (pair{0, 10}));  // nearest
}

// `perf script --header`'s cmdline and version; -F +srcline's lines give a frame its line.
TEST(ImportPerfScript, HeaderCommentsAndSourceLines) {
  const std::string text =
      "# ========\n"
      "# perf version : 6.1.187\n"
      "# cmdline : /usr/bin/perf record -g ./hot 2 \n"
      "# ========\n"
      "#\n"
      "hot 1 1.000001: 5 cpu-clock: \n"
      "\t    1213 leaf+0x2b (/tmp/hot)\n"
      "  hot.c:14\n"
      "\t    1120 main+0x20 (/tmp/hot)\n"
      "  ??:0\n"
      "\n";
  auto l = load(text, false);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 0u);
  const auto& h = l->p.parts[part_id{0}].header;
  EXPECT_EQ(h.cmd, "/usr/bin/perf record -g ./hot 2");
  EXPECT_EQ(h.creator, "perf 6.1.187 (perf script)");
  bool found = false;
  for (function_id f : l->p.functions.ids())
    if (l->p.function_name(f) == "leaf") {
      found = true;
      EXPECT_EQ(l->p.file_name(l->p.functions[f].file), "hot.c");
    }
  EXPECT_TRUE(found);
}

// A line that is neither a header nor a frame: an error at its place, skipped, the rest read;
// a header that cannot be read skips its frames with it.
TEST(ImportPerfScript, GarbageIsSkippedAndSaid) {
  const std::string text =
      "a 1 1.000001: 7 cpu-clock: \n"
      "\t    1213 leaf+0x2b (/tmp/hot)\n"
      "\tthis is not a frame\n"
      "\t    1120 main+0x20 (/tmp/hot)\n"
      "\n"
      "what is this\n"
      "\t    1213 lost+0x2b (/tmp/hot)\n"
      "\n"
      "a 1 1.000002: 7 cpu-clock: \n"
      "\t    1213 leaf+0x2b (/tmp/hot)\n"
      "\n";
  auto l = load(text);
  ASSERT_TRUE(l->ok);
  EXPECT_EQ(l->diags.errors(), 2u);
  ASSERT_EQ(l->diags.kept().size(), 2u);
  EXPECT_EQ(l->diags.kept()[0].code, diag_code::bad_perf_script);
  EXPECT_EQ(l->diags.kept()[0].line, 3u);
  EXPECT_EQ(l->diags.kept()[0].column, 2u);
  EXPECT_EQ(l->diags.kept()[1].line, 6u);
  EXPECT_EQ(l->diags.kept()[1].column, 1u);
  auto c = costs(l->p, "cpu-clock");
  EXPECT_EQ(at(c, "/tmp/hot", "leaf"), (pair{14, 14}));
  EXPECT_EQ(at(c, "/tmp/hot", "main"), (pair{0, 7}));
  EXPECT_EQ(c.count({"/tmp/hot", "lost"}), 0u);
}

TEST(ImportPerfScript, NoSampleIsNoProfile) {
  auto l = load("# only a comment\n\n", true, false);
  EXPECT_FALSE(l->ok);
  auto g = load("nothing here\n", true, false);
  EXPECT_FALSE(g->ok);
  ASSERT_FALSE(g->diags.kept().empty());
  EXPECT_EQ(g->diags.kept().front().code, diag_code::bad_perf_script);
}

TEST(ImportPerfScript, SniffedButNotMistaken) {
  using detail::sniff_format;
  EXPECT_EQ(sniff_format("func_ab 15294 cpu-clock: \n\t  400577 func_b (/opt/func_ab)\n", false),
            profile_format::perf_script);
  EXPECT_EQ(sniff_format("   hot 15563 17615.544234:  1000 cpu-clock:  7fb8 dl_main (/ld.so)\n"
                         "   hot 15563 17615.550146:  1000 cpu-clock:  7fb9 dl_main (/ld.so)\n",
                         false),
            profile_format::perf_script);
  EXPECT_EQ(sniff_format("java 19983 cycles:\nffffffff8103d0ca native_write ([kernel.kallsyms])\n",
                         false),
            profile_format::perf_script);
  // an event without time needs a frame after it
  EXPECT_EQ(sniff_format("fn 12 cycles:\nfn=(1)\n", true), profile_format::callgrind);
  EXPECT_EQ(sniff_format("summary: 12\ntotals: 13\n", true), profile_format::callgrind);
}

}  // namespace
}  // namespace calltree

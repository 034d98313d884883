// The tricky valid inputs of format-semantics.md §5.1, with their expected results asserted on the
// profile model (the golden dumps in tests/golden/ show the same cases as text).
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"

using namespace calltree;

namespace {

struct loaded {
  profile p;
  diagnostic_collector diags{100};
  read_stats stats;
};

std::unique_ptr<loaded> read_text(std::string text) {
  auto l = std::make_unique<loaded>();
  auto in = memory_input(std::move(text));
  profile_builder b(l->p, &l->diags, "t");
  reader_options opt;
  opt.display_name = "t";
  auto st = detail::read_profile(*in, l->p.strings, b, l->diags, opt, detail::any_input());
  EXPECT_TRUE(st.has_value());
  l->stats = *st;
  return l;
}

function_id fn(const profile& p, std::string_view name) {
  for (function_id i : p.functions.ids())
    if (p.function_name(i) == name) return i;
  ADD_FAILURE() << "no function " << name;
  return function_id{};
}

std::uint64_t self(const profile& p, std::string_view name, std::size_t event = 0) {
  auto f = fn(p, name);
  std::uint64_t s = 0;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    if (p.self_rows[r].function == f) s += p.self_costs.row(r)[event];
  return s;
}

const call_row* call(const profile& p, std::string_view from, std::string_view to,
                     std::size_t* index = nullptr) {
  auto a = fn(p, from), b = fn(p, to);
  for (std::size_t c = 0; c < p.calls.size(); ++c)
    if (p.calls[c].caller == a && p.calls[c].callee == b) {
      if (index) *index = c;
      return &p.calls[c];
    }
  return nullptr;
}

std::string file_of(const profile& p, std::string_view name) {
  return std::string(p.file_name(p.functions[fn(p, name)].file));
}

}  // namespace

TEST(ReaderSemantics, T1_MappingsDefinedUpFront) {
  auto l = read_text(
      "events: Instructions\nfl=(1) file1.c\nfl=(2) file2.c\nfn=(1) main\nfn=(2) func1\n"
      "fn=(3) func2\nfl=(1)\nfn=(1)\n16 20\ncfn=(2)\ncalls=1 50\n16 400\ncfi=(2)\ncfn=(3)\n"
      "calls=3 20\n16 400\nfn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\nfl=(2)\n"
      "fn=(3)\n20 700\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  EXPECT_EQ(self(p, "main"), 20u);
  EXPECT_EQ(self(p, "func1"), 100u);
  EXPECT_EQ(self(p, "func2"), 700u);
  EXPECT_EQ(file_of(p, "main"), "file1.c");
  EXPECT_EQ(file_of(p, "func1"), "file1.c");
  EXPECT_EQ(file_of(p, "func2"), "file2.c");
  EXPECT_EQ(p.total()[0], 820u);
  // The defining lines `fn=(2) func1` under fl=(2) made a function that never has costs; the
  // identity that matters is where costs land: main, func1 in file1.c.
  std::size_t ci = 0;  // (call() sets it when it finds the call; the ASSERT returns otherwise)
  ASSERT_NE(call(p, "main", "func2", &ci), nullptr);
  EXPECT_EQ(p.call_costs.row(ci)[0], 400u);
}

TEST(ReaderSemantics, T2_OneFileIdTableAcrossKeys) {
  auto l = read_text(
      "events: Ir\nfl=(1) a.c\nfn=(1) f\n1 1\njfi=(2) b.h\njump=1 5\n*\nfi=(2)\n5 1\ncfi=(2)\n"
      "cfn=(2) g\ncalls=1 7\n* 10\nfl=(2)\nfn=(2)\n7 10\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(self(p, "f"), 2u);
  EXPECT_EQ(self(p, "g"), 10u);
  EXPECT_EQ(file_of(p, "g"), "b.h");
  ASSERT_EQ(p.jumps.size(), 1u);
  EXPECT_EQ(p.file_name(p.jumps[0].source_file), "a.c");
  EXPECT_EQ(p.jumps[0].source.line, 1u);
  EXPECT_EQ(p.file_name(p.jumps[0].target_file), "b.h");
  EXPECT_EQ(p.jumps[0].target.line, 5u);
  EXPECT_EQ(p.jumps[0].executed, 1u);
  // The inlined cost (fi=(2) 5 1) belongs to f, under the file b.h.
  bool found = false;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    if (p.file_name(p.self_rows[r].source_file) == "b.h" && p.self_rows[r].pos.line == 5) {
      EXPECT_EQ(p.self_rows[r].function, fn(p, "f"));
      found = true;
    }
  EXPECT_TRUE(found);
  std::size_t ci = 0;  // (call() sets it when it finds the call; the ASSERT returns otherwise)
  ASSERT_NE(call(p, "f", "g", &ci), nullptr);
  EXPECT_EQ(p.calls[ci].site.line, 5u);  // '*' after the fi= line at 5
  EXPECT_EQ(p.call_costs.row(ci)[0], 10u);
}

TEST(ReaderSemantics, T3_PositionBaseAcrossFnAndCalls) {
  auto l = read_text(
      "positions: instr line\nevents: Ir\nfn=a\n0x1000 10 5\ncfn=b\ncalls=2 +16 20\n* * 7\n"
      "+2 +1 1\nfn=b\n+14 19 7\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> a_rows, b_rows;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    auto& m = p.self_rows[r].function == fn(p, "a") ? a_rows : b_rows;
    m[{p.self_rows[r].pos.instr, p.self_rows[r].pos.line}] = p.self_costs.row(r)[0];
  }
  EXPECT_EQ((a_rows[{0x1000, 10}]), 5u);
  EXPECT_EQ((a_rows[{0x1002, 11}]), 1u);
  EXPECT_EQ((b_rows[{0x1010, 19}]), 7u);
  std::size_t ci = 0;  // (call() sets it when it finds the call; the ASSERT returns otherwise)
  ASSERT_NE(call(p, "a", "b", &ci), nullptr);
  EXPECT_EQ(p.calls[ci].count, 2u);
  EXPECT_EQ(p.calls[ci].site, (position{0x1000, 0, 10}));
  EXPECT_EQ(p.calls[ci].target, (position{0x1010, 0, 20}));
  EXPECT_EQ(p.call_costs.row(ci)[0], 7u);
}

TEST(ReaderSemantics, T4_CombinedDumpReusesIdsOfEarlierPart) {
  auto l = read_text(
      "# callgrind format\nversion: 1\npart: 1\nthread: 1\nevents: Ir\nfl=(1) a.c\nfn=(1) main\n"
      "1 10\ntotals: 10\n# callgrind format\nversion: 1\npart: 1\nthread: 2\nevents: Ir\nfl=(1)\n"
      "fn=(2) worker\n2 5\ntotals: 5\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  ASSERT_EQ(p.parts.size(), 2u);
  EXPECT_EQ(*p.parts[part_id{0}].header.thread, 1u);
  EXPECT_EQ(*p.parts[part_id{1}].header.thread, 2u);
  EXPECT_EQ(p.parts[part_id{0}].totals[0], 10u);
  EXPECT_EQ(p.parts[part_id{1}].totals[0], 5u);
  EXPECT_EQ(file_of(p, "worker"), "a.c");
  EXPECT_EQ(p.total()[0], 15u);
}

TEST(ReaderSemantics, T5_XdebugAppendFile) {
  std::string part =
      "version: 1\ncreator: xdebug 3.2.0 (PHP 8.2.36)\ncmd: /x/index.php\npart: 1\n"
      "positions: line\nevents: Time_(10ns) Memory_(bytes)\n\nfl=(1) php:internal\n"
      "fn=(1) php::strlen\n2 3 0\n\nfl=(2) FILE\nfn=(2) {main}\n\ncfl=(1)\ncfn=(1)\n"
      "calls=1 0 0\n4 3 0\n4 100 64\n\nsummary: 103 64\n";
  std::string text = part;
  text += "==== NEW PROFILING FILE ==============================================\n";
  std::string second = part;
  second.replace(second.find("FILE"), 4, "/x/other.php");
  text.replace(text.find("FILE"), 4, "/x/index.php");
  text += second;
  auto l = read_text(text);
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(l->diags.count(diag_code::part_separator), 1u);
  EXPECT_EQ(l->diags.count(diag_code::redefined_name), 0u);  // across parts: silent
  EXPECT_EQ(l->diags.count(diag_code::extra_call_target), 2u);
  ASSERT_EQ(p.parts.size(), 2u);
  ASSERT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.events[event_id{0}].name, "Time_(10ns)");
  EXPECT_EQ(p.events[event_id{1}].name, "Memory_(bytes)");
  // {main} exists twice: once per script file.
  int mains = 0;
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == "{main}") ++mains;
  EXPECT_EQ(mains, 2);
  EXPECT_EQ(p.total()[0], 206u);
}

// The id tables keep, per page of ids, which names the last part to define one there defined:
// a redefinition warns only when this part defined the id before, also when another id of the
// same page was defined in between, in this part or the one before.
TEST(ReaderSemantics, RedefinitionWarnsOnlyWithinThePartThatDefinedTheId) {
  const std::string head = "events: Ir\nfl=a.c\n";
  std::string text = head + "fn=(1) one\n1 1\nfn=(2) two\n1 1\n";  // part 1
  text += "part: 2\n" + head;
  text += "fn=(2) second\n1 1\n";                        // another id of the page, in part 2
  text += "fn=(1) first\n1 1\n";                         // (1) was part 1's: silent
  text += "fn=(3) three\n1 1\n";                         // another id again
  text += "fn=(1) first again\n1 1\n";                   // (1) is part 2's now: a warning
  text += "fn=(600) far\n1 1\nfn=(600) farther\n1 1\n";  // another page: a warning
  text += "fn=(2)\n1 1\n";                               // a reference: part 2's name
  auto l = read_text(text);
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(l->diags.count(diag_code::redefined_name), 2u);
  const auto& p = l->p;
  ASSERT_EQ(p.parts.size(), 2u);
  int seconds = 0;
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == "second") ++seconds;
  EXPECT_EQ(seconds, 1);
}

TEST(ReaderSemantics, T6_DirectRecursionIsReadAsWritten) {
  auto l = read_text(
      "events: Ir\nfl=r.c\nfn=main\n1 1\ncfn=f\ncalls=1 10\n1 100\nfn=f\n10 70\ncfn=f\n"
      "calls=2 10\n10 140\ncfn=g\ncalls=1 20\n10 30\nfn=g\n20 30\n");
  const auto& p = l->p;
  EXPECT_EQ(p.total()[0], 101u);
  std::size_t ci = 0;  // (call() sets it when it finds the call; the ASSERT returns otherwise)
  ASSERT_NE(call(p, "f", "f", &ci), nullptr);
  EXPECT_EQ(p.calls[ci].count, 2u);
  EXPECT_EQ(p.call_costs.row(ci)[0], 140u);
}

TEST(ReaderSemantics, T8_InlinedCodeAndDefaultCalleeFile) {
  auto l = read_text(
      "events: Ir\nfl=(1) m.c\nfn=(1) main\n5 1\nfi=(2) h.h\n3 10\ncfn=(2) helper\ncalls=1 7\n"
      "3 4\nfe=(1)\n6 1\nfl=(2)\nfn=(2)\n7 4\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  EXPECT_EQ(self(p, "main"), 12u);
  EXPECT_EQ(file_of(p, "helper"), "h.h");
  EXPECT_EQ(self(p, "helper"), 4u);
  // One helper only: the callee (h.h, helper) is the function defined later under fl=(2).
  int helpers = 0;
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == "helper") ++helpers;
  EXPECT_EQ(helpers, 1);
}

TEST(ReaderSemantics, T9_AddressForms) {
  auto l = read_text(
      "positions: instr\nevents: Ir\nfn=f\n0 1\n0xffffffffff600000 2\n-4 1\n* 1\n+0x10 1\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  std::map<std::uint64_t, std::uint64_t> rows;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    rows[p.self_rows[r].pos.instr] += p.self_costs.row(r)[0];
  EXPECT_EQ(rows[0], 1u);
  EXPECT_EQ(rows[0xffffffffff600000ull], 2u);
  EXPECT_EQ(rows[0xffffffffff5ffffcull], 2u);
  EXPECT_EQ(rows[0xffffffffff60000cull], 1u);
}

TEST(ReaderSemantics, T10_OmittedTrailingCosts) {
  auto l = read_text("events: Ir Dr Dw\nfl=a.c\nfn=f\n5 3 2\n6 1\nsummary: 4 2\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  EXPECT_EQ(p.total(), (std::vector<std::uint64_t>{4, 2, 0}));
  ASSERT_TRUE(p.parts[part_id{0}].summary.has_value());
  EXPECT_EQ(*p.parts[part_id{0}].summary, (std::vector<std::uint64_t>{4, 2, 0}));
}

TEST(ReaderSemantics, T11_Names) {
  auto l = read_text(
      "events: Ir\nfl=C:\\Program Files\\x y.c\nfn=operator==(A const&, A const&)\n1 1\n"
      "fn=(below main)\n2 1\nfn=(3)main::{lambda(int)#1}::operator()(int) const\n3 1\n"
      "fn=(3)\n4 1\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  EXPECT_EQ(self(p, "operator==(A const&, A const&)"), 1u);
  EXPECT_EQ(self(p, "(below main)"), 1u);
  EXPECT_EQ(self(p, "main::{lambda(int)#1}::operator()(int) const"), 2u);
  EXPECT_EQ(file_of(p, "(below main)"), "C:\\Program Files\\x y.c");
  EXPECT_EQ(p.functions.size(), 3u);
}

TEST(ReaderSemantics, T12_CallFormsInTheWild) {
  auto l = read_text(
      "events: Ir\nfl=a.c\nfn=f\ncfn=g\ncalls=0 5\n5 40\ncfn=g\ncalls=3\n5 10\ncfn=h\n"
      "calls=1 0 0\n6 1\nfn=g\n5 50\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors(), 0u);
  EXPECT_EQ(l->diags.count(diag_code::zero_call_count), 1u);
  EXPECT_EQ(l->diags.count(diag_code::call_without_target), 1u);
  EXPECT_EQ(l->diags.count(diag_code::extra_call_target), 1u);
  EXPECT_EQ(self(p, "f"), 0u);  // the call costs are not self cost
  EXPECT_EQ(p.total()[0], 50u);
  EXPECT_EQ(p.calls.size(), 3u);
}

TEST(ReaderSemantics, T13_CrlfNoFinalNewlineCommentsInsideCall) {
  auto l = read_text(
      "events: Ir\r\nfl=a.c\r\nfn=f\r\n1 2\r\ncfn=g\r\ncalls=1 9\r\n\r\n# a comment\r\n1 30\r\n"
      "fn=g\r\n9 30");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  EXPECT_EQ(self(p, "f"), 2u);
  EXPECT_EQ(self(p, "g"), 30u);
  EXPECT_EQ(file_of(p, "g"), "a.c");  // no CR left in names
  std::size_t ci = 0;  // (call() sets it when it finds the call; the ASSERT returns otherwise)
  ASSERT_NE(call(p, "f", "g", &ci), nullptr);
  EXPECT_EQ(p.call_costs.row(ci)[0], 30u);
}

TEST(ReaderSemantics, T14_JumpsInBothModes) {
  auto l = read_text(
      "events: Ir\nfl=a.c\nfn=f\n10 1\njcnd=3/5 +2\n*\njump=1 -4\n*\n11 1\n"
      "positions: instr line\nevents: Ir\nfl=a.c\nfn=f\n0x100 20 1\njfi=(9) x.h\n"
      "jcnd=1/4 +85 +9\n* *\n+1 +1 1\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  ASSERT_EQ(p.jumps.size(), 3u);
  EXPECT_TRUE(p.jumps[0].conditional);
  EXPECT_EQ(p.jumps[0].followed, 3u);
  EXPECT_EQ(p.jumps[0].executed, 5u);
  EXPECT_EQ(p.jumps[0].source.line, 10u);
  EXPECT_EQ(p.jumps[0].target.line, 12u);
  EXPECT_FALSE(p.jumps[1].conditional);
  EXPECT_EQ(p.jumps[1].target.line, 6u);
  EXPECT_EQ(p.jumps[2].target, (position{0x100 + 85, 0, 29}));
  EXPECT_EQ(p.file_name(p.jumps[2].target_file), "x.h");
  EXPECT_EQ(p.jumps[2].source, (position{0x100, 0, 20}));
  // The source lines did not move the base away from the last cost line.
  std::map<std::uint64_t, std::uint64_t> lines;
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    if (p.self_rows[r].part == part_id{1})
      lines[p.self_rows[r].pos.instr] = p.self_rows[r].pos.line;
  EXPECT_EQ(lines[0x101], 21u);
}

TEST(ReaderSemantics, T15_DerivedEventDefinitions) {
  auto l = read_text(
      "event: Bm = Bim + Bcm\nevent: CEst = Ir + 10 Bm + 10 L1m + 20 Ge + 100 LLm : Cycle "
      "Estimation\nevent: L1m = I1mr + D1mr + D1mw\nevents: Ir I1mr D1mr D1mw ILmr DLmr DLmw Bim "
      "Bcm\nfl=a.c\nfn=f\n1 100 1 2 3 0 0 0 4 5\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  const std::optional<event_id> found = p.find_event("CEst");
  ASSERT_TRUE(found.has_value());
  const event_id cest = *found;
  EXPECT_FALSE(p.events[cest].recorded);
  EXPECT_EQ(p.events[cest].formula, "Ir + 10 Bm + 10 L1m + 20 Ge + 100 LLm");
  EXPECT_EQ(p.events[cest].long_name, "Cycle Estimation");
  EXPECT_TRUE(p.events[*p.find_event("Bim")].recorded);
}

TEST(ReaderSemantics, T16_CachegrindFile) {
  auto l = read_text(
      "desc: I1 cache:         32768 B, 64 B, 8-way associative\ncmd: bin/recurse 1\n"
      "events: Ir I1mr ILmr \nfl=/a.c\nfn=main\n3 10 1 1\n4 5\nfn=f\n9 7\n"
      "summary: 22 1 1\n");
  const auto& p = l->p;
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  ASSERT_EQ(p.parts.size(), 1u);
  EXPECT_TRUE(p.calls.empty());
  EXPECT_EQ(p.total(), (std::vector<std::uint64_t>{22, 1, 1}));
  EXPECT_EQ(p.parts[part_id{0}].header.cmd, "bin/recurse 1");
  ASSERT_EQ(p.parts[part_id{0}].header.descriptions.size(), 1u);
  EXPECT_EQ(p.parts[part_id{0}].header.descriptions[0].first, "I1 cache");
}

TEST(ReaderSemantics, NothingBeforeOrAfterABadLineIsLost) {
  auto l = read_text("events: Ir\nfl=a.c\nfn=f\n1 1\n2 x\n3 1\nfn=(9)\n4 1\n5 1 2\n6 1\n");
  const auto& p = l->p;
  EXPECT_EQ(l->stats.skipped_lines, 2u);  // '2 x' and '5 1 2'
  EXPECT_EQ(l->diags.count(diag_code::malformed_number), 1u);
  EXPECT_EQ(l->diags.count(diag_code::too_many_costs), 1u);
  EXPECT_EQ(l->diags.count(diag_code::undefined_name), 1u);
  EXPECT_EQ(self(p, "f"), 2u);
  EXPECT_EQ(self(p, "(unknown id 9)"), 2u);
  EXPECT_EQ(p.total()[0], 4u);
}

TEST(ReaderSemantics, OverflowIsDetectedNotWrapped) {
  auto l = read_text("events: Ir\nfn=f\n1 18446744073709551615\n2 1\n3 18446744073709551616\n");
  EXPECT_EQ(l->diags.count(diag_code::number_overflow), 1u);
  EXPECT_EQ(l->diags.count(diag_code::cost_overflow), 1u);
  EXPECT_EQ(l->p.total()[0], UINT64_MAX);
}

TEST(ReaderSemantics, StrayCrAroundANameIsTrimmedSoItRoundTrips) {
  // "fn=main5\r\r": one CR ends the line, the other is not part of the name (found by
  // fuzz_roundtrip: the writer's LF-ended output read back as "main5").
  auto l = read_text("events: Ir\r\nfl=a.c\r\nfn=main5\r\r\n1 3\r\n");
  EXPECT_EQ(self(l->p, "main5"), 3u);
  EXPECT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
}

// A function whose lines come in several runs (another function's between them, an inlined
// file's lines between its own, a run big enough to grow the builder's index of a run) has one
// row per position, its costs summed: the builder's lookup within a run and its index of the
// functions met again give the same rows.
TEST(ReaderSemantics, FunctionInSeveralRunsHasOneRowPerPosition) {
  std::string text = "events: Ir\npositions: line\nfl=a.c\nfn=a\n";
  for (int line = 1; line <= 200; ++line) text += std::to_string(line) + " 1\n";
  text += "fi=b.h\n5 7\nfe=a.c\n5 1\nfn=b\n1 2\n2 2\nfn=a\n";
  for (int line = 1; line <= 200; ++line) text += std::to_string(line) + " 1\n";
  text += "fi=b.h\n5 7\nfn=b\n1 2\nfn=c\n1 4\n1 4\n";
  auto l = read_text(text);
  ASSERT_EQ(l->diags.errors(), 0u);
  const profile& p = l->p;
  // a: 200 lines of a.c and line 5 of b.h; b: 2 lines; c: 1.
  EXPECT_EQ(p.self_rows.size(), 201u + 2u + 1u);
  std::map<std::tuple<function_id, file_id, std::uint64_t>, int> seen;
  for (const auto& r : p.self_rows) {
    auto key = std::tuple(r.function, r.source_file, r.pos.line);
    EXPECT_EQ(++seen[key], 1);
  }
  EXPECT_EQ(self(p, "a"), 200u * 2 + 1 + 14);
  EXPECT_EQ(self(p, "b"), 6u);
  EXPECT_EQ(self(p, "c"), 8u);
  for (std::size_t r = 0; r < p.self_rows.size(); ++r)
    if (p.self_rows[r].function == fn(p, "a") && p.self_rows[r].pos.line == 5) {
      EXPECT_EQ(p.self_costs.row(r)[0],
                p.file_name(p.self_rows[r].source_file) == "b.h" ? 14u : 3u);
    }
}

// Jump rows the same way: a function's jumps in several runs (another function's jumps between
// them, a run big enough to grow the index of a run, a jump written twice) have one row per
// (source, kind, target), their counts summed.
TEST(ReaderSemantics, FunctionJumpsInSeveralRunsHaveOneRowPerJump) {
  std::string text = "events: Ir\npositions: line\nfl=a.c\nfn=a\n";
  auto jumps = [&text] {
    for (int line = 1; line <= 100; ++line)
      text += "jcnd=1/2 " + std::to_string(line + 1000) + "\n" + std::to_string(line) + "\n" +
              "jump=3 " + std::to_string(line + 2000) + "\n" + std::to_string(line) + " 1\n";
  };
  jumps();
  text += "fn=b\njump=1 7\n5\njump=1 7\n5 1\nfn=a\n";
  jumps();
  text += "fn=b\njump=1 7\n5 1\njcnd=1/1 7\n5\n";
  auto l = read_text(text);
  ASSERT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  const profile& p = l->p;
  // a: 100 conditional and 100 unconditional jumps; b: one of each.
  ASSERT_EQ(p.jumps.size(), 202u);
  std::map<std::tuple<function_id, std::uint64_t, bool, std::uint64_t>, int> seen;
  for (const auto& j : p.jumps) {
    auto key = std::tuple(j.function, j.source.line, j.conditional, j.target.line);
    EXPECT_EQ(++seen[key], 1);
    if (j.function == fn(p, "a")) {
      EXPECT_EQ(j.target.line, j.source.line + (j.conditional ? 1000 : 2000));
      EXPECT_EQ(j.executed, j.conditional ? 4u : 6u);
      EXPECT_EQ(j.followed, j.conditional ? 2u : 6u);
    } else {
      EXPECT_EQ(j.function, fn(p, "b"));
      EXPECT_EQ(j.executed, j.conditional ? 1u : 3u);
    }
  }
}

// More runs than the index of a run has generations (2^16 - 1, then its slots are cleared): a
// line written twice in a run still goes to one row, in every run, also where the first run's
// entries were left in slots no run after it used (the first function's lines, which only the
// functions after the 2^16 - 1st have again).
TEST(ReaderSemantics, ManyRunsHaveOneRowPerPosition) {
  std::string text = "events: Ir\npositions: line\nfl=a.c\n";
  constexpr int functions = 70000;
  for (int f = 0; f < functions; ++f) {
    const std::string a = f == 0 || f >= 65535 ? "1001" : "1", b = a + "0";
    text += "fn=f" + std::to_string(f) + "\n" + a + " 1\n" + b + " 1\n" + a + " 1\njump=1 9\n" + b +
            "\njump=1 9\n" + b + "\n";
  }
  auto l = read_text(text);
  ASSERT_EQ(l->diags.errors(), 0u);
  const profile& p = l->p;
  ASSERT_EQ(p.self_rows.size(), 2u * functions);
  ASSERT_EQ(p.jumps.size(), std::size_t{functions});
  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    const auto line = p.self_rows[r].pos.line;
    ASSERT_EQ(p.self_costs.row(r)[0], line == 1 || line == 1001 ? 2u : 1u) << r;
  }
  for (const auto& j : p.jumps) ASSERT_EQ(j.executed, 2u);
}

// Call rows the same way: a caller's calls in several runs (another caller's between them, a
// run big enough to grow the index of a run) have one row per (site, callee, target), their
// counts and inclusive costs summed.
TEST(ReaderSemantics, CallerInSeveralRunsHasOneRowPerCall) {
  std::string text = "events: Ir\npositions: line\nfl=a.c\nfn=b\n1 1\nfn=c\n1 1\nfn=a\n";
  auto calls = [&text] {
    for (int line = 1; line <= 100; ++line)
      text += "cfn=" + std::string(line % 2 ? "b" : "c") + "\ncalls=2 1\n" + std::to_string(line) +
              " 10\n";
  };
  calls();
  text += "fn=b\ncfn=c\ncalls=1 1\n5 3\nfn=a\n";
  calls();
  auto l = read_text(text);
  ASSERT_EQ(l->diags.errors() + l->diags.warnings(), 0u);
  const profile& p = l->p;
  ASSERT_EQ(p.calls.size(), 101u);
  std::map<std::tuple<function_id, std::uint64_t, function_id>, int> seen;
  for (std::size_t c = 0; c < p.calls.size(); ++c) {
    const call_row& r = p.calls[c];
    EXPECT_EQ(++seen[std::tuple(r.caller, r.site.line, r.callee)], 1);
    if (r.caller == fn(p, "a")) {
      EXPECT_EQ(r.callee, fn(p, r.site.line % 2 ? "b" : "c"));
      EXPECT_EQ(r.count, 4u);
      EXPECT_EQ(p.call_costs.row(c)[0], 20u);
    } else {
      EXPECT_EQ(r.count, 1u);
      EXPECT_EQ(p.call_costs.row(c)[0], 3u);
    }
  }
}

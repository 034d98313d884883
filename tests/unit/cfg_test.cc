// cfg_test.cc — a function's control-flow graph (calltree/cfg.h) on a real run: gcc 12 -O2 -g
// of tests/asm/hot.c's hot_loop, its objdump text and the lines callgrind 3.19
// (--dump-instr=yes --collect-jumps=yes, `hot 1237`) wrote for it, as captured; the blocks, their
// costs and counts, and every edge's count (tests/cli/cfg_serve.sh runs the real thing).
#include "calltree/cfg.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

// `objdump -d -w -C --start-address=0x1230 --stop-address=0x1276 hot_pie`.
const char* hot_loop_dump =
    "\n"
    "hot_pie:     file format elf64-x86-64\n"
    "\n"
    "\n"
    "Disassembly of section .text:\n"
    "\n"
    "0000000000001230 <hot_loop>:\n"
    "    1230:\t48 85 ff             \ttest   %rdi,%rdi\n"
    "    1233:\t7e 3b                \tjle    1270 <hot_loop+0x40>\n"
    "    1235:\t31 c0                \txor    %eax,%eax\n"
    "    1237:\t31 c9                \txor    %ecx,%ecx\n"
    "    1239:\teb 17                \tjmp    1252 <hot_loop+0x22>\n"
    "    123b:\t0f 1f 44 00 00       \tnopl   0x0(%rax,%rax,1)\n"
    "    1240:\t8d 14 52             \tlea    (%rdx,%rdx,2),%edx\n"
    "    1243:\t48 83 c0 01          \tadd    $0x1,%rax\n"
    "    1247:\t48 63 d2             \tmovslq %edx,%rdx\n"
    "    124a:\t48 01 d1             \tadd    %rdx,%rcx\n"
    "    124d:\t48 39 c7             \tcmp    %rax,%rdi\n"
    "    1250:\t74 1a                \tje     126c <hot_loop+0x3c>\n"
    "    1252:\t48 89 c2             \tmov    %rax,%rdx\n"
    "    1255:\t83 e2 07             \tand    $0x7,%edx\n"
    "    1258:\t8b 14 96             \tmov    (%rsi,%rdx,4),%edx\n"
    "    125b:\t83 fa 03             \tcmp    $0x3,%edx\n"
    "    125e:\t7f e0                \tjg     1240 <hot_loop+0x10>\n"
    "    1260:\t48 29 c1             \tsub    %rax,%rcx\n"
    "    1263:\t48 83 c0 01          \tadd    $0x1,%rax\n"
    "    1267:\t48 39 c7             \tcmp    %rax,%rdi\n"
    "    126a:\t75 e6                \tjne    1252 <hot_loop+0x22>\n"
    "    126c:\t48 89 c8             \tmov    %rcx,%rax\n"
    "    126f:\tc3                   \tret\n"
    "    1270:\t31 c9                \txor    %ecx,%ecx\n"
    "    1272:\t48 89 c8             \tmov    %rcx,%rax\n"
    "    1275:\tc3                   \tret\n";

const char* hot_symbols =
    "\nhot_pie:     file format elf64-x86-64\n\nSYMBOL TABLE:\n"
    "0000000000001230 g     F .text\t0000000000000046              hot_loop\n";

// callgrind's lines for hot_loop, as it wrote them (compressed positions, jump lines).
const char* hot_profile =
    "version: 1\ncreator: callgrind-3.19.0\npositions: instr line\nevents: Ir\n"
    "ob=(1) /x/hot_pie\nfl=(1) /x/hot.c\nfn=(1) hot_loop\n"
    "0x1230 14 1\n+3 * 1\n+2 * 1\n+2 -4 1\n+2 * 1\njump=1 +25 +5\n* *\n"
    "+7 +6 618\n+3 -2 618\n+4 +2 618\n+3 * 618\n+3 -2 618\n+3 * 618\n"
    "+2 +1 1237\n+3 * 1237\n+3 * 1237\n+3 * 1237\n+3 * 1237\njcnd=618/1237 -30 +1\n* *\n"
    "+2 +3 619\n+3 -4 619\n+4 * 619\n+3 * 619\njcnd=618/619 -24 +1\n* *\n"
    "+2 +7 1\n+3 * 1\n";

// The same counts as callgrind writes them for a longer run: the loop's test block (0x1252 to
// the jg at 0x125e, 1237 runs) in three contexts: a callgrind basic block of its own in the
// first fn= block of hot_loop (700 runs, jcnd=400/700), another after main's block (300 runs,
// no jcnd= line: the branch was never taken there, and callgrind writes none), and part 2
// (237 runs, jcnd=218/237); the jne at 0x126a in two, each with its own line (400/400,
// 218/219). The sums are the single context's: 1237 runs, 618 taken, 619 falling through.
const char* hot_contexts_profile =
    "version: 1\ncreator: callgrind-3.19.0\npositions: instr line\nevents: Ir\n"
    "part: 1\n"
    "ob=(1) /x/hot_pie\nfl=(1) /x/hot.c\nfn=(1) hot_loop\n"
    "0x1230 14 1\n+3 * 1\n+2 * 1\n+2 -4 1\n+2 * 1\njump=1 +25 +5\n* *\n"
    "+7 +6 618\n+3 -2 618\n+4 +2 618\n+3 * 618\n+3 -2 618\n+3 * 618\n"
    "+2 +1 700\n+3 * 700\n+3 * 700\n+3 * 700\n+3 * 700\njcnd=400/700 -30 +1\n* *\n"
    "+2 +3 400\n+3 -4 400\n+4 * 400\n+3 * 400\njcnd=400/400 -24 +1\n* *\n"
    "+2 +7 1\n+3 * 1\n"
    "fn=(2) main\n0x1070 30 1\n"
    "fn=(1)\n0x1252 15 300\n+3 * 300\n+3 * 300\n+3 * 300\n+3 * 300\n"
    "+2 +3 219\n+3 -4 219\n+4 * 219\n+3 * 219\njcnd=218/219 -24 +1\n* *\n"
    "part: 2\n"
    "ob=(1) /x/hot_pie\nfl=(1) /x/hot.c\nfn=(1) hot_loop\n"
    "0x1252 15 237\n+3 * 237\n+3 * 237\n+3 * 237\n+3 * 237\njcnd=218/237 -30 +1\n* *\n";

objdump_reply fake_objdump(const objdump_request& r) {
  objdump_reply reply;
  reply.path = r.object;
  reply.command = "objdump";
  reply.text = r.arguments[0] == "-t" ? hot_symbols : hot_loop_dump;
  return reply;
}

asm_view hot_loop_view(std::vector<std::string> events = {}, const char* text = hot_profile) {
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(text);
  profile_builder b(p, &diags, "t");
  EXPECT_TRUE(detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input()).has_value());
  EXPECT_EQ(diags.errors(), 0u);
  asm_options o;
  o.events = std::move(events);
  auto a = asm_annotator::make(p, o, fake_objdump);
  EXPECT_TRUE(a.has_value());
  std::vector<function_id> ids;
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == "hot_loop") ids.push_back(f);
  EXPECT_EQ(ids.size(), 1u);
  auto views = a->annotate(ids);
  EXPECT_EQ(views.size(), 1u);
  return views.empty() ? asm_view{} : std::move(views[0]);
}

TEST(Cfg, BlocksSplitAtBranchesAndTargetsWithTheirCosts) {
  const asm_view v = hot_loop_view();
  ASSERT_EQ(v.status, asm_status::ok) << v.message;
  const cfg_view g = make_cfg(v);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
      {0x1230, 0x1233}, {0x1235, 0x1239}, {0x123b, 0x123b}, {0x1240, 0x1250},
      {0x1252, 0x125e}, {0x1260, 0x126a}, {0x126c, 0x126f}, {0x1270, 0x1275}};
  ASSERT_EQ(g.blocks.size(), ranges.size());
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < ranges.size(); ++b) {
    EXPECT_EQ(g.blocks[b].from, ranges[b].first) << b;
    EXPECT_EQ(g.blocks[b].to, ranges[b].second) << b;
    EXPECT_EQ(g.blocks[b].entry, b == 0);
    sum += g.blocks[b].self[0];
  }
  EXPECT_EQ(sum, v.self[0]);
  EXPECT_EQ(v.self[0], 12376u);
  EXPECT_EQ(g.left_out, std::vector<std::uint64_t>{0});
  EXPECT_EQ(g.blocks[3].self[0], 6u * 618);
  EXPECT_EQ(g.blocks[4].self[0], 5u * 1237);
  EXPECT_EQ(*g.blocks[4].executed, 1237u);
}

TEST(Cfg, EdgesHaveTheJumpRecordsCountsAndExactFallThroughs) {
  const asm_view v = hot_loop_view();
  const cfg_view g = make_cfg(v);
  // (from, to, kind, count): taken edges from the jump records (a branch without one was never
  // taken), fall-throughs from jcnd='s executed - taken or the last instruction's Ir.
  using K = cfg_edge_kind;
  struct want {
    std::size_t from;
    std::int64_t to;
    K kind;
    std::uint64_t count;
  };
  const std::vector<want> wanted = {{0, 7, K::taken, 0},   {0, 1, K::fall_through, 1},
                                    {1, 4, K::taken, 1},   {2, 3, K::fall_through, 0},
                                    {3, 6, K::taken, 0},   {3, 4, K::fall_through, 618},
                                    {4, 3, K::taken, 618}, {4, 5, K::fall_through, 619},
                                    {5, 4, K::taken, 618}, {5, 6, K::fall_through, 1}};
  ASSERT_EQ(g.edges.size(), wanted.size());
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const auto& e = g.edges[i];
    EXPECT_EQ(e.from, wanted[i].from) << i;
    EXPECT_EQ(e.to, wanted[i].to) << i;
    EXPECT_EQ(e.kind, wanted[i].kind) << i;
    ASSERT_TRUE(e.count.has_value()) << i;
    EXPECT_EQ(*e.count, wanted[i].count) << i;
  }
  EXPECT_EQ(g.edges[6].executed, 1237u);  // jcnd=618/1237
  EXPECT_TRUE(g.edges[6].conditional);
  EXPECT_FALSE(g.edges[2].conditional);  // jump=1
  // Every block but the entry runs as often as its incoming edges are followed.
  std::map<std::int64_t, std::uint64_t> in;
  for (const auto& e : g.edges) in[e.to] += *e.count;
  for (std::size_t b = 1; b < g.blocks.size(); ++b)
    EXPECT_EQ(*g.blocks[b].executed, in[static_cast<std::int64_t>(b)]) << b;
}

TEST(Cfg, AnInstructionInSeveralContextsCountsThemAll) {
  const asm_view one = hot_loop_view();
  const asm_view three = hot_loop_view({}, hot_contexts_profile);
  ASSERT_EQ(three.status, asm_status::ok) << three.message;
  ASSERT_EQ(three.self, one.self);
  // The jg's jump: taken 618 times of its 1237 runs (the jcnd= lines say 937).
  const auto jg = std::find_if(three.instructions.begin(), three.instructions.end(),
                               [](const asm_instruction& in) { return in.address == 0x125e; });
  ASSERT_NE(jg, three.instructions.end());
  ASSERT_EQ(jg->jumps.size(), 1u);
  EXPECT_EQ(jg->jumps[0].followed, 618u);
  EXPECT_EQ(jg->jumps[0].executed, 1237u);
  EXPECT_NE(asm_text(three).find("| jump 618 of 1,237 (50.0% taken) to 1240\n"), std::string::npos)
      << asm_text(three);
  EXPECT_NE(asm_json(three).find("\"executed\":1237,\"followed\":618"), std::string::npos);

  // The graph is the single context's, edge for edge: the jg's fall-through 1237 - 618.
  const cfg_view a = make_cfg(one), b = make_cfg(three);
  auto same = [&](const cfg_view& x, const char* what) {
    ASSERT_EQ(x.blocks.size(), a.blocks.size()) << what;
    for (std::size_t i = 0; i < a.blocks.size(); ++i)
      EXPECT_EQ(x.blocks[i].executed, a.blocks[i].executed) << what << " block " << i;
    ASSERT_EQ(x.edges.size(), a.edges.size()) << what;
    for (std::size_t i = 0; i < a.edges.size(); ++i) {
      EXPECT_EQ(x.edges[i].from, a.edges[i].from) << what << " edge " << i;
      EXPECT_EQ(x.edges[i].to, a.edges[i].to) << what << " edge " << i;
      EXPECT_EQ(x.edges[i].count, a.edges[i].count) << what << " edge " << i;
      EXPECT_EQ(x.edges[i].executed, a.edges[i].executed) << what << " edge " << i;
    }
  };
  same(b, "three contexts");
  ASSERT_EQ(b.edges.size(), 10u);
  EXPECT_EQ(b.edges[6].count, 618u);  // 4 -> 3, taken
  EXPECT_EQ(b.edges[6].executed, 1237u);
  EXPECT_EQ(b.edges[7].count, 619u);  // 4 -> 5, falling through
  EXPECT_EQ(b.edges[8].count, 618u);  // 5 -> 4, the jne's lines summed
  EXPECT_EQ(b.edges[8].executed, 619u);
  // Every block with edges out is left as often as it runs.
  std::map<std::size_t, std::uint64_t> out;
  for (const auto& e : b.edges) out[e.from] += *e.count;
  for (const auto& [from, n] : out) EXPECT_EQ(n, *b.blocks[from].executed) << from;

  // make_cfg alone, on a view whose jump holds the lines' count: the instruction's Ir still.
  asm_view lines = three;
  lines.instructions[static_cast<std::size_t>(jg - three.instructions.begin())].jumps[0].executed =
      937;
  same(make_cfg(lines), "the lines' count");
}

TEST(Cfg, WithoutIrTheFallThroughsOfPlainBlocksAreUnknown) {
  // (events: Ir only here; a view of no Ir event is made by asking for none of its events)
  asm_view v = hot_loop_view();
  v.events = {"X"};
  for (auto& in : v.instructions) in.self = {0};
  const cfg_view g = make_cfg(v);
  ASSERT_EQ(g.blocks.size(), 8u);
  EXPECT_FALSE(g.blocks[1].executed.has_value());
  for (const auto& e : g.edges) {
    if (e.from == 4 || (e.from == 5 && e.kind == cfg_edge_kind::taken) || e.from == 1) {
      EXPECT_TRUE(e.count.has_value()) << e.from;  // jump records, jcnd='s fall-through
    }
    if (e.from == 2) {
      EXPECT_FALSE(e.count.has_value());
    }
  }
}

TEST(Cfg, NotOkViewsHaveNoBlocksAndTheJsonSaysWhy) {
  asm_view v;
  v.status = asm_status::object_missing;
  v.message = "the object file /x/hot_pie is not found";
  v.events = {"Ir"};
  v.self = {5};
  const cfg_view g = make_cfg(v);
  EXPECT_TRUE(g.blocks.empty());
  EXPECT_EQ(g.left_out, std::vector<std::uint64_t>{5});
  const std::string j = cfg_json(v, g);
  EXPECT_NE(j.find("\"status\":\"object_missing\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"blocks\":[]"), std::string::npos) << j;
  const std::string ok = cfg_json(hot_loop_view(), make_cfg(hot_loop_view()));
  EXPECT_NE(ok.find("\"kind\":\"fall_through\",\"conditional\":true,\"count\":619"),
            std::string::npos)
      << ok;
  EXPECT_NE(ok.find("\"text\":\"jg 1240 <hot_loop+0x10>\""), std::string::npos) << ok;
}

}  // namespace
}  // namespace calltree

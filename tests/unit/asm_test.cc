// asm_test.cc — machine-code annotation (calltree/asm.h) on captured text, no process: the
// objdump parsers on binutils 2.40's output (tests/cli/annotate_asm.sh runs the real thing),
// the plan and the match of profiled addresses against instruction boundaries, the profile's
// per-instruction data, and the annotator with a runner that hands back captured text.
#include "calltree/asm.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "asm/objdump.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

// `objdump -d -w -C --start-address=0x1230 --stop-address=0x1276 hot_pie` (gcc 12 -O2 -g of
// tests/asm/hot.c's hot_loop; the tabs as objdump writes them).
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

// `objdump -t -T -w -C hot_pie`, cut (the static table has an empty version column, the
// dynamic one versions; `.hidden`; a symbol of size 0).
const char* hot_symbols =
    "\n"
    "hot_pie:     file format elf64-x86-64\n"
    "\n"
    "SYMBOL TABLE:\n"
    "0000000000001170 l     F .text\t0000000000000000              deregister_tm_clones\n"
    "0000000000003db8 l     O .fini_array\t0000000000000000              "
    "__do_global_dtors_aux_fini_array_entry\n"
    "0000000000000000       F *UND*\t0000000000000000              __libc_start_main@GLIBC_2.34\n"
    "0000000000001230 g     F .text\t0000000000000046              hot_loop\n"
    "0000000000001278 g     F .fini\t0000000000000000              .hidden _fini\n"
    "0000000000001140 g     F .text\t0000000000000022              _start\n"
    "0000000000001070 g     F .text\t00000000000000c6              main\n"
    "\n"
    "\n"
    "DYNAMIC SYMBOL TABLE:\n"
    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) __libc_start_main\n"
    "0000000000000000  w   D  *UND*\t0000000000000000  Base        __gmon_start__\n";

TEST(AsmObjdump, ParsesInstructionsLabelsAndTargets) {
  objdump_disassembly d = parse_objdump_disassembly(hot_loop_dump);
  EXPECT_EQ(d.file_format, "elf64-x86-64");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].address, 0x1230u);
  EXPECT_EQ(d.labels[0].name, "hot_loop");
  ASSERT_EQ(d.instructions.size(), 26u);
  const objdump_instruction& jle = d.instructions[1];
  EXPECT_EQ(jle.address, 0x1233u);
  EXPECT_EQ(jle.bytes, "7e 3b");
  EXPECT_EQ(jle.mnemonic, "jle");
  EXPECT_EQ(jle.operands, "1270 <hot_loop+0x40>");
  ASSERT_TRUE(jle.target.has_value());
  EXPECT_EQ(*jle.target, 0x1270u);
  EXPECT_EQ(d.instructions[5].mnemonic, "nopl");
  EXPECT_EQ(d.instructions[5].operands, "0x0(%rax,%rax,1)");
  EXPECT_FALSE(d.instructions[5].target.has_value());  // a memory operand is no target
  EXPECT_EQ(d.instructions[22].mnemonic, "ret");
  EXPECT_EQ(d.instructions[22].operands, "");
  EXPECT_EQ(d.instructions.back().address, 0x1275u);
}

TEST(AsmObjdump, JoinsContinuationBytesAndReadsOtherShapes) {
  // Without -w an 8-byte instruction goes on over a line of bytes alone; a call target whose
  // demangled name holds angle brackets and spaces; --no-show-raw-insn; a bare target (no
  // symbol before it); an ISA printing words (aarch64); a `...` line and -l's source lines.
  const char* text =
      "000000000000107d <main+0xd>:\n"
      "    107d:\t66 0f 6f 05 8b 0f 00 \tmovdqa 0xf8b(%rip),%xmm0        # 2010 <x+0x10>\n"
      "    1084:\t00 \n"
      "    1085:\t48 89 e6             \tmov    %rsp,%rsi\n"
      "    1088:\te8 00 00 00 00       \tcall   2000 <std::vector<int, std::allocator<int> "
      ">::push_back(int const&)>\n"
      "/tmp/x.c:12\n"
      "main():\n"
      "    108d:\tjmp    1070\n"
      "\t...\n"
      "  400080:\td503201f \tnop\n"
      "  400084:\t54000041 \tb.ne\t40008c <f+0xc>  // b.any\n"
      "0000000000002000 <std::vector<int, std::allocator<int> >::push_back(int const&)>:\n";
  objdump_disassembly d = parse_objdump_disassembly(text);
  ASSERT_EQ(d.instructions.size(), 6u);
  EXPECT_EQ(d.instructions[0].bytes, "66 0f 6f 05 8b 0f 00 00");
  EXPECT_EQ(d.instructions[0].mnemonic, "movdqa");
  EXPECT_FALSE(d.instructions[0].target.has_value());  // (a comment's address is no target)
  EXPECT_EQ(d.instructions[1].address, 0x1085u);
  EXPECT_EQ(*d.instructions[2].target, 0x2000u);
  EXPECT_EQ(d.instructions[3].bytes, "");
  EXPECT_EQ(d.instructions[3].mnemonic, "jmp");
  EXPECT_EQ(*d.instructions[3].target, 0x1070u);
  EXPECT_EQ(d.instructions[4].bytes, "d503201f");
  EXPECT_EQ(d.instructions[4].mnemonic, "nop");
  EXPECT_EQ(d.instructions[5].mnemonic, "b.ne");
  EXPECT_EQ(*d.instructions[5].target, 0x40008cu);
  ASSERT_EQ(d.labels.size(), 2u);
  EXPECT_EQ(d.labels[1].name, "std::vector<int, std::allocator<int> >::push_back(int const&)");

  // keep: only instructions in the ranges asked for.
  code_range r{0x1085, 0x1088, 0x1088};
  objdump_disassembly k = parse_objdump_disassembly(text, std::span<const code_range>(&r, 1));
  ASSERT_EQ(k.instructions.size(), 1u);
  EXPECT_EQ(k.instructions[0].address, 0x1085u);
}

TEST(AsmObjdump, AnyTextParsesWithoutHarm) {
  // objdump's text is input like any other: every prefix of the captured texts, each with one
  // byte changed to a byte that matters to the parsers, parses (ASan/UBSan builds run this).
  const std::string texts[] = {hot_loop_dump, hot_symbols};
  const char swaps[] = {'\t', ' ', ':', '<', '>', '\n', '(', ')', 'f', '0', '\0', '\xff'};
  std::size_t instructions = 0, symbols = 0;
  for (const std::string& t : texts)
    for (std::size_t cut = 0; cut <= t.size(); cut += 7)
      for (char c : swaps) {
        std::string m = t.substr(0, cut);
        if (!m.empty()) m[(cut * 31) % m.size()] = c;
        instructions += parse_objdump_disassembly(m).instructions.size();
        symbols += parse_objdump_symbols(m).size();
      }
  EXPECT_GT(instructions, 0u);
  EXPECT_GT(symbols, 0u);
}

TEST(AsmObjdump, ParsesBothSymbolTables) {
  std::vector<object_symbol> s = parse_objdump_symbols(hot_symbols);
  // Defined symbols only, by address; the object symbol and *UND* ones are not functions.
  std::map<std::string, object_symbol> by;
  for (const auto& x : s) by[x.name] = x;
  ASSERT_TRUE(by.count("hot_loop"));
  EXPECT_EQ(by["hot_loop"].address, 0x1230u);
  EXPECT_EQ(by["hot_loop"].size, 0x46u);
  EXPECT_TRUE(by["hot_loop"].function);
  EXPECT_EQ(by["hot_loop"].section, ".text");
  EXPECT_TRUE(by.count("_fini"));  // (.hidden dropped)
  EXPECT_FALSE(by["__do_global_dtors_aux_fini_array_entry"].function);
  EXPECT_FALSE(by.count("__libc_start_main"));
  EXPECT_FALSE(by.count("__libc_start_main@GLIBC_2.34"));
  EXPECT_TRUE(
      std::is_sorted(s.begin(), s.end(), [](auto& a, auto& b) { return a.address < b.address; }));

  // Version columns: padded, hidden "(V)", longer than the column, none at all (an object
  // without version sections); demangled names with spaces; the same symbol in both tables.
  const char* dyn =
      "DYNAMIC SYMBOL TABLE:\n"
      "00000000014d4100 g    DF .text\t00000000000012aa  LLVM_14     "
      "llvm::SelectionDAG::Combine(llvm::CombineLevel, llvm::AAResults*)\n"
      "0000000000001100 g    DF .text\t000000000000001b (GLIBC_2.3)  uselocale\n"
      "0000000000002100 g    DF .text\t0000000000000010  GLIBCXX_3.4.21 std::foo(int, int)\n"
      "0000000000003100 g     F .text\t0000000000000004 f\n"
      "0000000000003100 g     F .text\t0000000000000004 f\n";
  s = parse_objdump_symbols(dyn);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].name, "uselocale");
  EXPECT_EQ(s[1].name, "std::foo(int, int)");
  EXPECT_EQ(s[2].name, "f");
  EXPECT_EQ(s[3].name, "llvm::SelectionDAG::Combine(llvm::CombineLevel, llvm::AAResults*)");
  EXPECT_EQ(s[3].size, 0x12aau);
}

instr_data at(std::uint64_t a, std::uint64_t cost = 1) {
  instr_data d;
  d.address = a;
  d.self = {cost};
  return d;
}

function_instrs fn(std::vector<instr_data> v) {
  function_instrs f;
  f.instrs = std::move(v);
  return f;
}

TEST(AsmMatch, TheSymbolsRangeEveryInstructionAndTheProfiledOnes) {
  auto syms = parse_objdump_symbols(hot_symbols);
  auto d = parse_objdump_disassembly(hot_loop_dump);
  instr_data jg = at(0x125e, 1000);
  jg.jumps.push_back({true, 1000, 500, 0x1240, function_id{}});
  function_instrs f = fn({at(0x1230), at(0x1233), jg, at(0x126f)});
  f.self = {1003};
  disassembly_plan plan = plan_disassembly(f, "hot_loop", syms);
  ASSERT_EQ(plan.mismatch, "");
  ASSERT_TRUE(plan.symbol.has_value());
  ASSERT_EQ(plan.ranges.size(), 1u);
  EXPECT_EQ(plan.ranges[0].from, 0x1230u);
  EXPECT_EQ(plan.ranges[0].to, 0x1276u);
  auto m = match_instructions(f, d, plan);
  ASSERT_TRUE(m.has_value()) << m.error().message;
  EXPECT_EQ(m->instructions.size(), 26u);  // every instruction of the function, run or not
  EXPECT_EQ(m->data[0], 0);
  EXPECT_EQ(m->data[1], 1);
  EXPECT_EQ(m->data[2], -1);
  EXPECT_EQ(m->data[16], 2);  // 0x125e
  EXPECT_EQ(m->data[22], 3);  // 0x126f

  // The name of a callgrind context or recursion level is the function's.
  EXPECT_EQ(plan_disassembly(f, "hot_loop'main", syms).mismatch, "");
  EXPECT_EQ(plan_disassembly(f, "hot_loop'2", syms).mismatch, "");
  // Two demanglers' parentheses and blanks (valgrind's and binutils' on libLLVM-14).
  std::vector<object_symbol> cxx = {
      {0x1230, 0x46, true, ".text", "r<decltype (std::begin((std::declval<B&>)()))> f(B&)"}};
  EXPECT_EQ(
      plan_disassembly(f, "r<decltype (std::begin(std::declval<B&>()))> f(B&)'g", cxx).mismatch,
      "");
  EXPECT_NE(plan_disassembly(f, "r<decltype (std::begin(std::declval<B&>()))> f(C&)", cxx).mismatch,
            "");
}

TEST(AsmMatch, AChangedObjectIsAMismatchNeverNumbers) {
  auto syms = parse_objdump_symbols(hot_symbols);
  auto d = parse_objdump_disassembly(hot_loop_dump);
  // An address inside an instruction (the rebuilt program of tests/cli/annotate_asm.sh).
  function_instrs f = fn({at(0x1230), at(0x1234)});
  auto plan = plan_disassembly(f, "hot_loop", syms);
  auto m = match_instructions(f, d, plan);
  ASSERT_FALSE(m.has_value());
  EXPECT_EQ(m.error().message,
            "the profile has costs at 0x1234, which is not an instruction start (objdump has "
            "`jle 1270 <hot_loop+0x40>` at 0x1233): the object changed since the run");
  // Another function's code at the profiled addresses.
  f = fn({at(0x1230)});
  plan = plan_disassembly(f, "compute", syms);
  EXPECT_EQ(plan.mismatch,
            "the profile has costs of compute at 0x1230, in the object's function hot_loop: the "
            "object changed since the run");
  // Costs past the function's end, in the next function.
  f = fn({at(0x1140), at(0x1230)});
  plan = plan_disassembly(f, "hot_loop", syms);
  EXPECT_NE(plan.mismatch.find("in the object's function _start"), std::string::npos);
  // A conditional jump that is not the branch objdump shows.
  instr_data jg = at(0x125e);
  jg.jumps.push_back({true, 10, 5, 0x1250, function_id{}});
  f = fn({at(0x1230), jg});
  plan = plan_disassembly(f, "hot_loop", syms);
  m = match_instructions(f, d, plan);
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().message.find("a jump from 0x125e to 0x1250 where objdump has `jg 1240"),
            std::string::npos);
  // A jump into the middle of an instruction of the function.
  instr_data jmp = at(0x1239);
  jmp.jumps.push_back({false, 1, 1, 0x1253, function_id{}});
  d.instructions[4].target.reset();  // (as if indirect)
  f = fn({at(0x1230), jmp});
  m = match_instructions(f, d, plan_disassembly(f, "hot_loop", syms));
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().message.find("a jump to 0x1253, which is not an instruction start"),
            std::string::npos);
  // No code where the plan points (an object of other contents).
  m = match_instructions(f, objdump_disassembly{}, plan_disassembly(f, "hot_loop", syms));
  ASSERT_FALSE(m.has_value());
  EXPECT_EQ(m.error().message,
            "objdump shows no instruction at 0x1230: the object changed since the run, or is "
            "not the one profiled");
}

TEST(AsmMatch, CodeWithoutASymbolAndRepLoops) {
  // A stripped object: the profiled addresses alone, in clusters; code outside every symbol
  // reached from a function's stub (callgrind names it after the stub) is a range of its own.
  const char* dump =
      "0000000000001000 <stub>:\n"
      "    1000:\teb 1e                \tjmp    1020 <stub+0x20>\n"
      "    1020:\t31 c0                \txor    %eax,%eax\n"
      "    1022:\tf3 aa                \trep stos %al,%es:(%rdi)\n"
      "    1024:\tc3                   \tret\n"
      "    9000:\tc3                   \tret\n";
  const char* symtab = "0000000000001000 g     F .text\t0000000000000002 stub\n";
  auto d = parse_objdump_disassembly(dump);
  auto syms = parse_objdump_symbols(symtab);
  instr_data rep = at(0x1022, 40);
  rep.jumps.push_back({true, 40, 39, 0x1022, function_id{}});  // VEX runs `rep` as a loop on itself
  function_instrs f = fn({at(0x1000), at(0x1020), rep, at(0x1024), at(0x9000)});
  auto plan = plan_disassembly(f, "stub", syms);
  ASSERT_EQ(plan.mismatch, "");
  ASSERT_EQ(plan.ranges.size(), 3u);
  EXPECT_EQ(plan.ranges[0].from, 0x1000u);
  EXPECT_EQ(plan.ranges[0].to, 0x1002u);
  EXPECT_EQ(plan.ranges[1].from, 0x1020u);
  EXPECT_EQ(plan.ranges[1].to, 0x1025u);
  EXPECT_EQ(plan.ranges[1].stop, 0x1024u + max_instruction_bytes);
  EXPECT_EQ(plan.ranges[2].from, 0x9000u);
  auto m = match_instructions(f, d, plan);
  ASSERT_TRUE(m.has_value()) << m.error().message;
  EXPECT_EQ(m->instructions.size(), 5u);
  EXPECT_EQ(m->range_start, (std::vector<char>{1, 1, 0, 0, 1}));
  // callgrind's names for code without a symbol are not checked against symbols.
  EXPECT_EQ(plan_disassembly(fn({at(0x1020)}), "0x0000000000001020", syms).mismatch, "");
  EXPECT_NE(plan_disassembly(fn({at(0x1000)}), "0x0000000000001000", syms).mismatch, "");
  EXPECT_EQ(plan_disassembly(fn({at(0x1000)}), "(below main)", syms).mismatch, "");
}

// A profile of hot_loop as callgrind wrote it (cut), in two parts, with a call and jumps.
const char* hot_profile =
    "version: 1\ncreator: callgrind-3.19.0\npositions: instr line\nevents: Ir Dr\n"
    "part: 1\n"
    "ob=(1) /x/hot_pie\nfl=(1) /x/hot.c\nfn=(1) hot_loop\n"
    "0x1230 6 1\n+3 * 1\n+6 5 1\njump=1 0x1252 *\n* *\n"
    "0x125e 7 1000 200\njcnd=500/1000 0x1240 *\n* *\n"
    "0x1240 7 500\n"
    "cob=(2) /x/libmix.so\ncfi=(2) /x/lib.c\ncfn=(2) lib_mix\ncalls=100 0x1100 3\n0x1243 6 3600\n"
    "fn=(3) main\n0x1070 12 1\n"
    "totals: 1504 200\n"
    "part: 2\n"
    "ob=(1)\nfl=(1)\nfn=(1)\n0x125e 7 10\njcnd=5/10 0x1240 *\n* *\n";

void load(const char* text, profile& p) {
  diagnostic_collector diags;
  auto in = memory_input(text);
  profile_builder b(p, &diags, "t");
  ASSERT_TRUE(detail::read_profile(*in, p.strings, b, diags, {}, detail::any_input()).has_value());
  ASSERT_EQ(diags.errors(), 0u);
}

function_id function_named(const profile& p, std::string_view name) {
  for (function_id f : p.functions.ids())
    if (p.function_name(f) == name) return f;
  ADD_FAILURE() << name;
  return function_id{};
}

TEST(AsmProfile, InstructionsCallsAndJumpsPerPartOrSummed) {
  profile p;
  load(hot_profile, p);
  const function_id hot = function_named(p, "hot_loop");
  const function_id ids[] = {hot};
  auto all = collect_instructions(p, ids);
  ASSERT_EQ(all.size(), 1u);
  const function_instrs& f = all[0];
  ASSERT_EQ(f.instrs.size(), 6u);  // 0x1230 0x1233 0x1239 0x1240 0x1243 0x125e
  EXPECT_EQ(f.self, (std::vector<std::uint64_t>{1513, 200}));
  EXPECT_EQ(f.instrs[2].address, 0x1239u);
  ASSERT_EQ(f.instrs[2].jumps.size(), 1u);
  EXPECT_FALSE(f.instrs[2].jumps[0].conditional);
  EXPECT_EQ(f.instrs[2].jumps[0].target, 0x1252u);
  EXPECT_EQ(f.instrs[2].line, 5u);
  const instr_data& jg = f.instrs[5];
  EXPECT_EQ(jg.address, 0x125eu);
  EXPECT_EQ(jg.line, 7u);
  EXPECT_EQ(jg.self, (std::vector<std::uint64_t>{1010, 200}));
  ASSERT_EQ(jg.jumps.size(), 1u);
  EXPECT_TRUE(jg.jumps[0].conditional);
  EXPECT_EQ(jg.jumps[0].executed, 1010u);
  EXPECT_EQ(jg.jumps[0].followed, 505u);
  EXPECT_EQ(jg.jumps[0].target, 0x1240u);
  const instr_data& call = f.instrs[4];
  EXPECT_EQ(call.self, (std::vector<std::uint64_t>{0, 0}));  // a call site only
  ASSERT_EQ(call.calls.size(), 1u);
  EXPECT_EQ(p.function_name(call.calls[0].callee), "lib_mix");
  EXPECT_EQ(call.calls[0].count, 100u);
  EXPECT_EQ(call.calls[0].inclusive, (std::vector<std::uint64_t>{3600, 0}));
  EXPECT_EQ(call.calls[0].target, 0x1100u);

  const part_id second[] = {part_id{1}};
  auto two = collect_instructions(p, ids, second);
  ASSERT_EQ(two[0].instrs.size(), 1u);
  EXPECT_EQ(two[0].instrs[0].self, (std::vector<std::uint64_t>{10, 0}));
  EXPECT_EQ(two[0].instrs[0].jumps[0].executed, 10u);
}

TEST(AsmProfile, TheFilterKeepsTheChosenFunctionsOnly) {
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(hot_profile);
  builder_options bo;
  profile_builder b(p, &diags, "t", bo);
  int asked = 0;
  function_filter keep(
      p.strings,
      [&](std::string_view name) {
        ++asked;
        return name == "hot_loop";
      },
      b);
  ASSERT_TRUE(
      detail::read_profile(*in, p.strings, keep, diags, {}, detail::any_input()).has_value());
  EXPECT_EQ(asked, 2);  // once per name met in a record's context
  for (const auto& r : p.self_rows) EXPECT_EQ(p.function_name(r.function), "hot_loop");
  EXPECT_EQ(p.self_rows.size(), 6u);
  EXPECT_EQ(p.calls.size(), 1u);
  EXPECT_EQ(p.jumps.size(), 3u);
  EXPECT_EQ(p.parts.size(), 2u);
  EXPECT_EQ(p.parts[part_id{0}].totals,
            (std::vector<std::uint64_t>{1504, 200}));  // the whole part's
}

TEST(AsmProfile, ReadFunctionsAndTheFunctionsOfAKey) {
  // f of a.c has inlined code from h.h (a key "h.h:f" of its own in the report); another f in
  // b.c of another object; g is only called.
  const char* text =
      "positions: instr line\nevents: Ir\n"
      "ob=/x/p\nfl=/w/a.c\nfn=f\n0x10 3 5\nfi=/w/h.h\n0x14 9 7\ncfn=g\ncalls=1 0x40 1\n0x18 9 2\n"
      "ob=/x/q.so\nfl=/w/b.c\nfn=f\n0x20 4 1\n"
      "ob=/x/p\nfl=/w/a.c\nfn=h\n0x30 5 1\n";
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(text);
  auto stats = read_functions(
      *in, p, [](std::string_view n) { return n == "f"; }, diags);
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(stats->cost_lines, 4u);  // (and a call line)
  EXPECT_TRUE(p.positions & pos_instr);
  key_functions keys(p, "/w/");
  auto fa = keys.of("a.c", "f", "/x/p");
  ASSERT_EQ(fa.size(), 1u);
  EXPECT_EQ(keys.of("h.h", "f", "/x/p"), fa);  // the inlined code's key: the same function
  EXPECT_EQ(keys.of("a.c", "f", ""), fa);
  EXPECT_EQ(keys.of("b.c", "f", "").size(), 1u);
  EXPECT_NE(keys.of("b.c", "f", ""), fa);
  EXPECT_TRUE(keys.of("b.c", "f", "/x/p").empty());
  EXPECT_TRUE(keys.of("a.c", "g", "").empty());  // only called
  EXPECT_TRUE(keys.of("a.c", "h", "").empty());  // not read
}

// A runner answering from captured text, recording what it was asked.
struct fake_objdump {
  std::vector<std::vector<std::string>> asked;
  bool missing = false;
  std::string dump = hot_loop_dump;
  objdump_reply operator()(const objdump_request& r) {
    asked.push_back(r.arguments);
    objdump_reply reply;
    if (missing) {
      reply.status = asm_status::object_missing;
      reply.message = "the object file " + r.object + " is not found";
      return reply;
    }
    reply.path = r.object;
    reply.command = "objdump";
    for (const auto& a : r.arguments) reply.command += " " + a;
    reply.text = r.arguments[0] == "-t" ? hot_symbols : dump;
    return reply;
  }
};

TEST(AsmAnnotator, ViewsWithCostsHotMarksJumpsAndCalls) {
  profile p;
  load(hot_profile, p);
  fake_objdump fake;
  asm_options o;
  o.hot_percent = 50;
  auto a = asm_annotator::make(p, o, std::ref(fake));
  ASSERT_TRUE(a.has_value());
  const function_id ids[] = {function_named(p, "hot_loop"), function_named(p, "main")};
  auto views = a->annotate(ids);
  ASSERT_EQ(views.size(), 2u);
  const asm_view& v = views[0];
  ASSERT_EQ(v.status, asm_status::ok) << v.message;
  EXPECT_EQ(v.events, (std::vector<std::string>{"Ir", "Dr"}));
  EXPECT_EQ(v.totals, (std::vector<std::uint64_t>{1514, 200}));
  EXPECT_EQ(v.self, (std::vector<std::uint64_t>{1513, 200}));
  ASSERT_EQ(v.instructions.size(), 26u);
  std::uint64_t sum = 0;
  for (const auto& in : v.instructions) sum += in.self[0];
  EXPECT_EQ(sum, v.self[0]);
  const asm_instruction& jg = v.instructions[16];
  EXPECT_EQ(jg.address, 0x125eu);
  EXPECT_TRUE(jg.hot);  // 1010 of 1513
  EXPECT_FALSE(v.instructions[6].hot);
  ASSERT_EQ(jg.jumps.size(), 1u);
  EXPECT_EQ(jg.jumps[0].target_index, 6);  // 0x1240
  EXPECT_EQ(v.instructions[7].calls[0].callee, "lib_mix");
  EXPECT_EQ(v.instructions[7].calls[0].callee_object, "/x/libmix.so");
  EXPECT_EQ(v.instructions[7].calls[0].inclusive, (std::vector<std::uint64_t>{3600, 0}));
  EXPECT_EQ(v.instructions[0].source_file, "/x/hot.c");
  EXPECT_EQ(v.instructions[0].line, 6u);
  EXPECT_FALSE(v.instructions[2].profiled);
  // main's one profiled address is in its symbol, whose code the dump does not hold: a
  // mismatch, as for an object whose code is not there.
  EXPECT_EQ(views[1].status, asm_status::mismatch);
  EXPECT_EQ(views[1].message,
            "objdump shows no instruction at 0x1070: the object changed since the run, or is "
            "not the one profiled");
  // The symbols once, then one run for both functions (0x1070.. and 0x1230.. are close),
  // then main's range again alone (the run did not decode an instruction at its start).
  ASSERT_EQ(fake.asked.size(), 3u);
  EXPECT_EQ(fake.asked[0], (std::vector<std::string>{"-t", "-T", "-w", "-C"}));
  EXPECT_EQ(fake.asked[1], (std::vector<std::string>{"-d", "-w", "-C", "--start-address=0x1070",
                                                     "--stop-address=0x1276"}));
  EXPECT_EQ(fake.asked[2], (std::vector<std::string>{"-d", "-w", "-C", "--start-address=0x1070",
                                                     "--stop-address=0x1136"}));
  EXPECT_EQ(v.objdump_command, "objdump -d -w -C --start-address=0x1230 --stop-address=0x1276");

  std::string text = asm_text(v);
  EXPECT_NE(text.find("-- Machine code: hot_loop [/x/hot_pie]\n"), std::string::npos);
  EXPECT_NE(text.find("1,010 (66.71%) 200 (100.0%) * 125e: 7f e0           jg     1240 "
                      "<hot_loop+0x10>\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| jump 505 of 1,010 (50.0% taken) to 1240\n"), std::string::npos);
  EXPECT_NE(text.find("=> lib_mix (100x) [/x/libmix.so]\n"), std::string::npos);
  EXPECT_NE(text.find("self cost of hot_loop\n"), std::string::npos);
  std::string json = asm_json(v);
  EXPECT_NE(json.find("\"address\":\"0x125e\""), std::string::npos);
  EXPECT_NE(json.find("\"jumps\":[{\"conditional\":true,\"executed\":1010,\"followed\":505,"
                      "\"target\":\"0x1240\",\"target_index\":6,\"target_function\":null}]"),
            std::string::npos)
      << json;
}

TEST(AsmAnnotator, MissingObjectsAndProfilesWithoutAddresses) {
  profile p;
  load(hot_profile, p);
  fake_objdump fake;
  fake.missing = true;
  auto a = asm_annotator::make(p, {}, std::ref(fake));
  const function_id ids[] = {function_named(p, "hot_loop")};
  auto v = a->annotate(ids);
  EXPECT_EQ(v[0].status, asm_status::object_missing);
  EXPECT_EQ(v[0].message, "the object file /x/hot_pie is not found");
  EXPECT_EQ(asm_text(v[0]), std::string(80, '-') + "\n-- Machine code: hot_loop [/x/hot_pie]\n" +
                                std::string(80, '-') +
                                "\n  Not annotated: the object file /x/hot_pie is not found\n\n");

  profile lines;
  load("events: Ir\nob=/x/a\nfl=a.c\nfn=f\n3 10\n", lines);
  fake.missing = false;
  auto b = asm_annotator::make(lines, {}, std::ref(fake));
  const function_id f[] = {function_named(lines, "f")};
  EXPECT_EQ(b->annotate(f)[0].status, asm_status::no_instructions);
  asm_options o;
  o.events = {"Nope"};
  EXPECT_FALSE(asm_annotator::make(p, o, std::ref(fake)).has_value());
}

// A runner that throws on a helper thread (asm_options::jobs): the exception reaches
// annotate's caller, after the helpers, as one thrown on the calling thread does. (Out of the
// helper's function it ended the process.)
TEST(AsmAnnotator, AnExceptionOnAHelperThreadReachesTheCaller) {
  profile p;
  load(
      "version: 1\npositions: instr line\nevents: Ir\n"
      "ob=/x/hot_pie\nfl=/x/hot.c\nfn=hot_loop\n0x1230 6 10\n"
      "ob=/x/hot_pie2\nfl=/x/hot.c\nfn=hot_loop\n0x1230 6 20\n",
      p);
  std::vector<function_id> ids;
  for (function_id f : p.functions.ids()) ids.push_back(f);
  ASSERT_EQ(ids.size(), 2u);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> helper_asked{false};
  fake_objdump fake;
  auto runner = [&](const objdump_request& r) {
    if (r.arguments[0] == "-d") {
      if (std::this_thread::get_id() != caller) {
        helper_asked = true;
        throw std::bad_alloc();
      }
      // The caller's run waits for the helper to take the other one.
      for (int i = 0; i < 10000 && !helper_asked; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return fake(r);
  };
  asm_options o;
  o.jobs = 2;
  auto a = asm_annotator::make(p, o, runner);
  ASSERT_TRUE(a.has_value());
  EXPECT_THROW(a->annotate(ids), std::bad_alloc);
  EXPECT_TRUE(helper_asked);
}

}  // namespace
}  // namespace calltree

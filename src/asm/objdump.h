// objdump.h — (internal) objdump's text read, and matched with a profile's instructions: what
// asm_annotator (calltree/asm.h) does between running objdump and making its view. Not
// installed: a program asks asm_annotator for the view.
//  * parsers of objdump's text: `objdump -d -w -C` (address, bytes, mnemonic, operands, branch
//    targets, symbol labels) and `objdump -t -T -w -C` (function symbols with their sizes).
//  * the match (`plan_disassembly`, `match_instructions`): which address range to disassemble
//    (the function's symbol, else the profile's own addresses), then every profile address
//    must be an instruction start inside the function and every conditional jump the branch
//    objdump shows there.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/asm.h"
#include "calltree/result.h"

namespace calltree {

// ---- objdump's text ----------------------------------------------------------------------

// One instruction line of `objdump -d` (with -w, or its continuation lines of bytes joined).
struct objdump_instruction {
  std::uint64_t address = 0;
  std::string bytes;     // as printed: "48 85 ff"
  std::string mnemonic;  // the first word: "jle", "call", "rep" (prefixes are words)
  std::string operands;  // the rest: "1270 <hot_loop+0x40>"
  // A direct branch or call target objdump printed as the last operand ("1270 <...>" or a
  // bare hex address), if any.
  std::optional<std::uint64_t> target;
};

// A symbol label line: "0000000000001230 <hot_loop>:" (or "<f+0x10>" where a range starts
// inside a symbol).
struct objdump_label {
  std::uint64_t address = 0;
  std::string name;  // between the angle brackets
};

struct objdump_disassembly {
  std::string file_format;  // "elf64-x86-64", from "FILE:     file format ..."
  std::vector<objdump_instruction> instructions;  // in the order printed
  std::vector<objdump_label> labels;
};

// Parses `objdump -d [-w] [-C] [--start-address=A --stop-address=B] FILE`. Lines it does not
// know (section headers, "...", -l/-S source lines) are skipped; nothing fails. With `keep`,
// only instructions in one of its [from, stop) ranges are kept (the rest are not stored).
objdump_disassembly parse_objdump_disassembly(std::string_view text,
                                                           std::span<const code_range> keep = {});

// Parses both tables; only symbols defined in a section (not *UND*, *ABS*) are returned,
// sorted by address, each (address, name) once.
std::vector<object_symbol> parse_objdump_symbols(std::string_view text);

// ---- The match ---------------------------------------------------------------------------

// What to disassemble for one function, and which of it to show.
struct disassembly_plan {
  // The function's code, in address order, disjoint: its symbol's range when the object has
  // one, and a range per cluster of profiled addresses outside any symbol (callgrind gives a
  // function the code it jumps to when that code has no symbol of its own: a 5-byte stub
  // jumping to a local body; in a stripped object, every local function).
  std::vector<code_range> ranges;
  // The function symbol found for the profile's addresses (address, size, name), if any.
  std::optional<object_symbol> symbol;
  // Set when the symbol table contradicts the profile (profiled addresses in the code of a
  // function of another name): the object changed since the run; nothing is disassembled.
  std::string mismatch;
};

// The longest instruction of any ISA objdump knows (x86's 15 bytes), rounded up: how far
// past the last profiled address a range without a symbol is disassembled.
inline constexpr std::uint64_t max_instruction_bytes = 16;
// Profiled addresses outside symbols further apart than this are ranges of their own.
inline constexpr std::uint64_t cluster_gap = 4096;

// The ranges for function `name` (as the profile names it) whose profiled instructions are
// `f`, given the object's symbols (parse_objdump_symbols; may be empty). The function symbol
// is the one of the profile's name (or an alias at its address) holding the most profiled
// addresses; a profiled address in a function symbol of another name is a mismatch. The name
// check ignores a callgrind context suffix (`f'g`, `f'2`) and a symbol version (`f@@V`);
// callgrind's own names (`0x0000000000401000` for code without a symbol, `(below main)`) are
// not checked against symbols, only kept out of other functions' code.
disassembly_plan plan_disassembly(const function_instrs& f, std::string_view name,
                                               std::span<const object_symbol> symbols);

// An object's function symbols with where each ends (a symbol of size 0, hand-written code,
// at the next function symbol of its section), by address: plan_disassembly's index, made once
// per object (libLLVM-14 has 45 k symbols; a selection, thousands of functions).
struct function_symbols {
  struct entry {
    object_symbol symbol;
    std::uint64_t end = 0;
  };
  std::vector<entry> entries;
  function_symbols() = default;
  explicit function_symbols(std::span<const object_symbol> symbols);
};
disassembly_plan plan_disassembly(const function_instrs& f, std::string_view name,
                                               const function_symbols& symbols);

// The instructions of the plan's ranges in `d` (in address order), and what the profile says
// of each: `data[i]` is the index in f.instrs of instruction i's address, or -1;
// `range_start[i]` is true where a range begins. An error (the object changed since the run)
// when a range does not begin with an instruction, a profiled address is not an instruction
// start, a jump targets the middle of an instruction of the ranges, or a jump's instruction
// shows objdump's direct target and it is not the profile's.
struct matched_instructions {
  std::vector<const objdump_instruction*> instructions;  // into `d`
  std::vector<std::int64_t> data;
  std::vector<char> range_start;
};
result<matched_instructions> match_instructions(const function_instrs& f,
                                                             const objdump_disassembly& d,
                                                             const disassembly_plan& plan);

}  // namespace calltree

// objdump_parse.cc — the text of `objdump -d` and `objdump -t -T` as instructions and symbols.
//
// Disassembly lines (binutils 2.40; older and cross builds print the same shapes):
//   "hot_pie:     file format elf64-x86-64"            the file format
//   "0000000000001230 <hot_loop>:"                       a symbol label (name may hold spaces
//                                                        and angle brackets: C++ templates)
//   "    1230:\t48 85 ff             \ttest   %rdi,%rdi" an instruction: address, bytes (pairs,
//                                                        or words on some ISAs), the text
//   "    1242:\t00 00 00 00 "                            (without -w) the rest of the bytes of
//                                                        the instruction above
//   "    1230:\ttest   %rdi,%rdi"                        (--no-show-raw-insn) no bytes
// and lines this ignores: "Disassembly of section .text:", "\t...", blank lines, -l/-S source
// lines. Symbol table lines (bfd's elf_print_symbol):
//   ADDRESS FLAGS(7) SECTION\tSIZE[  VERSION-PADDED-TO-11 | (HIDDEN-VERSION)PADDED][ .hidden] NAME
// where the version column is present in the dynamic table (and empty in the static one), so
// the name starts after it, and may hold spaces once demangled (-C).
#include <algorithm>
#include <cstring>

#include "asm/objdump.h"
#include "calltree/asm.h"

namespace calltree {

namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// A run of hex digits (no 0x) as a number; false if empty, not all hex, or over 64 bits.
bool parse_hex(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 16) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (!is_hex(c)) return false;
    v = v << 4 | static_cast<std::uint64_t>(hex_value(c));
  }
  out = v;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Bytes as objdump prints them: hex digits in groups separated by single spaces.
bool looks_like_bytes(std::string_view s) {
  s = trim(s);
  if (s.empty()) return false;
  for (char c : s)
    if (!is_hex(c) && c != ' ') return false;
  return true;
}

// The direct target of a branch or call, as objdump prints it: "1270 <hot_loop+0x40>" at the
// end of the operands (the hex address before the last balanced <...>), or the operands being
// one bare hex address ("1270", when no symbol precedes it).
std::optional<std::uint64_t> branch_target(std::string_view ops) {
  // Not in objdump's comment: "# 2010 <x+0x10>" (x86), "// b.any" (aarch64). (An immediate's
  // '#' is followed by its digits, not a blank.)
  for (std::size_t i = 1; i + 1 < ops.size(); ++i)
    if ((ops[i - 1] == ' ' || ops[i - 1] == '\t') &&
        ((ops[i] == '#' && ops[i + 1] == ' ') || (ops[i] == '/' && ops[i + 1] == '/'))) {
      ops = ops.substr(0, i);
      break;
    }
  ops = trim(ops);
  if (ops.empty()) return std::nullopt;
  std::uint64_t v = 0;
  if (ops.back() == '>') {
    int depth = 0;
    std::size_t i = ops.size();
    while (i-- > 0) {
      if (ops[i] == '>') ++depth;
      if (ops[i] == '<' && --depth == 0) break;
    }
    if (i == std::string_view::npos || i == 0 || ops[i - 1] != ' ') return std::nullopt;
    std::string_view before = ops.substr(0, i - 1);
    std::size_t start = before.find_last_of(" ,\t");
    std::string_view token = start == std::string_view::npos ? before : before.substr(start + 1);
    if (token.starts_with("0x")) token.remove_prefix(2);
    if (parse_hex(token, v)) return v;
    return std::nullopt;
  }
  if (ops.find_first_of(" ,\t") == std::string_view::npos) {
    std::string_view token = ops;
    if (token.starts_with("0x")) token.remove_prefix(2);
    if (parse_hex(token, v)) return v;
  }
  return std::nullopt;
}

// Splits text into lines (LF; a CR before it is dropped by trim where it matters).
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    f(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

}  // namespace

objdump_disassembly parse_objdump_disassembly(std::string_view text,
                                              std::span<const code_range> keep) {
  objdump_disassembly d;
  auto kept = [&](std::uint64_t a) {
    if (keep.empty()) return true;
    for (const code_range& r : keep)
      if (a >= r.from && a < r.stop) return true;
    return false;
  };
  bool last_kept = false;  // (for the continuation lines of an instruction)
  for_each_line(text, [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) return;
    // "FILE:     file format NAME"
    if (std::size_t ff = line.find(":     file format "); ff != std::string_view::npos) {
      if (d.file_format.empty()) d.file_format = std::string(trim(line.substr(ff + 18)));
      return;
    }
    // A label: hex digits at column 0, " <", name, ">:".
    if (is_hex(line[0])) {
      std::size_t sp = line.find(" <");
      std::uint64_t addr = 0;
      if (sp != std::string_view::npos && line.ends_with(">:") &&
          parse_hex(line.substr(0, sp), addr))
        d.labels.push_back({addr, std::string(line.substr(sp + 2, line.size() - sp - 4))});
      return;
    }
    // An instruction: blanks, hex digits, ':', a tab.
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t a = i;
    while (i < line.size() && is_hex(line[i])) ++i;
    std::uint64_t addr = 0;
    if (i == a || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != '\t' ||
        !parse_hex(line.substr(a, i - a), addr))
      return;
    std::string_view rest = line.substr(i + 2);
    std::size_t tab = rest.find('\t');
    std::string_view bytes, insn;
    if (tab != std::string_view::npos) {
      bytes = rest.substr(0, tab);
      insn = rest.substr(tab + 1);
      if (!looks_like_bytes(bytes)) {  // (no bytes shown, and a tab inside the text)
        bytes = {};
        insn = rest;
      }
    } else if (looks_like_bytes(rest) && (!last_kept || !d.instructions.empty())) {
      // The rest of the bytes of the instruction above (objdump without -w).
      if (!last_kept) return;
      std::string& b = d.instructions.back().bytes;
      b += ' ';
      b += trim(rest);
      return;
    } else {
      insn = rest;
    }
    last_kept = kept(addr);
    if (!last_kept) return;
    insn = trim(insn);
    objdump_instruction in;
    in.address = addr;
    in.bytes = std::string(trim(bytes));
    std::size_t sp = insn.find_first_of(" \t");
    in.mnemonic = std::string(insn.substr(0, sp));
    if (sp != std::string_view::npos) in.operands = std::string(trim(insn.substr(sp)));
    in.target = branch_target(in.operands);
    d.instructions.push_back(std::move(in));
  });
  return d;
}

std::vector<object_symbol> parse_objdump_symbols(std::string_view text) {
  std::vector<object_symbol> out;
  for_each_line(text, [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // ADDRESS ' ' FLAGS(7) ' ' SECTION '\t' SIZE REST
    std::size_t sp = line.find(' ');
    object_symbol s;
    if (sp == std::string_view::npos || sp == 0 || !parse_hex(line.substr(0, sp), s.address))
      return;
    if (line.size() < sp + 9 || line[sp + 8] != ' ') return;
    std::string_view flags = line.substr(sp + 1, 7);
    std::string_view after = line.substr(sp + 9);
    std::size_t tab = after.find('\t');
    if (tab == std::string_view::npos) return;
    s.section = std::string(after.substr(0, tab));
    std::string_view rest = after.substr(tab + 1);
    std::size_t size_end = 0;
    while (size_end < rest.size() && is_hex(rest[size_end])) ++size_end;
    if (!parse_hex(rest.substr(0, size_end), s.size)) return;
    rest.remove_prefix(size_end);
    // The version column: "  %-11s" or " (%s)" padded to 10, when the table has versions.
    std::size_t pos = 0;
    if (rest.starts_with("  ")) {
      std::size_t v = 2;
      while (v < rest.size() && rest[v] != ' ') ++v;
      pos = std::max<std::size_t>(v, 13);
    } else if (rest.starts_with(" (")) {
      std::size_t close = rest.find(')');
      if (close == std::string_view::npos) return;
      const std::size_t len = close - 2;
      pos = close + 1 + (len < 10 ? 10 - len : 0);
    }
    if (pos > rest.size()) return;
    rest.remove_prefix(pos);
    for (std::string_view other : {" .internal", " .hidden", " .protected"})
      if (rest.starts_with(other) && rest.size() > other.size() && rest[other.size()] == ' ') {
        rest.remove_prefix(other.size());
        break;
      }
    if (rest.starts_with(" 0x") && rest.size() > 6 && rest[5] == ' ') rest.remove_prefix(5);
    if (!rest.starts_with(' ')) return;
    rest.remove_prefix(1);
    if (rest.empty()) return;
    s.name = std::string(rest);
    s.function = flags[6] == 'F';
    if (s.section == "*UND*" || s.section == "*ABS*" || s.section == "*COM*") return;
    out.push_back(std::move(s));
  });
  std::sort(out.begin(), out.end(), [](const object_symbol& a, const object_symbol& b) {
    if (a.address != b.address) return a.address < b.address;
    if (a.name != b.name) return a.name < b.name;
    return a.size > b.size;
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const object_symbol& a, const object_symbol& b) {
                          return a.address == b.address && a.name == b.name;
                        }),
            out.end());
  return out;
}

}  // namespace calltree

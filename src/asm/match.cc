// match.cc — which code to disassemble for a function, and whether it is the code that ran.
//
// callgrind writes each instruction's address in its object's own (link-time) address space:
// the run's address minus the object's load bias, for executables (PIE or not) and shared
// libraries alike, which is the address objdump prints for that instruction. So the profile's
// addresses are looked up in objdump's output as they are; what can go wrong is the object:
// rebuilt, updated or replaced since the run, it holds other code at those addresses. Nothing
// in a callgrind file identifies the object's build, so the match checks what it can, and a
// single failure means no number is shown for the function:
//  * the function symbol at the first profiled address must carry the profiled name (one of
//    its aliases; callgrind's context suffix and symbol versions aside),
//  * every profiled address (cost, call site, jump source) must lie in the function and be the
//    start of an instruction objdump decodes there,
//  * every jump target inside the function must be an instruction start,
//  * a jump whose instruction objdump shows with a direct target must go to that target
//    (an x86 `rep` instruction, which VEX runs as a loop, jumps to itself with none shown).
// A changed object shifts code, and then nearly every address fails; the tests rebuild a
// program with one statement more and check that the mismatch is reported.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "asm/objdump.h"
#include "calltree/asm.h"

namespace calltree {

namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// callgrind's name for code with no symbol: "0x" and 16 hex digits.
bool is_address_name(std::string_view name) {
  if (name.size() < 18 || !name.starts_with("0x")) return false;
  for (std::size_t i = 2; i < 18; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return false;
  return name.size() == 18 || name[18] == '\'';
}

// A demangled name without blanks and parentheses: valgrind's demangler and binutils' do not
// always agree on them ("std::begin(std::declval<X>())" against
// "std::begin((std::declval<X>)())" in libLLVM-14), and the name check is there to tell
// functions apart, which differ in more than that.
std::string squeeze(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (c != ' ' && c != '(' && c != ')') out += c;
  return out;
}

// Whether the profile's `name` is symbol `sym`: equal, or `sym` followed by a callgrind
// context or recursion suffix ('...) or a version (@...); a version on the symbol is ignored.
// Compared squeezed when they differ so.
bool names_match(std::string_view name, std::string_view sym) {
  auto prefix_of = [](std::string_view n, std::string_view s) {
    return n == s ||
           (n.size() > s.size() && n.starts_with(s) && (n[s.size()] == '\'' || n[s.size()] == '@'));
  };
  auto match = [&](std::string_view n, std::string_view s) {
    if (prefix_of(n, s)) return true;
    std::size_t at = s.find('@');
    return at != std::string_view::npos && at > 0 && prefix_of(n, s.substr(0, at));
  };
  return match(name, sym) || match(squeeze(name), squeeze(sym));
}

std::string describe(const objdump_instruction& in) {
  std::string s = in.mnemonic;
  if (!in.operands.empty()) s += " " + in.operands;
  return "`" + s + "` at " + hex(in.address);
}

}  // namespace

function_symbols::function_symbols(std::span<const object_symbol> symbols) {
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const object_symbol& s = symbols[i];
    if (!s.function) continue;
    std::uint64_t end = s.address + s.size;
    if (s.size == 0) {
      end = s.address;
      for (std::size_t n = i + 1; n < symbols.size(); ++n)
        if (symbols[n].function && symbols[n].address > s.address &&
            symbols[n].section == s.section) {
          end = symbols[n].address;
          break;
        }
    }
    if (end > s.address) entries.push_back({s, end});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const entry& a, const entry& b) {
    return a.symbol.address < b.symbol.address;
  });
}

disassembly_plan plan_disassembly(const function_instrs& f, std::string_view name,
                                  std::span<const object_symbol> symbols) {
  return plan_disassembly(f, name, function_symbols(symbols));
}

disassembly_plan plan_disassembly(const function_instrs& f, std::string_view name,
                                  const function_symbols& symbols) {
  disassembly_plan plan;
  if (f.instrs.empty()) return plan;
  using sym = function_symbols::entry;
  const std::vector<sym>& fs = symbols.entries;
  // The symbols holding `a`: those at the nearest start at or below it whose range reaches it
  // (aliases share a start; sized symbols of one object do not overlap otherwise).
  auto holding = [&](std::uint64_t a, bool sized_only) {
    std::vector<const sym*> out;
    auto it = std::upper_bound(fs.begin(), fs.end(), a,
                               [](std::uint64_t x, const sym& y) { return x < y.symbol.address; });
    std::uint64_t start = 0;
    bool have = false;
    while (it != fs.begin()) {
      --it;
      if (sized_only && it->symbol.size == 0) continue;
      if (have && it->symbol.address != start) break;
      have = true;
      start = it->symbol.address;
      if (a < it->end) out.push_back(&*it);
    }
    return out;
  };
  const bool checked = !is_address_name(name) && !name.starts_with("(below main)");

  // The function's own symbol: one of its name holding the most profiled addresses.
  const sym* own = nullptr;
  if (checked) {
    std::vector<std::pair<const sym*, std::size_t>> votes;
    for (const instr_data& x : f.instrs)
      for (const sym* h : holding(x.address, false)) {
        if (!names_match(name, h->symbol.name)) continue;
        auto v = std::find_if(votes.begin(), votes.end(), [&](auto& e) { return e.first == h; });
        if (v == votes.end())
          votes.emplace_back(h, 1);
        else
          ++v->second;
      }
    std::size_t best = 0;
    for (const auto& [h, n] : votes)
      if (n > best) {
        best = n;
        own = h;
      }
  }
  if (own) {
    plan.symbol = own->symbol;
    plan.ranges.push_back({own->symbol.address, own->end, own->end});
  }
  // Every other profiled address: in no other function's code, then clustered.
  std::vector<std::uint64_t> rest;
  for (const instr_data& x : f.instrs) {
    if (own && x.address >= own->symbol.address && x.address < own->end) continue;
    if (!name.starts_with("(below main)")) {
      auto h = holding(x.address, true);
      if (!h.empty()) {
        plan.mismatch = "the profile has costs of " + std::string(name) + " at " + hex(x.address) +
                        ", in the object's function " + h.front()->symbol.name +
                        ": the object changed since the run";
        plan.ranges.clear();
        plan.symbol.reset();
        return plan;
      }
    }
    rest.push_back(x.address);
  }
  for (std::size_t i = 0; i < rest.size();) {
    std::size_t j = i + 1;
    while (j < rest.size() && rest[j] - rest[j - 1] <= cluster_gap) ++j;
    plan.ranges.push_back({rest[i], rest[j - 1] + 1, rest[j - 1] + max_instruction_bytes});
    i = j;
  }
  std::sort(plan.ranges.begin(), plan.ranges.end(),
            [](const code_range& a, const code_range& b) { return a.from < b.from; });
  return plan;
}

result<matched_instructions> match_instructions(const function_instrs& f,
                                                const objdump_disassembly& d,
                                                const disassembly_plan& plan) {
  // The disassembly's instructions, in address order (objdump prints them so; a dump of
  // several runs is sorted to be sure).
  std::vector<const objdump_instruction*> all;
  all.reserve(d.instructions.size());
  for (const auto& in : d.instructions) all.push_back(&in);
  auto by_address = [](auto* a, auto* b) { return a->address < b->address; };
  if (!std::is_sorted(all.begin(), all.end(), by_address))
    std::stable_sort(all.begin(), all.end(), by_address);

  // The plan's ranges, each beginning with an instruction.
  matched_instructions m;
  for (const code_range& r : plan.ranges) {
    auto it = std::lower_bound(all.begin(), all.end(), r.from,
                               [](auto* in, std::uint64_t a) { return in->address < a; });
    if (it == all.end() || (*it)->address != r.from)
      return error{"objdump shows no instruction at " + hex(r.from) +
                   ": the object changed since the run, or is not the one profiled"};
    bool first = true;
    for (; it != all.end() && (*it)->address < r.to; ++it) {
      if (!m.instructions.empty() && m.instructions.back()->address == (*it)->address) continue;
      m.instructions.push_back(*it);
      m.range_start.push_back(first);
      first = false;
    }
  }
  auto find = [&](std::uint64_t address) -> const objdump_instruction* {
    auto it = std::lower_bound(m.instructions.begin(), m.instructions.end(), address,
                               [](auto* in, std::uint64_t a) { return in->address < a; });
    return it != m.instructions.end() && (*it)->address == address ? *it : nullptr;
  };
  auto in_ranges = [&](std::uint64_t a) {
    for (const code_range& r : plan.ranges)
      if (a >= r.from && a < r.to) return true;
    return false;
  };
  // The instruction that covers `address` (the last one at or before it).
  auto covering = [&](std::uint64_t address) -> const objdump_instruction* {
    auto it = std::upper_bound(all.begin(), all.end(), address,
                               [](std::uint64_t a, auto* in) { return a < in->address; });
    return it == all.begin() ? nullptr : *(it - 1);
  };

  const std::string changed = ": the object changed since the run";
  for (const instr_data& x : f.instrs) {
    const objdump_instruction* in = in_ranges(x.address) ? find(x.address) : nullptr;
    if (!in) {
      const objdump_instruction* c = covering(x.address);
      return error{"the profile has costs at " + hex(x.address) +
                   ", which is not an instruction start" +
                   (c ? " (objdump has " + describe(*c) + ")" : std::string()) + changed};
    }
    for (const instr_jump& j : x.jumps) {
      if (in->target && *in->target != j.target)
        return error{"the profile has a jump from " + hex(x.address) + " to " + hex(j.target) +
                     " where objdump has " + describe(*in) + changed};
      if (in_ranges(j.target) && !find(j.target))
        return error{"the profile has a jump to " + hex(j.target) +
                     ", which is not an instruction start" + changed};
    }
  }
  m.data.assign(m.instructions.size(), -1);
  std::size_t k = 0;
  for (std::size_t i = 0; i < m.instructions.size(); ++i) {
    while (k < f.instrs.size() && f.instrs[k].address < m.instructions[i]->address) ++k;
    if (k < f.instrs.size() && f.instrs[k].address == m.instructions[i]->address)
      m.data[i] = static_cast<std::int64_t>(k);
  }
  return m;
}

}  // namespace calltree

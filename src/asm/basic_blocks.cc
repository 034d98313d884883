// basic_blocks.cc — make_cfg (calltree/cfg.h): a function's basic blocks, split at branches
// and jump targets, their costs, and the edges between them with the profile's jump counts.
#include <algorithm>
#include <string_view>

#include "calltree/cfg.h"

namespace calltree {

namespace {

// How an instruction leaves: on to the next one, by a conditional branch (to its target or
// the next one), by a jump (only to its target), or by a return (to no block of the function).
enum class flow : std::uint8_t { next, conditional, jump, end };

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The mnemonic after objdump's prefix words ("bnd jmp", "notrack jmp", "rep ret").
std::string_view bare_mnemonic(const asm_instruction& in) {
  std::string_view m = in.mnemonic, ops = in.operands;
  while (m == "bnd" || m == "notrack" || m == "rep" || m == "repz" || m == "repnz" ||
         m == "data16" || m == "cs" || m == "ds") {
    ops.remove_prefix(std::min(ops.find_first_not_of(' '), ops.size()));
    const auto end = std::min(ops.find(' '), ops.size());
    m = ops.substr(0, end);
    ops.remove_prefix(end);
  }
  return m;
}

bool is_call(std::string_view m) {
  return starts_with(m, "call") || starts_with(m, "lcall") || m == "bl" || m == "blr" ||
         m == "jal" || m == "jalr";
}

// By objdump's mnemonic (x86 and AArch64 by name); another ISA's instruction with a direct
// target that is no call is taken as a conditional branch (a fall-through edge is kept).
flow flow_of(const asm_instruction& in) {
  const std::string_view m = bare_mnemonic(in);
  if (m.empty()) return flow::next;
  if (m == "ret" || m == "retq" || m == "retl" || m == "retw" || m == "lret" || m == "lretq" ||
      starts_with(m, "iret") || m == "sysret" || m == "sysretq" || m == "hlt" || m == "ud2" ||
      m == "eret")
    return flow::end;
  if (m == "jmp" || m == "jmpq" || m == "ljmp" || m == "b" || m == "br") return flow::jump;
  if (m[0] == 'j' && !is_call(m)) return flow::conditional;  // jcc, jcxz, jrcxz
  if (starts_with(m, "loop") || starts_with(m, "b.") || m == "cbz" || m == "cbnz" || m == "tbz" ||
      m == "tbnz")
    return flow::conditional;
  if (in.branch_target && !is_call(m)) return flow::conditional;
  return flow::next;
}

}  // namespace

cfg_view make_cfg(const asm_view& v) {
  cfg_view g;
  g.left_out = v.self;
  const std::size_t n = v.instructions.size();
  if (v.status != asm_status::ok || n == 0) return g;

  std::optional<std::size_t> ir;
  for (std::size_t e = 0; e < v.events.size(); ++e)
    if (v.events[e] == "Ir") ir = e;
  auto runs = [&](std::size_t i) -> std::optional<std::uint64_t> {
    if (!ir) return std::nullopt;
    const auto& s = v.instructions[i].self;
    return *ir < s.size() ? s[*ir] : 0;
  };
  auto index_of = [&](std::uint64_t address) -> std::int64_t {
    auto it =
        std::lower_bound(v.instructions.begin(), v.instructions.end(), address,
                         [](const asm_instruction& in, std::uint64_t a) { return in.address < a; });
    if (it == v.instructions.end() || it->address != address) return -1;
    return it - v.instructions.begin();
  };

  // Whether the profile has jump records (--collect-jumps=yes): then a branch without one was
  // never taken.
  bool jumps_known = false;
  for (const auto& in : v.instructions) jumps_known = jumps_known || !in.jumps.empty();

  // Where blocks begin and end.
  std::vector<flow> flows(n);
  std::vector<char> leader(n, 0), ends(n, 0);
  leader[0] = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& in = v.instructions[i];
    flows[i] = flow_of(in);
    if (in.gap_before) leader[i] = 1;
    if (flows[i] != flow::next || !in.jumps.empty()) ends[i] = 1;
    if (flows[i] != flow::next && in.branch_target)
      if (auto t = index_of(*in.branch_target); t >= 0) leader[static_cast<std::size_t>(t)] = 1;
    for (const auto& j : in.jumps)
      if (j.target_index >= 0 && static_cast<std::size_t>(j.target_index) < n)
        leader[static_cast<std::size_t>(j.target_index)] = 1;
  }
  std::vector<std::size_t> block_of(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 0 || leader[i] || ends[i - 1]) {
      cfg_block b;
      b.first = i;
      b.from = v.instructions[i].address;
      b.self.assign(v.events.size(), 0);
      b.executed = runs(i);
      b.entry = i == 0;
      g.blocks.push_back(std::move(b));
    }
    auto& b = g.blocks.back();
    b.last = i;
    b.to = v.instructions[i].address;
    const auto& s = v.instructions[i].self;
    for (std::size_t e = 0; e < b.self.size() && e < s.size(); ++e) {
      b.self[e] += s[e];
      g.left_out[e] -= std::min(g.left_out[e], s[e]);
    }
    block_of[i] = g.blocks.size() - 1;
  }

  // The edges of each block's last instruction.
  for (std::size_t bi = 0; bi < g.blocks.size(); ++bi) {
    const std::size_t last = g.blocks[bi].last;
    const auto& in = v.instructions[last];
    const flow f = flows[last];
    const bool has_next = bi + 1 < g.blocks.size() && !v.instructions[last + 1].gap_before;
    std::uint64_t executed = 0, followed = 0;
    bool any_conditional = false;
    // A conditional branch ran as often as its instruction (its Ir), however many of its
    // contexts have a jcnd= line (callgrind writes none for a context where it was never
    // taken): its fall-through is those executions less the jumps taken.
    const auto r = runs(last);
    for (const auto& j : in.jumps) {
      cfg_edge e;
      e.from = bi;
      e.to = j.target_index >= 0 && j.target_function.empty()
                 ? static_cast<std::int64_t>(block_of[static_cast<std::size_t>(j.target_index)])
                 : -1;
      e.kind = cfg_edge_kind::taken;
      e.conditional = j.conditional;
      e.count = j.followed;
      const std::uint64_t ran = j.conditional && r ? std::max(j.executed, *r) : j.executed;
      e.executed = ran;
      e.target = j.target;
      e.target_function = j.target_function;
      g.edges.push_back(std::move(e));
      any_conditional = any_conditional || j.conditional;
      executed = std::max(executed, ran);
      followed += j.followed;
    }
    // A branch the profile has no record of: its edge to objdump's target, followed as often
    // as the instruction ran when it always jumps; a conditional one never (callgrind writes
    // a jcnd= line only for a branch taken at least once) when the profile has jump records
    // (--collect-jumps=yes) or the branch never ran; else unknown.
    if (in.jumps.empty() && (f == flow::jump || f == flow::conditional) && in.branch_target) {
      cfg_edge e;
      e.from = bi;
      const auto t = index_of(*in.branch_target);
      e.to = t >= 0 ? static_cast<std::int64_t>(block_of[static_cast<std::size_t>(t)]) : -1;
      e.conditional = f == flow::conditional;
      e.target = *in.branch_target;
      if (r && (*r == 0 || f == flow::jump)) e.count = *r;
      if (r && f == flow::conditional && jumps_known) e.count = 0;
      e.executed = r.value_or(0);
      g.edges.push_back(std::move(e));
    }
    if (!has_next || f == flow::jump || f == flow::end) continue;
    cfg_edge e;
    e.from = bi;
    e.to = static_cast<std::int64_t>(bi + 1);
    e.kind = cfg_edge_kind::fall_through;
    e.target = v.instructions[last + 1].address;
    if (any_conditional) {
      // jcnd=: the executions that did not jump (exact).
      e.conditional = true;
      e.executed = executed;
      e.count = executed - std::min(executed, followed);
    } else if (r && (f != flow::conditional || jumps_known || *r == 0)) {
      // Every execution of the last instruction that did not jump away goes on.
      e.conditional = f == flow::conditional;
      e.executed = *r;
      e.count = *r - std::min(*r, followed);
    } else {
      e.conditional = f == flow::conditional;
    }
    g.edges.push_back(std::move(e));
  }
  return g;
}

}  // namespace calltree

// cfg.h — a function's control-flow graph: its basic blocks with their costs, and the edges
// between them with the counts of the profile's jump records (KCachegrind's control-flow view).
//
// What it is: a pure step after asm_annotator (asm.h). From an ok asm_view (objdump's
// instructions of the function matched with the profile's instruction costs and jumps), the
// basic blocks: a block begins at the function's first instruction, at the start of every
// range of code, at every jump target (objdump's direct target or a target of the profile's
// jump records) and after every branch (a jump, conditional or not, a return, or an
// instruction the profile records jumps from); a call does not end a block. Each block has the
// sum of its instructions' self costs per event. The edges:
//  * taken: a jcnd= or jump= record of the block's last instruction, its count the record's
//    (jcnd=: taken count, and executed: the instruction's Ir when the view has Ir; jump=:
//    both its count), exact;
//  * fall-through: into the next block in address order, after a conditional branch
//    (executed - taken of its jcnd= records, exact, executed being the instruction's Ir when
//    the view has Ir: callgrind writes a record per context of the instruction only where the
//    branch was taken, so the records' executed counts can fall short of its executions)
//    or after an instruction that does not branch (the executions of the block's last
//    instruction: its Ir self cost, since callgrind counts one Ir per execution; unknown
//    without an Ir event);
// and a block's executions are those of its first instruction (its Ir, when there is one).
// An edge may leave the function (a tail call, jfn=): its target is no block.
// What it is not: a disassembler (objdump is) or a layout (the viewer lays the graph out).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calltree/asm.h"
#include "calltree/export.h"

namespace calltree {

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns
// what it holds.
struct cfg_block {
  std::size_t first = 0, last = 0;        // its instructions in the view: [first, last]
  std::uint64_t from = 0, to = 0;         // its addresses: the first's, and the last's
  std::vector<std::uint64_t> self;        // per view event: the sum of its instructions'
  std::optional<std::uint64_t> executed;  // its first instruction's Ir, if the view has Ir
  bool entry = false;                     // the function's first block
};

// Threads and lifetime: a value.
enum class cfg_edge_kind : std::uint8_t {
  taken,         // a jump record: jcnd= taken, or jump=
  fall_through,  // into the next block in address order
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns
// what it holds.
struct cfg_edge {
  std::size_t from = 0;  // block index
  std::int64_t to = -1;  // block index, or -1: out of the function
  cfg_edge_kind kind = cfg_edge_kind::taken;
  bool conditional = false;  // from a conditional branch (a jcnd= record, or its fall-through)
  std::optional<std::uint64_t> count;  // times followed (unknown: a fall-through without Ir)
  std::uint64_t executed = 0;   // jcnd=: times its branch was executed (its Ir); else its count
  std::uint64_t target = 0;     // the target address
  std::string target_function;  // set when it leaves the function (jfn=)
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns
// what it holds.
struct cfg_view {
  std::vector<cfg_block> blocks;  // in address order
  std::vector<cfg_edge> edges;    // by source block, taken before fall-through
  // Per view event: the function's self cost that is in no block (profiled addresses objdump
  // did not show); 0 when the blocks hold all of it.
  std::vector<std::uint64_t> left_out;
};

// The graph of `v` (empty unless v.status is ok).
CALLTREE_API cfg_view make_cfg(const asm_view& v);

// The graph as a JSON object (share/doc/calltree/json.md, "cfg"): the view's function, status,
// events and self cost, then its blocks (with their instructions) and edges.
CALLTREE_API std::string cfg_json(const asm_view& v, const cfg_view& g);

}  // namespace calltree

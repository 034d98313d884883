// export/pprof_addresses.h — (internal) instruction addresses for the pprof export.
//
// What it is: for a profile with instruction positions (`positions: instr line` or `instr`),
// the self cost of every (key, object, address) — read again from the input, because the
// session sums by source line — and, per frame of the estimate's tree, the addresses its self
// cost is dealt to. pprof then gets a Location per address (with its line) and a Mapping per
// `ob=` object covering its addresses, so `go tool pprof -top -addresses` lists each
// instruction with the self cost `calltree annotate --asm` shows for it.
//
// How a key's self cost is dealt to its frames: the estimate knows, per frame, how much of the
// key's self cost belongs to that call path (docs/estimate.md), not which instructions it ran
// there. The addresses (in address order) are dealt to the frames (in frame order), each column
// on its own, as a "north-west corner" walk: a frame takes from the current address until its
// cost is met, then the next frame continues there. Each address's total and each frame's total
// are then exact (so every function's flat cost, every stack's cost and the profile's total are
// what they were without addresses), with at most (addresses + frames - 1) samples per key and
// column; which frame an address is listed under is arbitrary when a key has several frames.
// A key whose addresses do not sum to its frames' self cost (a --part or --show the reading
// could not follow) keeps one location for the whole function, as profiles by line do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/result.h"
#include "views/columns.h"

namespace calltree::views {
class session;
}

namespace calltree::exporting {

struct address_row {
  std::uint32_t key = 0;
  std::uint32_t object = UINT32_MAX;  // index into session.t.objects; UINT32_MAX: none
  std::uint64_t address = 0;
  std::uint64_t line = 0;  // the line of the address's first cost line (0: none)
};

struct address_split {
  std::vector<address_row> rows;        // sorted by (key, address)
  std::vector<std::uint64_t> costs;     // rows.size() * columns: the rows' self costs
  std::size_t columns = 0;
  // Per frame of the tree: its cells [frame_first[f], frame_first[f + 1]) in `cells`;
  // a frame of a key without addresses has none (it keeps its function's location).
  std::vector<std::uint32_t> frame_first;
  struct cell {
    std::uint32_t row = 0;    // index into rows
    std::uint32_t value = 0;  // index into cell_values (columns numbers)
  };
  std::vector<cell> cells;
  std::vector<std::uint64_t> cell_values;
  std::size_t keys_split = 0, keys_kept_whole = 0;
};

// The split for `tree` (made by make_stacks for `parts`), or nullopt when the profile has no
// instruction positions or cannot be read again (standard input): then every key keeps one
// location. An error: the input could not be read again.
result<std::optional<address_split>> split_by_address(const views::session& s,
                                                      const views::column_set& columns,
                                                      const std::vector<std::uint32_t>& parts,
                                                      const path_tree& tree);

}  // namespace calltree::exporting

// export/stacks.h — (internal) what every stack-based export reads: the estimate's tree of call
// paths of a session, with every self cost placed exactly (analysis/call_paths.h), or, for a
// file that records its stacks (folded, perf script, pprof, .cpuprofile), the tree of those
// stacks (views/recorded_stacks.h), in the columns asked for; and what the units of an event
// are.
//
// The tree's frames are the session's keys (functions as the model counts them: object, fl=
// file, name), one frame per path, never merged by display label: a caller context `f'g` or a
// recursion level `f'2` stays the function the file names, so that per function the self costs
// summed over its frames are its self cost. The program's flame graph of `serve` is this tree
// cut for display (views/flame.h), so both show the same stacks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/result.h"
#include "export/export.h"
#include "views/columns.h"
#include "views/part_costs.h"
#include "views/session.h"

namespace calltree::exporting {

struct stacks {
  views::column_set columns;
  std::shared_ptr<const views::part_costs> costs;
  path_tree tree;                                 // nodes are keys; costs in `columns`
  std::optional<views::filter_summary> filtered;  // with o.filter: what it left out
  // With a transform (views/stack_transform.h): the nodes named otherwise than their key.
  std::vector<std::pair<std::uint32_t, std::string>> renamed;
  // The tree is the file's recorded stacks (views/recorded_stacks.h), not the estimate's.
  bool recorded = false;
  // A frame node's name: as a transform renamed it, else its key's.
  std::string_view name(const views::session& s, std::uint32_t k) const;
};

// The exact tree of `o.parts` in the columns `o.events` (empty: every known event), weighed by
// the first column.
result<stacks> make_stacks(const views::session& s, const export_options& o);

// Adds what a filter left out of `st` (if it had one) to the report's.
void note_filtered(export_report& report, const stacks& st);

// The ancestors of frame f, its root first: where the text of a chunk of frames starting at
// f begins (ordered_chunks.h).
std::vector<std::uint32_t> ancestors(const path_tree& tree, std::size_t f);

// The columns alone (dot and json need no tree).
result<views::column_set> export_columns(const views::session& s, const export_options& o);

// An event's quantity and unit for formats that have units (pprof's sample types, speedscope's
// unit): `Time_(10ns)` is "Time" in nanoseconds, each count times 10; `Memory_(bytes)` is
// "Memory" in bytes; `ns`, `cpu(ms)`, `microseconds` are times; anything else (Ir, Dr, Hits,
// samples) is a count.
struct event_unit {
  std::string type;
  std::string unit;         // pprof's words: "count", "nanoseconds", "bytes", ...
  std::uint64_t scale = 1;  // one count of the event is `scale` units
};
event_unit unit_of(std::string_view event);

// Saturating n * scale.
std::uint64_t scaled(std::uint64_t n, std::uint64_t scale);

// The name a stack of text (folded) shows for a frame named `name` (a key's function name)
// whose parent frame is named `parent` (empty for a root). Callgrind's --separate-callers
// names a function by its callers ("f'g'h": f called from g, itself called from h); a stack
// shows the callers already, so the context is left out ("f") when the parent's name starts
// with it ("g'h", or "g'h'k" with a deeper context of its own): by induction the whole context
// is then in the stack, and the full name can be read back from it. A context the stack does
// not show (a root, a parent of another context) is kept, and so is a recursion level
// (--separate-recs: "f'2'g'h" is shown "f'2" under "g'h..."). The frames stay the keys' frames:
// only the text is shorter (a quarter of the bytes on a --separate-callers=3 profile of clang).
std::string_view stack_frame_name(std::string_view name, std::string_view parent);

}  // namespace calltree::exporting

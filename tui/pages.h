// tui/pages.h — (internal) the terminal viewer's screens as lines of text, without a terminal.
//
// What it is: each view of `calltree tui` made from a session (views/*.h, the same queries and
// numbers as `calltree serve`'s page), laid out for a width: the function list, one function's
// callers and callees, the annotated source of its file, and the call tree (perf report's
// children view: the flame graph's tree, expanded frame by frame). Costs are written as
// `calltree annotate` writes them: `1,234,567 (12.34%)`, the share of the program's total of
// that event. A line says where Enter leads (a function, a tree frame) and how it looks (a
// heading, a hot line, a dim one); the terminal (tui/terminal.h) only draws them.
// What it is not: ncurses, keys or state (tui/app.h), nor JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/analysis/call_paths.h"
#include "calltree/asm.h"
#include "calltree/result.h"
#include "views/diff.h"
#include "views/function_list.h"
#include "views/session.h"

namespace calltree::tui {

// (grew, shrank: a difference's rows whose cost grew or shrank)
enum class tone : std::uint8_t { plain, heading, hot, dim, grew, shrank };

struct line {
  std::string text;
  tone look = tone::plain;
  std::optional<std::uint32_t> function;     // Enter opens this function (a key or cycle id)
  bool old_side = false;                     // (a difference) `function` is the old profile's
  std::optional<std::uint32_t> frame;        // the call tree: Enter opens or closes this frame
  std::optional<std::uint64_t> source_line;  // the source view: this line of the file
  std::optional<std::string> group;          // the grouped list: Enter shows this group's
};

struct page {
  // The rows of the whole page, and row i when it is in the window (else null).
  std::size_t rows() const { return total ? total : lines.size(); }
  const line* at(std::size_t i) const {
    return i >= first && i - first < lines.size() ? &lines[i - first] : nullptr;
  }

  std::string title;   // what the page is: its first row
  std::string header;  // its columns' names, above the lines
  std::vector<line> lines;
  // A window of a longer page (the function list of a big profile: only the rows near the
  // screen are made): `lines` are rows [first, first + lines.size()) of `total`. 0: all.
  std::size_t first = 0, total = 0;
  std::string note;  // a message under the lines (nothing to show, an error)
};

// `text` cut to `width` bytes (a cut name ends in '~') or padded with spaces; `text` right
// aligned in `width`.
std::string fit(std::string_view text, std::size_t width);
std::string right(std::string_view text, std::size_t width);

// The names a regular expression (RE2, a part of the name) matches, or why it is not one.
result<std::function<bool(std::string_view)>> name_filter(const std::string& regex);

// "1,234,567 (12.34%)" of `total`, as annotate writes a cost ("-262,200 (79.42%)" in a profile
// of differences, under signed_costs_here()).
std::string cost_text(std::uint64_t value, std::uint64_t total);
// The width the costs of a page whose total is `total` are right-aligned in.
std::size_t cost_width(std::uint64_t total);

// What the function list shows.
struct list_state {
  std::size_t event = 0;             // the column shown (of every known event)
  std::vector<std::uint32_t> parts;  // the parts summed (0-based); empty: every part
  views::sort_by by = views::sort_by::inclusive;
  std::string filter;  // a regular expression (ECMAScript) on names; empty: every function
  views::grouping group = views::grouping::none;
  std::optional<std::string> in_group;  // (grouped) this group's functions; none: the groups
};

// The function list: inclusive and self cost of `state.event`, calls, name (and object), the
// heaviest first, rows [offset, offset + limit) of them (a window: the terminal scrolls); grouped:
// the groups (inclusive cost as KCachegrind's: the calls into the group from outside it), or one
// group's functions. An error for a bad regular expression.
result<page> list_page(const views::session& s, const list_state& state, std::size_t width,
                       std::size_t offset = 0, std::size_t limit = SIZE_MAX);

// One function (or cycle): its costs, then its callers and its callees, each with the
// inclusive cost of those calls and their count, the heaviest first.
result<page> function_page(const views::session& s, std::uint32_t id, std::size_t event,
                           const std::vector<std::uint32_t>& parts, std::size_t width);

// The source file of function `id` with each line's self cost, hot lines marked (0.1 % of
// the total or more), the calls made from a line under it. `read_text` gives the lines of a
// file the profile names (none when it is not found: the costs alone, and why in the note).
using text_reader =
    std::function<std::vector<std::string>(const std::string& name, std::string& why_not)>;
result<page> source_page(const views::session& s, std::uint32_t id, std::size_t event,
                         const text_reader& read_text, std::size_t width);

// The machine code of function `id`, as `annotate --asm` and the page's Machine code tab show
// it (asm/session_code.h: its name's records read again, disassembled by `run`): each
// instruction's self cost (hot ones marked), the calls and jumps under it, a heading per
// function of the key (an object's, or why there is no code: no object, objdump failed...).
result<page> asm_page(const views::session& s, std::uint32_t id, std::size_t event,
                      const std::vector<std::uint32_t>& parts, const objdump_runner& run,
                      std::size_t width);

// The call tree: the flame graph's tree (views::flame, the same estimate) as nested rows,
// inclusive and self cost of each frame, the frames in `open` shown with their children.
// The call tree's filters and transforms, as the page's flame graph takes them (pprof's focus,
// ignore, hide; merged clones, collapsed recursion): the names are each an exact function name.
struct tree_filters {
  std::vector<std::string> focus, ignore, hide;
  bool merge_clones = false, collapse_recursion = false;
  bool any() const {
    return !focus.empty() || !ignore.empty() || !hide.empty() || merge_clones || collapse_recursion;
  }
};

struct tree_state {
  std::size_t event = 0;
  std::vector<std::uint32_t> parts;
  tree_filters filters;
  std::string filter_text;  // "focus=... hide=...", for the title
  std::vector<std::pair<std::uint32_t, std::string>> renamed;  // frames named otherwise
  std::uint64_t total = 0;  // the program's, of that event (the shares' whole)
  std::vector<char> open;   // per frame of `tree`
  path_tree tree;           // made once (tree_of)
};
result<tree_state> tree_of(const views::session& s, std::size_t event,
                           const std::vector<std::uint32_t>& parts, const tree_filters& filters);
page tree_page(const views::session& s, const tree_state& t, std::size_t width);

// The difference of two profiles (views::diff_functions: `serve OLD NEW`'s list, `calltree
// diff`'s numbers): each function's old and new self cost of one compared event (inclusive
// with `inclusive`), the change signed and in percent, the largest change first; functions
// that did not change are left out.
struct diff_state {
  std::size_t event = 0;  // of the compared events
  bool inclusive = false;
  std::string filter;  // as list_state's
};
result<page> diff_page(const views::diff_source& src, const diff_state& state, std::size_t width);

// "part 2 of 5 (thread 3)": what a selection of one part is, for a title; "" for every part.
std::string parts_text(const views::session& s, const std::vector<std::uint32_t>& parts);

// The names of the events a session knows, in the list's order.
std::vector<std::string> event_names(const views::session& s);

}  // namespace calltree::tui

// perf_lines.h — the two kinds of line of `perf script`'s text: a sample's header, a frame.
//
// What it is: the parsers that both the sniffer (formats.cc) and the importer (perf_script.cc)
// use, so that what is taken for perf's output is what is read as it. What it is not: the
// importer; perf_script.cc says what a sample's cost and stack are.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace calltree::detail::perf {

// `comm pid[/tid] [cpu] [secs.usecs:] [period] [event:] [rest]` — the fields perf prints by
// default or with -F, in this order; comm may hold blanks (the pid is the first decimal token
// after it that the rest of the line follows), the line may begin with blanks (perf right-aligns
// comm when a sample has no call chain). At least a time or an event is there. `rest`: what
// follows the event (without -g, the sample's own frame; for a tracepoint, its fields).
struct header {
  std::string_view comm;
  std::uint64_t pid = 0, tid = 0;  // tid: the pid when only one number is printed
  std::optional<std::uint64_t> period;
  bool has_time = false;
  std::string_view event;  // without its last ':'; empty when not printed
  std::string_view rest;
};
std::optional<header> parse_header(std::string_view line);

// `[blanks] HEX [blanks] SYMBOL[+0xOFF] [(DSO)]` — one frame of a call chain (or a header's
// rest). `symbol` without its offset, empty when not printed; `dso` empty when not printed
// (the parentheses matched from the end: `(/tmp/a (deleted))` is one dso).
struct frame {
  std::uint64_t address = 0;
  std::string_view symbol;
  std::string_view dso;
  bool has_dso = false;
};
std::optional<frame> parse_frame(std::string_view line);

}  // namespace calltree::detail::perf

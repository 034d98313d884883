// formats.h — the profile formats calltree reads, and how an input's first bytes name one.
//
// What it is: the list of formats (callgrind's own, and the other profilers' that the importers
// of this folder read: folded stacks, V8's .cpuprofile, pprof's profile.proto, cProfile's
// pstats, `perf script`'s text), sniff_format(), which tells them apart by content (never by
// name), and their names for `--from`. What it is not: a reader; import.h reads them.
//
// Sniffing is conservative: an input is another profiler's only when its first bytes say so
// unmistakably (a JSON object naming V8's fields, a gzip'd or raw protocol buffer whose first
// field is pprof's, Python's marshal of a dict of tuples, perf's sample header, every line of a
// folded stack). Everything else is read as callgrind's format, whose reader says what is wrong
// with it, as it always has.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace calltree::detail {

enum class profile_format : std::uint8_t {
  callgrind,    // callgrind's, cachegrind's, Xdebug's, ... (reader/)
  folded,       // `a;b;c 42` lines: FlameGraph's stackcollapse, py-spy, async-profiler, bpftrace
  cpuprofile,   // V8's JSON profile: node --cpu-prof, Chrome DevTools
  pprof,        // profile.proto, gzip'd or not: Go, pprof, gperftools' converted files
  pstats,       // Python's cProfile/profile output (python -m cProfile -o FILE)
  perf_script,  // the text `perf script` prints (perf record -g)
  perf_data,    // `perf record`'s perf.data, read as the text `perf script` makes of it
};

// The formats besides callgrind's, as an error about an input none of them reads names them.
inline constexpr std::string_view other_formats =
    "folded stacks, `perf script` text, perf.data, a V8 .cpuprofile, pprof's profile.proto, "
    "Python's pstats";

// "callgrind", "folded", "cpuprofile", "pprof", "pstats", "perf-script", "perf-data": what
// --from takes.
std::string_view to_string(profile_format f);
// The format of a --from name (also "perf" for perf-script, "cprofile" for pstats).
std::optional<profile_format> format_named(std::string_view name);

// The format of an input whose first (decoded) bytes are `head` (a few KB are enough); `whole`:
// `head` is all of the input (its last line needs no newline).
profile_format sniff_format(std::string_view head, bool whole);

// The format every input of this process is read as, whatever it holds (the command-line
// tool's `--from`; none: by content). read_hooks::format, where set, comes first.
void set_process_format(std::optional<profile_format> f);
std::optional<profile_format> process_format();

}  // namespace calltree::detail

// totals.h — which figure percentages are of: the total a file states, else the sum of its costs.
//
// A part of a Callgrind file may state its total on two lines: `summary:` (in the header, or
// after the body as Xdebug writes it) and `totals:` (after the body: callgrind, cachegrind). The
// spec: `summary:` "should be equal or larger than a total over all self costs. It may be larger
// as the cost lines may not represent all cost of the program run" (Xdebug's time outside any
// function); `totals:` "must give the total of all cost lines". The reader also sums the part's
// self costs itself (part::totals). So each part has, per event, three figures:
//
//   summed total   the sum of the part's self costs, as read.
//   stated total   the part's `summary:` (the one after the body, else the header's) when it
//                  gives the event a positive count; else its `totals:` line when that does;
//                  else none. This is callgrind_annotate's rule (summary:, else totals:, else
//                  "calculated"), which drops a line whose counts are all zero; calltree looks at
//                  each event on its own because a line may omit its trailing events (callgrind's
//                  --cacheuse writes 9 counts for 13 events), and a count of 2^63 or more is a
//                  negative number wrapped (callgrind 3.19's summary after a zeroing client
//                  request), no positive count. One exception, where the two lines disagree: a
//                  `summary:` below the summed total beside a `totals:` line that is not below
//                  it gives way to that line (callgrind's --dump-before with zeroing: summary
//                  154,871,410, totals: and the costs 162,313,504), as the spec says totals:
//                  "must give the total" and summary: "should be equal or larger".
//   program total  the stated total, else the summed total: the figure every percentage is of,
//                  in the library, annotate, serve, report, export and the examples. A stated
//                  total above the summed one holds cost outside any function (Xdebug's time
//                  before and after the script); one below it (pyprof2calltree's summary: is its
//                  largest inclusive time, a little below the sum of its self times; Xdebug's
//                  summary: of memory is its peak) is still what the file says, as
//                  callgrind_annotate shows it: the percentages of such a file can pass 100 %,
//                  and every consumer says so (below).
//
// A file of differences (profile::signed_costs, share/doc/calltree/format.md, "Signed
// costs"): every figure is a signed 64-bit number held in the uint64_t (cost_matrix.h); a count
// with bit 63 set is a negative stated total, not a wrapped one, and "below" is in signed order.
//
// A file of several parts: each figure is the sum of its parts' (callgrind_annotate takes the
// last part's line for the whole file); a part that states none counts with its summed total in
// the stated total of parts that do. Where a stated total differs from the summed one, every
// consumer says both (annotate --json, check, serve's warnings): total_difference() is that
// sentence.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calltree/export.h"
#include "calltree/id.h"

namespace calltree {

struct profile;
using part_id = strong_id<struct part_tag>;
using event_id = strong_id<struct event_tag>;

// One part's (or a sum of parts') figures for one event.
// Threads: a value; totals_of() and part_totals() only read the profile. Lifetime: independent of
// the profile once made.
struct event_totals {
  std::optional<std::uint64_t> summary;      // its summary: count, if it has the line
  std::optional<std::uint64_t> totals_line;  // its totals: count, if it has the line
  std::uint64_t summed = 0;                  // the sum of its self costs
  bool signed_costs = false;                 // a file of differences: the counts are signed

  // The stated total (the rule above), if the part states one.
  std::optional<std::uint64_t> stated() const {
    const bool line = totals_line && counts(*totals_line);
    if (summary && counts(*summary) &&
        !(line && below(*summary, summed) && !below(*totals_line, summed)))
      return summary;
    if (line) return totals_line;
    return std::nullopt;
  }
  // The figure percentages are of.
  std::uint64_t program() const { return stated().value_or(summed); }

 private:
  bool counts(std::uint64_t v) const {
    return v != 0 && (signed_costs || v < (std::uint64_t{1} << 63));
  }
  bool below(std::uint64_t a, std::uint64_t b) const {
    return signed_costs ? static_cast<std::int64_t>(a) < static_cast<std::int64_t>(b) : a < b;
  }
};

// The figures of several parts (or events of one part summed the same way): `stated` and
// `program` of each part, summed (saturating at 2^64 - 1, or in a file of differences at -2^63
// and 2^63 - 1); `stated` only when some part states one.
// Threads and lifetime: a value, independent of the profile once made.
struct summed_totals {
  std::optional<std::uint64_t> stated;
  std::uint64_t summed = 0;
  std::uint64_t program = 0;
  bool signed_costs = false;  // some part's figures are signed (event_totals::signed_costs)

  CALLTREE_API void add(const event_totals& part);
  // Whether the file's statement and the costs read disagree.
  bool differ() const { return stated && *stated != summed; }
};

// "the file states a total of S EVENT but its self costs sum to N (P % of it): percentages are
// of the stated total" (and "... and can pass 100 %" when N is above S); empty when the two
// agree or nothing is stated.
CALLTREE_API std::string total_difference(const summed_totals& t, const std::string& event);

// Of a profile: part `pt`'s figures of event `e` (its summary:/totals: counts and its summed
// total, part::totals), and those of every part summed. program_total(p, e) is the figure to
// divide by; stated_total(p, e) what the file says, if it says anything; profile::total() the
// summed totals of every event.
CALLTREE_API event_totals part_totals(const profile& p, part_id pt, event_id e);
CALLTREE_API summed_totals totals_of(const profile& p, event_id e);
inline std::optional<std::uint64_t> stated_total(const profile& p, event_id e) {
  return totals_of(p, e).stated;
}
inline std::uint64_t program_total(const profile& p, event_id e) { return totals_of(p, e).program; }

}  // namespace calltree

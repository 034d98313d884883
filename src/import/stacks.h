// stacks.h — sampled call stacks, and the callgrind records they stand for.
//
// What it is: what the sampling profilers' importers (folded stacks, V8's .cpuprofile, pprof,
// perf script) make of their input — frames, and stacks of frames each with its values, one per
// event — and emit(), which hands a sink the records of callgrind's format that hold the same
// costs: each stack's values as self cost of its innermost frame, and as inclusive cost of
// every call on it. What it is not: a profile; the sink (a builder, a writer, a checker) makes
// of the records what it makes of a callgrind file's.
//
// Exact, by construction, and what the tests assert on every format:
// - a function's self cost is the sum of the stacks it is innermost in;
// - its inclusive cost is the sum of the stacks it is on, once per stack however often it is on
//   it: of the calls into a function on one stack, only the outermost carries the stack's
//   value, the others (recursion, direct or not) only their count. Summing the calls into a
//   function (callgrind_annotate's and `calltree annotate`'s inclusive cost, and calltree's for
//   a function in no cycle) then gives what pprof's `cum` gives: main -> f -> g -> f is the
//   stack's value for f once (main's call) and for g once (f's call). (With cycles on, f and g
//   are one cycle, its members shown as KCachegrind shows them.)
// - a function that is the outermost frame of one stack and called on another would get the
//   first stack's value through no call: then every stack gets one more frame above it,
//   `(root)` (a function of no file or object), the caller of every outermost frame;
// - a call's count is the number of samples taken under it, not the number of calls made,
//   which sampling does not know: the part says so in a `desc: Call counts:` line, that the
//   views and every file written keep (docs/import.md).
//
// The stacks themselves are kept too, where the reading asks for them (import_target::stacks,
// read_hooks::stacks): a part's recorded_stacks, its prefix tree of frames. The views draw
// the flame graph and the stack exports from them (views/recorded_stacks.h), exactly, where a
// callgrind file's are estimated from the calls (analysis/call_paths.h). The `(root)` frame
// above is not in them: it is the records' device, not a frame of the file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"
#include "import/import.h"

namespace calltree::detail {

// The `desc:` line of a part whose call counts are samples (stacks.h, above).
inline constexpr std::string_view sampled_calls_type = "Call counts";
inline constexpr std::string_view sampled_calls_value =
    "samples taken under each call, not calls made (sampled)";

// Where a frame is: its function (object, file, name) and the line in it (0: not known);
// `first_line` is the function's own first line where the format says it (0: not known).
struct stack_frame {
  string_id object = string_pool::empty;
  string_id file = string_pool::empty;
  string_id function = string_pool::empty;
  std::uint64_t line = 0;
  std::uint64_t first_line = 0;
  friend bool operator==(const stack_frame&, const stack_frame&) = default;
};

// The stacks of one part as the file records them: a prefix tree of frames, outermost first
// (the stacks that share their first frames share those nodes), each node with the values of
// the stacks that end at it, in the part's events. Compact: a node is two numbers and its
// values, however many samples pass through it; there are at most as many nodes as the
// distinct stacks' frames, and fewer where they share their outer frames, as most do.
// Nodes are in the order they were made: a parent before its children; an outermost frame's
// parent is UINT32_MAX.
struct recorded_stacks {
  std::uint64_t part = 0;             // the part of the reading (0-based) they are of
  std::vector<stack_frame> frames;    // by frame number
  std::vector<std::uint32_t> frame;   // per node: its frame
  std::vector<std::uint32_t> parent;  // per node: its parent node
  std::size_t events = 0;
  std::vector<std::uint64_t> values;  // [node * events + event]: the stacks ending at the node
  bool signed_costs = false;          // values are two's-complement patterns (stack_profile's)
};

class stack_profile {
 public:
  // `events`: the events' names (units in them, as `cpu_ns`); `names`: the reading's pool.
  stack_profile(string_pool& names, std::vector<std::string> events);

  string_pool& names() { return names_; }
  std::size_t event_count() const { return events_.size(); }

  // The frame's number (the same for the same frame).
  std::uint32_t frame(const stack_frame& f);
  // A stack (innermost frame first) taken `samples` times, with these values (one per event;
  // the same stack again adds to it).
  void add(std::span<const std::uint32_t> innermost_first, std::span<const std::uint64_t> values,
           std::uint64_t samples);

  std::size_t stacks() const { return order_.size(); }

  // What the part's header says besides its events (emit() adds the Call counts line).
  std::string creator, cmd;
  // The values are signed numbers (pprof's -diff_base profiles), held as their two's-complement
  // bit patterns and summed as signed ones (cost_matrix.h, "Signed costs"): set before add();
  // the part and the stats then say so. The importer turns its thread's signed sums on.
  bool signed_costs = false;
  std::vector<std::pair<std::string, std::string>> descriptions;

  // Hands `to.sink` one part: its header, each stack's cost and call records, its end.
  // `to.stats` gets the records' counts (cost_lines, call_lines) and one part; a sum of an
  // event's costs past 2^64-1 (or the signed range) is held there and reported to `to`, as the
  // callgrind reader reports it (cost-overflow).
  void emit(import_target& to) const;
  // The stacks as a prefix tree (recorded_stacks above), for the part emit() makes.
  recorded_stacks tree() const;

 private:
  struct stack_hash {
    std::size_t operator()(const std::vector<std::uint32_t>& s) const noexcept;
  };
  struct frame_hash {
    std::size_t operator()(const stack_frame& f) const noexcept;
  };
  struct sums {
    std::vector<std::uint64_t> values;
    std::uint64_t samples = 0;
  };
  string_pool& names_;
  std::vector<std::string> events_;
  std::vector<stack_frame> frames_;
  std::unordered_map<stack_frame, std::uint32_t, frame_hash> frame_ids_;
  std::unordered_map<std::vector<std::uint32_t>, sums, stack_hash> stacks_;
  std::vector<const std::vector<std::uint32_t>*> order_;  // the stacks as first added
  std::vector<std::uint32_t> scratch_;
};

}  // namespace calltree::detail

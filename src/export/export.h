// export.h — a loaded profile written in the formats of other tools: pprof, folded stacks,
// speedscope, Chrome trace events, Graphviz DOT (as gprof2dot draws it), a standalone flame
// graph SVG, and calltree's own JSON of the model.
//
// What it is: writers that stream one profile (a views::session, src/views/session.h: the
// tables `annotate`, `serve` and `diff` read, keyed by callgrind_annotate's "file:name") into
// bytes. Every stack-based format (pprof, folded, speedscope, chrome, flamegraph) takes its
// stacks from the one estimate of call paths (analysis/call_paths.h, docs/estimate.md) with
// every self cost placed exactly: per function, summed over its stacks, each event's self cost
// is the profile's, and each event's total is the sum of the self costs; only how inclusive
// cost splits between the paths through a function of several callers is estimated.
// What it is not: file handling (the caller writes the bytes where it wants, cli/cmd_export.cc
// through a temporary file renamed when complete), nor printing; nothing here prints or exits.
// docs/export.md describes each format and its consumer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/result.h"
#include "views/flame.h"

namespace calltree {

namespace views {
class session;
}

enum class export_format : std::uint8_t {
  pprof,       // gzipped profile.proto (go tool pprof, Pyroscope, Parca)
  folded,      // "a;b;c 1234" collapsed stacks (flamegraph.pl, inferno, speedscope)
  speedscope,  // speedscope's file format (JSON)
  chrome,      // Chrome / Perfetto trace-event JSON ("X" complete events)
  dot,         // Graphviz DOT of the call graph, as gprof2dot draws it
  flamegraph,  // a standalone interactive SVG
  json,        // the model as versioned JSON (docs/json.md, "calltree-model")
};

// "pprof", "folded", ... (as --to= takes them); nullopt for an unknown name.
std::optional<export_format> parse_export_format(std::string_view name);
std::string_view export_format_name(export_format f);

struct export_options {
  export_format format = export_format::pprof;
  // Parts (0-based, sorted; empty: every part summed).
  std::vector<std::uint32_t> parts;
  // Events (recorded or derived: the file's formulas and load_options::event_definitions);
  // empty: every event the session knows. folded takes one (the first).
  std::vector<std::string> events;
  // dot: nodes whose inclusive cost is below node_thres % of the total, and calls below
  // edge_thres %, are left out (gprof2dot's -n / -e, same defaults).
  double node_thres = 0.5, edge_thres = 0.1;
  // The estimate's tree (path_options): a call whose share of the weight event's total is
  // below min_share gets no frame of its own (its callee's self cost goes to the callee's other
  // frames, or to one path of its own: still exact), and the tree has at most max_frames;
  // unset: exact_min_share and exact_max_frames. A file that records its stacks (folded, perf
  // script, pprof, .cpuprofile: views/recorded_stacks.h) exports every stack it records; only
  // a min_share or max_frames given cuts them (cut_paths: a frame cut leaves its cost to its
  // parent frame, whose stack then ends there).
  std::optional<double> min_share;
  std::optional<std::size_t> max_frames;
  // pprof, a profile with instruction positions: a location per instruction address (with
  // its line) and each object's address range in its mapping (export/pprof_addresses.h),
  // instead of one location per function. Off by default: a sample per address with its
  // whole stack makes the file many times larger (docs/export.md: 14x on a 24 MB profile).
  bool addresses = false;
  // pprof: threads that deflate the output (export/gzip_stream.h; the bytes are the same for
  // any number).
  unsigned threads = 1;
  // A title for formats that show one (flamegraph, speedscope, chrome); empty: the input's name.
  std::string title;  // Stack formats: pprof's focus, ignore, hide and show on the stacks
                      // (views/stack_filter.h);
  // none given: the stacks unfiltered. `filter.key` is also how the output names the filter.
  views::stack_filter filter;
};

// Receives the output, piece by piece.
using export_sink = std::function<void(std::string_view)>;

struct export_report {
  std::vector<std::string> warnings;  // e.g. a formula's unknown names taken as 0
  std::size_t frames = 0;             // stack formats: frames of the estimate's tree
  bool estimated = false;             // the tree's splits are estimated (path_tree::estimated)
  // With a filter: what it left out, per exported column (summed over the parts of formats
  // that write each part's stacks), and those columns' names.
  std::optional<views::filter_summary> filtered;
  std::vector<std::string> filtered_events;
};

// Writes `s` in `o.format` to `out`. An error (and nothing written) for an unknown event or
// part, or an event list a format cannot hold.
result<export_report> export_profile(const views::session& s, const export_options& o,
                                     const export_sink& out);

}  // namespace calltree

namespace calltree {

struct profile;

// export_format::json: the model itself (profile.h: objects, files, functions, events, parts,
// self-cost rows with their positions, call rows, jump rows) as versioned JSON, the
// "calltree-model" document of docs/json.md. `input` names the file in the document.
status export_model_json(const profile& p, const std::string& input, const export_sink& out);

}  // namespace calltree

// read_as.h — (tests) the reader's options with the read modes a test picks, whatever its
// sink asks for (detail::read_hooks::needs): the reader's paths reached one by one.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "calltree/reader.h"
#include "reader/read_hooks.h"

namespace calltree::test {

struct read_options : reader_options {
  // The grains of read_needs (run_sink.h), in the words of the reader's modes (read_hooks.h).
  bool sum_cost_runs = false;   // sums_per_run
  bool sum_by_context = false;  // sums_per_context
  bool sum_per_line = false;    // read_needs::per_line
  std::function<bool(std::string_view)> lines_of;
  bool cost_run_records = false;   // runs_of_lines
  bool merge_cost_lines = false;   // runs_merged_by_place (with cost_run_records)
  bool skip_jump_records = false;  // read_needs::jumps false
  std::size_t chunk_bytes = 0;     // read_hooks
  bool speculate_every_chunk = false;

  detail::read_hooks hooks(std::uint64_t* speculated = nullptr) const {
    using grain = read_needs::grain;
    detail::read_hooks h;
    read_needs& n = h.needs.emplace();
    n.costs = sum_by_context  ? grain::sums_per_context
              : sum_cost_runs ? grain::sums_per_run
              : cost_run_records
                  ? (merge_cost_lines ? grain::runs_merged_by_place : grain::runs_of_lines)
                  : grain::each_line;
    n.per_line = sum_per_line;
    n.lines_of = lines_of;
    n.jumps = !skip_jump_records;
    h.chunk_bytes = chunk_bytes;
    h.speculate_every_chunk = speculate_every_chunk;
    h.speculated_chunks = speculated;
    h.any_input = true;  // the reader's statistics of any input, a profile or not
    return h;
  }
};

inline result<read_stats> read_as(input& in, string_pool& names, record_sink& records,
                                  diagnostic_sink& diagnostics, const read_options& options,
                                  std::uint64_t* speculated = nullptr) {
  return detail::read_with_hooks(in, names, records, diagnostics, options,
                                 options.hooks(speculated));
}

}  // namespace calltree::test

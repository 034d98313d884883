// report_budget.h — a share of a report's bytes (calltree report --html): each kind of answer
// the report embeds (call graphs, flame graphs, sources, parts) is taken, heaviest function
// first, while it fits its budget; the page says what was left out.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

namespace calltree::cli {

// The report's byte budgets (of the API's JSON answers): each kind of answer is taken for the
// heaviest functions first while it fits; the page says what was left out.
inline constexpr std::size_t max_functions = 20000;   // rows listed, whatever the threshold
inline constexpr std::size_t max_source = 1 << 20;    // bytes of one file's answer
inline constexpr std::size_t max_sources = 8u << 20;  // bytes of all of them
inline constexpr std::size_t max_graph = 64 << 10;    // one function's call graph
inline constexpr std::size_t max_graphs = 2u << 20;   // all the call graphs
inline constexpr std::size_t max_flame = 64 << 10;    // one function's two flame graphs
inline constexpr std::size_t max_flames = 2u << 20;   // all of them
inline constexpr std::size_t max_part = 2u << 20;     // one part's list, groups and flame graph
inline constexpr std::size_t max_parts = 4u << 20;    // all the parts' answers
// The call graph at the page's defaults (CallGraph.tsx), per-function flames as cut here.
inline constexpr int graph_depth = 2;
inline constexpr const char* graph_min = "0.005";
inline constexpr const char* flame_min = "0.005";
inline constexpr std::size_t flame_frames = 500;

// A share of the report's bytes.
struct budget {
  std::size_t limit, each;
  std::size_t used = 0, shown = 0, left_out = 0;
  // Takes an answer of n bytes if it fits, else counts it left out.
  bool take(std::size_t n) {
    if (n > each || used + n > limit) {
      ++left_out;
      return false;
    }
    used += n;
    ++shown;
    return true;
  }
  // Less than 1 KB left: no answer fits.
  bool full() const { return used + 1024 > limit; }
  // Takes n more bytes of an answer already counted, if they fit.
  bool room(std::size_t n) {
    if (used + n > limit) return false;
    used += n;
    return true;
  }
  nlohmann::json said() const {
    return {{"budget", limit},
            {"each", each},
            {"bytes", used},
            {"shown", shown},
            {"left_out", left_out}};
  }
};

}  // namespace calltree::cli

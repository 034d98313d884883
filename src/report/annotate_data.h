// annotate_data.h — (internal) the profile regrouped the way callgrind_annotate groups it.
//
// callgrind_annotate keys a function by "file:name" with file the fl=/fi=/fe= file in force
// (so inlined code is a pseudo-function under its fi= file), keeps cost arrays whose columns
// may be undefined ("."), and sums calls per (caller, callee) and per (caller, callee, line).
// This builds exactly those tables from the model (plus the cost_presence sink for the "."
// columns), then the text and JSON reports only print.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "calltree/analysis/derived_events.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/profile.h"
#include "calltree/report/annotate.h"
#include "calltree/result.h"

namespace calltree::detail {

// Rows of costs with a "defined" flag per column.
class cc_table {
 public:
  explicit cc_table(std::size_t cols = 0) : cols_(cols) {}
  std::size_t cols() const { return cols_; }
  std::size_t rows() const { return cols_ ? v_.size() / cols_ : 0; }
  std::size_t add_row() {
    v_.resize(v_.size() + cols_, 0);
    d_.resize(d_.size() + cols_, 0);
    return rows() - 1;
  }
  std::uint64_t* values(std::size_t r) { return v_.data() + r * cols_; }
  const std::uint64_t* values(std::size_t r) const { return v_.data() + r * cols_; }
  char* defined(std::size_t r) { return d_.data() + r * cols_; }
  const char* defined(std::size_t r) const { return d_.data() + r * cols_; }

 private:
  std::size_t cols_;
  std::vector<std::uint64_t> v_;
  std::vector<char> d_;
};

struct ann_call {
  std::uint32_t caller = 0, callee = 0;
  std::uint64_t count = 0;
  bool counted = false;  // callgrind_annotate would list it (some calls= count > 0)
};

struct ann_call_line {
  std::uint32_t caller = 0, callee = 0;
  std::uint64_t line = 0, count = 0;
};

struct ann_site {
  std::uint32_t func = 0;              // the first caller seen at this file:line
  std::vector<std::uint32_t> callees;  // every callee called from this file:line
};

struct annotate_data {
  // Columns: recorded events, then derived events asked for by --show/--sort.
  std::vector<std::string> recorded;
  std::vector<std::string> columns;
  std::vector<linear_event> derived;  // column recorded.size() + i

  std::vector<std::string> files;         // display names (cwd stripped)
  std::vector<std::string> key_names;     // "file:name"
  std::vector<std::string> key_function;  // name alone
  std::vector<std::uint32_t> key_file;
  std::vector<std::string> key_object;
  std::vector<char> key_has_object, key_seen, key_called;

  cc_table self;                                   // per key
  cc_table inclusive;                              // per key (filled when options.inclusive)
  std::vector<std::uint32_t> cycle_of;             // per key; 0 = none
  std::vector<std::vector<std::uint32_t>> cycles;  // members
  cc_table cycle_cc;                               // per cycle: inclusive

  std::vector<ann_call> calls;
  cc_table call_cc;
  std::vector<std::vector<std::uint32_t>> callers_of, callees_of;  // key -> call indices
  std::vector<ann_call_line> call_lines;
  cc_table call_line_cc;
  std::map<std::pair<std::uint32_t, std::uint64_t>, ann_site> sites;  // (file, line)
  std::unordered_map<std::uint64_t, std::uint32_t> call_line_index;   // internal
  // (file, line, callee) already listed in `sites`: a site at line 0 of an unknown file can
  // gather thousands of callees, so membership is not found by scanning its list.
  std::set<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t>> site_callees;  // internal
  // Self cost per (file, line), for source annotation.
  std::vector<std::map<std::uint64_t, std::uint32_t>> file_lines;  // file -> line -> row
  cc_table line_cc;

  cc_table totals;  // one row
  bool totals_calculated = false;
};

// Builds the tables; an error for an unknown --show/--sort event.
result<annotate_data> build_annotate_data(const profile& p, const annotate_options& options,
                                          const cost_presence* presence,
                                          std::vector<std::string>* warnings);

// "1,234,567".
std::string commify(std::uint64_t v);

}  // namespace calltree::detail

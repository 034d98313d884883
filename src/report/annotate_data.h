// report/annotate_data.h — (internal) annotate's view of the tables, and its printing.
//
// The tables callgrind_annotate's report prints are the views' (views/tables.h: one set,
// filled by annotate_direct); annotate's code names them here as it always has
// (detail::annotate_data, ...), and declares what only the report does: the text layout and
// callgrind_annotate's number formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "views/tables.h"

namespace calltree::detail {

using views::add_part_totals;
using views::ann_call;
using views::ann_call_line;
using views::ann_jump;
using views::ann_site;
using views::annotate_columns;
using views::annotate_data;
using views::cc_table;
using views::display_files;
using views::display_name;
using views::finish_annotate_data;
using views::index_lists;
using views::index_source_lines;
using views::recorded_columns;
using views::site_callee_pairs;
using views::solve_inclusive_of_keys;
using views::source_found;
using views::start_annotate_data;

// The text report of `d` (p gives the parts' headers); with `write`, handed out in pieces of
// about 1 MB as it is made (annotate_text.cc).
status print_annotate_text(const profile& p, const annotate_data& d,
                           const annotate_options& options,
                           const std::function<void(std::string_view)>* write, std::string& out);

// The JSON report of `d` (filled for JSON: annotate_direct::keep_json_tables), functions in
// order of inclusive cost when options.inclusive, else of self cost (annotate_json.cc).
std::string print_annotate_json(const profile& p, const annotate_data& d,
                                const annotate_options& options);

// "1,234,567".
std::string commify(std::uint64_t v);

// callgrind_annotate's percentage after a cost, " (%5.2f%%)" of `perc` (" (%5.1f%%)" from
// 99.995 and below -9.995), into `buf` of `size` bytes (cut to fit, as snprintf would, without
// the terminating zero); returns the length written.
std::size_t format_percent(char* buf, std::size_t size, double perc);

}  // namespace calltree::detail

// annotate_direct.cc — annotate's tables summed from the records: the one filler of the
// tables every annotate report and view prints (see views/annotate_direct.h). This file is
// the sink's face (what it needs, its options, where records go) and the design below; the
// sums are views/annotate_sums.h, the end of the reading annotate_direct_tables.cc. It does
// not print (report/annotate_text.cc, report/annotate_json.cc do).
//
// callgrind_annotate regroups a profile by its key "display file:name". The profile model
// keeps one self row per (part, function, source file[, line]) and one call row per (part,
// caller, caller's source file, callee, has_target[, lines]); here every record goes to its key
// at once, and the tables come out as a regrouping of those rows would make them:
//
//  * Sums. A key's self cost is the sum of its records; a call's (caller key, callee key) cost
//    and count likewise. Sums saturate; the "a summed cost goes above 2^64-1" error is reported
//    once, when a sum here saturates.
//
//  * The order of the keys. Ties in the report are broken by name, but cycles are numbered by
//    cost and then by their first member's key number, so keys are numbered: first the "own"
//    keys (the fl= file's, not an inlined fi=/fe= file's) of the functions (object, fl= file,
//    name) in `order` (callers with no self cost anywhere by their first call record, then the
//    others by their first self record); then the keys met first in self records (inlined
//    files) by their first self record; then those met first in calls (caller key, then callee
//    key) by their first call. Keys get a number in order of appearance while reading and are
//    renumbered at the end.
//
//  * The object printed for a key: that of the last function in `order` whose own key it is.
//    Whether a function is a "caller with no self cost" is known only at the end, so each
//    function keeps the rank of its first self record and of its first call.
//
//  * Which columns are defined ("." against "0"). callgrind_annotate prints "." for a column no
//    line of a function ever gave a value for (callgrind omits trailing zero costs). A key keeps
//    the most values a line of a part with several events gave (none: all of them count) and
//    the set of event layouts (`events:` lists) of its parts: a column is defined where some
//    layout has it below that count. Both are kept only once a file needs them (a part with
//    several events; a second layout).
//
//  * Inclusive costs are solved part by part. With one part the key tables are the solver's
//    input; when a second part begins, the sums so far become part 0's and each later record
//    also goes to a (part, key) or (part, caller key, callee key) table.
//
//  * --part: the records of the other parts are not summed; their headers and totals are
//    read (the report names them). --raw: callgrind_annotate 3.19 takes the cost of a call
//    whose count is 0 as its caller's self cost; as a call row's count is the sum of its lines,
//    calls are kept by the model's row (part, caller, source file, call line, callee, target
//    line: records one per line) and settled once all are in (settle_raw_calls).
//
//  * Source annotation. Self cost per (display file, line), calls per call site (file, line:
//    the callees met there, in order of first appearance) and per (caller key, callee key,
//    line), with the same "." bookkeeping as keys and calls. Only files the report will open
//    (views::source_found: the current directory, an include directory, a --source-root) get
//    line tables, the others print no line (the views and JSON keep every file's). Calls are
//    kept (for the order of a site's callees, by their pair's cost) when their caller's file
//    is such a file, or when a report shows calls. Sums per line saturate quietly.
//
//  * The views' keys (key_by_function). serve, report --html and the exports count functions
//    as the model does, (object, fl= file, name): a key is then one function, made with its
//    object, and a record's context goes to its own key whatever fi=/fe= file is in force.
//    That file (its display file) is where the record's line, call site and jump go, and
//    each key's first and last line in a file other than its own is kept for the Source view.
//    Keys are ordered as above (nearly always one function to a key there too).
//
// Everything else (totals, the inclusive definedness and cycles, derived columns) is the
// tables' own code, views/tables.cc's finish_annotate_data; printing is the reports'.
//
// Where this differs from a regrouping of the model's rows (no file of the corpus, and no
// producer we know, does any of this): two file names that are one display name (one with the
// current directory in front) in parts of different `events:` lists; a function whose every
// line in the parts with several events gives no value at all, with cost in a part of one
// event; more than 64 different `events:` lists (layouts from the 64th on share one bit); a
// key's sum that saturates where no row's would (one error more); with --part, the values
// given in the other parts do not count; and the memory limit, estimated here from these
// tables, stops at another record than the builder's does.
#include "views/annotate_direct.h"

#include "views/annotate_sums.h"

namespace calltree {

annotate_direct::annotate_direct(profile& p, const annotate_options& o,
                                 diagnostic_sink* diagnostics, std::string display_name)
    : annotate_direct(p, p.strings, o, diagnostics, std::move(display_name)) {}
annotate_direct::annotate_direct(profile& p, const string_pool& names, const annotate_options& o,
                                 diagnostic_sink* diagnostics, std::string display_name)
    : impl_(std::make_unique<impl>(p, names, o, diagnostics, std::move(display_name))) {}
annotate_direct::~annotate_direct() = default;

record_needs annotate_direct::needs() const {
  record_needs n;
  // (--raw keeps calls as the model does, by target line too: records one per line.)
  if (!impl_->o.raw) n.costs = record_needs::grain::sums_per_context;
  n.per_line = impl_->lines && n.sums();
  n.jumps = impl_->views && !skip_jumps_;
  return n;
}

read_needs annotate_direct::reader_needs() const {
  read_needs n = needs();
  if (n.per_line) n.lines_of = lines_of();  // (per line only where a source will be shown)
  return n;
}

std::function<bool(std::string_view)> annotate_direct::lines_of() const {
  return [o = impl_->o, every = impl_->every_file_lines](std::string_view name) {
    return every || views::source_found(views::display_name(std::string(name), o.cwd), o);
  };
}

void annotate_direct::on_part_begin(const part_header& h) { impl_->begin(h); }
void annotate_direct::on_cost(const cost_record& r) { impl_->cost(r); }
void annotate_direct::on_call(const call_record& r) { impl_->call(r); }
void annotate_direct::on_jump(const jump_record& r) { impl_->jump(r); }
void annotate_direct::keep_view_tables(bool solve_inclusive) {
  impl_->views = true;
  impl_->solve_inclusive = solve_inclusive;
  // The views that solve inclusive costs show sources (serve, report --html): they keep the
  // lines of every file, found or not, whose costs are shown without the text; the stack
  // exports keep those of the found files only.
  impl_->every_file_lines = solve_inclusive;
}
void annotate_direct::key_by_function() { impl_->by_function = true; }
void annotate_direct::when_keys_numbered(std::function<void()> f) {
  impl_->keys_numbered = std::move(f);
}
void annotate_direct::note_chunks(const std::vector<detail::chunk_start>* starts,
                                  std::uint32_t base) {
  impl_->chunks.starts = starts;
  impl_->chunks.base = base;
  impl_->chunks.chunk = 0;
}
void annotate_direct::take_chunk_notes(views::chunk_notes& to) {
  to = std::move(impl_->chunks);
  to.starts = nullptr;
  to.key_last = {};
  to.file_last = {};
}
void annotate_direct::keep_json_tables() {
  impl_->json = true;
  impl_->json_by_inclusive = impl_->o.inclusive;
  impl_->o.inclusive = true;  // JSON always carries both
  impl_->keep_calls = true;
  impl_->every_file_lines = true;  // (the lines of every file it lists, found or not)
}
annotate_options annotate_direct::report_options() const {
  annotate_options o = impl_->o;
  if (impl_->json) o.inclusive = impl_->json_by_inclusive;
  return o;
}
const profile& annotate_direct::parts() const { return impl_->p; }
status annotate_direct::take_tables(views::annotate_data& d, std::vector<std::string>* warnings) {
  return impl_->make_tables(d, warnings);
}
void annotate_direct::on_part_end(const part_end& e) { impl_->parts.on_part_end(e); }

}  // namespace calltree

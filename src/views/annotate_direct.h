// views/annotate_direct.h — annotate's tables, summed from the records: their one filler.
//
// What it is: the record sink that fills callgrind_annotate's tables (views/tables.h: self cost
// per "file:name" key; calls per caller and callee key when a report shows them, with
// --inclusive=yes, --tree or --json; with --inclusive=yes on a file of several parts the same
// per part for the solver; for source annotation, self cost per source line and calls per
// call line, of the files the report can open), for every report that prints them: annotate's
// text and JSON (report/annotate.h: annotate_text_of, annotate_json_of), --part and --raw
// included, and the views of serve, report --html and the exports (take_tables, keyed by
// function). Records come from
// read_callgrind while the file is read (no model is made: on the real 260 MB profile of
// docs/performance.md the report takes a fraction of the model's memory) or from a profile
// already built, through replay() (report/annotate.h's annotate_text on a profile).
// What it is not: a general profile nor a reader (records come summed or not; for source
// annotation one per line or summed per line for the files of lines_of()). From a replayed
// profile every column a part has is defined: the model does not keep which columns a line
// left out ("." in callgrind_annotate's report).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/profile.h"
#include "calltree/records.h"
#include "calltree/result.h"
#include "model/run_sink.h"
#include "views/annotate_options.h"

namespace calltree {

namespace views {
struct annotate_data;  // src/views/tables.h (internal)
struct chunk_notes;    // src/views/chunk_notes.h (internal)
}  // namespace views
namespace detail {
struct chunk_start;  // src/reader/chunk_index.h (internal)
}

class annotate_direct final : public run_sink {
 public:
  // `p` receives the parts and events (headers, summary:/totals: lines, totals), as the
  // profile builder makes them, and no rows; `p.strings` must be the pool the reader interns
  // into. Costs that saturate are reported to
  // `diagnostics` once, as the builder reports them; past builder_options' default memory
  // limit the records are no longer kept (one limit_exceeded error).
  annotate_direct(profile& p, const annotate_options& o, diagnostic_sink* diagnostics = nullptr,
                  std::string display_name = {});
  // The same for records whose names are of `names` (a profile replayed: its pool), not
  // p.strings.
  annotate_direct(profile& p, const string_pool& names, const annotate_options& o,
                  diagnostic_sink* diagnostics = nullptr, std::string display_name = {});
  ~annotate_direct() override;
  annotate_direct(const annotate_direct&) = delete;
  annotate_direct& operator=(const annotate_direct&) = delete;

  // Sums per context; for source annotation, per line for the files of lines_of(); with --raw
  // each line (its calls are kept by target line too, as the model keeps them); jumps only
  // for the views (keep_view_tables), unless skip_jumps().
  record_needs needs() const override;
  // needs(), with sums per line only for the files of lines_of() (read_needs::lines_of).
  read_needs reader_needs() const override;
  // The source files whose lines this report keeps, those it will open. May be called from
  // any thread.
  std::function<bool(std::string_view)> lines_of() const;
  // With keep_view_tables: no jump records all the same (a view that shows none). Before the
  // first record.
  void skip_jumps() { skip_jumps_ = true; }
  // The reading stops (read_state::stopped, no diagnostic) once `*stop` is true: a reading no
  // one will wait for (serve's second reading, when the server ends). Before the first record.
  void stop_when(const std::atomic<bool>* stop) { stop_ = stop; }
  bool wants_no_more() const override { return stop_ && stop_->load(std::memory_order_relaxed); }

  void on_part_begin(const part_header& h) override;
  void on_cost(const cost_record& r) override;
  void on_call(const call_record& r) override;
  void on_jump(const jump_record& r) override;
  void on_part_end(const part_end& e) override;

  // For the views (serve, report --html; src/views/): also keep what they show beyond the
  // report (annotate_data's view tables: per-part rows when the file has several parts, jumps
  // per source line and each key's first and last line in the found source files). Before the
  // first record. Jump records are then wanted (needs()).
  // With solve_inclusive false the calls and per-part rows are kept all the same, but the
  // tables come without inclusive costs and cycles (empty: a stack export, which estimates
  // paths from self costs and calls, never reads them).
  void keep_view_tables(bool solve_inclusive = true);

  // For the views: a key is a function as the model and KCachegrind know it (object, fl= file,
  // name), not callgrind_annotate's "file:name" with the fi=/fe= file in force. Code inlined
  // from other files stays its function's (its self cost, its calls); its lines, call sites
  // and jumps are those of the file they are in, and each key's first and last line in each
  // such file is kept (annotate_data::key_spans). Before the first record.
  void key_by_function();

  // For serve's lines read from their chunks alone (views/session.h): note which chunks of an
  // indexed reading (`starts`, the reader's read_profile_options::index, filled as it reads) each
  // key's and each display file's records are in (views/chunk_notes.h). With key_by_function,
  // before the first record; take_chunk_notes() after take_tables() gives them in the tables'
  // key numbers.
  // A run of several files: called before each file's reading, its chunks numbered from
  // `base` in the notes.
  void note_chunks(const std::vector<detail::chunk_start>* starts, std::uint32_t base = 0);
  void take_chunk_notes(views::chunk_notes& to);

  // For annotate --json (report/annotate.h, annotate_json_of): the tables of the JSON report, which
  // carries inclusive costs, calls and the lines of every file it lists. Before the first record.
  void keep_json_tables();

  // Called by take_tables() once the tables' keys, their names and files are numbered
  // (annotate_data's key_* fields, files and names), which do not change after: the views
  // index the names on another thread while the calls, inclusive costs and totals are made.
  // Before take_tables().
  void when_keys_numbered(std::function<void()> f);

  // The tables, once every record is in (an error for an unknown --show/--sort event). The sums are
  // given up on the way: call it once. `d.names` is the profile's pool, which must outlive them.
  status take_tables(views::annotate_data& d, std::vector<std::string>* warnings = nullptr);

  // The options the tables print with: those given (with keep_json_tables, inclusive costs
  // are in the tables all the same), and the profile of the parts and events.
  annotate_options report_options() const;
  const profile& parts() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  bool skip_jumps_ = false;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace calltree

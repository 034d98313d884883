// views/session.h — (internal) one profile loaded for the views: annotate's tables, read once.
//
// What it is: what `calltree serve`, `calltree report --html` and the exports hold while they
// answer: the profile's parts, events and names (kept in memory: a regex over every name must
// not read a spill file back), annotate's tables (annotate_data: self and inclusive costs,
// calls, cycles, source lines) summed from the records by the streaming path (annotate_direct,
// no model) with one key per function as the model and KCachegrind count them (object, fl=
// file, name: annotate_direct::key_by_function; code inlined from other files is its
// function's, its lines those files'), the reading's diagnostics, and the indexes the views
// share (each key's display label, the keys of one name). Function ids in every view are key
// numbers of these tables (docs/serve.md). Costs of some parts only come from
// `costs_of()` (views/part_costs.h), computed on demand and remembered.
// What it is not: a view (views/*.h are the functions of a session and a query) nor an HTTP
// server (server/); nothing here prints.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/memory_limit.h"
#include "calltree/profile.h"
#include "calltree/reader.h"
#include "calltree/result.h"
#include "model/run_sink.h"
#include "views/annotate_direct.h"
#include "views/annotate_options.h"
#include "views/recorded_stacks.h"
#include "views/tables.h"

namespace calltree::views {

struct load_options {
  std::vector<std::string> include_dirs;                          // -I, where sources are found
  std::vector<std::pair<std::string, std::string>> source_roots;  // --source-root OLD=NEW
  std::vector<std::string> event_definitions;                     // --event "NAME = formula"
  std::string cwd;  // stripped from the front of file names (ending in '/'), as annotate does
  unsigned threads = 1;
  // The memory limit of every reading of the input (--max-memory): reader_options::
  // max_name_bytes, builder_options::max_memory and annotate_options::max_memory. 0 = none.
  std::uint64_t max_memory = machine_memory_limit();
  // Diagnostics kept with their text (the others are counted).
  std::size_t kept_diagnostics = 100;
  // Make label_of, label_name and keys_by_name (the views' indexes of names). Exports, which
  // show every key under its own name, do without them: a fifth of their time on a big file.
  bool index_names = true;
  // Keep the jumps (the source view's arrows). Exports show none: without them the file's
  // jump lines are read and checked, and no record is made (record_needs::jumps).
  bool keep_jumps = true;
  // Solve the inclusive costs and the cycles (annotate_data's inclusive, cycle_of, cycles,
  // cycle_cc). The views and `export --to=dot` show them; the stack exports estimate paths
  // from self costs and calls alone and do without (without, those tables are empty).
  bool inclusive = true;
  // reader_options::progress, for a command's progress line.
  std::function<void(const read_progress&)> progress;
  // Read only the function-level tables at the load (serve's start: self and inclusive costs,
  // calls, cycles, parts, on every reading thread as `check` reads), and the source-line
  // tables (each line's costs, call lines and sites, jumps, each function's lines) by a second
  // reading when a view first asks for them (session::lines()). Without it, one reading makes
  // both (report --html, the exports).
  bool defer_lines = false;
  // With defer_lines, one plain file: the views' lines are read from the chunks that hold
  // the function's or file's records alone (session::lines_of_function), where the file
  // allows it (reader/chunk_index.h), rather than by a second whole reading.
  bool lines_by_chunks = true;
  // (Tests.) The reader's chunks of a plain file are this many bytes (read_hooks::chunk_bytes;
  // 0: the reader's own), so that a small file's lines are read by chunks too.
  std::size_t chunk_bytes = 0;
};

// annotate's options of the views' readings of `input` (the first, with `lines` or not; a
// reading of chunks, with), and the view tables their sink keeps (annotate_direct.h: keyed by
// function, inclusive costs as load_options::inclusive, jumps as keep_jumps).
annotate_options view_annotate_options(const load_options& options, const std::string& input,
                                       bool lines, unsigned threads);
void keep_view_tables(annotate_direct& direct, const load_options& options);

class part_costs;
struct chunk_ranges;  // views/chunk_ranges.h

// The source-line tables of one part alone (session::lines_of_part): `t`'s line fields, or why
// there are none.
struct part_lines {
  annotate_data t;
  std::string error;  // "" when `t` holds the lines
};

// The source-line tables of what one view shows (session::lines_of_function, lines_of_file),
// read from the chunks that hold its records alone (load_options::defer_lines, a plain file):
// annotate_data's line fields in the session's key and file numbers, of that function (its
// spans, key_spans with key_span_cc) or of that file (its file_lines with line_cc, the calls of
// its lines with call_line_cc, its jumps); `own` holds each function's first and last line in
// its own file (ann_span's file its own, sorted by key), for key_first_line/key_last_line.
struct ranged_lines {
  annotate_data t;
  std::vector<ann_span> own;
  std::string error;  // why there are none: the file changed since it was read
};

// What a view reads of the source-line tables: lines()'s, or those of a reading of chunks.
struct lines_view {
  const annotate_data* t = nullptr;
  std::shared_ptr<const ranged_lines> ranged;  // null: `t` is lines()
  // A key's first and last line in its own file (0, 0: none).
  std::pair<std::uint64_t, std::uint64_t> own_lines(std::uint32_t k) const;
};

// At most this many parts are shown side by side (the function list's columns per part).
inline constexpr std::size_t max_part_columns = 16;

// How the function list groups keys (function_list.h).
enum class grouping : std::uint8_t { none, object, file, klass };

// A partition of the keys into named groups.
struct group_index {
  std::vector<std::uint32_t> of;        // per key: its group
  std::vector<std::string_view> names;  // per group
};

class session {
 public:
  session() = default;
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  ~session();

  std::string input_name;  // as given (a run of several files: the first)
  std::uint64_t input_size = 0;
  // A run of several files read as one profile (load_run): each file, in order, with the
  // number of parts it gave. Empty for one file.
  struct run_file {
    std::string name;
    std::uint64_t size = 0;
    std::uint32_t parts = 0;
    bool complete = true;
  };
  std::vector<run_file> run_files;
  read_stats stats;
  std::uint64_t errors = 0, warnings = 0, notes = 0;
  // How many diagnostics of each code and severity were found (kept or only counted):
  // errors first, then warnings, then notes, each by code.
  struct diagnostic_count {
    diag_code code{};
    calltree::severity severity = calltree::severity::note;
    std::uint64_t count = 0;
  };
  std::vector<diagnostic_count> diagnostic_counts;
  // The first 20 of each code, load_options::kept_diagnostics at most: errors, then warnings,
  // then notes. A reader's `summary-mismatch` that a warning of table_warnings repeats (the
  // same stated total of the same event) is neither kept nor counted: one fact, said once.
  std::vector<diagnostic> diagnostics;
  std::vector<std::string> table_warnings;
  load_options options;

  profile p;                        // parts, events and names; no rows
  views::annotate_data t;           // the tables (t.names is &p.strings)
  views::annotate_columns columns;  // where each recorded column sits in p's events and parts

  // Per key: its label, a number shared by the keys a display joins (the same file and base
  // name: `f'g'h`, `f'2` and `f` are one label when `g` is a function of the file); and the
  // base name itself. (Empty without load_options::index_names, as keys_by_name.)
  std::vector<std::uint32_t> label_of;
  std::vector<std::string_view> label_name;  // per label
  // The stacks an imported file records (folded, perf script, pprof, .cpuprofile), per part,
  // keyed by these tables: the flame graph's and the stack exports' exact tree
  // (recorded_stacks.h). A callgrind file's parts have none.
  session_stacks stacks;
  // The keys of each function name (a name's keys in several files: inlined code), by name.
  std::vector<std::uint32_t> keys_by_name;  // key numbers, sorted by (name id, key)

  // The source-line tables: annotate_data's line fields (lines, file_lines, line_cc,
  // call_lines, call_line_cc, sites, site_callees, jumps, file_found, key_first_line,
  // key_last_line, key_spans, key_span_cc, and `files`, a list that begins with t.files) for
  // t's keys and files. Loaded whole, `t` itself; with load_options::defer_lines, made by a
  // second reading of the same files on the first call (another thread asking meanwhile
  // waits for it), kept; its other fields empty. When that reading fails (the file changed or
  // is gone), tables without lines (`lines` false) and lines_error() says why. Thread-safe.
  const annotate_data& lines() const;
  // Whether lines() answers at once (loaded whole, or its reading is done).
  bool lines_ready() const;
  // Why lines() has no lines after a deferred reading ("" otherwise).
  const std::string& lines_error() const;
  // The source-line tables of one part (0-based) alone, as `annotate --part` counts them: each
  // line's costs (file_lines, line_cc), the calls of each line (call_lines, call_line_cc: their
  // caller and callee keys this session's) and the jumps, in lines()'s file ids (its other
  // fields empty; a function's first and last lines are lines()'s). Made by a reading of the
  // files that sums that part's records alone, remembered while among the last few asked for.
  // `error` says why there are none (standard input, the file changed or gone). Thread-safe.
  std::shared_ptr<const part_lines> lines_of_part(std::uint32_t part) const;
  // Ends a deferred reading of the lines under way (or to come) soon: lines() then answers
  // tables without lines. For a server that ends, whose warm-up would otherwise read on.
  void stop_reading() const { stop_lines_ = true; }
  // The source-line tables of function `k`'s view (its lines, spans) and of file `f`'s
  // source view. With load_options::defer_lines on a plain file that the reader could index
  // (reader/chunk_index.h): read from the chunks holding its records alone, kept while among
  // the last few asked for (lines_by_chunks()); else lines(). An error when the file changed
  // since it was read. Thread-safe.
  result<lines_view> lines_of_function(std::uint32_t k) const { return lines_of(false, k); }
  result<lines_view> lines_of_file(std::uint32_t f) const { return lines_of(true, f); }
  // The records of every function named as key `k` (k and same_name(k)), one by one, read
  // from the chunks that hold them (lines_by_chunks() only), with names of `names`: the other
  // functions of those chunks come too (a filter by name keeps what it wants). For the machine
  // code view, which reads them into a small model. An error as lines_of_function's.
  status read_records_of_name(std::uint32_t k, string_pool& names, record_sink& sink) const;
  // Whether the views' lines come from chunks (no second whole reading is needed).
  bool lines_by_chunks() const { return chunks_ != nullptr; }
  // Every file, by the ids the views use: t.files, or lines().files (which may name more: the
  // files only a jump names, where lines are not read by chunks).
  const std::vector<std::string>& file_names() const;

  std::size_t keys() const { return t.keys(); }
  std::size_t cycles() const { return t.cycles.size(); }
  // Ids: keys 0..keys()-1, then cycle N (1-based) as keys() + N - 1.
  std::size_t ids() const { return keys() + cycles(); }
  bool is_cycle(std::uint64_t id) const { return id >= keys() && id < ids(); }
  std::string_view name(std::uint32_t id) const;  // a key's name alone, or "<cycle N>"
  // A hint that name(id) is read soon, for a loop over many names in an order of its own (the
  // stack formats' frames): its first bytes are fetched into the cache. Changes nothing.
  void prefetch_name(std::uint32_t id) const;
  std::string_view file(std::uint32_t key) const { return t.files[t.key_file[key]]; }
  // The object of a key, or "" when no fn= block names it.
  std::string_view object(std::uint32_t key) const;
  // The other keys of key k's name (k excluded).
  std::vector<std::uint32_t> same_name(std::uint32_t k) const;

  // The costs of a selection of parts (0-based, sorted; empty: all), made once and kept (the
  // last few selections). Thread-safe. `detect_cycles` false: no cycles formed (part_costs.h).
  std::shared_ptr<const part_costs> costs_of(const std::vector<std::uint32_t>& parts,
                                             bool detect_cycles = true) const;

  // Every id (keys, then cycles) by name, then file, then id; made on first use. Thread-safe.
  const std::vector<std::uint32_t>& name_order() const;

  // The program totals of one part (recorded columns), as annotate takes them.
  std::vector<std::uint64_t> part_totals(std::uint32_t part) const;

  // The groups of a grouping other than none (object, display file, C++ class or namespace),
  // made on first use. Thread-safe.
  const group_index& groups(grouping g) const;

  // Per key: the class or namespace of its name (class_scope.h), made on
  // first use. Thread-safe.
  const std::vector<std::string_view>& scopes() const;

  // What `make` gives for `key`, made once and kept while it is among the last few asked for
  // (a view's order of 300 k rows, for the next window of the same query). Thread-safe: a
  // thread asking for what another is making waits for it (a request for what the warm-up
  // makes takes the warm-up's), so `make` must not ask for `key` again.
  template <typename T>
  std::shared_ptr<const T> remembered(const std::string& key,
                                      const std::function<std::shared_ptr<const T>()>& make) const {
    return std::static_pointer_cast<const T>(
        remembered_any(key, [&]() -> std::shared_ptr<const void> { return make(); }));
  }

 private:
  friend result<std::unique_ptr<session>> load_run(const std::vector<std::string>& paths,
                                                   const load_options& options);
  void index_names();  // (of the keys' names alone: may run beside the making of the rest)
  void name_cycles();
  std::shared_ptr<const void> remembered_any(
      const std::string& key, const std::function<std::shared_ptr<const void>()>& make) const;
  std::shared_ptr<const void> find_remembered(const std::string& key) const;       // (mutex_ held)
  void remember(const std::string& key, std::shared_ptr<const void> value) const;  // (held)
  mutable std::vector<std::pair<std::string, std::shared_ptr<const void>>> remembered_;
  // What a thread is making now: its key, and once made (done), what it gave.
  struct making {
    std::string key;
    bool done = false;
    std::shared_ptr<const void> value;
  };
  mutable std::vector<std::shared_ptr<making>> making_;
  mutable std::condition_variable made_;
  mutable std::once_flag scopes_once_, name_order_once_;
  mutable std::vector<std::uint32_t> name_order_;
  mutable std::vector<std::string_view> scopes_;
  mutable std::once_flag groups_once_[3];
  mutable group_index groups_[3];
  std::vector<std::string> cycle_names_;
  std::vector<std::string> label_text_;  // base names that are not a prefix of a key's name
  // The deferred source-line tables (load_options::defer_lines), with the paths read again.
  std::vector<std::string> paths_;
  std::vector<std::pair<std::uint64_t, std::int64_t>> stamps_;  // (size, mtime) at the load
  mutable std::once_flag lines_once_;
  mutable std::unique_ptr<annotate_data> lines_;
  mutable std::atomic<bool> lines_done_{false};
  mutable std::atomic<bool> stop_lines_{false};
  mutable std::string lines_error_;
  void make_lines() const;
  // The index of the input's chunks and which hold each key's and file's records
  // (chunk_ranges.h); null where lines come from lines().
  std::unique_ptr<chunk_ranges> chunks_;
  result<lines_view> lines_of(bool of_file, std::uint32_t id) const;
  result<std::shared_ptr<const ranged_lines>> read_by_chunks(bool of_file, std::uint32_t id) const;
  status read_chunks_into(std::span<const std::uint32_t> chunks, record_sink& sink,
                          const read_needs& needs) const;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const part_costs> all_, all_no_cycles_;
  mutable std::vector<std::pair<std::vector<std::uint32_t>, std::shared_ptr<const part_costs>>>
      recent_, recent_no_cycles_;
};

// Reads `path` (any dialect and compression the reader takes; "-" is stdin) into a session.
// An error only when it cannot be read at all; a file with errors loads, with its
// diagnostics.
result<std::unique_ptr<session>> load_session(const std::string& path, const load_options& options);
// Reads several files as one profile whose parts are the files' parts, in order (a run:
// `--separate-threads` files, dumps); one file is load_session.
result<std::unique_ptr<session>> load_run(const std::vector<std::string>& paths,
                                          const load_options& options);

// The base name of a function name for display: the name up to its first `'` when what follows
// is a number (`f'2`, a recursion level) or `is_function(next)` says the next piece names a
// function of the file (`f'g'h`, a caller context); else the whole name.
std::string_view base_name(std::string_view name,
                           const std::function<bool(std::string_view)>& is_function);

}  // namespace calltree::views

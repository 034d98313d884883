// views/tables.h — (internal) the profile regrouped the way callgrind_annotate groups it: the
// one set of tables behind annotate's text and JSON, `serve`, `report --html` and the exports.
//
// callgrind_annotate keys a function by "file:name" with file the fl=/fi=/fe= file in force
// (so inlined code is a pseudo-function under its fi= file), keeps cost arrays whose columns
// may be undefined ("."), and sums calls per (caller, callee) and per (caller, callee, line).
// These are exactly those tables, filled by one record sink (views/annotate_direct.h) while
// the file is read, or from a built profile through replay(); annotate's text and JSON print
// them (report/annotate_data.h), and the views of src/views/ answer queries on them
// (session.h). What they are not: a model of the profile (no positions but
// lines, no parts but when asked for), nor printing.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "calltree/analysis/derived_events.h"
#include "calltree/analysis/inclusive.h"
#include "calltree/profile.h"
#include "calltree/result.h"
#include "model/row_index.h"
#include "views/annotate_options.h"

namespace calltree::views {

// Rows of costs with a "defined" flag per column.
class cc_table {
 public:
  explicit cc_table(std::size_t cols = 0) : cols_(cols) {}
  std::size_t cols() const { return cols_; }
  std::size_t rows() const { return cols_ ? v_.size() / cols_ : 0; }
  void reserve(std::size_t rows) {
    v_.reserve(rows * cols_);
    d_.reserve(rows * cols_);
  }
  std::size_t add_row() {
    // (push_back: resize() by a few elements takes the general fill-insert path.)
    for (std::size_t c = 0; c < cols_; ++c) {
      v_.push_back(0);
      d_.push_back(0);
    }
    return rows() - 1;
  }
  // `n` rows more (all 0, undefined) at once; the first one's number.
  std::size_t add_rows(std::size_t n) {
    const std::size_t first = rows();
    v_.resize(v_.size() + n * cols_);
    d_.resize(d_.size() + n * cols_);
    return first;
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

// A (caller, callee) pair of keys and its calls= counts summed. (With --raw, a pair whose
// every count is 0 has no entry: callgrind_annotate lists only counted calls, and takes the
// costs of a calls=0 line as the caller's self cost.)
struct ann_call {
  std::uint32_t caller = 0, callee = 0;
  std::uint64_t count = 0;
};

// The calls= lines of one (caller, callee) at one line of display file `file` (the caller
// key's file, or with key_by_function the fi=/fe= file in force there), summed.
struct ann_call_line {
  std::uint32_t caller = 0, callee = 0;
  std::uint64_t line = 0, count = 0;
  std::uint32_t file = 0;
};

// A jump= or jcnd= line of a found source file, summed over its records: from `line` of
// `file` to `target_line` of `target_file` (display files), executed and followed counts
// (equal for jump=).
struct ann_jump {
  std::uint32_t file = 0;
  std::uint64_t line = 0;
  std::uint32_t target_file = 0;
  std::uint64_t target_line = 0;
  bool conditional = false;
  std::uint64_t executed = 0, followed = 0;
};

// Lines `first` to `last` of display file `file` hold code of key `key`.
struct ann_span {
  std::uint32_t key = 0, file = 0;
  std::uint64_t first = 0, last = 0;
  std::uint32_t cost = 0;  // its row of annotate_data::key_span_cc: the key's self cost there
};

// Index lists per key (or per site), built once all entries are known: `of(i)` is the
// entries of i in the order they were added.
struct index_lists {
  std::vector<std::uint32_t> start;  // size n + 1
  std::vector<std::uint32_t> items;
  std::span<const std::uint32_t> operator[](std::size_t i) const {
    return {items.data() + start[i], items.data() + start[i + 1]};
  }
  // From (owner, item) pairs in order of addition; n owners.
  void build(std::size_t n, const std::vector<std::uint32_t>& owner,
             const std::vector<std::uint32_t>& item);
};

// A call site: a (file, line) where some caller calls something.
struct ann_site {
  std::uint32_t file = 0;
  std::uint64_t line = 0;
  std::uint32_t func = 0;  // the first caller seen at this file:line
};

struct annotate_data {
  // Columns: recorded events, then derived events asked for by --show/--sort.
  std::vector<std::string> recorded;
  std::vector<std::string> columns;
  std::vector<linear_event> derived;  // column recorded.size() + i

  std::vector<std::string> files;    // display names (cwd stripped)
  std::vector<std::string> objects;  // per model object: its name
  // Per key: its file, its name alone (a string id of the profile's names, which outlive
  // this) and its object (an index into `objects`); the key's name "file:name" is made when
  // needed (key_name and the rest).
  std::vector<std::uint32_t> key_file;
  std::vector<string_id> key_function;
  std::vector<std::uint32_t> key_object;
  std::vector<char> key_has_object, key_seen, key_called;
  std::size_t keys() const { return key_file.size(); }
  std::string key_name(std::uint32_t k) const;
  void append_key_name(std::string& out, std::uint32_t k) const;
  // key_name(a) compared with key_name(b) (as std::string::compare), without making them.
  int compare_key_names(std::uint32_t a, std::uint32_t b) const;

  // The name alone of key k. From a pool in memory, a view into it; from a spilling pool
  // (pool_mode::spill), the text read back once and kept here until forget_names(),
  // so a report reads only the names it prints or orders, and holds them only while it needs
  // them. Views stay valid until forget_names() or stop_reading_ahead().
  std::string_view function_name(std::uint32_t k) const;
  void forget_names() const;
  // With a spilling pool, the names of `keys` (UINT32_MAX: none) are read back on a thread
  // of their own, in that order and a little ahead of the report, which takes them with
  // take_names(to): the names of keys[0..to), kept as function_name() keeps what it reads
  // (until forget_names()). A report that prints rows in an order known beforehand then
  // formats while the other core reads (73 k names of the real profile: one pread each);
  // take_names() reads the next names itself rather than wait for the thread.
  // Without a spilling pool, or with no thread to be had, nothing is read ahead and
  // function_name() reads as before. stop_reading_ahead() (also the destructor's) ends it.
  void read_names_ahead(std::vector<std::uint32_t> keys) const;
  void take_names(std::size_t to) const;
  void stop_reading_ahead() const;
  const string_pool* names = nullptr;

  cc_table self;                                   // per key
  cc_table inclusive;                              // per key (filled when options.inclusive)
  std::vector<std::uint32_t> cycle_of;             // per key; 0 = none
  std::vector<std::vector<std::uint32_t>> cycles;  // members
  cc_table cycle_cc;                               // per cycle: inclusive

  std::vector<ann_call> calls;
  cc_table call_cc;
  index_lists callers_of, callees_of;  // key -> call indices

  // The source-line tables, built only when source files are annotated (options.auto_annotate
  // or user files), as `lines` says.
  bool lines = false;
  std::vector<ann_call_line> call_lines;
  cc_table call_line_cc;
  // Call sites in order of first appearance, and every callee called from each (each once).
  std::vector<ann_site> sites;
  index_lists site_callees;
  // Self cost per (file, line), for source annotation.
  std::vector<std::map<std::uint64_t, std::uint32_t>> file_lines;  // file -> line -> row
  cc_table line_cc;

  cc_table totals;  // one row
  bool totals_calculated = false;

  // What the views (serve, report --html) need beyond the annotate report; kept only when
  // asked (annotate_direct::keep_view_tables), empty otherwise.
  //  * Per part, when the file has several parts: each part's self cost per key and each
  //    part's calls per call of `calls` (recorded columns), so a view of some parts sums
  //    those and solves their inclusive costs again.
  std::vector<std::uint32_t> part_self_part, part_self_key;
  cc_table part_self;
  std::vector<std::uint32_t> part_call_part, part_call_call;  // part_call_call: into `calls`
  std::vector<std::uint64_t> part_call_count;
  cc_table part_call_cc;
  //  * Whether each file's source was found (per display file; with `lines`), and the first
  //    and last line with self cost of each key in such a file (0: none).
  std::vector<char> file_found;
  std::vector<std::uint64_t> key_first_line, key_last_line;
  //  * With keys by function (annotate_direct::key_by_function), the first and last line of
  //    each key in each file with lines other than its own (code inlined from it), by key.
  std::vector<ann_span> key_spans;
  cc_table key_span_cc;  // per span (ann_span::cost), every part summed
  //  * Jumps (`jump=`/`jcnd=`) per source line of the found files, by (file, line, target file,
  //    target line, conditional), sorted so.
  std::vector<ann_jump> jumps;

  // The site at (file, line), or nullptr.
  const ann_site* find_site(std::uint32_t file, std::uint64_t line) const;
  // The call_lines row of (caller, callee, line), or UINT32_MAX.
  std::uint32_t find_call_line(std::uint32_t caller, std::uint32_t callee,
                               std::uint64_t line) const;

  // Internal: the indexes behind find_site and find_call_line.
  detail::row_index site_index, call_line_index;

 private:
  struct name_reader;
  // A run of names read ahead, positions [first, first + ends.size()) of the report's list,
  // their texts one after the other in `text` (one allocation for up to 64 names).
  struct name_batch {
    std::size_t first = 0;
    std::string text;
    std::vector<std::size_t> ends;  // per name: where its text ends in `text`
    std::size_t end() const { return first + ends.size(); }
    std::string_view name(std::size_t i) const {
      const std::size_t from = i ? ends[i - 1] : 0;
      return std::string_view(text).substr(from, ends[i] - from);
    }
  };
  // The names function_name() gives until forget_names(): views into names it read itself
  // (`own`) or into batches read ahead (`held`: those taken so far, and the last one, which may
  // hold names not yet taken). Moved, never copied: a copy's views would point into the
  // original's strings.
  struct name_cache {
    std::unordered_map<string_id, std::string_view> views;
    std::deque<std::string> own;
    std::deque<name_batch> held;
    name_cache() = default;
    name_cache(name_cache&&) = default;
    name_cache& operator=(name_cache&&) = default;
  };
  mutable name_cache cache_;
  mutable std::string scratch_;
  // (shared_ptr: name_reader is complete only in the .cc; only the report that started it
  // reads from it)
  mutable std::shared_ptr<name_reader> ahead_;
};

// The two halves around the filling (annotate_direct, which sums records into the tables).
//
// start_annotate_data: the columns (recorded events in first-seen order, then the derived
// events --show/--sort ask for; an error for an unknown one), empty tables of that width, and
// where each recorded column sits in each part's events.
struct annotate_columns {
  std::size_t nrec = 0;                      // recorded columns
  std::vector<event_id> rec_ids;             // profile event id per recorded column
  std::vector<std::vector<int>> part_index;  // part -> recorded column -> index in its events
};
result<annotate_columns> start_annotate_data(const profile& p, const annotate_options& options,
                                             annotate_data& d, std::vector<std::string>* warnings);
// finish_annotate_data: once the filler has filled the keys (with their objects, seen and
// called flags), the self table and the calls (recorded columns, values and definedness):
// callers and callees of each key, the totals, the inclusive costs `inclusive` solved over the
// keys (nullptr without --inclusive; taken from) with their definedness and cycles, --raw's
// calculated totals, and the derived columns. (The front end solves first: the solve's
// working memory is given back before the report's tables grow.)
void finish_annotate_data(const profile& p, const annotate_options& options,
                          const annotate_columns& cols, annotate_data& d,
                          inclusive_result* inclusive, std::vector<std::string>* warnings);

// The program totals of the parts `selected` says yes to, added into `out` (recorded
// columns), as the report takes them (see finish_annotate_data): each part's stated total,
// else the sum of its self costs (part::totals), so `out` is whole either way; `def` (if
// given) marks the columns a stated line gave. Returns whether some selected part stated its
// totals (annotate's "(calculated)" when none did), not whether `out` was filled.
bool add_part_totals(const profile& p, const annotate_columns& cols,
                     const std::function<bool(std::size_t)>& selected, std::uint64_t* out,
                     char* def);

// Where each recorded column (`recorded`, names) sits in the profile's events and in each
// part's (what start_annotate_data computes).
annotate_columns recorded_columns(const profile& p, const std::vector<std::string>& recorded);

// The inclusive costs over d's keys, solved from d's own self and call tables (one part, or
// --part, or --raw's sums, which take no parts: what annotate_direct has then), without a copy.
inclusive_result solve_inclusive_of_keys(const annotate_data& d, std::size_t nrec, bool raw);

// A file name as the report shows it: `cwd` stripped from the front.
std::string display_name(std::string name, std::string_view cwd);

// The report's file names, as callgrind_annotate shows them (the current directory `cwd`
// stripped from the front), each once, found by the pool's string id: a key is "display
// file:name", so two ids may share one display file.
class display_files {
 public:
  // The index in `files` of `sid`'s display name, appended if new (`*fresh` then true).
  std::uint32_t of(const string_pool& names, string_id sid, std::string_view cwd,
                   std::vector<std::string>& files, bool* fresh = nullptr);

 private:
  std::vector<std::uint32_t> of_sid_;  // +1; 0 = not yet
  std::unordered_map<std::string, std::uint32_t> index_;
};

// Each callee met at each call site, once, in order of first appearance: what becomes
// annotate_data::site_callees, noted one call at a time by the front ends.
class site_callee_pairs {
 public:
  void note(std::uint32_t site, std::uint32_t callee);
  std::size_t size() const { return site_.size(); }
  // The callees' keys renumbered (new_of[old]), for a front end that numbers keys at the end.
  void renumber_callees(const std::vector<std::uint32_t>& new_of);
  // The lists per site (of `sites`); the pairs are given up.
  void build_into(index_lists& out, std::size_t sites);

 private:
  std::vector<std::uint32_t> site_, callee_;
  detail::row_index index_;
};

// Where annotate (and serve) look for source file `src`, in order, until `take(path, named)`
// says yes: `src` itself (relative to the current directory), under each include directory,
// then under each --source-root whose OLD begins it. `named` is how the report names the file
// it opened.
template <typename Take>
bool look_for_source(const std::string& src, const std::vector<std::string>& include_dirs,
                     const std::vector<std::pair<std::string, std::string>>& source_roots,
                     Take&& take) {
  if (take(src, src)) return true;
  for (const auto& dir : include_dirs)
    if (take(dir + "/" + src, dir + "/ + " + src)) return true;
  for (const auto& [from, to] : source_roots) {
    if (src.compare(0, from.size(), from) != 0) continue;
    const std::string path = to + src.substr(from.size());
    if (take(path, path)) return true;
  }
  return false;
}

// Whether `path` is a regular file (stat).
bool regular_file(const std::string& path);

// Whether the text report finds source file `file` (a display name) to annotate: in the
// current directory or an include directory, or under a --source-root rewrite.
bool source_found(const std::string& file, const annotate_options& options);

// Hands the heap's free pages back to the system (glibc): between the reading's tables and a
// report's, which reuse the holes of the first only in part (annotate_direct_tables.cc).
void give_back_freed_memory();

// Fills d.site_index and d.call_line_index (find_site, find_call_line) from d.sites and
// d.call_lines, for a front end that makes those tables whole.
void index_source_lines(annotate_data& d);

}  // namespace calltree::views

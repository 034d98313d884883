// model/builder_state.h — (internal) the profile builder's state: the name-to-id tables of
// objects, files and functions, the row indexes (of every row, and of the current run's rows),
// the memory guard, and where parts begin and end (new events widening the rows, totals).
//
// What it is: profile_builder's impl, with its lookups inline where profile_builder.cc's
// record entry points call them. What it is not: the records into rows (profile_builder.cc),
// the profile's own functions (profile.cc), nor a public header.
#pragma once

#include <algorithm>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "calltree/profile_builder.h"
#include "model/builder_access.h"
#include "model/limit_message.h"
#include "model/row_index.h"
#include "model/run_index.h"

namespace calltree {

namespace detail {

inline std::uint64_t hash_pos(std::uint64_t h, const position& p) {
  return mix(mix(mix(h, p.instr), p.bb), p.line);
}

// A position and a file id in one word, for an index of a run's rows (at most thousands, whose
// positions are near each other): a product per field, summed up, the high half folded into
// the low one and mixed back (run_index takes the top bits). One multiply deep, not four.
inline std::uint64_t hash_in_run(std::uint64_t file, const position& p) {
  const std::uint64_t h = p.instr * 0x9e3779b97f4a7c15ull + p.line * 0xc2b2ae3d27d4eb4full +
                          p.bb * 0x165667b19e3779f9ull + file * 0xd6e8feb86659fd93ull;
  return (h ^ (h >> 32)) * 0xff51afd7ed558ccdull;
}

// What tells apart the rows of one part and function (run_index.h).
struct self_in_run {
  static std::uint64_t hash(const self_row& r) { return hash_in_run(r.source_file.index(), r.pos); }
  static bool same(const self_row& a, const self_row& b) {
    return a.source_file == b.source_file && a.pos == b.pos;
  }
};
struct call_in_run {
  static std::uint64_t hash(const call_row& r) {
    return hash_in_run(r.caller_source_file.index(), r.site) ^
           hash_in_run(r.callee.index() ^ std::uint64_t{r.has_target} << 32, r.target) * 3;
  }
  static bool same(const call_row& a, const call_row& b) {
    return a.callee == b.callee && a.site == b.site &&
           a.caller_source_file == b.caller_source_file && a.target == b.target &&
           a.has_target == b.has_target;
  }
};
struct jump_in_run {
  static std::uint64_t hash(const jump_row& r) {
    const std::uint64_t to = r.target_file.index() ^ std::uint64_t{r.target_function.index()} << 32;
    return hash_in_run(r.source_file.index(), r.source) ^
           hash_in_run(to ^ r.conditional, r.target) * 3;
  }
  static bool same(const jump_row& a, const jump_row& b) {
    return a.source_file == b.source_file && a.source == b.source &&
           a.conditional == b.conditional && a.target_file == b.target_file &&
           a.target_function == b.target_function && a.target == b.target;
  }
};

}  // namespace detail

struct profile_builder::impl {
  // The state of `b` (for builder_access, which the builder does not name).
  static impl& of(profile_builder& b) { return *b.impl_; }
  static const impl& of(const profile_builder& b) { return *b.impl_; }

  using row_index = detail::row_index;
  template <typename Row, typename Traits>
  using run_index = detail::run_index<Row, Traits>;
  using self_in_run = detail::self_in_run;
  using call_in_run = detail::call_in_run;
  using jump_in_run = detail::jump_in_run;
  static std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return detail::mix(h, v); }
  static std::uint64_t hash_pos(std::uint64_t h, const position& p) {
    return detail::hash_pos(h, p);
  }

  profile& p;
  diagnostic_sink* diags;
  std::string display_name;
  builder_options opt;
  self_row_stream* self_rows_to = nullptr;  // builder_access::stream_self_rows

  // Per string id: the object and the file of that name, and the function last found or made
  // with that name (none: not yet). Arrays, not maps: string ids are dense, and these are
  // looked at for every context and callee the reader hands on.
  // (A function's entry holds its object and file too: one cache line read, not two.)
  static constexpr std::uint32_t none = 0xffffffffu;
  struct named_function {
    function_id id{none};
    object_id object{none};
    file_id file{none};
  };
  std::vector<object_id> object_of;
  std::vector<file_id> file_of;
  std::vector<named_function> function_of;
  template <typename T, typename Fill>
  static T& at(std::vector<T>& v, string_id s, Fill fill) {
    if (s.index() >= v.size()) v.resize(std::max<std::size_t>(s.index() + 1, 2 * v.size()), fill);
    return v[s.index()];
  }
  template <typename Id>
  static Id& at(std::vector<Id>& v, string_id s) {
    return at(v, s, Id{none});
  }
  row_index function_index;
  row_index self_index, call_index, jump_index;

  part_id part;
  bool in_part = false;
  std::vector<event_id> event_map;     // part event index -> profile event id
  std::vector<std::uint64_t> scratch;  // costs in profile order
  bool overflow_reported = false;
  std::unordered_map<std::string, event_id> event_index;  // p.events by name

  // The memory guard (builder_options::max_memory).
  bool limit_hit = false;      // records are no longer kept
  bool limit_in_part = false;  // it happened in the part being read: recompute its totals
  bool skip_part = false;      // a part that began after the limit: dropped whole

  // All ones for the position columns kept, zero for the others.
  const std::uint64_t mask_instr = opt.keep_positions & pos_instr ? ~0ull : 0;
  const std::uint64_t mask_bb = opt.keep_positions & pos_bb ? ~0ull : 0;
  const std::uint64_t mask_line = opt.keep_positions & pos_line ? ~0ull : 0;
  position keep(position pos) const {
    pos.instr &= mask_instr;
    pos.bb &= mask_bb;
    pos.line &= mask_line;
    return pos;
  }

  // The self row the last cost line went to, and the call row the last call went to
  // (row_index::empty: none).
  std::uint32_t last_self = row_index::empty;
  std::uint32_t last_call = row_index::empty;
  // The position (as kept) of last_self, which belongs to last_ctx (it is forgotten when the
  // context changes): a cost line in the same context at this position goes to it at once.
  position last_self_pos;

  // The profile column of a part with one event (the common case, on_cost's fast path).
  static constexpr std::size_t no_column = ~std::size_t{0};
  std::size_t single_column = no_column;
  // Whether the part's costs are the profile's columns as they are (event_map[i] == i, as
  // many), and every position column is kept: a run's lines are then rows as they are.
  bool rows_as_read = false;

  // Adds a record's costs (part order) into a model row (profile order).
  void add_costs(std::span<std::uint64_t> dst, std::span<const std::uint64_t> costs,
                 std::uint64_t line) {
    const std::size_t n = std::min(costs.size(), event_map.size());
    const event_id* map = event_map.data();
    for (std::size_t i = 0; i < n; ++i)
      if (costs[i] && !add_saturating(dst[map[i].index()], costs[i])) overflow(line);
  }

  // on_cost into the row of the line before, in general (several events, an overflow).
  __attribute__((noinline)) void add_last(const cost_record& r) {
    add_costs(p.self_costs.row(last_self), r.costs, r.line);
  }

  // Where a self row and a jump row are looked up first (run_index.h): in an index of the rows
  // of its function's current run.
  run_index<self_row, self_in_run> self_runs;
  run_index<call_row, call_in_run> call_runs;
  run_index<jump_row, jump_in_run> jump_runs;

  // on_cost when the record does not go to the row of the line before.
  __attribute__((noinline)) void cost_slow(const cost_record& r) {
    if (limit_hit) return;
    self_row row;
    row.part = part;
    resolve_context(r.ctx, row.function, row.source_file);
    row.pos = keep(r.pos);
    std::uint32_t found;
    const std::uint64_t key = std::uint64_t{row.part.index()} << 32 | row.function.index();
    // Streaming: every run is one of its own, whatever its function had before, and its rows
    // take memory until it is handed on only (the memory guard is for the rows kept).
    if (self_rows_to) {
      if (key != stream_key) stream_run(key);
      found = stream_row(row);
    } else if (self_runs.serves(key, p.self_rows, [this](std::uint32_t i) { index_self(i); })) {
      const std::size_t slot = self_runs.find(row, p.self_rows);
      found = self_runs.at(slot);
      if (found == row_index::empty) {
        if (!room_for_row(p.self_rows, &p.self_costs, r.line)) return;
        found = static_cast<std::uint32_t>(p.self_rows.size());
        p.self_rows.push_back(row);
        p.self_costs.add_row();
        self_runs.add(slot, found, p.self_rows);
      }
    } else {
      auto same = [&](const self_row& o) {
        return o.function == row.function && o.source_file == row.source_file && o.pos == row.pos &&
               o.part == row.part;
      };
      auto h = hash_self(row);
      std::size_t slot;
      found = self_index.find(
          h, [&](std::uint32_t i) { return same(p.self_rows[i]); }, slot);
      if (found == row_index::empty) {
        if (!room_for_row(p.self_rows, &p.self_costs, r.line)) return;
        found = static_cast<std::uint32_t>(p.self_rows.size());
        p.self_rows.push_back(row);
        p.self_costs.add_row();
        self_index.insert(h, found, slot);
      }
    }
    last_self = found;
    last_self_pos = row.pos;
    add_costs(p.self_costs.row(found), r.costs, r.line);
  }

  // builder_access::stream_self_rows: the key (part << 32 | function) of the run being read.
  std::uint64_t stream_key = ~0ull;
  // The run's rows to the stream, and the tables emptied for the next run (before self_runs
  // starts it: its rows then begin at 0).
  void hand_on() {
    if (!p.self_rows.empty()) self_rows_to->take(p, p.self_rows, p.self_costs);
    p.self_rows.clear();
    p.self_costs.clear();
    last_self = row_index::empty;
  }
  void stream_run(std::uint64_t key) {
    hand_on();
    stream_key = key;
    self_runs.start_alone(p.self_rows);
    run_rows_indexed = 0;
  }
  // Streaming: the rows of the run [0, run_rows_indexed) are in self_runs; on_cost_run adds
  // rows it knows to be new without it, and the first lookup after puts them in.
  std::size_t run_rows_indexed = 0;
  void index_run_rows() {
    for (; run_rows_indexed < p.self_rows.size(); ++run_rows_indexed) {
      const std::size_t slot = self_runs.find(p.self_rows[run_rows_indexed], p.self_rows);
      self_runs.add(slot, static_cast<std::uint32_t>(run_rows_indexed), p.self_rows);
    }
  }
  // Streaming: the run's row at `row`'s place, added if it has none (cost_slow, on_cost_run).
  std::uint32_t stream_row(const self_row& row) {
    index_run_rows();
    const std::size_t slot = self_runs.find(row, p.self_rows);
    std::uint32_t found = self_runs.at(slot);
    if (found == row_index::empty) {
      found = static_cast<std::uint32_t>(p.self_rows.size());
      p.self_rows.push_back(row);
      p.self_costs.add_row();
      self_runs.add(slot, found, p.self_rows);
      run_rows_indexed = p.self_rows.size();
    }
    return found;
  }

  // The last context seen, to skip the lookups on runs of lines of one function.
  context last_ctx{};
  function_id last_function;
  file_id last_source_file;
  bool have_last = false;

  impl(profile& prof, diagnostic_sink* d, std::string name, builder_options o)
      : p(prof), diags(d), display_name(std::move(name)), opt(o) {
    if (p.objects.empty()) p.objects.push_back(object{string_pool::empty});
    if (p.files.empty()) p.files.push_back(file{string_pool::empty});
    for (event_id i : p.events.ids()) event_index.emplace(p.events[i].name, i);
    for (object_id i : p.objects.ids()) at(object_of, p.objects[i].name) = i;
    for (file_id i : p.files.ids()) at(file_of, p.files[i].name) = i;
    for (function_id i : p.functions.ids()) {
      index_function(i);
      at(function_of, p.functions[i].name, named_function{}) =
          named_function{i, p.functions[i].object, p.functions[i].file};
    }
    if (!p.self_rows.empty()) {
      self_runs.go_global();
      for (std::uint32_t i = 0; i < p.self_rows.size(); ++i) index_self(i);
    }
    if (!p.calls.empty()) {
      call_runs.go_global();
      for (std::uint32_t i = 0; i < p.calls.size(); ++i) index_call(i);
    }
    if (!p.jumps.empty()) {
      jump_runs.go_global();
      for (std::uint32_t i = 0; i < p.jumps.size(); ++i) index_jump(i);
    }
  }

  void overflow(std::uint64_t line) {
    if (overflow_reported || !diags) return;
    overflow_reported = true;
    diagnostic d;
    d.severity = severity::error;
    d.code = diag_code::cost_overflow;
    d.file = display_name;
    d.line = line;
    d.message = "a summed cost goes above 2^64-1; it is held at 2^64-1";
    diags->report(std::move(d));
  }

  // The room expect_input_bytes reserved (0: none): while a table's capacity is still that,
  // its pages past its rows were never touched, and the guard counts its rows only.
  std::size_t reserved_self = 0, reserved_calls = 0, reserved_jumps = 0;
  std::size_t reserved_self_costs = 0, reserved_call_costs = 0;  // bytes
  std::size_t pending_self_costs = 0, pending_call_costs = 0;    // rows, reserved at begin()
  template <typename Row>
  static std::uint64_t held(const std::vector<Row>& v, std::size_t reserved) {
    return (v.capacity() == reserved ? v.size() : v.capacity()) * sizeof(Row);
  }
  static std::uint64_t held(const cost_matrix& m, std::size_t reserved) {
    return m.bytes() == reserved ? m.rows() * m.columns() * sizeof(std::uint64_t) : m.bytes();
  }

  void expect_input_bytes(std::uint64_t bytes) {
    if (!p.self_rows.empty() || !p.calls.empty() || !p.jumps.empty() || limit_hit) return;
    // The fewest bytes a row takes, about, in an instruction-level callgrind file (the real
    // 260 MB profile of docs/performance.md: 18 a self row, 490 a call row, 240 a jump row;
    // bench/gen_profile.cc's 261 MB file 15.4 a self row). A file with more rows than this
    // grows its tables from there as without the hint.
    const std::size_t self = self_rows_to ? 0 : bytes / 12, calls = bytes / 256,
                      jumps = opt.keep_jumps ? bytes / 128 : 0;
    const std::size_t columns = std::max<std::size_t>(p.events.size(), 1);
    const std::uint64_t total = self * (sizeof(self_row) + 8 * columns) +
                                calls * (sizeof(call_row) + 8 * columns) + jumps * sizeof(jump_row);
    if (opt.max_memory && total > opt.max_memory / 2) return;
    try {
      p.self_rows.reserve(self);
      p.calls.reserve(calls);
      p.jumps.reserve(jumps);
    } catch (const std::bad_alloc&) {  // (no address space for it: grow as without the hint)
      return;
    }
    reserved_self = p.self_rows.capacity();
    reserved_calls = p.calls.capacity();
    reserved_jumps = p.jumps.capacity();
    pending_self_costs = self;
    pending_call_costs = calls;
  }
  // The cost tables' room, once a part says how many columns a row has.
  void reserve_costs() {
    if (!pending_self_costs && !pending_call_costs) return;
    const std::uint64_t bytes =
        (pending_self_costs + pending_call_costs) * p.events.size() * sizeof(std::uint64_t);
    if (opt.max_memory && bytes > opt.max_memory / 4) pending_self_costs = pending_call_costs = 0;
    try {
      if (!p.self_costs.rows()) p.self_costs.reserve_rows(pending_self_costs);
      if (!p.call_costs.rows()) p.call_costs.reserve_rows(pending_call_costs);
    } catch (const std::bad_alloc&) {
    }
    reserved_self_costs = p.self_costs.bytes();
    reserved_call_costs = p.call_costs.bytes();
    pending_self_costs = pending_call_costs = 0;
  }

  // Bytes the model holds, estimated from sizes and capacities: names (text, view, hash node),
  // objects, files, functions, rows with their costs, and the row indexes (a 4-byte slot and
  // a 4-byte hash per slot at most 3/4 full).
  std::uint64_t model_bytes() const {
    constexpr std::uint64_t per_name = 64, per_index_entry = 16, per_map_entry = 48;
    std::uint64_t b = p.strings.bytes() + p.strings.size() * per_name;
    b += (object_of.capacity() + file_of.capacity()) * sizeof(std::uint32_t) +
         function_of.capacity() * sizeof(named_function);
    b += event_index.size() * per_map_entry;
    b += (p.objects.capacity() + p.files.capacity()) * sizeof(object);
    b += p.functions.capacity() * sizeof(function) + p.functions.size() * per_index_entry;
    b += held(p.self_rows, reserved_self) + p.self_rows.size() * per_index_entry;
    b += held(p.calls, reserved_calls) + p.calls.size() * per_index_entry;
    b += held(p.jumps, reserved_jumps) + p.jumps.size() * per_index_entry;
    b += held(p.self_costs, reserved_self_costs) + held(p.call_costs, reserved_call_costs);
    b += p.events.size() * (sizeof(event_type) + 64) + p.parts.size() * sizeof(calltree::part);
    return b;
  }

  // room()'s last count: what it saw of the names and tables, the bytes it may grant without
  // counting again, and those granted since.
  std::uint64_t counted_strings = ~0ull, counted_tables = ~0ull, slack = 0, granted = 0;
  void forget_count() { counted_strings = counted_tables = ~0ull; }

  // May the model grow by `extra` bytes? If not, the limit is reported (once) and every
  // record from `line` on is dropped.
  bool room(std::uint64_t line, std::uint64_t extra) {
    if (limit_hit) return false;
    if (!opt.max_memory) return true;
    // Counting the model (model_bytes) for each new row was 5 % of building the real 260 MB
    // profile. Between two counts, while no name, object, file or function was added (nor a
    // part: begin() forgets the count), the model grew by no more than the `extra`s granted
    // since (each is at least what its row adds): while those stay within half of what the
    // last count left below the limit, the answer is yes without counting, as counting would
    // have said.
    const std::uint64_t strings = p.strings.bytes() + p.strings.size();
    const std::uint64_t tables = p.functions.size() + p.objects.size() + p.files.size();
    if (strings == counted_strings && tables == counted_tables && granted + extra <= slack) {
      granted += extra;
      return true;
    }
    const std::uint64_t b = model_bytes();
    if (b + extra <= opt.max_memory) {
      counted_strings = strings;
      counted_tables = tables;
      granted = 0;
      slack = (opt.max_memory - b - extra) / 2;
      return true;
    }
    limit_hit = limit_in_part = true;
    last_self = last_call = row_index::empty;  // no more fast paths
    if (diags) {
      diagnostic d;
      d.severity = severity::error;
      d.code = diag_code::limit_exceeded;
      d.file = display_name;
      d.line = line;
      d.message = records_limit_message(opt.max_memory);
      diags->report(std::move(d));
    }
    return false;
  }
  // Room for one more row in `rows` (and in `costs`): the row, its index entry, and, when a
  // vector is full, the doubled buffer that exists beside the old one while it grows.
  template <typename Row>
  bool room_for_row(const std::vector<Row>& rows, const cost_matrix* costs, std::uint64_t line) {
    if (!opt.max_memory) return true;
    std::uint64_t extra = sizeof(Row) + 16;
    if (rows.size() == rows.capacity())
      extra += 2 * std::max<std::size_t>(rows.capacity(), 1) * sizeof(Row);
    if (costs) {
      const std::uint64_t row_bytes = costs->columns() * sizeof(std::uint64_t);
      extra += row_bytes;
      if ((costs->rows() + 1) * row_bytes > costs->bytes()) extra += 2 * costs->bytes() + row_bytes;
    }
    return room(line, extra);
  }

  // After the limit stopped the build inside a part, its totals are the sum of the rows kept,
  // so the model stays self-consistent (totals = sum of self rows).
  void recompute_totals(part_id pt) {
    auto& t = p.parts[pt].totals;
    std::fill(t.begin(), t.end(), 0);
    for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
      if (p.self_rows[i].part != pt) continue;
      auto row = p.self_costs.row(i);
      for (std::size_t e = 0; e < t.size() && e < row.size(); ++e) add_saturating(t[e], row[e]);
    }
  }

  object_id object_for(string_id s) {
    object_id& o = at(object_of, s);
    if (o == object_id{none}) o = p.objects.push_back(object{s});
    return o;
  }
  file_id file_for(string_id s) {
    file_id& f = at(file_of, s);
    if (f == file_id{none}) f = p.files.push_back(file{s});
    return f;
  }

  static std::uint64_t hash_function(const function& f) {
    return mix(mix(mix(0, f.object.index()), f.file.index()), f.name.index());
  }
  void index_function(function_id i) {
    std::size_t slot;
    const auto& f = p.functions[i];
    auto h = hash_function(f);
    function_index.find(
        h, [](std::uint32_t) { return false; }, slot);
    function_index.insert(h, i.index(), slot);
  }
  // function_for's memory of recent names: a direct-mapped cache on the three string ids, so
  // a callee or context seen before costs no map lookup (on an instruction-level profile,
  // every call line names its callee).
  struct recent_function {
    string_id object = string_pool::npos, file = string_pool::npos, name = string_pool::npos;
    function_id id;
  };
  static constexpr std::size_t recent_size = 4096;
  std::vector<recent_function> recent = std::vector<recent_function>(recent_size);

  function_id function_for(string_id obj, string_id fil, string_id name) {
    recent_function& c = recent[mix(mix(mix(0, name.index()), fil.index()), obj.index()) >> 52];
    if (c.name == name && c.file == fil && c.object == obj) return c.id;
    c = recent_function{obj, fil, name, lookup_function(obj, fil, name)};
    return c.id;
  }
  function_id lookup_function(string_id obj, string_id fil, string_id name) {
    function f{object_for(obj), file_for(fil), name};
    // Mostly a name is one function's: the one last found by it.
    named_function& by_name = at(function_of, name, named_function{});
    if (by_name.object == f.object && by_name.file == f.file) return by_name.id;
    auto h = hash_function(f);
    std::size_t slot;
    auto r = function_index.find(
        h,
        [&](std::uint32_t i) {
          const auto& g = p.functions[function_id{i}];
          return g.object == f.object && g.file == f.file && g.name == f.name;
        },
        slot);
    if (r == row_index::empty) {
      r = p.functions.next_id().index();
      p.functions.push_back(f);
      function_index.insert(h, r, slot);
    }
    by_name = named_function{function_id{r}, f.object, f.file};
    return function_id{r};
  }

  // function_for with a one-entry cache: a function's calls to one callee come in runs.
  string_id last_callee_key[3] = {string_pool::npos, string_pool::npos, string_pool::npos};
  function_id last_callee;
  function_id callee_for(string_id obj, string_id fil, string_id name) {
    if (obj != last_callee_key[0] || fil != last_callee_key[1] || name != last_callee_key[2]) {
      last_callee = function_for(obj, fil, name);
      last_callee_key[0] = obj;
      last_callee_key[1] = fil;
      last_callee_key[2] = name;
    }
    return last_callee;
  }

  void resolve_context(const context& c, function_id& fn, file_id& src) {
    if (have_last && c.object == last_ctx.object && c.file == last_ctx.file &&
        c.function == last_ctx.function && c.source_file == last_ctx.source_file) {
      fn = last_function;
      src = last_source_file;
      return;
    }
    fn = function_for(c.object, c.file, c.function);
    src = file_for(c.source_file);
    last_self = row_index::empty;
    last_ctx = c;
    last_function = fn;
    last_source_file = src;
    have_last = true;
  }

  static std::uint64_t hash_self(const self_row& r) {
    return hash_pos(mix(mix(mix(1, r.part.index()), r.function.index()), r.source_file.index()),
                    r.pos);
  }
  void index_self(std::uint32_t i) {
    std::size_t slot;
    auto h = hash_self(p.self_rows[i]);
    self_index.find(
        h, [](std::uint32_t) { return false; }, slot);
    self_index.insert(h, i, slot);
  }
  static std::uint64_t hash_call(const call_row& r) {
    std::uint64_t h =
        mix(mix(mix(2, r.part.index()), r.caller.index()), r.caller_source_file.index());
    h = hash_pos(h, r.site);
    h = mix(mix(h, r.callee.index()), r.has_target);
    return hash_pos(h, r.target);
  }
  void index_call(std::uint32_t i) {
    std::size_t slot;
    auto h = hash_call(p.calls[i]);
    call_index.find(
        h, [](std::uint32_t) { return false; }, slot);
    call_index.insert(h, i, slot);
  }
  static std::uint64_t hash_jump(const jump_row& r) {
    std::uint64_t h = mix(mix(mix(3, r.part.index()), r.function.index()), r.source_file.index());
    h = hash_pos(h, r.source);
    h = mix(mix(mix(h, r.conditional), r.target_file.index()), r.target_function.index());
    return hash_pos(h, r.target);
  }
  void index_jump(std::uint32_t i) {
    std::size_t slot;
    auto h = hash_jump(p.jumps[i]);
    jump_index.find(
        h, [](std::uint32_t) { return false; }, slot);
    jump_index.insert(h, i, slot);
  }

  event_id event_for(const std::string& name) {
    auto [it, fresh] = event_index.try_emplace(name, p.events.next_id());
    if (fresh) p.events.push_back(event_type{name, {}, {}, false});
    return it->second;
  }

  // Bytes a part header would add: its new events widen every existing cost row.
  std::uint64_t header_bytes(const part_header& h) const {
    std::unordered_set<std::string_view> fresh;
    for (const auto& n : h.events)
      if (!event_index.count(n)) fresh.insert(n);
    for (const auto& d : h.event_definitions)
      if (!event_index.count(d.name)) fresh.insert(d.name);
    const std::uint64_t rows = p.self_costs.rows() + p.call_costs.rows();
    return fresh.size() * (rows * 2 * sizeof(std::uint64_t) + sizeof(event_type) + 64 + 48) +
           h.events.size() * 16 + sizeof(calltree::part);
  }

  void widen() {
    forget_count();
    std::size_t n = p.events.size();
    p.self_costs.set_columns(n);
    p.call_costs.set_columns(n);
    for (auto& pt : p.parts) {
      if (pt.totals.size() < n) pt.totals.resize(n, 0);
      if (pt.summary && pt.summary->size() < n) pt.summary->resize(n, 0);
      if (pt.totals_line && pt.totals_line->size() < n) pt.totals_line->resize(n, 0);
    }
  }

  // Part costs -> profile order, in `scratch`.
  std::span<const std::uint64_t> map_costs(std::span<const std::uint64_t> c) {
    std::fill(scratch.begin(), scratch.end(), 0);
    for (std::size_t i = 0; i < c.size() && i < event_map.size(); ++i) {
      if (!add_saturating(scratch[event_map[i].index()], c[i])) overflow(0);
    }
    return scratch;
  }

  std::vector<std::uint64_t> to_profile_order(const std::vector<std::uint64_t>& v) {
    std::vector<std::uint64_t> out(p.events.size(), 0);
    for (std::size_t i = 0; i < v.size() && i < event_map.size(); ++i)
      add_saturating(out[event_map[i].index()], v[i]);
    return out;
  }

  void begin(const part_header& h) {
    for (const auto& name : h.events) p.events[event_for(name)].recorded = true;
    for (const auto& d : h.event_definitions) {
      auto& e = p.events[event_for(d.name)];
      if (!d.long_name.empty()) e.long_name = d.long_name;
      if (!d.formula.empty()) e.formula = d.formula;
    }
    event_map.clear();
    for (const auto& name : h.events) event_map.push_back(event_for(name));
    single_column = event_map.size() == 1 ? event_map[0].index() : no_column;
    if (opt.sum_parts && !p.parts.empty()) {
      part = part_id{0};
    } else {
      part = p.parts.push_back(calltree::part{});
      p.parts.back().header = h;
      p.parts.back().events = event_map;
    }
    if (opt.sum_parts) {
      // The one part lists every event it holds.
      auto& evs = p.parts[part_id{0}].events;
      for (auto e : event_map)
        if (std::find(evs.begin(), evs.end(), e) == evs.end()) evs.push_back(e);
      auto& names = p.parts[part_id{0}].header.events;
      names.clear();
      for (auto e : evs) names.push_back(p.events[e].name);
    }
    p.positions |= static_cast<std::uint8_t>(h.positions & opt.keep_positions);
    widen();
    reserve_costs();
    rows_as_read =
        event_map.size() == p.events.size() && (mask_instr & mask_bb & mask_line) == ~0ull;
    for (std::size_t i = 0; i < event_map.size(); ++i)
      if (event_map[i] != event_id{i}) rows_as_read = false;
    scratch.assign(p.events.size(), 0);
    have_last = false;
    last_self = row_index::empty;
    in_part = true;
  }

  void end(const part_end& e) {
    auto& pt = p.parts[part];
    widen();
    if (e.signed_costs) p.signed_costs = true;
    auto computed = to_profile_order(e.computed);
    auto before = pt.totals;  // the parts already folded in (sum_parts)
    if (!add_saturating(pt.totals, computed)) overflow(e.line);
    // The summary that counts is the one after the body, else the header's.
    const auto* summary = e.summary ? &*e.summary : header_summary ? &*header_summary : nullptr;
    if (summary) {
      auto s = to_profile_order(*summary);
      // Folding parts: a part without a summary counts with its computed total.
      if (!pt.summary) pt.summary = before;
      add_saturating(*pt.summary, s);
    } else if (pt.summary) {
      add_saturating(*pt.summary, computed);
    }
    if (e.totals) {
      auto t = to_profile_order(*e.totals);
      if (!pt.totals_line) pt.totals_line = before;
      add_saturating(*pt.totals_line, t);
    } else if (pt.totals_line) {
      add_saturating(*pt.totals_line, computed);
    }
    in_part = false;
  }
  std::optional<std::vector<std::uint64_t>> header_summary;
};

}  // namespace calltree

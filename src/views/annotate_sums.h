// views/annotate_sums.h — (internal) annotate_direct's sums while the file is read: its keys,
// calls, source lines, jumps, per-part rows and --raw's calls, and how each record is summed
// into them (views/annotate_direct.cc says why they come out as they do).
//
// What it is: the state behind annotate_direct (its impl), with the per-record code inline,
// where the sink's entry points (annotate_direct.cc) call it. What it is not: the tables
// handed over at the end (views/tables.h; numbered and filled in annotate_direct_tables.cc),
// nor a public header.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "calltree/profile_builder.h"
#include "model/free_storage.h"
#include "model/limit_message.h"
#include "model/paged_array.h"
#include "model/row_index.h"
#include "views/annotate_direct.h"
#include "views/chunk_notes.h"
#include "views/tables.h"

namespace calltree {

struct annotate_direct::impl {
  using row_index = detail::row_index;
  static std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return detail::mix(h, v); }
  template <typename Tag>
  static std::uint64_t mix(std::uint64_t h, strong_id<Tag> id) {
    return detail::mix(h, id.index());
  }

  static constexpr std::uint32_t none = UINT32_MAX;

  // A function as the model knows it: (object, fl= file, name), the name being its own key's.
  // The first function whose own key a key is (nearly always the only one: none other in the
  // real profile's 275 k) lives in the key; the others are found by a hash of (own key, object,
  // file). (A table of functions beside the keys took 20 bytes a function, 5.5 MB there.)
  struct function_entry {
    string_id object = string_pool::npos, file;  // object npos: no function
    std::uint32_t first_self = none;             // rank among the functions' first self records
    std::uint32_t first_call = none;             // rank among the functions' first calls
  };

  // At most this many keys (the memory guard reports the limit at the next one): a call rank
  // and two flags share a word. 2^30 keys would take more than 40 GB.
  static constexpr std::uint32_t max_keys = (1u << 30) - 1;

  struct key_entry {
    std::uint32_t file = 0;  // display file
    string_id function;
    std::uint32_t self_rank = none;  // rank of its first self record; none: no self cost
    // Rank of its first appearance in a call record; max_keys: none.
    std::uint32_t call_rank : 30 = max_keys;
    std::uint32_t seen : 1 = 0, called : 1 = 0;
    std::uint32_t calls = none;    // the latest call it makes (see call_next)
    function_entry function_here;  // the first function whose own key this is
    bool has_self() const { return self_rank != none; }
  };
  static_assert(sizeof(key_entry) == 36);

  struct other_function {
    function_entry f;
    std::uint32_t own_key = 0;
  };

  struct call_entry {
    std::uint32_t caller = 0, callee = 0;  // keys
    std::uint64_t count = 0;
  };

  struct part_key {
    std::uint32_t part = 0, key = 0;
  };
  struct part_call {
    std::uint32_t part = 0, caller = 0, callee = 0;
    std::uint32_t call = 0;  // its row of `calls` (that of the whole)
    std::uint64_t count = 0;
  };
  static_assert(sizeof(part_call) == 24);

  // With --raw, a call as the model keeps it: per part, caller function, its source file, call
  // line, callee, and target line. Whether its count sums to 0 (its cost is then the caller's
  // self cost) is known only at the end.
  struct raw_call {
    std::uint32_t part = 0, caller = 0, callee = 0;  // keys
    const void* function = nullptr;                  // the caller's function_entry
    string_id source_file, callee_object, callee_file, callee_function;
    std::uint64_t site_line = 0, target_line = 0;
    bool has_target = false;
    std::uint64_t count = 0;
  };

  static std::uint32_t given_of(std::uint32_t given, std::size_t costs) {
    return static_cast<std::uint32_t>(std::min<std::size_t>(given, costs));
  }

  profile& p;
  const string_pool& names;  // the records' names: p.strings, or a replayed profile's
  annotate_options o;
  // Only inclusive costs and the call trees show calls' counts and costs: without them a call
  // record marks its keys (called, seen, first-call order) and is not kept.
  bool keep_calls = o.inclusive || o.tree_caller || o.tree_calling;
  diagnostic_sink* diags;
  std::string display_name;
  profile_builder parts;  // part headers and ends only: p.events, p.parts

  views::display_files display;
  std::vector<std::string> files;  // the display files

  paged_array<key_entry> keys;
  // A key is found by its name's pool id: the first key of each name (nearly always the only
  // one: a name in one file), in pages made as ids are met; the others by a hash of (file,
  // name). (A hash of every key took 4 MB for the real profile's 290 k keys, and its probe and
  // the key's fields were two cache misses per call record. The key's display file is not kept
  // beside its number: the key's fields are read next anyway.)
  static constexpr unsigned name_page_bits = 12;
  std::vector<std::unique_ptr<std::uint32_t[]>> first_key_pages;
  row_index key_index;                     // the keys that are not the first of their name
  cost_matrix key_costs;                   // profile event order
  std::vector<std::uint32_t> key_given;    // once tracking: 1 + most values given; 0 = none
  std::vector<std::uint64_t> key_layouts;  // once several layouts: a bit per layout
  std::uint32_t key_self_ranks = 0, key_call_ranks = 0;

  paged_array<other_function> other_functions;  // those that are not the first of their own key
  row_index other_function_index;
  std::uint32_t function_self_ranks = 0, function_call_ranks = 0;

  paged_array<call_entry> calls;
  // A caller's calls are found along a chain from its latest (key_entry::calls, call_next)
  // while it makes at most `chained`, else in other_calls, which then holds all of them. In a
  // file that writes each function's block once, nearly every call is new where it is met:
  // the chain of calls just made says so from memory near at hand, where a hash of every call
  // (8 MB for the real profile's 441 k) would be probed at a random slot for each.
  static constexpr std::uint8_t chained = 8;
  std::vector<std::uint32_t> call_next;  // per call: its caller's call made before it, or none
  std::vector<std::uint8_t> call_chain;  // per key: the calls it makes, up to chained + 1
  row_index other_calls;                 // the calls of callers of more than `chained`
  cost_matrix call_costs;
  std::vector<std::uint32_t> call_given;
  std::vector<std::uint64_t> call_layouts;

  // Source annotation (--auto=yes, or source files named): self cost per (display file, line),
  // call sites and calls per (caller key, callee key, line), for the files the report can open
  // (views::source_found) only: the others print no line. Records of those files must come
  // one per line, or summed per line (record_needs::per_line with lines_of()).
  bool lines = o.auto_annotate || !o.user_files.empty();
  std::vector<char> file_found;  // per display file, with `lines`
  struct line_entry {
    std::uint32_t file = 0;
    std::uint64_t line = 0;
  };
  paged_array<line_entry> line_rows;
  row_index line_index;
  cost_matrix line_costs;
  std::vector<std::uint32_t> line_given;
  std::vector<std::uint64_t> line_layouts;
  std::uint32_t last_line_row = none;
  paged_array<views::ann_site> sites;  // func: the caller key (numbers of the reading)
  row_index site_index;
  views::site_callee_pairs site_callees;
  paged_array<views::ann_call_line> call_lines;
  row_index call_line_index;
  cost_matrix call_line_costs;
  std::vector<std::uint32_t> call_line_given;
  std::vector<std::uint64_t> call_line_layouts;

  // The views' tables (keep_view_tables): jumps per (display file, line, target file, target
  // line, kind) of the found files, and each key's first and last line there.
  bool views = false;
  bool solve_inclusive = true;    // (views without it: keep_view_tables(false))
  bool every_file_lines = false;  // keep the lines of files not found too (keep_view_tables)
  struct jump_entry {
    std::uint32_t file = 0;
    std::uint64_t line = 0;
    std::uint32_t target_file = 0;
    std::uint64_t target_line = 0;
    bool conditional = false;
    std::uint64_t executed = 0, followed = 0;
  };
  paged_array<jump_entry> jump_rows;
  row_index jump_index;
  std::vector<std::uint64_t> key_first_line, key_last_line;  // reading numbers; grown lazily

  // The views' keys (key_by_function): a key is a function as the model knows it (object, fl=
  // file, name), whatever fi=/fe= file its lines are in; the lines, call sites and jumps go to
  // the file in force (last_source_file), and each key's first and last line in a file other
  // than its own is kept in `inlined_spans` (by key << 32 | display file).
  bool by_function = false;
  std::uint32_t last_source_file = 0;  // display file of the last context's fi=/fe=/fl=
  struct line_span {
    std::uint64_t first = 0, last = 0;
    std::uint32_t row = 0;  // its self cost: a row of span_costs
  };
  cost_matrix span_costs;  // per inlined span: the key's self cost in that file (profile order)
  std::unordered_map<std::uint64_t, line_span> inlined_spans;
  std::uint64_t last_span_key = UINT64_MAX;
  line_span* last_span = nullptr;
  views::chunk_notes chunks;  // note_chunks (with key_by_function): chunks.starts set

  // --json: the tables of the JSON report (inclusive costs, calls, every file's lines); its
  // order is by inclusive cost only with --inclusive=yes.
  bool json = false;
  bool json_by_inclusive = false;
  std::function<void()> keys_numbered;  // when_keys_numbered

  // --raw: the calls as the model keeps them, settled at the end (settle_raw_calls); the keys
  // given self cost by a call of count 0.
  paged_array<raw_call> raw_calls;
  row_index raw_call_index;
  cost_matrix raw_call_costs;
  std::vector<std::uint32_t> raw_call_given;
  std::vector<std::uint64_t> raw_call_layouts;
  std::vector<char> raw_self;

  // Per part, for the inclusive solver (from the second part on, with --inclusive=yes; not
  // with --part or --raw, which solve over one part or none).
  bool per_part = false;
  // A key's and a call's row of the part being read is its latest: the parts are read one
  // after another (`part` only grows), so a row of an earlier part is never asked for again.
  paged_array<part_key> part_selfs;
  std::vector<std::uint32_t> latest_part_self;  // per key: its latest row, or none
  cost_matrix part_self_costs;
  paged_array<part_call> part_calls;
  std::vector<std::uint32_t> latest_part_call;  // per call (of `calls`): its latest row, or none
  cost_matrix part_call_costs;

  // The part being read.
  bool skip = false;  // the builder dropped it (memory limit)
  std::uint32_t part = 0;
  std::vector<event_id> event_map;  // part event index -> profile event id
  bool tracked = false;             // this part has several events
  bool tracking = false;            // some part had
  std::uint64_t layout_bit = 1;
  std::vector<std::vector<std::string>> layouts;
  std::vector<std::uint32_t> layout_of_part;

  // The last context and callee resolved.
  context last_ctx{};
  bool have_last = false;
  function_entry* last_function = nullptr;  // in `keys` or `other_functions` (they never move)
  std::uint32_t last_key = 0, last_own_key = 0;
  string_id last_callee_file = string_pool::npos, last_callee_function = string_pool::npos;
  string_id last_callee_object = string_pool::npos;
  std::uint32_t last_callee_key = 0;
  std::uint32_t last_call = none;

  // Saturation and the memory guard, reported once each.
  bool overflow_reported = false;
  bool limit_hit = false;
  std::uint64_t max_memory = o.max_memory;

  impl(profile& prof, const string_pool& pool, const annotate_options& opts, diagnostic_sink* d,
       std::string name)
      : p(prof),
        names(pool),
        o(opts),
        diags(d),
        display_name(name),
        parts(prof, d, std::move(name)) {}

  void report(diag_code code, std::uint64_t line, std::string message) {
    if (!diags) return;
    diagnostic dg;
    dg.severity = severity::error;
    dg.code = code;
    dg.file = display_name;
    dg.line = line;
    dg.message = std::move(message);
    diags->report(std::move(dg));
  }
  void overflow(std::uint64_t line) {
    if (overflow_reported) return;
    overflow_reported = true;
    report(diag_code::cost_overflow, line, "a summed cost goes above 2^64-1; it is held at 2^64-1");
  }
  // Adds a record's costs (part order) into a row (profile order).
  void add(std::span<std::uint64_t> dst, std::span<const std::uint64_t> costs, std::uint64_t line) {
    const std::size_t n = std::min(costs.size(), event_map.size());
    for (std::size_t i = 0; i < n; ++i)
      if (costs[i] && !add_saturating(dst[event_map[i].index()], costs[i])) overflow(line);
  }

  // The memory guard: names as the builder counts them, and these tables.
  std::uint64_t bytes() const {
    constexpr std::uint64_t per_name = 64, per_index_entry = 16;
    const std::uint64_t cols = p.events.size() * sizeof(std::uint64_t);
    std::uint64_t b = names.bytes() + names.size() * per_name;
    b += keys.size() * (sizeof(key_entry) + cols + per_index_entry + 16);
    b += other_functions.size() * (sizeof(other_function) + per_index_entry);
    b += calls.size() * (sizeof(call_entry) + cols + per_index_entry + 12);
    b += part_selfs.size() * (sizeof(part_key) + cols + per_index_entry);
    b += part_calls.size() * (sizeof(part_call) + cols + per_index_entry);
    b += line_rows.size() * (sizeof(line_entry) + cols + per_index_entry + 8);
    b += sites.size() * (sizeof(views::ann_site) + per_index_entry);
    b += site_callees.size() * (8 + per_index_entry);
    b += call_lines.size() * (sizeof(views::ann_call_line) + cols + per_index_entry + 8);
    b += jump_rows.size() * (sizeof(jump_entry) + per_index_entry);
    b += key_first_line.size() * 16;
    b += raw_calls.size() * (sizeof(raw_call) + cols + per_index_entry + 12);
    return b;
  }
  // May one more entry be made? If not, the limit is reported (once) and no record is kept.
  // (max_keys counts as the limit too.)
  bool room(std::uint64_t line) {
    if (limit_hit) return false;
    if (keys.size() < max_keys && (!max_memory || bytes() <= max_memory)) return true;
    limit_hit = true;
    report(diag_code::limit_exceeded, line, records_limit_message(max_memory));
    return false;
  }

  std::uint32_t display_file(string_id sid) {
    const std::uint32_t f = display.of(names, sid, o.cwd, files);
    if (lines && file_found.size() < files.size())
      file_found.push_back(views::source_found(files.back(), o) ? 1 : 0);
    return f;
  }
  // The display file of the last context's lines: its key's, or with key_by_function the
  // fi=/fe= file in force.
  std::uint32_t source_file_of(std::uint32_t key) const {
    return by_function ? last_source_file : keys[key].file;
  }
  bool lines_of(std::uint32_t key) const {
    return lines && (every_file_lines || file_found[source_file_of(key)]);
  }

  // The line row of (file, line), made if new; none past the memory limit.
  std::uint32_t line_of(std::uint32_t file, std::uint64_t line, std::uint64_t at);
  // The call line of (ck, ek, line) of the caller's file, its site and the site's callee noted;
  // none past the memory limit.
  std::uint32_t call_line_of(std::uint32_t ck, std::uint32_t ek, std::uint64_t line,
                             std::uint64_t at);
  // Line sums saturate without a word, as the model path's report tables do (the rows they
  // sum, the keys' here, report theirs).
  void add_quietly(std::span<std::uint64_t> dst, std::span<const std::uint64_t> costs);

  // The key of (file, name), and of `object` too with key_by_function; none past the memory
  // limit.
  std::uint32_t key_of(string_id file_sid, string_id fn_sid, std::uint64_t line,
                       string_id object = string_pool::npos) {
    const std::uint32_t f = display_file(file_sid);
    // (With key_by_function a key's function, made with the key, holds its object.)
    auto same_object = [&](std::uint32_t i) {
      return !by_function || keys[i].function_here.object == object;
    };
    const std::size_t page = fn_sid.index() >> name_page_bits;
    if (page >= first_key_pages.size()) first_key_pages.resize(page + 1);
    auto& pg = first_key_pages[page];
    if (!pg) {
      pg = std::make_unique<std::uint32_t[]>(std::size_t{1} << name_page_bits);
      std::fill_n(pg.get(), std::size_t{1} << name_page_bits, none);
    }
    std::uint32_t& first = pg[fn_sid.index() & ((1u << name_page_bits) - 1)];
    if (first != none && keys[first].file == f && same_object(first)) return first;
    const std::uint64_t h = mix(mix(3, f), fn_sid);
    std::size_t slot = 0;
    std::uint32_t k = first == none ? row_index::empty
                                    : key_index.find(
                                          h,
                                          [&](std::uint32_t i) {
                                            return keys[i].file == f &&
                                                   keys[i].function == fn_sid && same_object(i);
                                          },
                                          slot);
    if (k != row_index::empty) return k;
    if (!room(line)) return none;
    k = static_cast<std::uint32_t>(keys.size());
    if (first == none)
      first = k;
    else
      key_index.insert(h, k, slot);
    key_entry e;
    e.file = f;
    e.function = fn_sid;
    if (by_function) {
      e.function_here.object = object;
      e.function_here.file = file_sid;
    }
    keys.push_back(e);
    key_costs.add_row();
    if (tracking) key_given.push_back(0);
    if (layouts.size() > 1) key_layouts.push_back(0);
    return k;
  }

  // The function of context `c`, whose own key is `own`; nullptr past the memory limit.
  function_entry* function_of(const context& c, std::uint32_t own, std::uint64_t line) {
    function_entry& here = keys[own].function_here;
    if (here.object == string_pool::npos) {
      here.object = c.object;
      here.file = c.file;
      return &here;
    }
    if (here.object == c.object && here.file == c.file) return &here;
    auto same = [&](std::uint32_t i) {
      const other_function& e = other_functions[i];
      return e.own_key == own && e.f.object == c.object && e.f.file == c.file;
    };
    const std::uint64_t h = mix(mix(mix(5, own), c.object), c.file);
    std::size_t slot = 0;
    std::uint32_t i = other_function_index.find(h, same, slot);
    if (i == row_index::empty) {
      if (!room(line)) return nullptr;
      i = static_cast<std::uint32_t>(other_functions.size());
      other_function e;
      e.f.object = c.object;
      e.f.file = c.file;
      e.own_key = own;
      other_functions.push_back(e);
      other_function_index.insert(h, i, slot);
    }
    return &other_functions[i].f;
  }

  // The function and key of a record's context (last_function, last_key); false past the limit.
  bool resolve(const context& c, std::uint64_t line) {
    if (!resolve_context(c, line)) return false;
    if (chunks.starts) [[unlikely]]
      chunks.note(line, last_own_key, last_source_file);
    return true;
  }
  bool resolve_context(const context& c, std::uint64_t line) {
    if (have_last && c.function == last_ctx.function && c.source_file == last_ctx.source_file &&
        c.file == last_ctx.file && c.object == last_ctx.object)
      return true;
    const std::uint32_t own = key_of(c.file, c.function, line, c.object);
    if (own == none) return false;
    function_entry* f = function_of(c, own, line);
    if (!f) return false;
    const std::uint32_t k =
        c.source_file == c.file || by_function ? own : key_of(c.source_file, c.function, line);
    if (k == none) return false;
    if (by_function)
      last_source_file = c.source_file == c.file ? keys[own].file : display_file(c.source_file);
    last_ctx = c;
    last_function = f;
    last_own_key = own;
    last_key = k;
    have_last = true;
    return true;
  }

  void note_given(std::vector<std::uint32_t>& given, std::uint32_t i, std::uint32_t g) {
    if (tracked) given[i] = std::max(given[i], g + 1);
  }

  // (part, key) and (part, call) rows, from the second part on.
  std::uint32_t part_self_of(std::uint32_t pt, std::uint32_t k) {
    if (k >= latest_part_self.size()) latest_part_self.resize(keys.size(), none);
    std::uint32_t& i = latest_part_self[k];
    if (i != none && part_selfs[i].part == pt) return i;
    i = static_cast<std::uint32_t>(part_selfs.size());
    part_selfs.push_back({pt, k});
    part_self_costs.add_row();
    return i;
  }
  std::uint32_t part_call_of(std::uint32_t pt, std::uint32_t ck, std::uint32_t ek,
                             std::uint32_t call) {
    if (call >= latest_part_call.size()) latest_part_call.resize(calls.size(), none);
    std::uint32_t& i = latest_part_call[call];
    if (i != none && part_calls[i].part == pt) return i;
    i = static_cast<std::uint32_t>(part_calls.size());
    part_calls.push_back({pt, ck, ek, call, 0});
    part_call_costs.add_row();
    return i;
  }

  void begin(const part_header& h) {
    const std::size_t before = p.parts.size();
    parts.on_part_begin(h);
    skip = p.parts.size() == before;
    if (skip) return;
    part = static_cast<std::uint32_t>(p.parts.size() - 1);
    // --part: the records of the other parts are not summed (their headers and totals are
    // the profile's all the same).
    if (o.part && *o.part != part_id{part}) {
      skip = true;
      return;
    }
    event_map = p.parts.back().events;
    const std::size_t cols = p.events.size();
    for (cost_matrix* m : {&key_costs, &call_costs, &part_self_costs, &part_call_costs, &line_costs,
                           &call_line_costs, &raw_call_costs, &span_costs})
      if (m->columns() != cols) m->set_columns(cols);
    have_last = false;
    last_call = none;
    last_line_row = none;

    tracked = h.events.size() > 1;
    if (tracked && !tracking) {
      tracking = true;
      key_given.assign(keys.size(), 0);
      call_given.assign(calls.size(), 0);
      line_given.assign(line_rows.size(), 0);
      call_line_given.assign(call_lines.size(), 0);
      raw_call_given.assign(raw_calls.size(), 0);
    }
    auto l = std::find(layouts.begin(), layouts.end(), h.events);
    if (l == layouts.end()) {
      layouts.push_back(h.events);
      l = layouts.end() - 1;
      if (layouts.size() == 2) {
        // Everything so far came from the first layout.
        key_layouts.assign(keys.size(), 0);
        for (std::size_t k = 0; k < keys.size(); ++k) key_layouts[k] = keys[k].has_self() ? 1 : 0;
        call_layouts.assign(calls.size(), 1);
        line_layouts.assign(line_rows.size(), 1);
        call_line_layouts.assign(call_lines.size(), 1);
        raw_call_layouts.assign(raw_calls.size(), 1);
      }
    }
    const auto layout = static_cast<std::uint32_t>(l - layouts.begin());
    layout_of_part.push_back(layout);
    layout_bit = std::uint64_t{1} << std::min<std::uint32_t>(layout, 63);

    if (o.inclusive && part > 0 && !per_part && !o.part && !o.raw) {
      // The sums so far are the first part's.
      per_part = true;
      for (std::uint32_t k = 0; k < keys.size(); ++k) {
        if (!keys[k].has_self()) continue;
        const std::uint32_t i = part_self_of(0, k);
        std::copy_n(key_costs.row(k).begin(), cols, part_self_costs.row(i).begin());
      }
      for (std::uint32_t c = 0; c < calls.size(); ++c) {
        const std::uint32_t i = part_call_of(0, calls[c].caller, calls[c].callee, c);
        part_calls[i].count = calls[c].count;
        std::copy_n(call_costs.row(c).begin(), cols, part_call_costs.row(i).begin());
      }
    }
  }

  void cost(const cost_record& r) {
    if (skip || limit_hit || !resolve(r.ctx, r.line)) return;
    function_entry& f = *last_function;
    const std::uint32_t k = last_key;
    key_entry& ke = keys[k];
    if (f.first_self == none) f.first_self = function_self_ranks++;
    if (ke.self_rank == none) ke.self_rank = key_self_ranks++;
    ke.seen = true;
    keys[last_own_key].seen = true;
    add(key_costs.row(k), r.costs, r.line);
    if (tracked) note_given(key_given, k, given_of(r.given, r.costs.size()));
    if (!key_layouts.empty()) key_layouts[k] |= layout_bit;
    if (per_part) add(part_self_costs.row(part_self_of(part, k)), r.costs, r.line);
    if (lines_of(k)) {
      const std::uint32_t file = source_file_of(k);
      if (views) note_key_line(k, file, r.pos.line, r.costs);
      const std::uint32_t lr = line_of(file, r.pos.line, r.line);
      if (lr == none) return;
      add_quietly(line_costs.row(lr), r.costs);
      if (tracked) note_given(line_given, lr, given_of(r.given, r.costs.size()));
      if (!line_layouts.empty()) line_layouts[lr] |= layout_bit;
    }
  }

  void call(const call_record& r) {
    if (skip || limit_hit || !resolve(r.ctx, r.line)) return;
    function_entry& f = *last_function;
    const std::uint32_t ck = last_key;
    if (f.first_call == none) f.first_call = function_call_ranks++;
    keys[ck].seen = true;
    keys[last_own_key].seen = true;
    if (r.callee_file != last_callee_file || r.callee_function != last_callee_function ||
        (by_function && r.callee_object != last_callee_object)) {
      const std::uint32_t ek = key_of(r.callee_file, r.callee_function, r.line, r.callee_object);
      if (ek == none) return;
      last_callee_file = r.callee_file;
      last_callee_function = r.callee_function;
      last_callee_object = r.callee_object;
      last_callee_key = ek;
    }
    const std::uint32_t ek = last_callee_key;
    for (std::uint32_t k : {ck, ek})
      if (keys[k].call_rank == max_keys)  // (the mask changes nothing: keys stay below max_keys)
        keys[k].call_rank = key_call_ranks++ & max_keys;
    if (o.raw) {
      raw_call_row(r, ck, ek, f);
      return;
    }
    keys[ek].called = true;
    const bool with_lines = lines_of(ck);
    if (!keep_calls && !with_lines) return;

    std::uint32_t ci = last_call;
    if (ci == none || calls[ci].caller != ck || calls[ci].callee != ek) {
      const std::uint64_t h = mix(mix(4, ck), ek);
      std::size_t slot = 0;
      ci = find_call(ck, ek, h, slot);
      if (ci == row_index::empty) {
        if (!room(r.line)) return;
        ci = add_call(ck, ek, h, slot);
      }
      last_call = ci;
    }
    if (!add_saturating(calls[ci].count, r.count)) overflow(r.line);
    add(call_costs.row(ci), r.costs, r.line);
    if (tracked) note_given(call_given, ci, given_of(r.given, r.costs.size()));
    if (!call_layouts.empty()) call_layouts[ci] |= layout_bit;
    if (per_part) {
      const std::uint32_t pi = part_call_of(part, ck, ek, ci);
      if (!add_saturating(part_calls[pi].count, r.count)) overflow(r.line);
      add(part_call_costs.row(pi), r.costs, r.line);
    }
    if (with_lines) {
      const std::uint32_t li = call_line_of(ck, ek, r.site.line, r.line);
      if (li == none) return;
      add_saturating(call_lines[li].count, r.count);
      add_quietly(call_line_costs.row(li), r.costs);
      if (tracked) note_given(call_line_given, li, given_of(r.given, r.costs.size()));
      if (!call_line_layouts.empty()) call_line_layouts[li] |= layout_bit;
    }
  }

  // The call of (ck, ek), or row_index::empty and the slot add_call() takes (`h` its hash).
  std::uint32_t find_call(std::uint32_t ck, std::uint32_t ek, std::uint64_t h, std::size_t& slot) {
    if (ck < call_chain.size() && call_chain[ck] > chained)
      return other_calls.find(
          h, [&](std::uint32_t i) { return calls[i].caller == ck && calls[i].callee == ek; }, slot);
    for (std::uint32_t i = keys[ck].calls; i != none; i = call_next[i])
      if (calls[i].callee == ek) return i;
    return row_index::empty;
  }
  // A new call of (ck, ek) after find_call() found none.
  std::uint32_t add_call(std::uint32_t ck, std::uint32_t ek, std::uint64_t h, std::size_t slot) {
    const auto ci = static_cast<std::uint32_t>(calls.size());
    calls.push_back({ck, ek, 0});
    call_costs.add_row();
    if (tracking) call_given.push_back(0);
    if (layouts.size() > 1) call_layouts.push_back(0);
    call_next.push_back(keys[ck].calls);
    keys[ck].calls = ci;
    if (ck >= call_chain.size()) call_chain.resize(keys.size(), 0);
    std::uint8_t& n = call_chain[ck];
    if (n > chained) {
      other_calls.insert(h, ci, slot);
    } else if (++n > chained) {
      // (The caller's chain is long now: each of its calls goes into the index.)
      for (std::uint32_t i = ci; i != none; i = call_next[i]) {
        const std::uint64_t hi = mix(mix(4, ck), calls[i].callee);
        std::size_t at = 0;
        other_calls.find(
            hi, [](std::uint32_t) { return false; }, at);
        other_calls.insert(hi, i, at);
      }
    }
    return ci;
  }

  // --raw: the record into its row as the model keeps it (see raw_call).
  void raw_call_row(const call_record& r, std::uint32_t ck, std::uint32_t ek,
                    const function_entry& f) {
    const std::uint64_t target_line = r.has_target ? r.target.line : 0;
    std::uint64_t h =
        mix(mix(mix(mix(13, part), reinterpret_cast<std::uintptr_t>(&f)), r.ctx.source_file),
            r.site.line);
    h = mix(mix(mix(mix(mix(h, r.callee_object), r.callee_file), r.callee_function), r.has_target),
            target_line);
    auto same = [&](std::uint32_t i) {
      const raw_call& c = raw_calls[i];
      return c.part == part && c.function == &f && c.source_file == r.ctx.source_file &&
             c.site_line == r.site.line && c.callee_object == r.callee_object &&
             c.callee_file == r.callee_file && c.callee_function == r.callee_function &&
             c.has_target == r.has_target && c.target_line == target_line;
    };
    std::size_t slot = 0;
    std::uint32_t i = raw_call_index.find(h, same, slot);
    if (i == row_index::empty) {
      if (!room(r.line)) return;
      i = static_cast<std::uint32_t>(raw_calls.size());
      raw_call_index.insert(h, i, slot);
      raw_call c;
      c.part = part;
      c.caller = ck;
      c.callee = ek;
      c.function = &f;
      c.source_file = r.ctx.source_file;
      c.callee_object = r.callee_object;
      c.callee_file = r.callee_file;
      c.callee_function = r.callee_function;
      c.site_line = r.site.line;
      c.target_line = target_line;
      c.has_target = r.has_target;
      raw_calls.push_back(c);
      raw_call_costs.add_row();
      if (tracking) raw_call_given.push_back(0);
      if (layouts.size() > 1) raw_call_layouts.push_back(0);
    }
    if (!add_saturating(raw_calls[i].count, r.count)) overflow(r.line);
    add(raw_call_costs.row(i), r.costs, r.line);
    if (tracked) note_given(raw_call_given, i, given_of(r.given, r.costs.size()));
    if (!raw_call_layouts.empty()) raw_call_layouts[i] |= layout_bit;
  }

  // --raw, once every record is in: as callgrind_annotate 3.19, a call whose count sums to 0
  // is its caller's self cost (and its line's, in the caller's file); the others are calls
  // (annotate_direct_tables.cc).
  void settle_raw_calls();

  // Key k has a line `line` of display file `file` (views only).
  // With `costs`, its self cost there (kept per file other than its own).
  void note_key_line(std::uint32_t k, std::uint32_t file, std::uint64_t line,
                     std::span<const std::uint64_t> costs = {});

  // A jump of a found source file (views only).
  void jump(const jump_record& r);

  // The tables, summed from the reading (everything a report prints from).
  status make_tables(views::annotate_data& d, std::vector<std::string>* warnings);
};

}  // namespace calltree

#include "views/annotate_sums_lines.h"  // (the source lines' members, defined inline)

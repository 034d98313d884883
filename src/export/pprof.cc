// export/pprof.cc — profile.proto (github.com/google/pprof/proto/profile.proto), gzipped.
//
// One sample type per column (unit_of: Xdebug's Time_(10ns) becomes nanoseconds, each count
// times 10). One function per key used (its name, its file, its first line with cost when the
// source was found), one location per function (that line; the mapping of its ob= object),
// and one sample per frame of the estimate's tree with a self cost: its stack (leaf first, as
// pprof wants) and its exact self costs. pprof's flat column is then every function's self
// cost and its total the program's, exactly; only the cum column of a function with several
// callers carries the estimate (docs/estimate.md).
#include <algorithm>
#include <climits>
#include <deque>
#include <future>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "export/formats.h"
#include "export/gzip_stream.h"
#include "export/pprof_addresses.h"
#include "export/protobuf.h"
#include "export/stacks.h"
#include "views/session.h"
#include "views/stack_filter.h"

namespace calltree::exporting {

namespace {

// profile.proto's field numbers.
namespace profile_field {
constexpr std::uint32_t sample_type = 1, sample = 2, mapping = 3, location = 4, function = 5,
                        string_table = 6, period_type = 11, period = 12, comment = 13,
                        default_sample_type = 14;
}
namespace value_type_field {
constexpr std::uint32_t type = 1, unit = 2;
}
namespace sample_field {
constexpr std::uint32_t location_id = 1, value = 2;
}
namespace mapping_field {
constexpr std::uint32_t id = 1, memory_start = 2, memory_limit = 3, filename = 5, has_functions = 7,
                        has_filenames = 8, has_line_numbers = 9;
}
namespace location_field {
constexpr std::uint32_t id = 1, mapping_id = 2, address = 3, line = 4;
}
namespace line_field {
constexpr std::uint32_t function_id = 1, line = 2;
}
namespace function_field {
constexpr std::uint32_t id = 1, name = 2, system_name = 3, filename = 4, start_line = 5;
}

// Strings numbered in order of first use, each written to the gzip stream as it is numbered
// (the wire format leaves field order free, and a repeated field may come in pieces: the
// string table is the order of its entries, wherever they are). index() finds a string given
// before (a lookup of a known string allocates nothing); add() numbers one the caller knows to
// be new (a name of the session's pool, each asked for once: no hashing of hundreds of
// thousands of long C++ names, 76 MB on the real profile, which so are deflated on the other
// threads while the tables and samples are made, not after them).
class string_table {
 public:
  explicit string_table(gzip_stream& gz) : gz_(gz) { index(""); }
  std::int64_t index(std::string_view s) {
    if (auto it = ids_.find(s); it != ids_.end()) return it->second;
    const std::string& kept = owned_.emplace_back(s);  // (a deque: the views stay valid)
    const auto id = add(kept);
    ids_.emplace(kept, id);
    return id;
  }
  // (pprof allows the same text twice in its table.)
  std::int64_t add(std::string_view s) {
    field_.clear();
    field_.tag(profile_field::string_table, 2);
    field_.varint(s.size());
    gz_.write(field_.bytes());
    gz_.write(s);
    return next_++;
  }

 private:
  gzip_stream& gz_;
  proto_encoder field_;
  std::unordered_map<std::string_view, std::int64_t> ids_;
  std::deque<std::string> owned_;
  std::int64_t next_ = 0;
};

// Every key once, depth first along the calls from the keys no one calls (callees in the
// order of the calls), then what no root reaches (cycles), in key order.
// A signed cost (a file of differences) times a unit's scale, held at the signed limits.
std::uint64_t signed_scaled(std::uint64_t n, std::uint64_t scale) {
  std::int64_t r;
  if (__builtin_mul_overflow(as_signed(n), static_cast<std::int64_t>(scale), &r))
    return static_cast<std::uint64_t>(as_signed(n) < 0 ? INT64_MIN : INT64_MAX);
  return static_cast<std::uint64_t>(r);
}

std::vector<std::uint32_t> depth_first(const views::session& s) {
  const std::size_t n = s.keys();
  std::vector<std::uint32_t> first(n + 1, 0), callees, order;
  std::vector<char> called(n, 0), seen(n, 0);
  for (const auto& c : s.t.calls)
    if (c.caller < n && c.callee < n) {
      ++first[c.caller + 1];
      called[c.callee] = 1;
    }
  for (std::size_t k = 0; k < n; ++k) first[k + 1] += first[k];
  callees.resize(first[n]);
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (const auto& c : s.t.calls)
    if (c.caller < n && c.callee < n) callees[fill[c.caller]++] = c.callee;
  order.reserve(n);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (key, next callee index)
  auto visit = [&](std::uint32_t root) {
    if (seen[root]) return;
    seen[root] = 1;
    order.push_back(root);
    stack.assign(1, {root, first[root]});
    while (!stack.empty()) {
      auto& [k, next] = stack.back();
      if (next == first[k + 1]) {
        stack.pop_back();
        continue;
      }
      const std::uint32_t c = callees[next++];
      if (seen[c]) continue;
      seen[c] = 1;
      order.push_back(c);
      stack.emplace_back(c, first[c]);
    }
  };
  for (std::uint32_t k = 0; k < n; ++k)
    if (!called[k]) visit(k);
  for (std::uint32_t k = 0; k < n; ++k) visit(k);
  return order;
}

}  // namespace

result<export_report> write_pprof(const views::session& s, const export_options& o,
                                  const export_sink& out) {
  // The columns first: an unknown event or part is refused before anything is written.
  auto cols = export_columns(s, o);
  if (!cols) return cols.error();

  // The gzip stream from the start: the strings go into it as they are numbered, the
  // functions and locations in batches as they are made, then the samples, then the rest.
  gzip_stream gz(out, o.threads);
  string_table strings(gz);

  // Functions: one per key with a self cost in the exported events (the tree has a frame of
  // each: the self costs are placed exactly), then one per key of the tree still without (a
  // caller on the way to them). They need the session only, not the tree: made on a thread of
  // their own while this one makes the tree (their names are most of the strings: 76 MB of the
  // real profile, numbered and so written into the stream there). In the call graph's
  // depth-first order, callees after their callers as the tree's frames come: a context's
  // name then sits near its callers', which share most of it, within deflate's window (the
  // real profile's file: 10.0 MB, where the keys' own order made 13.3 MB).
  const std::uint32_t keys = static_cast<std::uint32_t>(s.keys());
  std::vector<std::uint64_t> function_of(keys, 0);
  std::uint64_t next_function = 1;
  proto_encoder functions, locations, mappings;
  auto flush_tables = [&] {  // (into the stream in batches, as the samples)
    if (functions.size() + locations.size() < (1u << 20)) return;
    for (proto_encoder* piece : {&locations, &functions}) {
      gz.write(piece->bytes());
      piece->clear();
    }
  };
  std::vector<std::int64_t> file_strings(s.t.files.size(), -1);             // per display file
  id_vector<string_id, std::int64_t> name_strings(s.p.strings.size(), -1);  // per pool name
  proto_encoder fm;
  auto add_function = [&](std::uint32_t k) {
    function_of[k] = next_function++;
    const std::uint64_t first_line = k < s.t.key_first_line.size() ? s.t.key_first_line[k] : 0;
    fm.clear();
    fm.varint_field(function_field::id, function_of[k]);
    // (names by the pool's id: one lookup per distinct name, no hashing of its text)
    std::int64_t& name_string = name_strings[s.t.key_function[k]];
    if (name_string < 0) name_string = strings.add(s.name(k));
    const std::int64_t name = name_string;
    fm.int64_field(function_field::name, name);
    // pprof demangles and simplifies a name whose system name is the same ("Animal::<=>"
    // would lose its "<=>" as template arguments): callgrind's names are already demangled,
    // so only a mangled one ("_Z...") is given as a system name.
    if (s.name(k).starts_with("_Z")) fm.int64_field(function_field::system_name, name);
    std::int64_t& file_string = file_strings[s.t.key_file[k]];
    if (file_string < 0) file_string = strings.index(s.file(k));
    fm.int64_field(function_field::filename, file_string);
    if (first_line)
      fm.int64_field(function_field::start_line, static_cast<std::int64_t>(first_line));
    functions.message_field(profile_field::function, fm);
    flush_tables();
  };
  const auto costs = s.costs_of(o.parts);
  auto make_functions = [&] {
    for (std::uint32_t k : depth_first(s)) {
      if (!costs->present(k)) continue;
      bool any = false;
      for (const auto& c : cols->columns) any |= c.value(costs->self(k)) != 0;
      if (any) add_function(k);
    }
  };
  std::future<void> functions_made;
  if (o.threads > 1) {
    try {
      functions_made = std::async(std::launch::async, make_functions);
    } catch (const std::system_error&) {
      // No thread to be had: made after the tree, on this one.
    }
  }
  const bool on_thread = functions_made.valid();
  auto made = make_stacks(s, o);
  if (on_thread)
    functions_made.get();  // (before anything returns: it uses this frame)
  else
    make_functions();
  if (made)
    for (std::uint32_t k : made->tree.node)
      if (!function_of[k]) add_function(k);
  if (!made) return made.error();
  const stacks& st = *made;
  const path_tree& tree = st.tree;
  const std::size_t ncol = st.columns.size();
  export_report report;
  report.frames = tree.frames();
  report.estimated = tree.estimated;
  report.warnings = st.columns.warnings;
  note_filtered(report, st);
  // Instruction-level profiles: a location per address (export/pprof_addresses.h).
  std::optional<address_split> split;
  if (o.addresses) {
    auto split_read = split_by_address(s, st.columns, o.parts, tree);
    if (!split_read) return split_read.error();
    split = std::move(*split_read);
    if (!split)
      report.warnings.push_back(s.input_name == "-"
                                    ? "--addresses: standard input cannot be read again for the "
                                      "instruction addresses; one location per function"
                                    : "--addresses: the profile has no instruction positions; one "
                                      "location per function");
  }

  proto_encoder profile, m, line;
  std::vector<event_unit> units;
  for (const auto& c : st.columns.columns) {
    units.push_back(unit_of(c.name));
    m.clear();
    m.int64_field(value_type_field::type, strings.index(units.back().type));
    m.int64_field(value_type_field::unit, strings.index(units.back().unit));
    profile.message_field(profile_field::sample_type, m);
  }

  // Locations: one per key that has a frame, numbered from 1 in order of first frame (a
  // stack's ids are then small and alike: the samples compress well), each at its function's
  // first line; mappings per object.
  std::vector<std::uint64_t> location_of(s.keys(), 0);
  std::vector<std::uint64_t> mapping_of_object(s.t.objects.size(), 0);
  std::uint64_t next_location = 1, next_mapping = 1;
  // Per object: the range of its addresses and whether anything in it has line numbers.
  std::vector<std::uint64_t> object_low(s.t.objects.size(), UINT64_MAX);
  std::vector<std::uint64_t> object_high(s.t.objects.size(), 0);
  std::vector<char> object_lines(s.t.objects.size(), 0);
  for (std::uint32_t k = 0; k < keys; ++k)
    if (s.t.key_has_object[k] && k < s.t.key_first_line.size() && s.t.key_first_line[k])
      object_lines[s.t.key_object[k]] = 1;
  if (split)
    for (const auto& r : split->rows) {
      if (r.object >= s.t.objects.size()) continue;
      object_low[r.object] = std::min(object_low[r.object], r.address);
      object_high[r.object] = std::max(object_high[r.object], r.address);
      object_lines[r.object] |= r.line != 0;
    }
  auto mapping_for = [&](std::uint32_t ob) -> std::uint64_t {
    if (mapping_of_object[ob]) return mapping_of_object[ob];
    mapping_of_object[ob] = next_mapping++;
    proto_encoder mm;
    mm.varint_field(mapping_field::id, mapping_of_object[ob]);
    if (object_low[ob] <= object_high[ob]) {
      mm.varint_field(mapping_field::memory_start, object_low[ob]);
      mm.varint_field(mapping_field::memory_limit, object_high[ob] + 1);
    }
    mm.int64_field(mapping_field::filename, strings.index(s.t.objects[ob]));
    mm.varint_field(mapping_field::has_functions, 1);
    mm.varint_field(mapping_field::has_filenames, 1);
    mm.varint_field(mapping_field::has_line_numbers, object_lines[ob] ? 1 : 0);
    mappings.message_field(profile_field::mapping, mm);
    return mapping_of_object[ob];
  };
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t k = tree.node[f];
    if (location_of[k]) continue;
    const std::uint64_t id = next_location++;
    location_of[k] = id;
    const std::uint64_t first_line = k < s.t.key_first_line.size() ? s.t.key_first_line[k] : 0;
    std::uint64_t mapping = 0;
    if (s.t.key_has_object[k] && !s.t.objects[s.t.key_object[k]].empty())
      mapping = mapping_for(s.t.key_object[k]);
    line.clear();
    line.varint_field(line_field::function_id, function_of[k]);
    if (first_line) line.int64_field(line_field::line, static_cast<std::int64_t>(first_line));
    m.clear();
    m.varint_field(location_field::id, id);
    if (mapping) m.varint_field(location_field::mapping_id, mapping);
    m.message_field(location_field::line, line);
    locations.message_field(profile_field::location, m);
    flush_tables();
  }

  // Address locations: one per (key, object, address) that a frame's cost is dealt to, with
  // the address's line in its key's function, numbered after the functions' locations.
  std::vector<std::uint64_t> location_of_row;
  if (split) {
    location_of_row.assign(split->rows.size(), 0);
    for (const auto& c : split->cells) {
      std::uint64_t& id = location_of_row[c.row];
      if (id) continue;
      const address_row& r = split->rows[c.row];
      id = next_location++;
      line.clear();
      line.varint_field(line_field::function_id, function_of[r.key]);
      if (r.line) line.int64_field(line_field::line, static_cast<std::int64_t>(r.line));
      m.clear();
      m.varint_field(location_field::id, id);
      if (r.object < s.t.objects.size() && !s.t.objects[r.object].empty())
        m.varint_field(location_field::mapping_id, mapping_for(r.object));
      m.varint_field(location_field::address, r.address);
      m.message_field(location_field::line, line);
      locations.message_field(profile_field::location, m);
      flush_tables();
    }
  }

  // Samples: every frame with a self cost, its stack leaf first, compressed in batches as
  // they are encoded. A frame whose cost is dealt to addresses gives one sample per address,
  // the address's location as the leaf.
  gz.write(profile.bytes());
  profile.clear();
  for (proto_encoder* piece : {&locations, &functions}) {
    gz.write(piece->bytes());
    piece->clear();
  }
  // The packed location ids of the current frame's stack, leaf first, are kept encoded,
  // written backwards from the end of `rev`: the root's id ends the buffer and a frame's id goes
  // just before its parent's, so each frame encodes one id, whatever its depth.
  std::uint32_t deepest = 0;
  for (std::uint32_t d : tree.depth) deepest = std::max(deepest, d);
  std::string rev((std::size_t{deepest} + 1) * 10, '\0');
  char* const rev_end = rev.data() + rev.size();
  std::vector<char*> begin_at;  // by depth: where that frame's stack begins in `rev`
  std::vector<std::int64_t> values(ncol);
  auto put_sample = [&](const char* begin, const std::uint64_t* self) {
    bool any = false;
    std::size_t values_size = 0;
    for (std::size_t c = 0; c < ncol; ++c) {
      // (A file of differences: a signed value, as pprof's own -diff_base profiles hold.)
      const std::uint64_t v = s.p.signed_costs ? signed_scaled(self[c], units[c].scale)
                                               : scaled(self[c], units[c].scale);
      values[c] = s.p.signed_costs                            ? as_signed(v)
                  : v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX
                                                              : static_cast<std::int64_t>(v);
      values_size += proto_encoder::varint_size(static_cast<std::uint64_t>(values[c]));
      any |= v != 0;
    }
    if (!any) return;
    // Sample{location_id: packed ids, value: packed values}
    const auto ids_size = static_cast<std::size_t>(rev_end - begin);
    const std::size_t body = 1 + proto_encoder::varint_size(ids_size) + ids_size + 1 +
                             proto_encoder::varint_size(values_size) + values_size;
    profile.tag(profile_field::sample, 2);
    profile.varint(body);
    profile.tag(sample_field::location_id, 2);
    profile.varint(ids_size);
    profile.raw(std::string_view(begin, ids_size));
    profile.tag(sample_field::value, 2);
    profile.varint(values_size);
    for (std::int64_t v : values) profile.varint(static_cast<std::uint64_t>(v));
    if (profile.size() >= (1u << 20)) {
      gz.write(profile.bytes());
      profile.clear();
    }
  };
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t d = tree.depth[f];
    begin_at.resize(d);
    char* const parent = d ? begin_at[d - 1] : rev_end;
    const std::uint64_t own = location_of[tree.node[f]];
    const bool by_address = split && split->frame_first[f] < split->frame_first[f + 1];
    // By address: each address's id goes where the frame's own id goes, one sample each;
    // then the own id is written there (for the callees' frames: they see the function).
    if (by_address)
      for (std::uint32_t i = split->frame_first[f]; i < split->frame_first[f + 1]; ++i) {
        const auto& c = split->cells[i];
        put_sample(proto_encoder::varint_before(parent, location_of_row[c.row]),
                   split->cell_values.data() + c.value);
      }
    begin_at.push_back(proto_encoder::varint_before(parent, own));
    if (!by_address) put_sample(begin_at.back(), tree.self.row(f).data());
  }
  gz.write(profile.bytes());
  // The rest (field order is free in the wire format): the period type is the first sample
  // type, one count per sample; comments say where the stacks come from.
  proto_encoder tail;
  m.clear();
  m.int64_field(value_type_field::type, strings.index(units[0].type));
  m.int64_field(value_type_field::unit, strings.index(units[0].unit));
  tail.message_field(profile_field::period_type, m);
  tail.int64_field(profile_field::period, 1);
  const std::int64_t comments[] = {
      strings.index("calltree export of " + s.input_name),
      strings.index(st.recorded      ? "stacks: as the file records them; exact"
                    : tree.estimated ? "stacks: call paths estimated from the call graph (calltree "
                                       "docs/estimate.md); self costs and totals exact"
                                     : "stacks: the call graph is a tree; exact")};
  std::vector<std::int64_t> comment_list(std::begin(comments), std::end(comments));
  // A filtered export says what it left out (go tool pprof -comments shows it).
  if (st.filtered)
    comment_list.push_back(
        strings.index(views::filter_note(*report.filtered, report.filtered_events, o.filter.text)));
  tail.packed_field<std::int64_t>(profile_field::comment, comment_list);
  tail.int64_field(profile_field::default_sample_type, strings.index(units[0].type));
  for (const proto_encoder* piece : {&mappings, &tail}) gz.write(piece->bytes());
  if (auto z = gz.finish(); !z) return z.error();
  return report;
}

}  // namespace calltree::exporting

// export/pprof.cc — profile.proto (github.com/google/pprof/proto/profile.proto), gzipped.
//
// One sample type per column (unit_of: Xdebug's Time_(10ns) becomes nanoseconds, each count
// times 10). One function per key used (its name, its file, its first line with cost when the
// source was found), one location per function (that line; the mapping of its ob= object),
// and one sample per frame of the estimate's tree with a self cost: its stack (leaf first, as
// pprof wants) and its exact self costs. pprof's flat column is then every function's self
// cost and its total the program's, exactly; only the cum column of a function with several
// callers carries the estimate (docs/estimate.md).
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <span>
#include <unordered_map>

#include "export/formats.h"
#include "export/pprof_addresses.h"
#include "export/protobuf.h"
#include "export/stacks.h"
#include "views/session.h"

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
constexpr std::uint32_t id = 1, memory_start = 2, memory_limit = 3, filename = 5,
                        has_functions = 7, has_filenames = 8, has_line_numbers = 9;
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

// Strings numbered in order of first use; a lookup of a known string allocates nothing.
class string_table {
 public:
  string_table() { index(""); }
  std::int64_t index(std::string_view s) {
    if (auto it = ids_.find(s); it != ids_.end()) return it->second;
    const std::string& kept = order_.emplace_back(s);  // (a deque: the views stay valid)
    const auto id = static_cast<std::int64_t>(order_.size() - 1);
    ids_.emplace(kept, id);
    return id;
  }
  void write(proto_encoder& out) const {
    for (const std::string& s : order_) out.bytes_field(profile_field::string_table, s);
  }

 private:
  std::unordered_map<std::string_view, std::int64_t> ids_;
  std::deque<std::string> order_;
};

// Gzips the pieces, one after another, into `out`, at level 1: 0.04 s for the 3.4 MB proto of
// the corpus's 24 MB profile where level 6 takes 0.11 s (gzip -1/-6), the file 11 % larger (it
// is read once, by pprof or an ingester).
status gzip_to(std::initializer_list<std::string_view> pieces, const export_sink& out) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return error{"zlib: deflateInit2 failed"};
  std::string buf(1 << 16, '\0');
  const std::string_view* last = pieces.end() - 1;
  for (const std::string_view* piece = pieces.begin(); piece != pieces.end(); ++piece) {
    std::string_view data = *piece;
    do {
      const uInt chunk = static_cast<uInt>(std::min<std::size_t>(data.size(), 1u << 30));
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
      z.avail_in = chunk;
      data.remove_prefix(chunk);
      const int flush = piece == last && data.empty() ? Z_FINISH : Z_NO_FLUSH;
      do {
        z.next_out = reinterpret_cast<Bytef*>(buf.data());
        z.avail_out = static_cast<uInt>(buf.size());
        if (deflate(&z, flush) == Z_STREAM_ERROR) {
          deflateEnd(&z);
          return error{"zlib: deflate failed"};
        }
        out(std::string_view(buf.data(), buf.size() - z.avail_out));
      } while (z.avail_out == 0);
    } while (!data.empty());
  }
  deflateEnd(&z);
  return ok();
}

}  // namespace

result<export_report> write_pprof(const views::session& s, const export_options& o,
                                  const export_sink& out) {
  auto made = make_stacks(s, o);
  if (!made) return made.error();
  const stacks& st = *made;
  const path_tree& tree = st.tree;
  const std::size_t ncol = st.columns.size();
  export_report report;
  report.frames = tree.frames();
  report.estimated = tree.estimated;
  report.warnings = st.columns.warnings;
  // Instruction-level profiles: a location per address (export/pprof_addresses.h).
  std::optional<address_split> split;
  if (o.addresses) {
    auto split_read = split_by_address(s, st.columns, o.parts, tree);
    if (!split_read) return split_read.error();
    split = std::move(*split_read);
    if (!split)
      report.warnings.push_back(
          s.input_name == "-" ? "--addresses: standard input cannot be read again for the "
                                "instruction addresses; one location per function"
                              : "--addresses: the profile has no instruction positions; one "
                                "location per function");
  }

  string_table strings;
  proto_encoder profile, m;
  std::vector<event_unit> units;
  for (const auto& c : st.columns.columns) {
    units.push_back(unit_of(c.name));
    m.clear();
    m.int64_field(value_type_field::type, strings.index(units.back().type));
    m.int64_field(value_type_field::unit, strings.index(units.back().unit));
    profile.message_field(profile_field::sample_type, m);
  }

  // Functions and locations: one each per key that has a frame, numbered from 1 in order of
  // first frame; mappings per object.
  std::vector<std::uint64_t> location_of(s.keys(), 0);
  std::vector<std::uint64_t> mapping_of_object(s.t.objects.size(), 0);
  proto_encoder functions, locations, mappings, line;
  std::uint64_t next_location = 1, next_mapping = 1;
  // Per object: the range of its addresses and whether anything in it has line numbers.
  std::vector<std::uint64_t> object_low(s.t.objects.size(), UINT64_MAX);
  std::vector<std::uint64_t> object_high(s.t.objects.size(), 0);
  std::vector<char> object_lines(s.t.objects.size(), 0);
  for (std::uint32_t k = 0; k < s.keys(); ++k)
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
    m.clear();
    m.varint_field(mapping_field::id, mapping_of_object[ob]);
    if (object_low[ob] <= object_high[ob]) {
      m.varint_field(mapping_field::memory_start, object_low[ob]);
      m.varint_field(mapping_field::memory_limit, object_high[ob] + 1);
    }
    m.int64_field(mapping_field::filename, strings.index(s.t.objects[ob]));
    m.varint_field(mapping_field::has_functions, 1);
    m.varint_field(mapping_field::has_filenames, 1);
    m.varint_field(mapping_field::has_line_numbers, object_lines[ob] ? 1 : 0);
    mappings.message_field(profile_field::mapping, m);
    return mapping_of_object[ob];
  };
  std::vector<std::int64_t> file_strings(s.t.files.size(), -1);    // per display file
  std::vector<std::int64_t> name_strings(s.p.strings.size(), -1);  // per name of the pool
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t k = tree.node[f];
    if (location_of[k]) continue;
    const std::uint64_t id = next_location++;
    location_of[k] = id;
    const std::uint64_t first_line = k < s.t.key_first_line.size() ? s.t.key_first_line[k] : 0;
    m.clear();
    m.varint_field(function_field::id, id);
    // (names by the pool's id: one lookup per distinct name, no hashing of its text)
    std::int64_t& name_string = name_strings[s.t.key_function[k]];
    if (name_string < 0) name_string = strings.index(s.name(k));
    const std::int64_t name = name_string;
    m.int64_field(function_field::name, name);
    // pprof demangles and simplifies a name whose system name is the same ("Animal::<=>"
    // would lose its "<=>" as template arguments): callgrind's names are already demangled,
    // so only a mangled one ("_Z...") is given as a system name.
    if (s.name(k).starts_with("_Z")) m.int64_field(function_field::system_name, name);
    std::int64_t& file_string = file_strings[s.t.key_file[k]];
    if (file_string < 0) file_string = strings.index(s.file(k));
    m.int64_field(function_field::filename, file_string);
    if (first_line)
      m.int64_field(function_field::start_line, static_cast<std::int64_t>(first_line));
    functions.message_field(profile_field::function, m);

    std::uint64_t mapping = 0;
    if (s.t.key_has_object[k] && !s.t.objects[s.t.key_object[k]].empty())
      mapping = mapping_for(s.t.key_object[k]);
    line.clear();
    line.varint_field(line_field::function_id, id);
    if (first_line) line.int64_field(line_field::line, static_cast<std::int64_t>(first_line));
    m.clear();
    m.varint_field(location_field::id, id);
    if (mapping) m.varint_field(location_field::mapping_id, mapping);
    m.message_field(location_field::line, line);
    locations.message_field(profile_field::location, m);
  }

  std::vector<std::uint64_t> stack;  // by depth: location ids, root first
  std::vector<std::uint64_t> ids;
  std::vector<std::int64_t> values(ncol);
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
      line.varint_field(line_field::function_id, location_of[r.key]);
      if (r.line) line.int64_field(line_field::line, static_cast<std::int64_t>(r.line));
      m.clear();
      m.varint_field(location_field::id, id);
      if (r.object < s.t.objects.size() && !s.t.objects[r.object].empty())
        m.varint_field(location_field::mapping_id, mapping_for(r.object));
      m.varint_field(location_field::address, r.address);
      m.message_field(location_field::line, line);
      locations.message_field(profile_field::location, m);
    }
  }

  // Samples: every frame with a self cost, its stack leaf first; a frame whose cost is dealt
  // to addresses, one sample per address, the address's location as the leaf.
  auto put_sample = [&](std::span<const std::uint64_t> stack_ids, const std::uint64_t* self) {
    bool any = false;
    for (std::size_t c = 0; c < ncol; ++c) {
      const std::uint64_t v = scaled(self[c], units[c].scale);
      values[c] =
          v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v);
      any |= v != 0;
    }
    if (!any) return;
    ids.assign(stack_ids.rbegin(), stack_ids.rend());
    m.clear();
    m.packed_field<std::uint64_t>(sample_field::location_id, ids);
    m.packed_field<std::int64_t>(sample_field::value, values);
    profile.message_field(profile_field::sample, m);
  };
  for (std::size_t f = 0; f < tree.frames(); ++f) {
    const std::uint32_t d = tree.depth[f];
    stack.resize(d);
    stack.push_back(location_of[tree.node[f]]);
    if (split && split->frame_first[f] < split->frame_first[f + 1]) {
      for (std::uint32_t i = split->frame_first[f]; i < split->frame_first[f + 1]; ++i) {
        const auto& c = split->cells[i];
        stack.back() = location_of_row[c.row];
        put_sample(stack, split->cell_values.data() + c.value);
      }
      stack.back() = location_of[tree.node[f]];  // the callees' frames see the function
      continue;
    }
    put_sample(stack, tree.self.row(f).data());
  }
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
      strings.index(tree.estimated ? "stacks: call paths estimated from the call graph (calltree "
                                     "docs/estimate.md); self costs and totals exact"
                                   : "stacks: the call graph is a tree; exact")};
  tail.packed_field<std::int64_t>(profile_field::comment, comments);
  tail.int64_field(profile_field::default_sample_type, strings.index(units[0].type));
  strings.write(tail);

  // (Fields may come in any order: the pieces are compressed one after another, never joined.)
  if (auto z = gzip_to(
          {profile.bytes(), mappings.bytes(), locations.bytes(), functions.bytes(), tail.bytes()},
          out);
      !z)
    return z.error();
  return report;
}

}  // namespace calltree::exporting

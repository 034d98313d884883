// pprof.cc — pprof's profile.proto (Go's runtime/pprof, `go tool pprof -proto`, gperftools'
// and others' files converted by pprof), decoded by hand from the protocol buffers wire format.
//
// The format (github.com/google/pprof, proto/profile.proto): sample types (type and unit),
// samples (location ids leaf first, one value per sample type, labels), mappings (the objects
// loaded), locations (an address in a mapping and its lines: line[0] the innermost inlined
// function, the last the function the code is in), functions (name, file, first line) and a
// string table the others index. What is made of it, for stack_profile (stacks.h):
// - each sample type is an event named `type_unit` (`samples_count`, `cpu_nanoseconds`,
//   `alloc_space_bytes`), in the file's order; the values are the file's integers, exactly;
// - each Line of a location is a frame (so an inlined function is a function of its own, as
//   pprof's `-top` shows it, flat and cum): the function's name (else its system name), its
//   file, its start_line, the line's number; its object is the location's mapping's file;
// - a location without lines (not symbolized) is one frame named by its address, `0x4a5b6c`,
//   in its mapping's object (what `go tool pprof -top -addresses` lists; `-top` sums such
//   frames per object, as `[object]`); a Line whose function is not in the file likewise;
// - a sample's call count is its first value where the first sample type counts (unit
//   `count`, as pprof's convention has it), else 1 per sample (at least 1 either way);
// - negative values (`go tool pprof -proto -diff_base=...`): the profile's costs are signed
//   (cost_matrix.h, "Signed costs"), as a file of differences that cg_diff writes;
// - kept as `desc:` lines: the period and its type, the time and duration, the default sample
//   type, the comments, the label keys (a sample's labels themselves are not kept: callgrind's
//   format has nowhere for them), and drop_frames/keep_frames, which are not applied (pprof
//   prunes what they match; Go does not write them).
// Any fault of the wire format (a varint or a length past the end, a wire type that does not
// fit the field) or of the profile (a sample naming no location of the file, a string index
// out of the table, values not one per sample type) is a bad-pprof error giving its byte
// offset in the uncompressed protobuf, and nothing of the file is read: pprof refuses them too.
#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>
#include <vector>

#include "calltree/cost_matrix.h"
#include "import/import.h"
#include "import/stacks.h"

namespace calltree::detail {

namespace {

// The first fault found, and where.
struct fault {
  bool set = false;
  std::size_t offset = 0;
  std::string what;
  bool raise(std::size_t at, std::string why) {
    if (!set) set = true, offset = at, what = std::move(why);
    return false;
  }
};

enum wire_type : std::uint8_t {
  varint_wire = 0,
  fixed64_wire = 1,
  bytes_wire = 2,
  fixed32_wire = 5
};

// A message's fields, one by one: [begin, end) of the whole input, whose offsets the faults
// give. Every length is checked against the end of the message it is in.
class wire_reader {
 public:
  wire_reader(std::string_view all, std::size_t begin, std::size_t end, fault& f)
      : all_(all), pos_(begin), end_(end), fault_(f) {}

  // The next field; false at the message's end or at a fault.
  bool next() {
    if (pos_ >= end_ || fault_.set) return false;
    at_ = pos_;
    std::uint64_t tag = 0;
    if (!varint(pos_, end_, tag)) return false;
    field_ = tag >> 3;
    type_ = static_cast<std::uint8_t>(tag & 7);
    if (field_ == 0 || field_ > 0x1fffffff) return fault_.raise(at_, "field number 0 or too large");
    value_ = 0;
    switch (type_) {
      case varint_wire:
        return varint(pos_, end_, value_);
      case fixed64_wire:
      case fixed32_wire: {
        const std::size_t n = type_ == fixed64_wire ? 8 : 4;
        if (end_ - pos_ < n) return fault_.raise(pos_, "a fixed-size value runs past its end");
        for (std::size_t i = n; i-- > 0;)
          value_ = value_ << 8 | static_cast<unsigned char>(all_[pos_ + i]);
        pos_ += n;
        return true;
      }
      case bytes_wire: {
        std::uint64_t len = 0;
        if (!varint(pos_, end_, len)) return false;
        if (len > end_ - pos_)
          return fault_.raise(at_, "a length of " + std::to_string(len) + " bytes runs past the " +
                                       std::to_string(end_ - pos_) + " bytes left");
        payload_ = pos_;
        value_ = len;
        pos_ += static_cast<std::size_t>(len);
        return true;
      }
      default:
        return fault_.raise(at_, "wire type " + std::to_string(type_) + " (field " +
                                     std::to_string(field_) + "), which profile.proto has not");
    }
  }

  bool ok() const { return !fault_.set; }
  std::uint64_t field() const { return field_; }
  std::size_t offset() const { return at_; }
  // The field's bytes (a string or a message).
  std::string_view bytes() const { return all_.substr(payload_, static_cast<std::size_t>(value_)); }
  wire_reader message() const {
    return {all_, payload_, payload_ + static_cast<std::size_t>(value_), fault_};
  }
  // A varint field's value; a fault if the field is of another wire type.
  bool number(std::uint64_t& v, const char* name) {
    if (type_ != varint_wire) return wrong(name);
    v = value_;
    return true;
  }
  bool number(std::int64_t& v, const char* name) {
    std::uint64_t u = 0;
    if (!number(u, name)) return false;
    v = static_cast<std::int64_t>(u);
    return true;
  }
  // A message or string field: a fault if the field is of another wire type.
  bool is_bytes(const char* name) { return type_ == bytes_wire || wrong(name); }
  // A repeated varint field, packed (one length-delimited run) or not (one value a field).
  bool numbers(std::vector<std::uint64_t>& out, const char* name) {
    if (type_ == varint_wire) {
      out.push_back(value_);
      return true;
    }
    if (type_ != bytes_wire) return wrong(name);
    std::size_t p = payload_;
    const std::size_t e = payload_ + static_cast<std::size_t>(value_);
    while (p < e) {
      std::uint64_t v = 0;
      if (!varint(p, e, v)) return false;
      out.push_back(v);
    }
    return true;
  }

 private:
  bool wrong(const char* name) {
    return fault_.raise(at_, std::string(name) + " has wire type " + std::to_string(type_) +
                                 ", which does not fit it");
  }
  bool varint(std::size_t& p, std::size_t end, std::uint64_t& v) {
    v = 0;
    const std::size_t start = p;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      if (p >= end) return fault_.raise(start, "a varint runs past its end");
      const auto b = static_cast<unsigned char>(all_[p++]);
      if (shift == 63 && b > 1) return fault_.raise(start, "a varint longer than 64 bits");
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return fault_.raise(start, "a varint longer than 10 bytes");
  }

  std::string_view all_;
  std::size_t pos_, end_;
  fault& fault_;
  std::size_t at_ = 0, payload_ = 0;
  std::uint64_t field_ = 0, value_ = 0;
  std::uint8_t type_ = 0;
};

// The parts of profile.proto kept, each with where its message began (for the faults).
struct value_type {
  std::int64_t type = 0, unit = 0;
  std::size_t at = 0;
};
struct mapping_msg {
  std::uint64_t id = 0;
  std::int64_t filename = 0;
  std::size_t at = 0;
};
struct line_msg {
  std::uint64_t function_id = 0;
  std::int64_t line = 0;
};
struct location_msg {
  std::uint64_t id = 0, mapping_id = 0, address = 0;
  std::size_t first_line = 0, lines = 0;  // in the profile's `lines`
  std::size_t at = 0;
};
struct function_msg {
  std::uint64_t id = 0;
  std::int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
  std::size_t at = 0;
};
struct range {
  std::size_t begin = 0, end = 0;
  std::size_t at = 0;  // where the field began (its tag)
};

struct decoded {
  std::vector<value_type> sample_types;
  std::vector<range> samples;  // decoded in a second pass, once every table is known
  std::vector<mapping_msg> mappings;
  std::vector<location_msg> locations;
  std::vector<line_msg> lines;
  std::vector<function_msg> functions;
  std::vector<std::string_view> strings;
  std::vector<std::int64_t> comments;
  std::int64_t drop_frames = 0, keep_frames = 0, time_nanos = 0, duration_nanos = 0, period = 0,
               default_sample_type = 0;
  std::optional<value_type> period_type;
};

bool read_value_type(wire_reader m, value_type& v) {
  while (m.next()) {
    if (m.field() == 1 && !m.number(v.type, "ValueType.type")) return false;
    if (m.field() == 2 && !m.number(v.unit, "ValueType.unit")) return false;
  }
  return m.ok();
}

bool read_mapping(wire_reader m, mapping_msg& v) {
  while (m.next()) {
    if (m.field() == 1 && !m.number(v.id, "Mapping.id")) return false;
    if (m.field() == 5 && !m.number(v.filename, "Mapping.filename")) return false;
  }
  return m.ok();
}

bool read_line(wire_reader m, line_msg& v) {
  while (m.next()) {
    if (m.field() == 1 && !m.number(v.function_id, "Line.function_id")) return false;
    if (m.field() == 2 && !m.number(v.line, "Line.line")) return false;
  }
  return m.ok();
}

bool read_location(wire_reader m, location_msg& v, std::vector<line_msg>& lines) {
  v.first_line = lines.size();
  while (m.next()) {
    switch (m.field()) {
      case 1:
        if (!m.number(v.id, "Location.id")) return false;
        break;
      case 2:
        if (!m.number(v.mapping_id, "Location.mapping_id")) return false;
        break;
      case 3:
        if (!m.number(v.address, "Location.address")) return false;
        break;
      case 4: {
        if (!m.is_bytes("Location.line")) return false;
        line_msg l;
        if (!read_line(m.message(), l)) return false;
        lines.push_back(l);
        break;
      }
      default:
        break;
    }
  }
  v.lines = lines.size() - v.first_line;
  return m.ok();
}

bool read_function(wire_reader m, function_msg& v) {
  while (m.next()) {
    switch (m.field()) {
      case 1:
        if (!m.number(v.id, "Function.id")) return false;
        break;
      case 2:
        if (!m.number(v.name, "Function.name")) return false;
        break;
      case 3:
        if (!m.number(v.system_name, "Function.system_name")) return false;
        break;
      case 4:
        if (!m.number(v.filename, "Function.filename")) return false;
        break;
      case 5:
        if (!m.number(v.start_line, "Function.start_line")) return false;
        break;
      default:
        break;
    }
  }
  return m.ok();
}

// The Profile message's fields (samples only found: read_samples decodes them).
bool decode_profile(std::string_view bytes, decoded& d, fault& f) {
  wire_reader m(bytes, 0, bytes.size(), f);
  while (m.next()) {
    const auto at = m.offset();
    switch (m.field()) {
      case 1:
        if (!m.is_bytes("Profile.sample_type")) return false;
        d.sample_types.push_back({0, 0, at});
        if (!read_value_type(m.message(), d.sample_types.back())) return false;
        break;
      case 2: {
        if (!m.is_bytes("Profile.sample")) return false;
        const auto b = static_cast<std::size_t>(m.bytes().data() - bytes.data());
        d.samples.push_back({b, b + m.bytes().size(), at});
        break;
      }
      case 3:
        if (!m.is_bytes("Profile.mapping")) return false;
        d.mappings.push_back({0, 0, at});
        if (!read_mapping(m.message(), d.mappings.back())) return false;
        break;
      case 4:
        if (!m.is_bytes("Profile.location")) return false;
        d.locations.push_back({});
        d.locations.back().at = at;
        if (!read_location(m.message(), d.locations.back(), d.lines)) return false;
        break;
      case 5:
        if (!m.is_bytes("Profile.function")) return false;
        d.functions.push_back({});
        d.functions.back().at = at;
        if (!read_function(m.message(), d.functions.back())) return false;
        break;
      case 6:
        if (!m.is_bytes("Profile.string_table")) return false;
        d.strings.push_back(m.bytes());
        break;
      case 7:
        if (!m.number(d.drop_frames, "Profile.drop_frames")) return false;
        break;
      case 8:
        if (!m.number(d.keep_frames, "Profile.keep_frames")) return false;
        break;
      case 9:
        if (!m.number(d.time_nanos, "Profile.time_nanos")) return false;
        break;
      case 10:
        if (!m.number(d.duration_nanos, "Profile.duration_nanos")) return false;
        break;
      case 11:
        if (!m.is_bytes("Profile.period_type")) return false;
        d.period_type = value_type{0, 0, at};
        if (!read_value_type(m.message(), *d.period_type)) return false;
        break;
      case 12:
        if (!m.number(d.period, "Profile.period")) return false;
        break;
      case 13: {
        std::vector<std::uint64_t> c;
        if (!m.numbers(c, "Profile.comment")) return false;
        for (auto v : c) d.comments.push_back(static_cast<std::int64_t>(v));
        break;
      }
      case 14:
        if (!m.number(d.default_sample_type, "Profile.default_sample_type")) return false;
        break;
      default:
        break;
    }
  }
  return !f.set;
}

// One Sample's fields, into the caller's vectors (cleared first).
struct sample_msg {
  std::vector<std::uint64_t> locations, values;
  std::vector<std::pair<std::int64_t, std::int64_t>> labels;  // (key, num_unit or -1 for text)
};

bool read_sample(wire_reader m, sample_msg& s) {
  s.locations.clear();
  s.values.clear();
  s.labels.clear();
  while (m.next()) {
    if (m.field() == 1 && !m.numbers(s.locations, "Sample.location_id")) return false;
    if (m.field() == 2 && !m.numbers(s.values, "Sample.value")) return false;
    if (m.field() == 3) {
      if (!m.is_bytes("Sample.label")) return false;
      std::int64_t key = 0, unit = 0;
      bool text = false;
      wire_reader l = m.message();
      while (l.next()) {
        if (l.field() == 1 && !l.number(key, "Label.key")) return false;
        if (l.field() == 2) {
          std::int64_t str = 0;
          if (!l.number(str, "Label.str")) return false;
          text = true;
        }
        if (l.field() == 4 && !l.number(unit, "Label.num_unit")) return false;
      }
      if (!l.ok()) return false;
      s.labels.emplace_back(key, text ? -1 : unit);
    }
  }
  return m.ok();
}

// A stack deeper than this (pprof's writers stop far below) is cut at its outermost end: the
// recursion check of stack_profile::emit() is quadratic in a stack's depth.
constexpr std::size_t deepest_stack = 16384;

std::string hex(std::uint64_t v) {
  char b[24] = "0x";
  auto r = std::to_chars(b + 2, b + sizeof b, v, 16);
  return std::string(b, r.ptr);
}

// A string of the table as one line (a comment or name with a newline in it).
std::string one_line(std::string_view s) { return import_line(s); }

// An event's name: no blanks or control characters (callgrind's `events:` line splits on
// blanks), and not one given before.
std::string event_name(std::string_view type, std::string_view unit,
                       const std::vector<std::string>& before) {
  std::string n(type.substr(0, 200));
  if (!unit.empty()) n.append("_").append(unit.substr(0, 200));
  for (char& c : n)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) c = '_';
  if (n.empty()) n = "value";
  std::string u = n;
  for (int k = 2; std::find(before.begin(), before.end(), u) != before.end(); ++k)
    u = n + "_" + std::to_string(k);
  return u;
}

class importer {
 public:
  importer(std::string_view bytes, import_target& to) : bytes_(bytes), to_(to) {}

  void run() {
    if (!decode_profile(bytes_, d_, fault_)) return bad();
    if (!check_tables()) return bad();
    if (d_.sample_types.empty()) {
      to_.no_profile = "no sample type in it";
      return;
    }
    std::vector<std::string> events;
    for (const auto& t : d_.sample_types)
      events.push_back(event_name(str(t.type), str(t.unit), events));
    stack_profile p(to_.names, events);
    describe(p);
    for (const auto& r : d_.samples)
      if (!add_sample(p, r)) return bad();
    describe_labels(p);
    if (p.stacks() == 0) {
      to_.no_profile = "no sample in it";
      return;
    }
    p.signed_costs = negative_;
    if (negative_) {
      set_signed_costs_here(true);
      to_.report(severity::note, diag_code::negative_cost, 0, 0,
                 "negative values (a profile of differences, as `go tool pprof -diff_base` "
                 "writes): its costs are read as signed 64-bit numbers");
    }
    if (cut_)
      to_.report(severity::warning, diag_code::bad_pprof, 0, 0,
                 std::to_string(cut_) + " samples have stacks deeper than " +
                     std::to_string(deepest_stack) +
                     " frames: their outermost frames are left out");
    p.emit(to_);
  }

 private:
  void bad() {
    to_.report(severity::error, diag_code::bad_pprof, 0, 0,
               "not a readable pprof profile: " + fault_.what + " (at byte " +
                   std::to_string(fault_.offset) + " of the uncompressed protobuf)");
    to_.no_profile = "its protobuf cannot be decoded";
  }

  std::string_view str(std::int64_t i) const {
    return i >= 0 && static_cast<std::uint64_t>(i) < d_.strings.size()
               ? d_.strings[static_cast<std::size_t>(i)]
               : std::string_view();
  }
  bool string_ok(std::int64_t i, std::size_t at, const char* what) {
    if (i >= 0 && static_cast<std::uint64_t>(i) < std::max<std::size_t>(d_.strings.size(), 1))
      return true;
    return fault_.raise(at, std::string(what) + " names string " + std::to_string(i) +
                                " of a table of " + std::to_string(d_.strings.size()));
  }

  // The tables' ids (unique, not 0) and string indices; each location's frames.
  bool check_tables() {
    for (const auto& t : d_.sample_types)
      if (!string_ok(t.type, t.at, "a sample type") || !string_ok(t.unit, t.at, "a sample type"))
        return false;
    for (const auto& m : d_.mappings) {
      if (!string_ok(m.filename, m.at, "a mapping")) return false;
      if (m.id == 0 || !mapping_of_.emplace(m.id, &m).second)
        return fault_.raise(m.at, "mapping id " + std::to_string(m.id) + " is 0 or not unique");
    }
    for (const auto& f : d_.functions) {
      if (!string_ok(f.name, f.at, "a function") || !string_ok(f.system_name, f.at, "a function") ||
          !string_ok(f.filename, f.at, "a function"))
        return false;
      if (f.id == 0 || !function_of_.emplace(f.id, &f).second)
        return fault_.raise(f.at, "function id " + std::to_string(f.id) + " is 0 or not unique");
    }
    for (std::size_t i = 0; i < d_.locations.size(); ++i) {
      const auto& l = d_.locations[i];
      if (l.id == 0 || !location_of_.emplace(l.id, i).second)
        return fault_.raise(l.at, "location id " + std::to_string(l.id) + " is 0 or not unique");
      if (l.mapping_id && !mapping_of_.count(l.mapping_id))
        return fault_.raise(l.at, "location " + std::to_string(l.id) + " names mapping " +
                                      std::to_string(l.mapping_id) + ", which is not in the file");
    }
    if (!string_ok(d_.drop_frames, 0, "drop_frames") ||
        !string_ok(d_.keep_frames, 0, "keep_frames") ||
        !string_ok(d_.default_sample_type, 0, "default_sample_type"))
      return false;
    if (d_.period_type && (!string_ok(d_.period_type->type, d_.period_type->at, "period_type") ||
                           !string_ok(d_.period_type->unit, d_.period_type->at, "period_type")))
      return false;
    for (auto c : d_.comments)
      if (!string_ok(c, 0, "a comment")) return false;
    return true;
  }

  // The frames of location `i`, innermost first (made once).
  const std::vector<std::uint32_t>& frames_of(stack_profile& p, std::size_t i) {
    if (location_frames_.empty()) location_frames_.resize(d_.locations.size());
    auto& fr = location_frames_[i];
    if (!fr.empty()) return fr;
    const auto& l = d_.locations[i];
    string_id object = string_pool::empty;
    if (auto m = mapping_of_.find(l.mapping_id); m != mapping_of_.end())
      object = import_name(to_.names, str(m->second->filename));
    auto by_address = [&] {
      stack_frame f;
      f.object = object;
      f.function = import_name(to_.names, hex(l.address));
      return p.frame(f);
    };
    for (std::size_t k = 0; k < l.lines; ++k) {
      const auto& ln = d_.lines[l.first_line + k];
      const auto fn = function_of_.find(ln.function_id);
      if (fn == function_of_.end()) {
        fr.push_back(by_address());
        continue;
      }
      const function_msg& f = *fn->second;
      std::string_view name = str(f.name);
      if (name.empty()) name = str(f.system_name);
      stack_frame s;
      s.object = object;
      s.file = import_name(to_.names, str(f.filename));
      s.function =
          name.empty() ? import_name(to_.names, hex(l.address)) : import_name(to_.names, name);
      s.line = ln.line > 0 ? static_cast<std::uint64_t>(ln.line) : 0;
      s.first_line = f.start_line > 0 ? static_cast<std::uint64_t>(f.start_line) : 0;
      fr.push_back(p.frame(s));
    }
    if (fr.empty()) fr.push_back(by_address());
    return fr;
  }

  bool add_sample(stack_profile& p, const range& r) {
    if (!read_sample(wire_reader(bytes_, r.begin, r.end, fault_), s_)) return false;
    if (s_.values.size() != d_.sample_types.size())
      return fault_.raise(r.at, "a sample has " + std::to_string(s_.values.size()) +
                                    " values for " + std::to_string(d_.sample_types.size()) +
                                    " sample types");
    for (const auto& label : s_.labels) {
      // (no structured binding: Clang 14 does not let a lambda capture one)
      const auto key = label.first;
      const auto unit = label.second;
      if (!string_ok(key, r.at, "a label") || (unit >= 0 && !string_ok(unit, r.at, "a label")))
        return false;
      if (std::none_of(label_keys_.begin(), label_keys_.end(),
                       [&](const auto& k) { return k.first == key; }))
        label_keys_.emplace_back(key, unit);
    }
    stack_.clear();
    for (auto id : s_.locations) {
      const auto l = location_of_.find(id);
      if (l == location_of_.end())
        return fault_.raise(
            r.at, "a sample names location " + std::to_string(id) + ", which is not in the file");
      const auto& fr = frames_of(p, l->second);
      stack_.insert(stack_.end(), fr.begin(), fr.end());
      if (stack_.size() > deepest_stack) {
        stack_.resize(deepest_stack);
        ++cut_;
        break;
      }
    }
    if (stack_.empty()) {  // (a sample without a stack: its cost is not lost)
      stack_frame f;
      f.function = import_name(to_.names, "(no location)");
      stack_.push_back(p.frame(f));
    }
    for (auto v : s_.values)
      if (static_cast<std::int64_t>(v) < 0) negative_ = true;
    p.signed_costs = negative_;
    std::uint64_t count = 1;
    if (str(d_.sample_types.front().unit) == "count" &&
        static_cast<std::int64_t>(s_.values.front()) > 0)
      count = s_.values.front();
    p.add(stack_, s_.values, count);
    return true;
  }

  // The header's creator, cmd and desc: lines.
  void describe(stack_profile& p) {
    p.creator = "pprof profile.proto";
    for (const auto& m : d_.mappings)
      if (!str(m.filename).empty()) {
        p.cmd = one_line(str(m.filename));  // (mapping[0], the main binary, as pprof's File:)
        break;
      }
    auto add = [&](std::string type, std::string value) {
      p.descriptions.emplace_back(std::move(type), std::move(value));
    };
    if (d_.period_type || d_.period)
      add("Period", std::to_string(d_.period) + (d_.period_type
                                                     ? " " + one_line(str(d_.period_type->type)) +
                                                           " " + one_line(str(d_.period_type->unit))
                                                     : std::string()));
    if (d_.time_nanos) add("Time", std::to_string(d_.time_nanos) + " ns since 1970 (UTC)");
    if (d_.duration_nanos) add("Duration", std::to_string(d_.duration_nanos) + " ns");
    if (d_.default_sample_type) add("Default sample type", one_line(str(d_.default_sample_type)));
    for (auto c : d_.comments) add("Comment", one_line(str(c)));
    if (d_.drop_frames) add("drop_frames (not applied)", one_line(str(d_.drop_frames)));
    if (d_.keep_frames) add("keep_frames (not applied)", one_line(str(d_.keep_frames)));
  }

  // The label keys, once the samples are read (describe() runs before them).
  void describe_labels(stack_profile& p) {
    if (label_keys_.empty()) return;
    std::string keys;
    for (const auto& [key, unit] : label_keys_) {
      if (!keys.empty()) keys += ", ";
      keys += one_line(str(key));
      if (unit >= 0)
        keys += str(unit).empty() ? " (number)" : " (number, " + one_line(str(unit)) + ")";
    }
    p.descriptions.emplace_back("Sample labels (not kept)", keys);
  }

  std::string_view bytes_;
  import_target& to_;
  decoded d_;
  fault fault_;
  std::unordered_map<std::uint64_t, const mapping_msg*> mapping_of_;
  std::unordered_map<std::uint64_t, const function_msg*> function_of_;
  std::unordered_map<std::uint64_t, std::size_t> location_of_;
  std::vector<std::vector<std::uint32_t>> location_frames_;
  std::vector<std::pair<std::int64_t, std::int64_t>> label_keys_;
  sample_msg s_;
  std::vector<std::uint32_t> stack_;
  bool negative_ = false;
  std::uint64_t cut_ = 0;
};

}  // namespace

void read_pprof(std::string_view bytes, import_target& to) { importer(bytes, to).run(); }

}  // namespace calltree::detail

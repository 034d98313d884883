// callgrind_writer.cc — records in, Callgrind-format text out, one part at a time.
//
// What the writer guarantees (format-semantics.md §6, "Writer guidance"), and why:
//
// * Header: `# callgrind format`, `version: 1`, then creator, pid, cmd, part, thread, desc (each
//   `desc:` line as the input wrote it, blanks inside and all),
//   `positions:` (left out only for plain `line`), `event:` definitions, `events:` as the last
//   header key (callgrind_annotate stops reading the header there) and a header `summary:`
//   right after it (KCachegrind refuses a summary before `events:`). A `summary:` that the
//   input gave after its body is written after the body, just before `totals:`: both readers
//   accept it there, and it is where the input said it. `totals:` only where the input had
//   one, with the counts it stated: the writer adds no statement of its own, as the stated
//   totals decide what every percentage is of (calltree/totals.h); but a part with no body
//   line ends with `totals:` of zeros (no statement: a 0 is no count), else a reader would
//   take the next part's header for more of its own. A reader takes `cmd:` from
//   the part before when a part does not restate it, so a part without a command after one
//   with a command says `cmd:` with no value; `pid:` cannot be cleared, so a part without one
//   after a part with one states the pid it will be read with.
// * Body: the writer keeps the current object, function file, source file and function, and
//   writes `ob=`, `fl=`+`fn=` (always both: callgrind_annotate keys a function by the file in
//   force, which an `fi=` may have changed), `fi=`/`fe=` only when they change. A call is
//   `cob=` and `cfi=` only when they differ from the caller's object and current source file
//   (the reader's defaults), always right before `cfn=`, and `cfn=` before every `calls=`.
//   A jump is `jfi=`/`jfn=` when they differ, `jump=N` or `jcnd=followed/executed`, then the
//   position-only line of its source.
// * Name compression: one id table per name class (objects; files; functions), cleared at
//   every part, so a part never uses an id defined in an earlier part (KCachegrind clears its
//   tables per part). The first use of a name in a part defines it: `fn=(7) name`; later ones
//   say `fn=(7)`. Without compression a name is written plain, except a name that begins with
//   `(` and a digit, which a reader would take for an id: it is always written compressed.
//   An empty name is always written plain (`fl=`): `(7)` alone would be a reference.
// * Subposition compression: a base per position column, moved by every line that carries a
//   position (self cost lines, call cost lines, jump source lines) and not by `calls=`/`jump=`
//   targets, exactly as readers keep it. The first position after each `fn=` is absolute.
//   After that a column equal to its base is `*`, and a relative `+N`/`-N` (always decimal,
//   also for hex addresses) is used when it is shorter than the absolute form. Absolute
//   addresses are hex (`0x1a2b`, and `0` for zero), lines decimal.
// * Costs: decimal, signed where the thread sums signed (a file of differences, cost_matrix.h);
//   as many as the input line wrote (records say how many: `given`), else trailing zero costs
//   left out; at least one number. `totals:` with every event.
// * Text: single spaces between tokens, LF line ends, a final newline, no trailing spaces (but
//   in a `desc:` line, written as the input had it).
//
// Memory: the id tables of the current part (4 bytes per pool id per name class) and an output
// buffer of bounded size; never the profile. A name's text is
// asked of the pool only where it is written out (string_pool::text), so a pool that spills
// names to a file (`calltree convert`) reads each back once per part.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/writer.h"
#include "model/string_pool_access.h"

namespace calltree {

namespace {

constexpr std::size_t flush_threshold = 1u << 16;

enum name_class : std::uint8_t { object_names = 0, file_names = 1, function_names = 2 };

void append_u64(std::string& s, std::uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, end);
}

// A cost: in a file of differences (the thread sums signed, cost_matrix.h) a pattern with
// the top bit set is a negative number, written with its sign as cg_diff writes it.
void append_cost(std::string& s, std::uint64_t v) {
  if ((v >> 63) && signed_costs_here()) [[unlikely]] {
    s += '-';
    v = 0 - v;
  }
  append_u64(s, v);
}

void append_hex(std::string& s, std::uint64_t v) {
  if (v == 0) {
    s += '0';
    return;
  }
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  s.append(buf, end);
}

std::size_t decimal_digits(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

std::size_t hex_length(std::uint64_t v) {
  if (v == 0) return 1;
  std::size_t n = 0;
  while (v) {
    v >>= 4;
    ++n;
  }
  return n + 2;
}

// A value a reader would take for a name id: "(" followed by a digit.
bool looks_like_id(std::string_view name) {
  return name.size() >= 2 && name[0] == '(' && name[1] >= '0' && name[1] <= '9';
}

// Whether a desc: line as written ("I1 cache:         32768 B", "Trigger") is the pair
// (type, value) the reader split it into: the type and the value, blanks around them trimmed.
bool says(std::string_view line, std::string_view type, std::string_view value) {
  auto trim = [](std::string_view v) {
    const auto b = v.find_first_not_of(" \t");
    if (b == std::string_view::npos) return std::string_view();
    return v.substr(b, v.find_last_not_of(" \t") - b + 1);
  };
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return trim(line) == type && value.empty();
  return trim(line.substr(0, colon)) == type && trim(line.substr(colon + 1)) == value;
}

}  // namespace

struct callgrind_writer::impl {
  impl(std::ostream& o, const string_pool& n, writer_options opt)
      : out(o), names(n), options(std::move(opt)) {}

  std::ostream& out;
  const string_pool& names;
  writer_options options;
  std::string buf;
  bool failed = false;
  bool wrote_part = false;

  // The current part.
  bool in_part = false;
  std::uint8_t positions = pos_line;
  // What a reader takes for the next part when it says no positions: (it inherits them from
  // the part before; see src/reader/parser.h), so `positions: line` may only be left out after
  // line.
  std::uint8_t inherited_positions = pos_line;
  std::optional<std::uint64_t> inherited_pid;  // and `pid:`, which no line clears
  std::string inherited_cmd;  // likewise `cmd:`, which a part that has none must clear
  std::size_t event_count = 0;
  // Per name class, the id written for each pool id in this part (0: none yet), and the pool
  // ids given one, to clear them at the next part.
  std::array<std::vector<std::uint32_t>, 3> ids;
  std::array<std::vector<string_id>, 3> defined;
  std::array<std::uint32_t, 3> next_id{};
  std::string scratch;  // a spilled name read back (string_pool::text)

  // Format state as a reader of our output will have it.
  bool have_function = false;
  string_id cur_object = string_pool::empty;
  string_id cur_file = string_pool::empty;    // fl=
  string_id cur_source = string_pool::empty;  // fi=/fe= or fl=
  string_id cur_function = string_pool::empty;
  bool have_base = false;
  position base;

  void flush_if_big() {
    if (buf.size() >= flush_threshold) flush();
  }
  void flush() {
    if (!buf.empty()) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
    if (!out) failed = true;
  }

  // The name's text is needed where it is defined (or always, uncompressed): with a spilling
  // pool, view() holds only its first bytes, enough to tell an empty name and an id look-alike.
  void write_name(std::string_view key, name_class cls, string_id id) {
    std::string_view head = string_pool_access::view(names, id);
    buf += key;
    buf += '=';
    if (!head.empty() && (options.compress_names || looks_like_id(head))) {
      auto& table = ids[cls];
      const std::uint32_t i = id.index();
      if (i >= table.size()) table.resize(std::size_t{i} + 1, 0);
      const bool inserted = table[i] == 0;
      if (inserted) {
        table[i] = ++next_id[cls];
        defined[cls].push_back(id);
      }
      buf += '(';
      append_u64(buf, table[i]);
      buf += ')';
      if (inserted) {
        buf += ' ';
        buf += string_pool_access::text(names, id, scratch);
      }
    } else {
      buf += string_pool_access::text(names, id, scratch);
    }
    buf += '\n';
  }

  // One position column: absolute, or relative to the column's base.
  void write_column(std::uint64_t v, std::uint64_t b, bool is_address) {
    std::size_t abs_len = is_address ? hex_length(v) : decimal_digits(v);
    if (options.compress_positions && have_base) {
      if (v == b) {
        buf += '*';
        return;
      }
      std::uint64_t d = v > b ? v - b : b - v;
      if (decimal_digits(d) + 1 < abs_len) {
        buf += v > b ? '+' : '-';
        append_u64(buf, d);
        return;
      }
    }
    if (is_address)
      append_hex(buf, v);
    else
      append_u64(buf, v);
  }

  void write_position(const position& p) {
    bool first = true;
    auto sep = [&] {
      if (!first) buf += ' ';
      first = false;
    };
    if (positions & pos_instr) {
      sep();
      write_column(p.instr, base.instr, true);
    }
    if (positions & pos_bb) {
      sep();
      write_column(p.bb, base.bb, true);
    }
    if (positions & pos_line) {
      sep();
      write_column(p.line, base.line, false);
    }
  }

  // A line that carries a position moves the base. Costs: as many as the input line gave
  // (`given`; callgrind_annotate shows a column never written as "." and a written 0 as "0"),
  // else without trailing zeros; never a nonzero cost left out, and at least one number.
  void write_position_line(const position& p, std::span<const std::uint64_t> costs, bool with_costs,
                           std::uint32_t given = UINT32_MAX) {
    write_position(p);
    base = p;
    have_base = true;
    if (with_costs) {
      std::size_t n = costs.size();
      while (n > 0 && costs[n - 1] == 0) --n;
      if (given != UINT32_MAX)
        n = std::max<std::size_t>(n, std::min<std::size_t>(given, costs.size()));
      if (n == 0) {
        buf += " 0";
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          buf += ' ';
          append_cost(buf, costs[i]);
        }
      }
    }
    buf += '\n';
  }

  void write_costs_key(std::string_view key, std::span<const std::uint64_t> v, bool trim) {
    std::size_t n = v.size();
    if (trim)
      while (n > 1 && v[n - 1] == 0) --n;
    buf += key;
    if (n == 0) buf += " 0";
    for (std::size_t i = 0; i < n; ++i) {
      buf += ' ';
      append_cost(buf, v[i]);
    }
    buf += '\n';
  }

  void begin_part(const part_header& h) {
    if (in_part) end_part(nullptr);
    in_part = true;
    positions = h.positions ? h.positions : static_cast<std::uint8_t>(pos_line);
    event_count = h.events.size();
    for (std::size_t c = 0; c < ids.size(); ++c) {
      for (string_id id : defined[c]) ids[c][id.index()] = 0;
      defined[c].clear();
    }
    next_id.fill(0);
    have_function = false;
    cur_object = cur_file = cur_source = cur_function = string_pool::empty;
    have_base = false;
    base = {};

    if (wrote_part) buf += '\n';
    wrote_part = true;
    buf += "# callgrind format\nversion: 1\n";
    const std::string& creator = options.creator.empty() ? h.creator : options.creator;
    if (!creator.empty()) buf += "creator: " + creator + "\n";
    // A part without `pid:` after one with it is read with that pid, and no line clears
    // it: the writer says so, so that the file says the same in every part that means it.
    if (h.pid) inherited_pid = h.pid;
    if (inherited_pid) {
      buf += "pid: ";
      append_u64(buf, *inherited_pid);
      buf += '\n';
    }
    if (!h.cmd.empty())
      buf += "cmd: " + h.cmd + "\n";
    else if (!inherited_cmd.empty())
      buf += "cmd:\n";  // a reader would take the part before's command for this one's
    inherited_cmd = h.cmd;
    if (h.part_number) {
      buf += "part: ";
      append_u64(buf, *h.part_number);
      buf += '\n';
    }
    if (h.thread) {
      buf += "thread: ";
      append_u64(buf, *h.thread);
      buf += '\n';
    }
    // desc: lines as the input wrote them (callgrind_annotate prints them verbatim: the blanks
    // inside and at the end, a type without a value), where the line still says what its pair
    // says; a header made or changed by code (merge's "Merged:") has only the pairs.
    for (std::size_t i = 0; i < h.descriptions.size(); ++i) {
      const auto& [type, value] = h.descriptions[i];
      if (i < h.description_lines.size() && says(h.description_lines[i], type, value)) {
        buf += "desc:";
        if (!h.description_lines[i].empty()) buf += " " + h.description_lines[i];
      } else {
        buf += "desc: " + type + ":";
        if (!value.empty()) buf += " " + value;
      }
      buf += '\n';
    }
    if (positions != pos_line || positions != inherited_positions) {
      buf += "positions:";
      if (positions & pos_instr) buf += " instr";
      if (positions & pos_bb) buf += " bb";
      if (positions & pos_line) buf += " line";
      buf += '\n';
    }
    inherited_positions = positions;
    for (const auto& d : h.event_definitions) {
      buf += "event: " + d.name;
      if (!d.formula.empty()) buf += " = " + d.formula;
      if (!d.long_name.empty()) buf += " : " + d.long_name;
      buf += '\n';
    }
    buf += "events:";
    for (const auto& e : h.events) buf += " " + e;
    buf += '\n';
    if (h.summary) write_costs_key("summary:", *h.summary, true);
    buf += '\n';
    flush_if_big();
  }

  // A part that the records never opened: costs arrived without on_part_begin. Not expected
  // from the reader; kept so that the output is still a loadable file.
  void ensure_part(std::size_t costs) {
    if (in_part) return;
    part_header h;
    // (std::string("e").append(...), not "e" + ...: GCC 12 -O3's -Wrestrict false positive.)
    for (std::size_t i = 0; i < costs; ++i)
      h.events.push_back(std::string("e").append(std::to_string(i + 1)));
    begin_part(h);
  }

  void end_part(const part_end* e) {
    if (!in_part) return;
    // Stated totals only where the input stated them, as it stated them (a totals: line of
    // the sum where the input had none, or another figure, would change what annotate and
    // serve take as the program total: calltree/totals.h).
    if (e && e->summary) write_costs_key("summary:", *e->summary, true);
    if (e && e->totals) {
      write_costs_key("totals:", *e->totals, false);
    } else if (!have_function) {
      // A part without a body line would run into the next part's header on reading: it is
      // closed by `totals:` of zeros, which states no total (a count of 0 is none: totals.h).
      write_costs_key("totals:", std::vector<std::uint64_t>(event_count, 0), false);
    }
    in_part = false;
    flush_if_big();
  }

  void enter(const context& c) {
    bool new_function = !have_function || c.object != cur_object || c.file != cur_file ||
                        c.function != cur_function;
    if (new_function) {
      if (have_function) buf += '\n';
      if (c.object != cur_object) write_name("ob", object_names, c.object);
      write_name("fl", file_names, c.file);
      write_name("fn", function_names, c.function);
      have_function = true;
      cur_object = c.object;
      cur_file = c.file;
      cur_source = c.file;
      cur_function = c.function;
      have_base = false;
    }
    if (c.source_file != cur_source) {
      write_name(c.source_file == cur_file ? "fe" : "fi", file_names, c.source_file);
      cur_source = c.source_file;
    }
  }
};

callgrind_writer::callgrind_writer(std::ostream& out, const string_pool& names,
                                   writer_options options)
    : impl_(std::make_unique<impl>(out, names, std::move(options))) {}

callgrind_writer::~callgrind_writer() = default;

void callgrind_writer::on_part_begin(const part_header& h) { impl_->begin_part(h); }

void callgrind_writer::on_cost(const cost_record& r) {
  impl& w = *impl_;
  w.ensure_part(r.costs.size());
  w.enter(r.ctx);
  w.write_position_line(r.pos, r.costs, true, r.given);
  w.flush_if_big();
}

void callgrind_writer::on_call(const call_record& r) {
  impl& w = *impl_;
  w.ensure_part(r.costs.size());
  w.enter(r.ctx);
  if (r.callee_object != w.cur_object) w.write_name("cob", object_names, r.callee_object);
  if (r.callee_file != w.cur_source) w.write_name("cfi", file_names, r.callee_file);
  w.write_name("cfn", function_names, r.callee_function);
  w.buf += "calls=";
  append_u64(w.buf, r.count);
  w.buf += ' ';
  // A call without a target position (hotshot2calltree, dprof2calltree) gets target 0, the
  // "unknown position" of the format, so the output stays valid.
  w.write_position(r.has_target ? r.target : position{});
  w.buf += '\n';
  w.write_position_line(r.site, r.costs, true, r.given);
  w.flush_if_big();
}

void callgrind_writer::on_jump(const jump_record& r) {
  impl& w = *impl_;
  w.ensure_part(0);
  w.enter(r.ctx);
  if (r.target_file != w.cur_source) w.write_name("jfi", file_names, r.target_file);
  if (r.target_function != w.cur_function) w.write_name("jfn", function_names, r.target_function);
  if (r.conditional) {
    w.buf += "jcnd=";
    append_u64(w.buf, r.followed);
    w.buf += '/';
    append_u64(w.buf, r.executed);
  } else {
    w.buf += "jump=";
    append_u64(w.buf, r.executed);
  }
  w.buf += ' ';
  w.write_position(r.target);
  w.buf += '\n';
  w.write_position_line(r.source, {}, false);
  w.flush_if_big();
}

void callgrind_writer::on_part_end(const part_end& e) { impl_->end_part(&e); }

bool callgrind_writer::finish() {
  impl_->end_part(nullptr);
  impl_->flush();
  impl_->out.flush();
  if (!impl_->out) impl_->failed = true;
  return !impl_->failed;
}

}  // namespace calltree

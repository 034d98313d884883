// dump.cc — the canonical one-line-per-record text listing (docs/cli.md, "dump").
//
// Every line starts with the record kind and lists all fields in a fixed order:
//
//   part index=N line=L version="1" creator="..." cmd="..." pid=N thread=N part=N
//        positions=instr,line events=[Ir Dr] event=[{"CEst" "Ir + 10 Bm" "Cycles"}]
//        desc=[{"I1 cache" "32768 B"}] summary=[1 2] unknown=["key: value"]
//   cost line=L ob="..." fl="..." fi="..." fn="..." pos=P costs=[...]
//   call line=L ob= fl= fi= fn= site=P cob="..." cfi="..." cfn="..." count=N target=P costs=[...]
//   jump line=L ob= fl= fi= fn= kind=jump|jcnd executed=N followed=N source=P jfi="..."
//        jfn="..." target=P
//   end line=L summary=[...] totals=[...] computed=[...]
//
// (the part, call and jump lines are one line each; they are wrapped here only). An absent
// optional value is `-`. A position P is its columns in the order instr, bb, line, joined by
// `:`, addresses in hex, lines in decimal: `0x401000:12`. Names are quoted (dump_quote).
#include "report/dump.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "calltree/cost_matrix.h"

namespace calltree {

namespace {

constexpr std::size_t flush_threshold = 1u << 16;

void append_u64(std::string& s, std::uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, end);
}

void append_hex(std::string& s, std::uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  s.append(buf, end);
}

// (A file of differences: the reader has met a negative number on this thread, and its costs
// are signed 64-bit numbers, cost_matrix.h: printed with their sign.)
void append_costs(std::string& s, std::span<const std::uint64_t> v) {
  s += '[';
  const bool sign = signed_costs_here();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ' ';
    if (sign && as_signed(v[i]) < 0) {
      s += '-';
      append_u64(s, 0 - v[i]);
    } else {
      append_u64(s, v[i]);
    }
  }
  s += ']';
}

void append_opt_costs(std::string& s, const std::optional<std::vector<std::uint64_t>>& v) {
  if (v)
    append_costs(s, *v);
  else
    s += '-';
}

void append_opt_u64(std::string& s, const std::optional<std::uint64_t>& v) {
  if (v)
    append_u64(s, *v);
  else
    s += '-';
}

}  // namespace

namespace {

bool needs_escape(unsigned char c) { return c < 0x20 || c == 0x7f || c == '\\' || c == '"'; }

void append_quoted(std::string& s, std::string_view in) {
  static constexpr char hex[] = "0123456789abcdef";
  s += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    auto c = static_cast<unsigned char>(in[i]);
    if (!needs_escape(c)) continue;
    s.append(in.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '\\':
        s += "\\\\";
        break;
      case '"':
        s += "\\\"";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\r':
        s += "\\r";
        break;
      case '\t':
        s += "\\t";
        break;
      default:
        s += "\\x";
        s += hex[c >> 4];
        s += hex[c & 15];
    }
  }
  s.append(in.data() + run, in.size() - run);
  s += '"';
}

}  // namespace

std::string dump_quote(std::string_view in) {
  std::string s;
  s.reserve(in.size() + 2);
  append_quoted(s, in);
  return s;
}

struct dump_sink::impl {
  impl(std::ostream& o, const string_pool& n, dump_options opt) : out(o), names(n), options(opt) {}

  std::ostream& out;
  const string_pool& names;
  dump_options options;
  std::string buf;
  std::uint8_t positions = pos_line;

  void flush() {
    if (!buf.empty()) out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  }
  void end_line() {
    buf += '\n';
    if (buf.size() >= flush_threshold) flush();
  }

  void line_field(std::uint64_t line) {
    if (!options.line_numbers) return;
    buf += " line=";
    append_u64(buf, line);
  }

  void name(std::string_view key, string_id id) {
    buf += ' ';
    buf += key;
    buf += '=';
    append_quoted(buf, names.view(id));
  }

  void pos(std::string_view key, const position& p) {
    buf += ' ';
    buf += key;
    buf += '=';
    bool first = true;
    auto sep = [&] {
      if (!first) buf += ':';
      first = false;
    };
    if (positions & pos_instr) {
      sep();
      append_hex(buf, p.instr);
    }
    if (positions & pos_bb) {
      sep();
      append_hex(buf, p.bb);
    }
    if (positions & pos_line) {
      sep();
      append_u64(buf, p.line);
    }
    if (first) buf += '-';
  }

  void ctx(const context& c) {
    name("ob", c.object);
    name("fl", c.file);
    name("fi", c.source_file);
    name("fn", c.function);
  }
};

dump_sink::dump_sink(std::ostream& out, const string_pool& names, dump_options options)
    : impl_(std::make_unique<impl>(out, names, options)) {}

dump_sink::~dump_sink() = default;

void dump_sink::on_part_begin(const part_header& h) {
  impl& d = *impl_;
  std::string& b = d.buf;
  d.positions = h.positions;
  b += "part index=";
  append_u64(b, h.index);
  d.line_field(h.line);
  b += " version=" + dump_quote(h.version);
  b += " creator=" + dump_quote(h.creator);
  b += " cmd=" + dump_quote(h.cmd);
  b += " pid=";
  append_opt_u64(b, h.pid);
  b += " thread=";
  append_opt_u64(b, h.thread);
  b += " part=";
  append_opt_u64(b, h.part_number);
  b += " positions=";
  bool first = true;
  for (auto [bit, word] : {std::pair{pos_instr, "instr"}, {pos_bb, "bb"}, {pos_line, "line"}}) {
    if (!(h.positions & bit)) continue;
    if (!first) b += ',';
    first = false;
    b += word;
  }
  if (first) b += '-';
  b += " events=[";
  for (std::size_t i = 0; i < h.events.size(); ++i) {
    if (i) b += ' ';
    b += h.events[i];
  }
  b += "] event=[";
  for (std::size_t i = 0; i < h.event_definitions.size(); ++i) {
    const auto& e = h.event_definitions[i];
    if (i) b += ' ';
    b += '{' + dump_quote(e.name) + ' ' + dump_quote(e.formula) + ' ' + dump_quote(e.long_name) +
         '}';
  }
  b += "] desc=[";
  for (std::size_t i = 0; i < h.descriptions.size(); ++i) {
    if (i) b += ' ';
    b += '{' + dump_quote(h.descriptions[i].first) + ' ' + dump_quote(h.descriptions[i].second) +
         '}';
  }
  b += "] summary=";
  append_opt_costs(b, h.summary);
  b += " unknown=[";
  for (std::size_t i = 0; i < h.unknown_lines.size(); ++i) {
    if (i) b += ' ';
    b += dump_quote(h.unknown_lines[i]);
  }
  b += ']';
  d.end_line();
}

void dump_sink::on_cost(const cost_record& r) {
  impl& d = *impl_;
  d.buf += "cost";
  d.line_field(r.line);
  d.ctx(r.ctx);
  d.pos("pos", r.pos);
  d.buf += " costs=";
  append_costs(d.buf, r.costs);
  d.end_line();
}

void dump_sink::on_call(const call_record& r) {
  impl& d = *impl_;
  d.buf += "call";
  d.line_field(r.line);
  d.ctx(r.ctx);
  d.pos("site", r.site);
  d.name("cob", r.callee_object);
  d.name("cfi", r.callee_file);
  d.name("cfn", r.callee_function);
  d.buf += " count=";
  append_u64(d.buf, r.count);
  if (r.has_target)
    d.pos("target", r.target);
  else
    d.buf += " target=-";
  d.buf += " costs=";
  append_costs(d.buf, r.costs);
  d.end_line();
}

void dump_sink::on_jump(const jump_record& r) {
  impl& d = *impl_;
  d.buf += "jump";
  d.line_field(r.line);
  d.ctx(r.ctx);
  d.buf += r.conditional ? " kind=jcnd" : " kind=jump";
  d.buf += " executed=";
  append_u64(d.buf, r.executed);
  d.buf += " followed=";
  append_u64(d.buf, r.followed);
  d.pos("source", r.source);
  d.name("jfi", r.target_file);
  d.name("jfn", r.target_function);
  d.pos("target", r.target);
  d.end_line();
}

void dump_sink::on_part_end(const part_end& e) {
  impl& d = *impl_;
  d.buf += "end";
  d.line_field(e.line);
  d.buf += " summary=";
  append_opt_costs(d.buf, e.summary);
  d.buf += " totals=";
  append_opt_costs(d.buf, e.totals);
  d.buf += " computed=";
  append_costs(d.buf, e.computed);
  d.end_line();
}

bool dump_sink::finish() {
  impl_->flush();
  impl_->out.flush();
  return static_cast<bool>(impl_->out);
}

}  // namespace calltree

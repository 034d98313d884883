// export/model_json.cc — the model as JSON ("calltree-model", docs/json.md).
//
// Written row by row from the model (profile.h) as it is: tables of names referred to by
// index (objects, files, functions), events with their long names and formulas, parts with
// their headers and totals, then every self-cost row, call row and jump row with its part and
// positions. A row table is {"columns": [...], "rows": [[...], ...]}: each row an array in the
// order of the columns named once (an instruction-level profile has tens of millions of rows;
// keys repeated in every row made three quarters of the bytes). Costs are arrays in the order
// of "events" (recorded events only: derived ones are formulas over them); addresses are hex
// strings ("0x4011a0": exact at any size, as objdump prints them); other numbers are exact
// integers. The rows are formatted straight into a large buffer handed to the sink whole.
// The row tables come before the name tables and parts, so that the self rows can be written
// as the file is read (export/model_json_stream.h): the same bytes either way.
#include "export/model_json.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <memory>

#include "calltree/profile.h"
#include "export/export.h"
#include "export/formats.h"
#include "export/ordered_chunks.h"
#include "report/json.h"

namespace calltree {

namespace {

// The header's pieces (names, parts) go through a std::string; the rows through `row_out`.
struct writer {
  exporting::buffered_sink b;
  std::string& buf;
  explicit writer(const export_sink& out) : b(out), buf(b.buf()) {}
  bool signed_costs = false;  // profile::signed_costs: costs are signed numbers (as_signed)
  void num(std::uint64_t v) {
    char t[24];
    auto [end, ec] = std::to_chars(t, t + sizeof t, v);
    buf.append(t, end);
  }
  void cost(std::uint64_t v) {
    char t[24];
    auto [end, ec] = signed_costs ? std::to_chars(t, t + sizeof t, as_signed(v))
                                  : std::to_chars(t, t + sizeof t, v);
    buf.append(t, end);
  }
  void str(std::string_view s) { append_json_string(buf, s); }
  void costs(std::span<const std::uint64_t> row) {
    buf += '[';
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) buf += ',';
      cost(row[i]);
    }
    buf += ']';
  }
  void optional_costs(const std::optional<std::vector<std::uint64_t>>& v) {
    if (v)
      costs(*v);
    else
      buf += "null";
  }
};

// "00" to "99".
constexpr char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// "00" to "ff".
constexpr auto hex_pairs = [] {
  std::array<char, 512> t{};
  for (int i = 0; i < 256; ++i) {
    t[2 * i] = "0123456789abcdef"[i >> 4];
    t[2 * i + 1] = "0123456789abcdef"[i & 15];
  }
  return t;
}();

// The decimal digits of v (1 to 20).
inline int decimal_digits(std::uint64_t v) {
  int n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}

// Rows formatted into a fixed buffer by pointer; reserve(n) before writing up to n bytes, and
// flush() at the end. (Not flushed when it goes: a sink that throws, as when memory runs out,
// would end the process from a destructor; and rows cut short by an exception are not kept.)
class row_out {
 public:
  static constexpr std::size_t size = std::size_t{1} << 20;
  explicit row_out(const export_sink& out) : out_(out), own_(new char[size]), buf_(own_.get()) {}
  // Into `buf`, the caller's (`size` bytes).
  row_out(const export_sink& out, char* buf) : out_(out), buf_(buf) {}
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(p_ - buf_) + n > size) flush();
  }
  void flush() {
    if (p_ != buf_) out_(std::string_view(buf_, static_cast<std::size_t>(p_ - buf_)));
    p_ = buf_;
  }
  void lit(std::string_view s) {
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  // A text of at most 32 bytes whose buffer has 32 (`same` of self_row_writer): copied in one
  // fixed-size move, not a call to memcpy. The bytes past it are written over next.
  void lit_short(std::string_view s) {
    if (s.size() > 32) return lit(s);
    std::memcpy(p_, s.data(), 32);
    p_ += s.size();
  }
  void ch(char c) { *p_++ = c; }
  const char* at() const { return p_; }
  // Costs are signed numbers in a profile of differences: where *on (profile::signed_costs,
  // set at the end of a part), or, for rows written as the file is read (model_json_stream),
  // where the reading thread sums signed (cost_matrix.h: from the file's first negative number,
  // before any row that holds one reaches the sink).
  void signed_costs(const bool* on) { signed_costs_ = on; }
  void cost(std::uint64_t v) {
    if ((v >> 63) && ((signed_costs_ && *signed_costs_) || signed_costs_here())) [[unlikely]] {
      ch('-');
      v = 0 - v;
    }
    num(v);
  }
  // A row's start and the three columns every table begins with: "\n[part,a,b".
  void head(part_id part, function_id f, file_id file) {
    lit("\n[");
    num(std::uint64_t{part.index()} + 1);
    ch(',');
    num(f.index());
    ch(',');
    num(file.index());
  }
  // Decimal, as std::to_chars writes it: most numbers of a row (parts, file ids, costs of one
  // instruction) have one or two digits, written inline; the others by a call.
  [[gnu::always_inline]] void num(std::uint64_t v) {
    if (v < 10) {
      *p_++ = static_cast<char>('0' + v);
    } else if (v < 100) {
      std::memcpy(p_, pairs + 2 * v, 2);
      p_ += 2;
    } else {
      num_long(v);
    }
  }
  [[gnu::noinline]] void num_long(std::uint64_t v) {
    const int n = decimal_digits(v);
    char* q = p_ + n;
    while (v >= 100) {
      q -= 2;
      std::memcpy(q, pairs + 2 * (v % 100), 2);
      v /= 100;
    }
    if (v >= 10) {
      q -= 2;
      std::memcpy(q, pairs + 2 * v, 2);
    } else {
      *--q = static_cast<char>('0' + v);
    }
    p_ += n;
  }
  // "0x" and lowercase hex digits, as std::to_chars(…, 16) writes them, in quotes.
  void hex(std::uint64_t v) {
    std::memcpy(p_, "\"0x", 3);
    const int n = (64 - std::countl_zero(v | 1) + 3) / 4;
    char* q = p_ + 3 + n;
    for (int i = n; i > 1; i -= 2, v >>= 8) {
      q -= 2;
      std::memcpy(q, hex_pairs.data() + 2 * (v & 0xff), 2);
    }
    if (n & 1) *--q = "0123456789abcdef"[v & 15];
    p_ += 3 + n;
    *p_++ = '"';
  }
  // ",L,I,B" for the position kinds the model has; ",null" each when `absent`.
  template <std::uint8_t kinds>
  void pos(const position& q, bool absent = false) {
    if constexpr ((kinds & pos_line) != 0) {
      ch(',');
      absent ? lit("null") : num(q.line);
    }
    if constexpr ((kinds & pos_instr) != 0) {
      ch(',');
      absent ? lit("null") : hex(q.instr);
    }
    if constexpr ((kinds & pos_bb) != 0) {
      ch(',');
      absent ? lit("null") : hex(q.bb);
    }
  }
  void costs(std::span<const std::uint64_t> row, const std::vector<std::uint32_t>& pick) {
    ch('[');
    for (std::size_t i = 0; i < pick.size(); ++i) {
      if (i) ch(',');
      cost(row[pick[i]]);
    }
    ch(']');
  }
  // Bytes a row may take at most: `numbers` integers or addresses, `costs` cost cells.
  static constexpr std::size_t bound(std::size_t numbers, std::size_t costs) {
    return 16 + 24 * (numbers + costs);
  }

 private:
  const export_sink& out_;
  const bool* signed_costs_ = nullptr;
  std::unique_ptr<char[]> own_;
  char* buf_;
  char* p_ = buf_;
};

// {"columns":["part",...,<position columns>,...],"rows":[
void columns(std::string& buf, std::initializer_list<std::string_view> before,
             std::string_view prefix, std::uint8_t kinds,
             std::initializer_list<std::string_view> middle, bool target,
             std::initializer_list<std::string_view> after) {
  buf += "{\"columns\":[";
  bool first = true;
  auto name = [&](std::string_view pre, std::string_view n) {
    if (!first) buf += ',';
    first = false;
    buf += '"';
    buf += pre;
    buf += n;
    buf += '"';
  };
  auto positions = [&](std::string_view pre) {
    for (auto [bit, n] : {std::pair{pos_line, "line"}, {pos_instr, "instr"}, {pos_bb, "bb"}})
      if (kinds & bit) name(pre, n);
  };
  for (auto n : before) name("", n);
  positions(prefix);
  for (auto n : middle) name("", n);
  if (target) positions("target_");
  for (auto n : after) name("", n);
  buf += "],\"rows\":[";
}

// f.template operator()<K>() for K = kinds, a constant in each: the position columns of every
// row are known before its first one.
template <typename F>
void with_kinds(std::uint8_t kinds, F&& f) {
  switch (kinds & (pos_line | pos_instr | pos_bb)) {
    case 0:
      return f.template operator()<0>();
    case pos_line:
      return f.template operator()<pos_line>();
    case pos_instr:
      return f.template operator()<pos_instr>();
    case pos_bb:
      return f.template operator()<pos_bb>();
    case pos_line | pos_instr:
      return f.template operator()<pos_line | pos_instr>();
    case pos_line | pos_bb:
      return f.template operator()<pos_line | pos_bb>();
    case pos_instr | pos_bb:
      return f.template operator()<pos_instr | pos_bb>();
    default:
      return f.template operator()<pos_line | pos_instr | pos_bb>();
  }
}

template <std::uint8_t kinds>
void call_rows(const profile& p, const std::vector<std::uint32_t>& recorded, std::size_t begin,
               std::size_t end, row_out& o) {
  const std::size_t most = row_out::bound(6 + 2 * std::popcount(kinds), recorded.size());
  for (std::size_t i = begin; i < end; ++i) {
    const call_row& r = p.calls[i];
    o.reserve(most);
    if (i) o.ch(',');
    o.head(r.part, r.caller, r.caller_source_file);
    o.pos<kinds>(r.site);
    o.ch(',');
    o.num(r.callee.index());
    o.pos<kinds>(r.target, !r.has_target);
    o.ch(',');
    o.num(r.count);
    o.ch(',');
    o.costs(p.call_costs.row(i), recorded);
    o.ch(']');
  }
}

template <std::uint8_t kinds>
void jump_rows(const profile& p, std::size_t begin, std::size_t end, row_out& o) {
  const std::size_t most = row_out::bound(9 + 2 * std::popcount(kinds), 0);
  for (std::size_t i = begin; i < end; ++i) {
    const jump_row& r = p.jumps[i];
    o.reserve(most);
    if (i) o.ch(',');
    o.head(r.part, r.function, r.source_file);
    o.pos<kinds>(r.source);
    o.lit(r.conditional ? ",true," : ",false,");
    o.num(r.executed);
    o.ch(',');
    o.num(r.followed);
    o.ch(',');
    o.num(r.target_function.index());
    o.ch(',');
    o.num(r.target_file.index());
    o.pos<kinds>(r.target);
    o.ch(']');
  }
}

}  // namespace

namespace exporting {

std::vector<std::uint32_t> recorded_events(const profile& p) {
  std::vector<std::uint32_t> recorded;
  for (event_id e : p.events.ids())
    if (p.events[e].recorded) recorded.push_back(e.index());
  return recorded;
}

// The rows of "costs". The rows of a function come together, most with the part, function
// and file of the row before: those three columns are copied from it as text.
struct self_row_writer::impl {
  impl(const export_sink& out, const profile& p) : o(out), recorded(recorded_events(p)) {
    o.signed_costs(&p.signed_costs);
  }
  row_out o;
  std::vector<std::uint32_t> recorded;
  bool first = true;
  char same[80];
  std::size_t same_size = 0;
  std::uint64_t same_part = ~0ull, same_function = ~0ull, same_file = ~0ull;

  template <std::uint8_t kinds>
  void write(std::span<const self_row> rows, const std::uint64_t* costs, std::size_t columns) {
    if (columns == 1 && recorded.size() == 1 && recorded[0] == 0)
      return write_as<kinds, true>(rows, costs, columns);
    write_as<kinds, false>(rows, costs, columns);
  }
  // `one`: a single recorded event, the only column (most profiles): its cell written as it is.
  // The rows were written long ago (the stream's window): each is fetched some rows ahead.
  template <std::uint8_t kinds, bool one>
  void write_as(std::span<const self_row> rows, const std::uint64_t* costs, std::size_t columns) {
    const std::size_t most = row_out::bound(3 + std::popcount(kinds), recorded.size());
    constexpr std::size_t ahead = 8;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const self_row& r = rows[i];
      if (i + ahead < rows.size()) {
        __builtin_prefetch(&rows[i + ahead]);
        __builtin_prefetch(costs + (i + ahead) * columns);
      }
      o.reserve(most);
      if (!first) o.ch(',');
      first = false;
      if (r.function.index() == same_function && r.source_file.index() == same_file &&
          r.part.index() == same_part) {
        o.lit_short({same, same_size});
      } else {
        const char* from = o.at();
        o.head(r.part, r.function, r.source_file);
        same_size = static_cast<std::size_t>(o.at() - from);
        std::memcpy(same, from, same_size);
        same_part = r.part.index();
        same_function = r.function.index();
        same_file = r.source_file.index();
      }
      o.pos<kinds>(r.pos);
      o.ch(',');
      if constexpr (one) {
        o.ch('[');
        o.cost(costs[i]);
        o.ch(']');
      } else {
        o.costs({costs + i * columns, columns}, recorded);
      }
      o.ch(']');
    }
  }
};

self_row_writer::self_row_writer(const export_sink& out, const profile& p)
    : kinds_(p.positions), impl_(std::make_unique<impl>(out, p)) {}
self_row_writer::~self_row_writer() = default;

void self_row_writer::write(std::span<const self_row> rows, const std::uint64_t* costs,
                            std::size_t columns) {
  with_kinds(kinds_, [&]<std::uint8_t K>() { impl_->write<K>(rows, costs, columns); });
}

void self_row_writer::flush() { impl_->o.flush(); }

std::string model_json_head(const profile& p, const std::string& input) {
  std::string head;
  const export_sink into = [&head](std::string_view b) { head += b; };
  writer w(into);
  std::string& buf = w.buf;
  const auto recorded = recorded_events(p);
  buf += "{\"schema\":\"calltree-model\",\"version\":2,\"input\":";
  w.str(input);
  buf += ",\"positions\":[";
  bool first = true;
  for (auto [bit, name] : {std::pair{pos_line, "line"}, {pos_instr, "instr"}, {pos_bb, "bb"}})
    if (p.positions & bit) {
      if (!first) buf += ',';
      first = false;
      buf += '"';
      buf += name;
      buf += '"';
    }
  buf += "],\"events\":[";
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    const event_type& e = p.events[event_id{recorded[i]}];
    if (i) buf += ',';
    buf += "{\"name\":";
    w.str(e.name);
    buf += ",\"long_name\":";
    w.str(e.long_name);
    buf += '}';
  }
  buf += "],\"derived_events\":[";
  first = true;
  for (const event_type& e : p.events) {
    if (e.recorded || e.formula.empty()) continue;
    if (!first) buf += ',';
    first = false;
    buf += "{\"name\":";
    w.str(e.name);
    buf += ",\"long_name\":";
    w.str(e.long_name);
    buf += ",\"formula\":";
    w.str(e.formula);
    buf += '}';
  }
  buf += "],\"costs\":";
  columns(buf, {"part", "function", "file"}, "", p.positions, {}, false, {"self"});
  w.b.flush();
  return head;
}

// The tail in pieces, each formatted on its own (on any thread): their texts one after the
// other are the tail. A table's head is a piece; its rows are pieces of a fixed number of rows
// (where a piece ends depends on the model only: the same bytes for any number of threads).
namespace {

struct tail_piece {
  enum kind : std::uint8_t { calls_head, calls, jumps_head, jumps, names, functions, parts } what;
  std::size_t begin = 0, end = 0;
};

std::vector<tail_piece> tail_pieces(const profile& p, std::size_t rows_a_piece) {
  const std::size_t functions_a_piece = std::max<std::size_t>(1, rows_a_piece / 4);
  std::vector<tail_piece> v;
  auto rows = [&v](tail_piece::kind k, std::size_t n, std::size_t per) {
    for (std::size_t b = 0; b < n; b += per) v.push_back({k, b, std::min(n, b + per)});
  };
  v.push_back({tail_piece::calls_head});
  rows(tail_piece::calls, p.calls.size(), rows_a_piece);
  v.push_back({tail_piece::jumps_head});
  rows(tail_piece::jumps, p.jumps.size(), rows_a_piece);
  v.push_back({tail_piece::names});
  rows(tail_piece::functions, p.functions.size(), functions_a_piece);
  v.push_back({tail_piece::parts});
  return v;
}

// Piece t's text, through `w` (and its rows through a row_out on c's scratch), into `into`.
void write_piece(const profile& p, const std::vector<std::uint32_t>& recorded, const tail_piece& t,
                 chunk_text& c, const export_sink& into, writer& w) {
  const std::uint8_t kinds = p.positions;
  auto rows = [&](auto each) {
    if (!c.scratch) c.scratch.reset(new char[row_out::size]);
    row_out o(into, c.scratch.get());
    o.signed_costs(&p.signed_costs);
    each(o);
    o.flush();
  };
  std::string& buf = w.buf;
  switch (t.what) {
    case tail_piece::calls_head:
      buf += "]},\"calls\":";
      columns(buf, {"part", "caller", "file"}, "", kinds, {"callee"}, true, {"count", "inclusive"});
      return;
    case tail_piece::calls:
      return rows([&](row_out& o) {
        with_kinds(kinds, [&]<std::uint8_t K>() { call_rows<K>(p, recorded, t.begin, t.end, o); });
      });
    case tail_piece::jumps_head:
      buf += "]},\"jumps\":";
      columns(buf, {"part", "function", "file"}, "", kinds,
              {"conditional", "executed", "followed", "target_function", "target_file"}, true, {});
      return;
    case tail_piece::jumps:
      return rows([&](row_out& o) {
        with_kinds(kinds, [&]<std::uint8_t K>() { jump_rows<K>(p, t.begin, t.end, o); });
      });
    case tail_piece::names:
      buf += "]},\"objects\":[";
      for (std::size_t i = 0; i < p.objects.size(); ++i) {
        if (i) buf += ',';
        w.str(p.object_name(static_cast<object_id>(i)));
      }
      buf += "],\"files\":[";
      for (std::size_t i = 0; i < p.files.size(); ++i) {
        if (i) buf += ',';
        w.str(p.file_name(static_cast<file_id>(i)));
        w.b.maybe_flush();
      }
      buf += "],\"functions\":[";
      return;
    case tail_piece::functions:
      for (std::size_t i = t.begin; i < t.end; ++i) {
        const function& f = p.functions[function_id{i}];
        if (i) buf += ',';
        buf += "{\"object\":";
        w.num(f.object.index());
        buf += ",\"file\":";
        w.num(f.file.index());
        buf += ",\"name\":";
        w.str(p.strings.view(f.name));
        buf += '}';
        w.b.maybe_flush();
      }
      return;
    case tail_piece::parts:
      break;
  }
  std::vector<std::uint64_t> row(recorded.size());
  auto pick = [&](std::span<const std::uint64_t> all) {
    for (std::size_t i = 0; i < recorded.size(); ++i) row[i] = all[recorded[i]];
    return std::span<const std::uint64_t>(row);
  };
  auto pick_opt = [&](const std::optional<std::vector<std::uint64_t>>& v)
      -> std::optional<std::vector<std::uint64_t>> {
    if (!v) return std::nullopt;
    pick(*v);
    return row;
  };
  buf += "],\"parts\":[";
  for (part_id id : p.parts.ids()) {
    const std::size_t i = id.index();
    const part& pt = p.parts[id];
    if (i) buf += ',';
    buf += "{\"index\":";
    w.num(i + 1);
    buf += ",\"creator\":";
    w.str(pt.header.creator);
    buf += ",\"cmd\":";
    w.str(pt.header.cmd);
    for (auto [key, v] : {std::pair{"pid", pt.header.pid},
                          {"thread", pt.header.thread},
                          {"part", pt.header.part_number}}) {
      buf += ",\"";
      buf += key;
      buf += "\":";
      if (v)
        w.num(*v);
      else
        buf += "null";
    }
    buf += ",\"descriptions\":[";
    for (std::size_t d = 0; d < pt.header.descriptions.size(); ++d) {
      if (d) buf += ',';
      buf += "{\"type\":";
      w.str(pt.header.descriptions[d].first);
      buf += ",\"value\":";
      w.str(pt.header.descriptions[d].second);
      buf += '}';
    }
    buf += "],\"events\":[";
    for (std::size_t e = 0; e < pt.header.events.size(); ++e) {
      if (e) buf += ',';
      w.str(pt.header.events[e]);
    }
    buf += "],\"summary\":";
    w.optional_costs(pick_opt(pt.summary));
    buf += ",\"totals_line\":";
    w.optional_costs(pick_opt(pt.totals_line));
    buf += ",\"totals\":";
    w.costs(pick(pt.totals));
    buf += '}';
  }
  buf += "]}\n";
}

void format_piece(const profile& p, const std::vector<std::uint32_t>& recorded, const tail_piece& t,
                  chunk_text& c) {
  const export_sink into = [&c](std::string_view b) { c.text += b; };
  writer w(into);
  w.signed_costs = p.signed_costs;
  write_piece(p, recorded, t, c, into, w);
  w.b.flush();
}

}  // namespace

void model_json_tail(const profile& p, const export_sink& out, unsigned threads,
                     const std::function<void()>& before, std::size_t piece_rows) {
  const auto recorded = recorded_events(p);
  const auto pieces = tail_pieces(p, std::max<std::size_t>(1, piece_rows));
  bool first = true;
  format_in_order(
      pieces.size(), threads,
      [&](std::size_t begin, std::size_t end, chunk_text& c) {
        for (std::size_t i = begin; i < end; ++i) format_piece(p, recorded, pieces[i], c);
      },
      [&](chunk_text& c) {
        if (first && before) before();
        first = false;
        if (!c.text.empty()) out(c.text);
      },
      1);
}

}  // namespace exporting

status export_model_json(const profile& p, const std::string& input, const export_sink& out) {
  out(exporting::model_json_head(p, input));
  {
    exporting::self_row_writer rows(out, p);
    if (!p.self_rows.empty())
      rows.write(p.self_rows, p.self_costs.row(0).data(), p.self_costs.columns());
    rows.flush();
  }
  exporting::model_json_tail(p, out);
  return ok();
}

}  // namespace calltree

// writer_test.cc — the callgrind writer on hand-made records: exact text for each rule of
// format-semantics.md §6 ("Writer guidance"), then the reader on that text gives back the very
// records that went in (compared as `dump` text without line numbers).
#include "calltree/writer.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"
#include "report/dump.h"

namespace calltree {
namespace {

// Builds records with names from one pool, and sends them to a sink.
struct script {
  string_pool pool;
  std::vector<std::vector<std::uint64_t>> cost_store;  // keeps spans alive

  context ctx(std::string_view ob, std::string_view fl, std::string_view fn,
              std::string_view fi = {}) {
    context c;
    c.object = pool.intern(ob);
    c.file = pool.intern(fl);
    c.source_file = pool.intern(fi.empty() ? fl : fi);
    c.function = pool.intern(fn);
    return c;
  }
  std::span<const std::uint64_t> costs(std::vector<std::uint64_t> v) {
    cost_store.push_back(std::move(v));
    return cost_store.back();
  }
};

part_header simple_header(std::vector<std::string> events = {"Ir"},
                          std::uint8_t positions = pos_line) {
  part_header h;
  h.version = "1";
  h.events = std::move(events);
  h.positions = positions;
  return h;
}

position line_pos(std::uint64_t line) { return position{0, 0, line}; }
position instr_line(std::uint64_t addr, std::uint64_t line) { return position{addr, 0, line}; }

cost_record cost(const context& c, position p, std::span<const std::uint64_t> v) {
  cost_record r;
  r.ctx = c;
  r.pos = p;
  r.costs = v;
  return r;
}

std::string write(const string_pool& pool, const std::function<void(record_sink&)>& emit,
                  writer_options o = {}) {
  std::ostringstream out;
  callgrind_writer w(out, pool, o);
  emit(w);
  EXPECT_TRUE(w.finish());
  return out.str();
}

std::string dump_records(const string_pool& pool, const std::function<void(record_sink&)>& emit) {
  std::ostringstream out;
  dump_sink d(out, pool, dump_options{false});
  emit(d);
  d.finish();
  return out.str();
}

// Reads `text` and dumps its records without line numbers; diagnostics into `diags`.
std::string reread(const std::string& text, diagnostic_collector& diags) {
  string_pool pool;
  std::ostringstream out;
  dump_sink d(out, pool, dump_options{false});
  auto in = memory_input(text);
  auto st = detail::read_profile(*in, pool, d, diags, {}, detail::any_input());
  EXPECT_TRUE(st.has_value());
  d.finish();
  return out.str();
}

std::string diag_text(const diagnostic_collector& c) {
  std::string s;
  for (const auto& d : c.kept()) s += format_diagnostic(d, false);
  return s;
}

// Every line: no CR, no tab, no trailing space, no double space; the text ends with LF.
void expect_clean_text(const std::string& text) {
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    EXPECT_EQ(line.find('\r'), std::string::npos) << "line " << n;
    EXPECT_EQ(line.find('\t'), std::string::npos) << "line " << n;
    EXPECT_EQ(line.find("  "), std::string::npos) << "line " << n << ": " << line;
    if (!line.empty()) {
      EXPECT_NE(line.back(), ' ') << "line " << n << ": " << line;
    }
    EXPECT_NE(line.rfind("cfl=", 0), 0u) << "line " << n;
  }
}

// The dump without its `end` lines (hand-made records carry no computed totals), and the end
// lines apart: what they state (summary=, totals=) must be what the records stated, as the
// writer adds no statement of its own.
std::string without_end_lines(const std::string& dump, std::vector<std::string>* ends = nullptr) {
  std::istringstream in(dump);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("end ", 0) == 0) {
      if (ends) ends->push_back(line);
      continue;
    }
    out += line + "\n";
  }
  return out;
}

// The records `emit` sends, written and read again, are the same records.
void expect_reread_same(const string_pool& pool, const std::function<void(record_sink&)>& emit,
                        writer_options o = {}) {
  std::string text = write(pool, emit, o);
  expect_clean_text(text);
  diagnostic_collector diags;
  std::vector<std::string> ends;
  std::vector<std::string> stated;
  EXPECT_EQ(without_end_lines(reread(text, diags), &ends),
            without_end_lines(dump_records(pool, emit), &stated))
      << text;
  EXPECT_EQ(diags.errors() + diags.warnings(), 0u) << diag_text(diags) << text;
  ASSERT_EQ(ends.size(), stated.size());
  auto statement = [](const std::string& e) {
    const auto s = e.find(" summary=");
    return s == std::string::npos ? e : e.substr(s, e.find(" computed=") - s);
  };
  for (std::size_t i = 0; i < ends.size(); ++i)
    EXPECT_EQ(statement(ends[i]), statement(stated[i])) << ends[i];
}

TEST(Writer, HeaderKeysInOrderEventsLastSummaryAfterIt) {
  script s;
  part_header h = simple_header({"Ir", "Dr"}, pos_instr | pos_line);
  h.creator = "callgrind-3.19.0";
  h.pid = 4242;
  h.cmd = "./rec a b";
  h.part_number = 2;
  h.thread = 3;
  h.descriptions = {{"I1 cache", ""}, {"Trigger", "Program termination"}};
  h.event_definitions = {{"CEst", "Ir + 10 Dr", "Cycle Estimation"}, {"sysTime", "", "ns"}};
  h.summary = std::vector<std::uint64_t>{7, 0};
  auto c = s.ctx("/bin/rec", "rec.c", "main");
  auto v = s.costs({7, 0});
  part_end end;  // callgrind ends every part with totals:
  end.totals = std::vector<std::uint64_t>{7, 0};
  auto emit = [&](record_sink& k) {
    k.on_part_begin(h);
    k.on_cost(cost(c, instr_line(0x401000, 3), v));
    k.on_part_end(end);
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\n"
            "version: 1\n"
            "creator: callgrind-3.19.0\n"
            "pid: 4242\n"
            "cmd: ./rec a b\n"
            "part: 2\n"
            "thread: 3\n"
            "desc: I1 cache:\n"
            "desc: Trigger: Program termination\n"
            "positions: instr line\n"
            "event: CEst = Ir + 10 Dr : Cycle Estimation\n"
            "event: sysTime : ns\n"
            "events: Ir Dr\n"
            "summary: 7\n"
            "\n"
            "ob=(1) /bin/rec\n"
            "fl=(1) rec.c\n"
            "fn=(1) main\n"
            "0x401000 3 7\n"
            "totals: 7 0\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, DescLinesAsTheInputWroteThem) {
  // cachegrind pads its values, callgrind ends an empty one with a blank, a producer may give
  // no type: callgrind_annotate prints each line as it is, so the writer writes it so.
  script s;
  part_header h = simple_header();
  h.descriptions = {{"I1 cache", "32768 B"}, {"LL cache", ""}, {"Trigger", ""}};
  h.description_lines = {"I1 cache:         32768 B", "LL cache: ", "Trigger"};
  auto c = s.ctx("", "a.c", "f");
  std::string text = write(s.pool, [&](record_sink& k) {
    k.on_part_begin(h);
    k.on_cost(cost(c, line_pos(1), s.costs({1})));
    k.on_part_end({});
  });
  EXPECT_NE(text.find("\ndesc: I1 cache:         32768 B\ndesc: LL cache: \ndesc: Trigger\n"),
            std::string::npos)
      << text;
}

TEST(Writer, CreatorOptionReplacesTheInputsCreator) {
  script s;
  part_header h = simple_header();
  h.creator = "xdebug";
  auto c = s.ctx("", "a.c", "f");
  auto v = s.costs({1});
  writer_options o;
  o.creator = "calltree";
  std::string text = write(
      s.pool,
      [&](record_sink& k) {
        k.on_part_begin(h);
        k.on_cost(cost(c, line_pos(1), v));
      },
      o);
  EXPECT_NE(text.find("\ncreator: calltree\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("xdebug"), std::string::npos) << text;
}

TEST(Writer, NamesDefinedAtFirstUseInEachPartNeverFromAnEarlierPart) {
  script s;
  auto main_ = s.ctx("", "a.c", "main");
  auto v = s.costs({1});
  auto emit = [&](record_sink& k) {
    for (int part = 0; part < 2; ++part) {
      part_header h = simple_header();
      h.index = static_cast<std::uint32_t>(part);
      k.on_part_begin(h);
      k.on_cost(cost(main_, line_pos(1), v));
      k.on_part_end({});
    }
  };
  std::string text = write(s.pool, emit);
  EXPECT_EQ(text,
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "fl=(1) a.c\nfn=(1) main\n1 1\n"
            "\n"
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "fl=(1) a.c\nfn=(1) main\n1 1\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, IdClassesAreSharedAcrossKeysOfOneClass) {
  // A file first named by cfi= is referenced by fl= later; a function first named by cfn= is
  // referenced by fn=; an object first named by cob= is referenced by ob=.
  script s;
  auto f = s.ctx("/bin/a", "a.c", "f");
  auto g = s.ctx("/lib/b.so", "b.c", "g");
  auto v = s.costs({3});
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header());
    call_record c;
    c.ctx = f;
    c.callee_object = g.object;
    c.callee_file = g.file;
    c.callee_function = g.function;
    c.count = 1;
    c.site = line_pos(5);
    c.target = line_pos(9);
    c.has_target = true;
    c.costs = v;
    k.on_call(c);
    k.on_cost(cost(g, line_pos(9), v));
    k.on_part_end({});
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "ob=(1) /bin/a\n"
            "fl=(1) a.c\n"
            "fn=(1) f\n"
            "cob=(2) /lib/b.so\n"
            "cfi=(2) b.c\n"
            "cfn=(2) g\n"
            "calls=1 9\n"
            "5 3\n"
            "\n"
            "ob=(2)\n"
            "fl=(2)\n"
            "fn=(2)\n"
            "9 3\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, NoCompressNamesStillCompressesNamesThatLookLikeIds) {
  script s;
  auto a = s.ctx("", "a.c", "(12) not an id");
  auto b = s.ctx("", "a.c", "(below main)");
  auto e = s.ctx("", "", "");
  auto v = s.costs({1});
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header());
    k.on_cost(cost(a, line_pos(1), v));
    k.on_cost(cost(b, line_pos(2), v));
    k.on_cost(cost(a, line_pos(3), v));
    k.on_cost(cost(e, line_pos(4), v));
    k.on_part_end({});
  };
  writer_options o;
  o.compress_names = false;
  EXPECT_EQ(write(s.pool, emit, o),
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "fl=a.c\nfn=(1) (12) not an id\n1 1\n\n"
            "fl=a.c\nfn=(below main)\n2 1\n\n"
            "fl=a.c\nfn=(1)\n3 1\n\n"
            "fl=\nfn=\n4 1\n");
  // Empty names are written plain with compression on too: "(3)" alone would be a reference.
  std::string compressed = write(s.pool, emit);
  EXPECT_NE(compressed.find("\nfl=\nfn=\n4 1\n"), std::string::npos) << compressed;
  // The empty names give the reader's empty-name warning; the records are the same.
  for (bool cn : {true, false}) {
    writer_options oo;
    oo.compress_names = cn;
    diagnostic_collector diags;
    EXPECT_EQ(without_end_lines(reread(write(s.pool, emit, oo), diags)),
              without_end_lines(dump_records(s.pool, emit)));
    EXPECT_EQ(diags.errors(), 0u) << diag_text(diags);
  }
}

TEST(Writer, SubpositionCompressionRelativeDecimalStarAndAbsoluteAfterFn) {
  script s;
  auto a = s.ctx("", "a.c", "a");
  auto b = s.ctx("", "a.c", "b");
  auto v = s.costs({1});
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header({"Ir"}, pos_instr | pos_line));
    k.on_cost(cost(a, instr_line(0x4838000, 100), v));    // absolute (first after fn=)
    k.on_cost(cost(a, instr_line(0x4838004, 100), v));    // +4 *
    k.on_cost(cost(a, instr_line(0x4837ff0, 90), v));     // -20 90 (absolute line is shorter)
    k.on_cost(cost(a, instr_line(0x9000000, 12345), v));  // far: absolute both
    k.on_cost(cost(a, instr_line(0x9000000, 12346), v));  // * +1
    k.on_cost(cost(b, instr_line(0x9000002, 12346), v));  // new fn: absolute
    k.on_part_end({});
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir\n\n"
            "fl=(1) a.c\nfn=(1) a\n"
            "0x4838000 100 1\n"
            "+4 * 1\n"
            "-20 90 1\n"
            "0x9000000 12345 1\n"
            "* +1 1\n"
            "\n"
            "fl=(1)\nfn=(2) b\n"
            "0x9000002 12346 1\n");
  writer_options o;
  o.compress_positions = false;
  std::string plain = write(s.pool, emit, o);
  EXPECT_NE(plain.find("\n0x4838004 100 1\n0x4837ff0 90 1\n"), std::string::npos) << plain;
  EXPECT_EQ(plain.find('*'), std::string::npos);
  expect_reread_same(s.pool, emit);
  expect_reread_same(s.pool, emit, o);
}

TEST(Writer, CallTargetIsRelativeButDoesNotMoveTheBaseTheCallCostLineDoes) {
  // T3 of format-semantics.md §5.1, written back.
  script s;
  auto a = s.ctx("", "", "a");
  auto b = s.ctx("", "", "b");
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header({"Ir"}, pos_instr | pos_line));
    k.on_cost(cost(a, instr_line(0x1000, 10), s.costs({5})));
    call_record c;
    c.ctx = a;
    c.callee_object = b.object;
    c.callee_file = b.file;
    c.callee_function = b.function;
    c.count = 2;
    c.site = instr_line(0x1000, 10);
    c.target = instr_line(0x1010, 20);
    c.has_target = true;
    c.costs = s.costs({7});
    k.on_call(c);
    k.on_cost(cost(a, instr_line(0x1002, 11), s.costs({1})));
    k.on_cost(cost(b, instr_line(0x1010, 19), s.costs({7})));
    k.on_part_end({});
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir\n\n"
            "fl=\nfn=(1) a\n"
            "0x1000 10 5\n"
            "cfn=(2) b\n"
            "calls=2 +16 20\n"
            "* * 7\n"
            "+2 11 1\n"
            "\n"
            "fl=\nfn=(2)\n"
            "0x1010 19 7\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, CallFormsCountZeroAndMissingTarget) {
  script s;
  auto m = s.ctx("", "a.c", "main");
  auto f = s.ctx("", "a.c", "f");
  auto emit_call = [&](record_sink& k, std::uint64_t count, bool has_target) {
    call_record c;
    c.ctx = m;
    c.callee_object = f.object;
    c.callee_file = f.file;
    c.callee_function = f.function;
    c.count = count;
    c.site = line_pos(5);
    c.target = line_pos(has_target ? 7 : 0);
    c.has_target = has_target;
    c.costs = s.costs({40});
    k.on_call(c);
  };
  std::string text = write(s.pool, [&](record_sink& k) {
    k.on_part_begin(simple_header());
    emit_call(k, 0, true);
    emit_call(k, 3, false);
    k.on_part_end({});
  });
  // calls=0 is kept (a fact of the input); a call without target gets the unknown position 0.
  EXPECT_EQ(text,
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "fl=(1) a.c\nfn=(1) main\n"
            "cfn=(2) f\ncalls=0 7\n5 40\n"
            "cfn=(2)\ncalls=3 0\n* 40\n");
}

TEST(Writer, InlinedFilesFiFeAndTheDefaultCalleeFile) {
  // T8: main's cost in h.h (inlined), a call from inside h.h to helper whose file is h.h
  // (no cfi= needed: the callee file defaults to the current source file), back to m.c.
  script s;
  auto main_mc = s.ctx("", "m.c", "main");
  auto main_hh = s.ctx("", "m.c", "main", "h.h");
  auto helper = s.ctx("", "h.h", "helper");
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header());
    k.on_cost(cost(main_mc, line_pos(5), s.costs({1})));
    k.on_cost(cost(main_hh, line_pos(3), s.costs({10})));
    call_record c;
    c.ctx = main_hh;
    c.callee_object = helper.object;
    c.callee_file = helper.file;
    c.callee_function = helper.function;
    c.count = 1;
    c.site = line_pos(3);
    c.target = line_pos(7);
    c.has_target = true;
    c.costs = s.costs({4});
    k.on_call(c);
    k.on_cost(cost(main_mc, line_pos(6), s.costs({1})));
    k.on_cost(cost(helper, line_pos(7), s.costs({4})));
    k.on_part_end({});
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\nevents: Ir\n\n"
            "fl=(1) m.c\nfn=(1) main\n5 1\n"
            "fi=(2) h.h\n3 10\n"
            "cfn=(2) helper\ncalls=1 7\n* 4\n"
            "fe=(1)\n6 1\n"
            "\n"
            "fl=(2)\nfn=(2)\n7 4\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, JumpsSlashFormTargetFileAndFunctionAndSourceLine) {
  script s;
  auto f = s.ctx("", "a.c", "f");
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header({"Ir"}, pos_instr | pos_line));
    k.on_cost(cost(f, instr_line(0x400000, 20), s.costs({7})));
    jump_record j;
    j.ctx = f;
    j.conditional = true;
    j.executed = 4;
    j.followed = 1;
    j.source = instr_line(0x400000, 20);
    j.target_file = s.pool.intern("x.h");
    j.target_function = f.function;
    j.target = instr_line(0x400055, 29);
    k.on_jump(j);
    jump_record u = j;
    u.conditional = false;
    u.executed = u.followed = 2;
    u.source = instr_line(0x400010, 22);
    u.target_file = f.file;
    u.target_function = s.pool.intern("g");
    u.target = instr_line(0x500000, 1);
    k.on_jump(u);
    k.on_cost(cost(f, instr_line(0x400012, 22), s.costs({1})));
    k.on_part_end({});
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir\n\n"
            "fl=(1) a.c\nfn=(1) f\n"
            "0x400000 20 7\n"
            "jfi=(2) x.h\n"
            "jcnd=1/4 +85 29\n"
            "* *\n"
            "jfn=(2) g\n"
            "jump=2 0x500000 1\n"
            "+16 22\n"
            "+2 * 1\n");
  expect_reread_same(s.pool, emit);
}

TEST(Writer, CostsDropTrailingZerosStatedTotalsAsStated) {
  script s;
  auto f = s.ctx("", "a.c", "f");
  part_end e;
  e.summary = std::vector<std::uint64_t>{9, 2, 0};  // a summary after the body, kept there
  // A totals: line is the input's statement: written as it was, with every event, even where
  // it is not the sum (4 2 5): what it says decides the program total (calltree/totals.h).
  e.totals = std::vector<std::uint64_t>{1, 1, 0};
  auto emit = [&](record_sink& k) {
    k.on_part_begin(simple_header({"Ir", "Dr", "Dw"}));
    k.on_cost(cost(f, line_pos(5), s.costs({3, 2, 0})));
    k.on_cost(cost(f, line_pos(6), s.costs({1, 0, 0})));
    k.on_cost(cost(f, line_pos(7), s.costs({0, 0, 0})));
    k.on_cost(cost(f, line_pos(8), s.costs({0, 0, 5})));
    k.on_part_end(e);
  };
  EXPECT_EQ(write(s.pool, emit),
            "# callgrind format\nversion: 1\nevents: Ir Dr Dw\n\n"
            "fl=(1) a.c\nfn=(1) f\n"
            "5 3 2\n6 1\n7 0\n8 0 0 5\n"
            "summary: 9 2\n"
            "totals: 1 1 0\n");
}

TEST(Writer, CostsKeepAsManyValuesAsTheInputLineGave) {
  // callgrind_annotate prints "." for a column no line wrote and "0" for a written 0, so the
  // writer writes the count of values the reader saw (`given`), never fewer nonzero ones.
  script s;
  auto f = s.ctx("", "a.c", "f");
  auto with_given = [&](std::vector<std::uint64_t> v, std::uint32_t given, std::uint64_t line) {
    cost_record r = cost(f, line_pos(line), s.costs(std::move(v)));
    r.given = given;
    return r;
  };
  std::string text = write(s.pool, [&](record_sink& k) {
    k.on_part_begin(simple_header({"Ir", "Dr", "Dw"}));
    k.on_cost(with_given({1, 0, 0}, 3, 1));
    k.on_cost(with_given({1, 0, 0}, 1, 2));
    k.on_cost(with_given({0, 0, 0}, 0, 3));
    k.on_cost(with_given({1, 2, 0}, 1, 4));  // never drop a nonzero value
    k.on_part_end({});
  });
  EXPECT_NE(text.find("\n1 1 0 0\n2 1\n3 0\n4 1 2\n"), std::string::npos) << text;
}

TEST(Writer, RecordsWithoutAPartStillGiveALoadableFile) {
  script s;
  auto f = s.ctx("", "a.c", "f");
  std::string text = write(s.pool, [&](record_sink& k) {
    k.on_cost(cost(f, line_pos(1), s.costs({2, 3})));
  });
  EXPECT_EQ(text,
            "# callgrind format\nversion: 1\nevents: e1 e2\n\n"
            "fl=(1) a.c\nfn=(1) f\n1 2 3\n");
}

TEST(Writer, FinishReportsAFailedStream) {
  script s;
  auto f = s.ctx("", "a.c", "f");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  callgrind_writer w(out, s.pool);
  w.on_part_begin(simple_header());
  w.on_cost(cost(f, line_pos(1), s.costs({1})));
  EXPECT_FALSE(w.finish());
}

}  // namespace
}  // namespace calltree

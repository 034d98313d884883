// import_pstats_test.cc — cProfile/profile stats (src/import/pstats.cc) and the marshal decoder
// under them (marshal.h): self = tottime, calls = ncalls, the calls into a function summing to
// its cumtime through recursion; references, text floats, longs and code objects decoded; and
// truncated, mistyped or oversized data said with its byte offset, never a crash.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "calltree/analysis/inclusive.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "import/formats.h"
#include "import/marshal.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

// Marshal's bytes, made by hand.
std::string i32(std::int32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += static_cast<char>((static_cast<std::uint32_t>(v) >> (8 * i)) & 0xff);
  return s;
}
std::string integer(std::int32_t v) { return "i" + i32(v); }
std::string real(double d) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &d, sizeof d);
  std::string s = "g";
  for (int i = 0; i < 8; ++i) s += static_cast<char>((bits >> (8 * i)) & 0xff);
  return s;
}
std::string str(const std::string& t) { return "z" + std::string(1, static_cast<char>(t.size())) + t; }
std::string tuple(std::initializer_list<std::string> items) {
  std::string s = ")" + std::string(1, static_cast<char>(items.size()));
  for (const auto& i : items) s += i;
  return s;
}
std::string dict(std::initializer_list<std::pair<std::string, std::string>> items) {
  std::string s = "{";
  for (const auto& [k, v] : items) s += k + v;
  return s + "0";
}
std::string key(const std::string& name, std::int32_t line = 1) {
  return tuple({str("t.py"), integer(line), str(name)});
}
// A callers entry of cProfile: (nc, cc, tt, ct).
std::string edge(std::int32_t nc, std::int32_t cc, double tt, double ct) {
  return tuple({integer(nc), integer(cc), real(tt), real(ct)});
}
std::string stats(std::int32_t cc, std::int32_t nc, double tt, double ct, const std::string& callers) {
  return tuple({integer(cc), integer(nc), real(tt), real(ct), callers});
}

struct call {
  std::string caller, callee;
  std::uint64_t count, cost;
};

// What the importer hands a sink: self costs by function, calls in order.
struct collected : record_sink {
  explicit collected(string_pool& p) : names(p) {}
  string_pool& names;
  std::vector<std::string> events;
  std::map<std::string, std::uint64_t> self;
  std::map<std::string, std::uint64_t> lines;
  std::vector<call> calls;
  void on_part_begin(const part_header& h) override { events = h.events; }
  void on_cost(const cost_record& r) override {
    const std::string f(names.view(r.ctx.function));
    self[f] += r.costs[0];
    lines[f] = r.pos.line;
  }
  void on_call(const call_record& r) override {
    calls.push_back({std::string(names.view(r.ctx.function)),
                     std::string(names.view(r.callee_function)), r.count, r.costs[0]});
  }
  std::uint64_t into(const std::string& f) const {
    std::uint64_t s = 0;
    for (const auto& c : calls)
      if (c.callee == f) s += c.cost;
    return s;
  }
  const call* find(const std::string& from, const std::string& to) const {
    for (const auto& c : calls)
      if (c.caller == from && c.callee == to) return &c;
    return nullptr;
  }
};

struct read_result {
  string_pool names;
  std::unique_ptr<collected> sink;
  diagnostic_collector diags;
  bool profile = false;
};

std::unique_ptr<read_result> read(const std::string& bytes) {
  auto r = std::make_unique<read_result>();
  r->sink = std::make_unique<collected>(r->names);
  auto in = memory_input(bytes);
  detail::read_hooks h;
  h.format = detail::profile_format::pstats;
  auto got = detail::read_with_hooks(*in, r->names, *r->sink, r->diags, {}, h);
  r->profile = got.has_value();
  return r;
}

bool said(const read_result& r, diag_code code, const std::string& part) {
  for (const auto& d : r.diags.kept())
    if (d.code == code && d.line == 0 && d.message.find(part) != std::string::npos) return true;
  for (const auto& d : r.diags.kept()) ADD_FAILURE() << "said: " << d.message;
  return false;
}

TEST(ImportPstats, SelfIsTottimeCallsAreNcalls) {
  const auto data = dict({
      {key("main", 1), stats(1, 1, 2e-6, 10e-6, dict({}))},
      {key("f", 5), stats(3, 3, 8e-6, 8e-6, dict({{key("main", 1), edge(3, 3, 8e-6, 8e-6)}}))},
  });
  EXPECT_EQ(detail::sniff_format(data, true), detail::profile_format::pstats);
  auto r = read(data);
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->diags.errors(), 0u);
  EXPECT_EQ(r->sink->events, std::vector<std::string>{"ns"});
  EXPECT_EQ(r->sink->self["main"], 2000u);
  EXPECT_EQ(r->sink->self["f"], 8000u);
  EXPECT_EQ(r->sink->lines["f"], 5u);
  ASSERT_EQ(r->sink->calls.size(), 1u);
  EXPECT_EQ(r->sink->calls[0].caller, "main");
  EXPECT_EQ(r->sink->calls[0].count, 3u);
  EXPECT_EQ(r->sink->calls[0].cost, 8000u);
}

// fib: main -> fib (ct 100 ns, fib's cumtime), fib -> fib (ct 90: pstats' per-edge
// recursion): the self-call costs 0, the calls into fib sum to 100.
TEST(ImportPstats, DirectRecursionCountsOnce) {
  auto r = read(dict({
      {key("main", 1), stats(1, 1, 1e-9, 101e-9, dict({}))},
      {key("fib", 3),
       stats(1, 9, 100e-9, 100e-9,
             dict({{key("main", 1), edge(1, 1, 10e-9, 100e-9)}, {key("fib", 3), edge(8, 2, 90e-9, 90e-9)}}))},
  }));
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->sink->into("fib"), 100u);
  ASSERT_NE(r->sink->find("fib", "fib"), nullptr);
  EXPECT_EQ(r->sink->find("fib", "fib")->count, 8u);
  EXPECT_EQ(r->sink->find("fib", "fib")->cost, 0u);
}

// is_even <-> is_odd entered from main through is_even: even's cumtime from main's call,
// odd's all from even's.
TEST(ImportPstats, MutualRecursionCountsOnce) {
  auto r = read(dict({
      {key("main", 1), stats(1, 1, 0, 50e-9, dict({}))},
      {key("even", 2), stats(1, 4, 20e-9, 50e-9,
                             dict({{key("main", 1), edge(1, 1, 5e-9, 50e-9)},
                                   {key("odd", 3), edge(3, 1, 15e-9, 40e-9)}}))},
      {key("odd", 3), stats(1, 3, 30e-9, 45e-9, dict({{key("even", 2), edge(3, 1, 30e-9, 45e-9)}}))},
  }));
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->sink->into("even"), 50u);
  EXPECT_EQ(r->sink->into("odd"), 45u);
  EXPECT_EQ(r->sink->find("odd", "even")->cost, 0u);
  EXPECT_EQ(r->sink->find("odd", "even")->count, 3u);
}

// The `profile` module's callers are counts: the cumtime is split by them, the sum exact.
TEST(ImportPstats, ProfileModuleCountsSplitTheCumtime) {
  auto r = read(dict({
      {key("a", 1), stats(1, 1, 0, 0, dict({}))},
      {key("b", 2), stats(1, 1, 0, 0, dict({}))},
      {key("f", 3), stats(4, 4, 1e-9, 7e-9, dict({{key("a", 1), integer(3)}, {key("b", 2), integer(1)}}))},
  }));
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->sink->into("f"), 7u);
  EXPECT_EQ(r->sink->find("a", "f")->count, 3u);
  EXPECT_EQ(r->sink->find("a", "f")->cost, 5u);  // 5.25, the remainder to the largest part
  EXPECT_EQ(r->sink->find("b", "f")->cost, 2u);
}

// One file's name at two lines: told apart by line.
TEST(ImportPstats, SameNameAtTwoLines) {
  auto r = read(dict({
      {key("__init__", 10), stats(1, 1, 1e-9, 1e-9, dict({}))},
      {key("__init__", 20), stats(1, 1, 2e-9, 2e-9, dict({}))},
      {tuple({str("~"), integer(0), str("<built-in method builtins.len>")}), stats(1, 1, 3e-9, 3e-9, dict({}))},
  }));
  EXPECT_EQ(r->sink->self["__init__:10"], 1u);
  EXPECT_EQ(r->sink->self["__init__:20"], 2u);
  EXPECT_EQ(r->sink->self["<built-in method builtins.len>"], 3u);
}

// References (FLAG_REF and 'r'), text floats, longs, interned strings.
TEST(ImportPstats, ReferencesTextFloatsAndLongs) {
  // key: a flagged tuple (ref 0) of a flagged string (ref 1), an int, a flagged name (ref 2)
  const std::string k = "\xa9\x03" "\xfa\x04t.py" + integer(7) + "\xda\x01g";
  const std::string f = "f\x05" "2e-06";                         // text float 2e-6
  const std::string l = "l" + i32(2) + std::string("\x01\x00\x01\x00", 4);  // 1 + 2^15
  const std::string data = "{" + k + tuple({integer(1), l, f, f, dict({})}) +
                           tuple({"r" + i32(1), integer(9), str("h")}) +
                           tuple({integer(1), integer(1), real(1e-6), real(3e-6),
                                  dict({{"r" + i32(0), edge(1, 1, 0, 1e-6)}})}) +
                           "0";
  auto r = read(data);
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->diags.errors(), 0u);
  EXPECT_EQ(r->sink->self["g"], 2000u);
  ASSERT_EQ(r->sink->calls.size(), 1u);
  EXPECT_EQ(r->sink->calls[0].caller, "g");
  EXPECT_EQ(r->sink->calls[0].callee, "h");

  auto doc = detail::marshal::decode(l);
  ASSERT_TRUE(std::holds_alternative<detail::marshal::document>(doc));
  const auto& d = std::get<detail::marshal::document>(doc);
  EXPECT_EQ(d.at(d.root).integer, 32769);
  const std::string big = std::string("l") + i32(-6) + std::string(12, '\x01');
  auto bd = detail::marshal::decode(big);
  ASSERT_TRUE(std::holds_alternative<detail::marshal::document>(bd));
  const auto& b = std::get<detail::marshal::document>(bd);
  EXPECT_EQ(b.at(b.root).type, detail::marshal::kind::big_integer);
}

TEST(ImportPstats, EmptyDictIsNoProfile) {
  auto r = read(dict({}));
  EXPECT_FALSE(r->profile);
}

TEST(ImportPstats, WrongTypesAreSaidWithTheirOffset) {
  // a value that is no 5-tuple, at byte 1 + the key's 16 bytes
  auto r = read(dict({{key("f", 1), integer(3)}, {key("g", 2), stats(1, 1, 1e-9, 1e-9, dict({}))}}));
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->diags.errors(), 1u);
  EXPECT_TRUE(said(*r, diag_code::bad_pstats, "byte 17: the stats of t.py:1(f)"));
  EXPECT_EQ(r->sink->self.count("f"), 0u);
  EXPECT_EQ(r->sink->self["g"], 1u);
  // a key that is no tuple; the top object no dict
  auto k = read(dict({{integer(1), stats(1, 1, 1e-9, 1e-9, dict({}))}}));
  EXPECT_FALSE(k->profile);
  EXPECT_TRUE(said(*k, diag_code::bad_pstats, "byte 1: a stats key"));
  auto t = read(tuple({integer(1)}));
  EXPECT_FALSE(t->profile);
  EXPECT_TRUE(said(*t, diag_code::bad_pstats, "not a dict"));
}

TEST(ImportPstats, BadMarshalIsSaidNeverACrash) {
  const auto check = [](const std::string& bytes, const std::string& part) {
    auto r = read(bytes);
    EXPECT_FALSE(r->profile) << part;
    EXPECT_TRUE(said(*r, diag_code::bad_pstats, part)) << part;
  };
  check("{" + std::string("(") + i32(0x7fffffff), "byte 1: a tuple, list or set's length (2147483647)");
  check("{" + std::string("(") + i32(-1), "negative length");
  check("{" + std::string("s") + i32(1 << 30) + "abc", "byte 1: a string's length");
  check("{" + std::string("l") + i32(INT32_MIN), "digits run past");
  check("{r" + i32(0), "byte 1: a reference to object 0 of 0");
  check("{\x29\x03", "byte 1: a tuple, list or set's length (3) runs past the end");
  check("{Q", "unknown marshal type code 0x51");
  check("{" + key("f"), "byte 17: the data ends inside an object's type code");
  check("{" + key("f") + "0", "byte 17: a dict's key has no value");
  check(std::string(200, ')') + std::string(1, '\x01'), "nested more than 64");
  check("{" + std::string(200, '[') + i32(1), "runs past the end");
  check(std::string(200, '\xa9') + std::string(1, '\x01'), "(169) runs past the end");
  check("{" + key("f") + "f\x03" "1x2", "not a number");
  check(std::string("{0", 1) + "\xff", "");  // (an empty dict then a byte: no profile)
}

std::string file_bytes(const std::string& name) {
  auto in = open_input((fs::path(CALLTREE_SOURCE_DIR) / "tests/import/pstats" / name).string());
  std::string bytes;
  if (!in) return bytes;
  while (auto b = (*in)->next()) {
    if (b->empty()) break;
    bytes.append(b->data(), b->size());
  }
  return bytes;
}

// `profile`'s file: its top-level frame keyed by a code object (3.11's layout), counts alone.
TEST(ImportPstats, ProfileModuleFileWithACodeObject) {
  auto r = read(file_bytes("work-profile.prof"));
  ASSERT_TRUE(r->profile);
  EXPECT_EQ(r->diags.errors(), 0u);
  EXPECT_EQ(r->sink->self.count("<code object <module>, file \"work.py\", line 1>"), 1u);
  EXPECT_EQ(r->sink->find("main", "fib")->count, 1u);
  EXPECT_EQ(r->sink->find("fib", "fib")->count, 8360u);
}

// Every prefix of a real file reads without a crash, as no profile or one with what it has.
TEST(ImportPstats, EveryTruncationOfARealFile) {
  const std::string bytes = file_bytes("cycles.prof");
  ASSERT_GT(bytes.size(), 100u);
  auto whole = read(bytes);
  EXPECT_TRUE(whole->profile);
  EXPECT_EQ(whole->diags.errors(), 0u);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read(bytes.substr(0, n));
    EXPECT_FALSE(r->profile) << n;
    EXPECT_GE(r->diags.errors(), 1u) << n;
  }
  // and with each byte changed
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::string b = bytes;
    b[n] = static_cast<char>(b[n] ^ 0x5a);
    (void)read(b);
  }
}

}  // namespace
}  // namespace calltree

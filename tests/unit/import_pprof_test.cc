// import_pprof_test.cc — pprof's profile.proto (src/import/pprof.cc): what each part of the
// format becomes (events, inlined lines, locations without lines, signed values), the wire
// format's forms (packed or not, unknown fields), and its faults said with their byte offset,
// never a crash, on every cut and changed byte of a profile.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "calltree/analysis/inclusive.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "export/protobuf.h"
#include "import/formats.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

using detail::profile_format;
using exporting::proto_encoder;

struct loaded {
  profile p;
  diagnostic_collector diags;
  std::optional<result<read_stats>> r;
};

std::unique_ptr<loaded> load(const std::string& bytes, bool any_input = true) {
  auto l = std::make_unique<loaded>();
  auto in = memory_input(bytes);
  profile_builder b(l->p, &l->diags, "test");
  detail::read_hooks h;
  h.any_input = any_input;
  h.format = profile_format::pprof;
  l->r = detail::read_with_hooks(*in, l->p.strings, b, l->diags, {}, h);
  return l;
}

using self_incl = std::pair<std::int64_t, std::int64_t>;

// Self and inclusive cost (annotate's sums) of each function by name, event `e`.
std::map<std::string, self_incl> costs(const profile& p, std::size_t e = 0) {
  inclusive_options o;
  o.raw = true;
  signed_costs_scope sums(p.signed_costs);
  const auto r = compute_inclusive(p, o);
  std::map<std::string, self_incl> out;
  for (function_id f : p.functions.ids())
    out[std::string(p.function_name(f))] = {as_signed(r.self_of(f)[e]),
                                            as_signed(r.inclusive_of(f)[e])};
  return out;
}

// A profile written field by field: the wire forms a test wants.
struct builder {
  std::vector<std::string> strings{""};
  proto_encoder out;
  bool packed = true;
  bool unknown_fields = false;

  std::int64_t s(const std::string& v) {
    for (std::size_t i = 0; i < strings.size(); ++i)
      if (strings[i] == v) return static_cast<std::int64_t>(i);
    strings.push_back(v);
    return static_cast<std::int64_t>(strings.size() - 1);
  }
  void extras(proto_encoder& m) {
    if (!unknown_fields) return;
    m.varint_field(99, 12345);
    m.bytes_field(100, "ignored");
    m.tag(101, 5);
    m.raw(std::string("\x01\x02\x03\x04", 4));
    m.tag(102, 1);
    m.raw(std::string(8, '\x7f'));
  }
  void sample_type(const std::string& type, const std::string& unit) {
    proto_encoder m;
    extras(m);
    m.int64_field(1, s(type));
    m.int64_field(2, s(unit));
    out.message_field(1, m);
  }
  void mapping(std::uint64_t id, const std::string& file) {
    proto_encoder m;
    m.varint_field(1, id);
    m.varint_field(2, 0x400000);
    m.int64_field(5, s(file));
    extras(m);
    out.message_field(3, m);
  }
  void function(std::uint64_t id, const std::string& name, const std::string& file,
                std::int64_t start) {
    proto_encoder m;
    m.varint_field(1, id);
    m.int64_field(2, s(name));
    m.int64_field(4, s(file));
    m.int64_field(5, start);
    extras(m);
    out.message_field(5, m);
  }
  // lines: (function id, line), innermost first.
  void location(std::uint64_t id, std::uint64_t mapping, std::uint64_t address,
                std::vector<std::pair<std::uint64_t, std::int64_t>> lines) {
    proto_encoder m;
    m.varint_field(1, id);
    extras(m);
    if (mapping) m.varint_field(2, mapping);
    m.varint_field(3, address);
    for (auto [f, l] : lines) {
      proto_encoder ln;
      ln.varint_field(1, f);
      ln.int64_field(2, l);
      extras(ln);
      m.message_field(4, ln);
    }
    out.message_field(4, m);
  }
  void sample(std::vector<std::uint64_t> locations, std::vector<std::int64_t> values) {
    proto_encoder m;
    if (packed) {
      m.packed_field<std::uint64_t>(1, locations);
      m.packed_field<std::int64_t>(2, values);
    } else {
      for (auto l : locations) m.varint_field(1, l);
      for (auto v : values) m.int64_field(2, v);
    }
    extras(m);
    proto_encoder label;
    label.int64_field(1, s("thread"));
    label.int64_field(2, s("worker"));
    m.message_field(3, label);
    out.message_field(2, m);
  }
  std::string bytes() {
    proto_encoder all;
    extras(all);
    all.raw(out.bytes());
    for (const auto& str : strings) all.bytes_field(6, str);
    return all.take();
  }
};

// main -> f -> g, g inlined into f (one location, two lines); main -> h; main itself.
std::string small_profile(bool packed = true, bool unknown = false, std::int64_t sign = 1) {
  builder b;
  b.packed = packed;
  b.unknown_fields = unknown;
  b.sample_type("samples", "count");
  b.sample_type("cpu", "nanoseconds");
  b.mapping(1, "/bin/prog");
  b.function(1, "main", "main.go", 10);
  b.function(2, "f", "main.go", 20);
  b.function(3, "g", "util.go", 30);
  b.function(4, "h", "main.go", 40);
  b.location(1, 1, 0x401000, {{3, 31}, {2, 22}});  // g inlined into f
  b.location(2, 1, 0x402000, {{1, 12}});
  b.location(3, 1, 0x403000, {{4, 41}});
  b.location(4, 1, 0x404000, {});  // no lines: its address
  b.sample({1, 2}, {3 * sign, 30 * sign});
  b.sample({3, 2}, {2, 20});
  b.sample({2}, {1, 10});
  b.sample({4, 3, 2}, {4, 40});
  return b.bytes();
}

void expect_small(const loaded& l, std::int64_t sign = 1) {
  ASSERT_TRUE(l.r->has_value()) << l.r->error().message;
  EXPECT_EQ(l.diags.errors(), 0u);
  ASSERT_EQ(l.p.events.size(), 2u);
  EXPECT_EQ(l.p.events[event_id{0}].name, "samples_count");
  EXPECT_EQ(l.p.events[event_id{1}].name, "cpu_nanoseconds");
  auto c = costs(l.p, 1);
  EXPECT_EQ(c["g"], (self_incl{30 * sign, 30 * sign}));
  EXPECT_EQ(c["f"], (self_incl{0, 30 * sign}));
  EXPECT_EQ(c["h"], (self_incl{20, 60}));
  EXPECT_EQ(c["0x404000"], (self_incl{40, 40}));
  EXPECT_EQ(c["main"], (self_incl{10, 70 + 30 * sign}));
}

TEST(ImportPprof, EventsInlinedLinesAndAddresses) {
  auto l = load(small_profile());
  expect_small(*l);
  auto c = costs(l->p, 0);
  EXPECT_EQ(c["main"], (self_incl{1, 10}));
  for (function_id f : l->p.functions.ids()) {
    const auto name = l->p.function_name(f);
    EXPECT_EQ(l->p.object_name(l->p.functions[f].object), "/bin/prog") << name;
    if (name == "g") {
      EXPECT_EQ(l->p.file_name(l->p.functions[f].file), "util.go");
    }
  }
  const auto& d = l->p.parts[part_id{0}].header.descriptions;
  EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](auto& x) {
    return x.first == "Sample labels (not kept)" && x.second == "thread";
  }));
  EXPECT_FALSE(l->p.signed_costs);
}

TEST(ImportPprof, PackedAndUnpackedAreOne) { expect_small(*load(small_profile(false))); }

TEST(ImportPprof, UnknownFieldsAreSkipped) { expect_small(*load(small_profile(true, true))); }

TEST(ImportPprof, NegativeValuesAreSignedCosts) {
  auto l = load(small_profile(true, false, -1));
  expect_small(*l, -1);
  EXPECT_TRUE(l->p.signed_costs);
}

TEST(ImportPprof, RecursionCountsOncePerStack) {
  builder b;
  b.sample_type("samples", "count");
  b.function(1, "main", "m.go", 1);
  b.function(2, "f", "m.go", 5);
  b.location(1, 0, 0x10, {{1, 2}});
  b.location(2, 0, 0x20, {{2, 6}});
  b.location(3, 0, 0x30, {{2, 7}});
  b.sample({2, 3, 2, 1}, {5});
  auto l = load(b.bytes());
  ASSERT_TRUE(l->r->has_value());
  auto c = costs(l->p);
  EXPECT_EQ(c["f"], (self_incl{5, 5}));
  EXPECT_EQ(c["main"], (self_incl{0, 5}));
}

TEST(ImportPprof, AnEmptyProfileIsNoProfile) {
  builder b;
  auto l = load(b.bytes(), false);
  ASSERT_FALSE(l->r->has_value());
  EXPECT_EQ(l->r->error().code, error_code::no_profile);
  builder t;
  t.sample_type("samples", "count");
  l = load(t.bytes(), false);
  ASSERT_FALSE(l->r->has_value());
  EXPECT_EQ(l->r->error().code, error_code::no_profile);
}

// The first diagnostic, which must be bad-pprof at line 0 naming byte `offset`.
void expect_fault(const std::string& bytes, std::size_t offset, const std::string& what) {
  auto l = load(bytes, false);
  ASSERT_FALSE(l->r->has_value()) << what;
  EXPECT_EQ(l->r->error().code, error_code::no_profile);
  ASSERT_FALSE(l->diags.kept().empty()) << what;
  const auto& d = l->diags.kept().front();
  EXPECT_EQ(d.code, diag_code::bad_pprof);
  EXPECT_EQ(d.line, 0u);
  EXPECT_NE(d.message.find(what), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("at byte " + std::to_string(offset) + " "), std::string::npos)
      << d.message;
  EXPECT_EQ(l->p.functions.size(), 0u);
}

TEST(ImportPprof, FaultsSayTheirByteOffset) {
  // a sample type, then a varint cut in its middle
  expect_fault(std::string("\x0a\x04\x08\x01\x10\x02\x48\xf3\xf8", 9), 7, "varint runs past");
  // a length past the end
  expect_fault(std::string("\x0a\x04\x08\x01\x10\x02\x12\x7f\x08\x01", 10), 6,
               "runs past the 2 bytes left");
  // a length past its message's end (the sample type's 4 bytes hold a 5-byte string)
  expect_fault(std::string("\x0a\x04\x08\x01\x12\x05\x08", 7), 4, "runs past");
  // a group's wire type
  expect_fault(std::string("\x0a\x04\x08\x01\x10\x02\x0b", 7), 6, "wire type 3");
  // a varint of 11 bytes
  expect_fault(std::string("\x0a\x02\x08\x01\x48") + std::string(10, '\xff') + "\x01", 5,
               "longer than");
  // a sample naming a location not in the file
  builder b;
  b.sample_type("samples", "count");
  b.sample({7}, {1});
  expect_fault(b.bytes(), 6, "location 7");
  // values not one per sample type
  builder v;
  v.sample_type("samples", "count");
  v.function(1, "main", "m.go", 1);
  v.location(1, 0, 0x10, {{1, 2}});
  v.sample({1}, {1, 2});
  expect_fault(v.bytes(), 28, "2 values for 1 sample types");
}

// Every cut of a profile and every byte of it changed: read, never a crash or a hang; what is
// read is a whole profile or none.
TEST(ImportPprof, CorruptInputNeverCrashes) {
  const std::string good = small_profile(false, true);
  std::size_t read = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto l = load(good.substr(0, n));
    if (l->diags.errors() == 0 && !l->p.functions.empty()) ++read;
  }
  for (std::size_t i = 0; i < good.size(); ++i)
    for (unsigned x : {0x00u, 0x01u, 0x7fu, 0x80u, 0xffu}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ x);
      auto l = load(bad);
      ASSERT_TRUE(l->r->has_value());
      if (l->diags.errors()) {
        EXPECT_EQ(l->p.functions.size(), 0u);
      }
    }
  EXPECT_LT(read, good.size());
}

TEST(ImportPprof, SniffedWhateverItsFirstField) {
  auto sniff = [](std::string s) { return detail::sniff_format(s, true); };
  EXPECT_EQ(sniff(std::string("\x48\xf3\xf8\x98\x05\x0a\x04\x08\x01\x10\x02", 11)),
            profile_format::pprof);  // Go's CPU profile: time_nanos first
  EXPECT_EQ(sniff(std::string("\x5a\x04\x08\x01\x10\x02\x60\x80\x80\x04", 10)),
            profile_format::pprof);  // Go's heap profile: period_type first
  EXPECT_EQ(sniff(std::string("\x1a\x0e\x08\x01\x10\x80", 6)), profile_format::pprof);  // mapping
  EXPECT_EQ(sniff(small_profile()), profile_format::pprof);
  for (const char* text : {"Hello\n", "Z3\n\nfn=main\n", "2 main\n", "*\n", "P1 x\n",
                           "\"a\";b 1\n", "H\x7f\n"})
    EXPECT_NE(sniff(text), profile_format::pprof) << text;
}

}  // namespace
}  // namespace calltree

// export_test.cc — the pieces of src/export/ that the consumer tests (tests/export/, with go
// tool pprof, speedscope, Graphviz, Chromium) cannot pin down alone: the protobuf wire bytes,
// the event units, saturation, and the format names.
#include "export/export.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "export/protobuf.h"
#include "export/stacks.h"

namespace calltree::exporting {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(ProtoEncoder, VarintFieldsAsTheSpecificationsExample) {
  // protobuf.dev/programming-guides/encoding: field 1 = 150 is 08 96 01.
  proto_encoder e;
  e.varint_field(1, 150);
  EXPECT_EQ(e.bytes(), bytes({0x08, 0x96, 0x01}));
  e.clear();
  e.varint_field(2, 0);
  EXPECT_EQ(e.bytes(), bytes({0x10, 0x00}));
  e.clear();
  e.int64_field(1, -1);  // ten bytes, as int64 is encoded
  EXPECT_EQ(e.size(), 11u);
  EXPECT_EQ(static_cast<unsigned char>(e.bytes().back()), 0x01);
}

TEST(ProtoEncoder, LengthDelimitedAndNested) {
  proto_encoder e;
  e.bytes_field(2, "testing");  // 12 07 74 65 73 74 69 6e 67
  EXPECT_EQ(e.bytes(), bytes({0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}));
  proto_encoder inner, outer;
  inner.varint_field(1, 150);
  outer.message_field(3, inner);  // 1a 03 08 96 01
  EXPECT_EQ(outer.bytes(), bytes({0x1a, 0x03, 0x08, 0x96, 0x01}));
}

TEST(ProtoEncoder, PackedRepeated) {
  // field 4 = [3, 270, 86942]: 22 06 03 8e 02 9e a7 05
  proto_encoder e;
  const std::vector<std::uint64_t> v{3, 270, 86942};
  e.packed_field<std::uint64_t>(4, v);
  EXPECT_EQ(e.bytes(), bytes({0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05}));
  e.clear();
  e.packed_field<std::uint64_t>(4, std::vector<std::uint64_t>{});
  EXPECT_TRUE(e.bytes().empty());  // an empty packed field is not written
}

TEST(EventUnits, ProducersNames) {
  auto u = unit_of("Time_(10ns)");
  EXPECT_EQ(u.type, "Time");
  EXPECT_EQ(u.unit, "nanoseconds");
  EXPECT_EQ(u.scale, 10u);
  u = unit_of("Memory_(bytes)");
  EXPECT_EQ(u.type, "Memory");
  EXPECT_EQ(u.unit, "bytes");
  EXPECT_EQ(u.scale, 1u);
  u = unit_of("cpu(ms)");
  EXPECT_EQ(u.type, "cpu");
  EXPECT_EQ(u.unit, "milliseconds");
  u = unit_of("ns");
  EXPECT_EQ(u.type, "ns");
  EXPECT_EQ(u.unit, "nanoseconds");
  for (const char* count : {"Ir", "Dr", "Hits", "Ticks", "wall_time", "sysCount", "s", "b"}) {
    u = unit_of(count);
    EXPECT_EQ(u.type, count);
    EXPECT_EQ(u.unit, "count") << count;
    EXPECT_EQ(u.scale, 1u);
  }
  u = unit_of("Weird_(furlongs)");  // an unknown unit: a count of the whole name
  EXPECT_EQ(u.type, "Weird_(furlongs)");
  EXPECT_EQ(u.unit, "count");
}

TEST(EventUnits, ScaledSaturates) {
  EXPECT_EQ(scaled(7, 10), 70u);
  EXPECT_EQ(scaled(UINT64_MAX / 10 + 1, 10), UINT64_MAX);
  EXPECT_EQ(scaled(UINT64_MAX, 1), UINT64_MAX);
}

TEST(ExportFormats, NamesRoundTrip) {
  for (const char* n : {"pprof", "folded", "speedscope", "chrome", "dot", "flamegraph", "json"}) {
    auto f = parse_export_format(n);
    ASSERT_TRUE(f) << n;
    EXPECT_EQ(export_format_name(*f), n);
  }
  EXPECT_FALSE(parse_export_format("svg"));  // (the CLI draws svg/png from dot)
  EXPECT_FALSE(parse_export_format("PPROF"));
}

}  // namespace
}  // namespace calltree::exporting

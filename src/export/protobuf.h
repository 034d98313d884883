// export/protobuf.h — (internal) the protocol buffers wire format, write side only.
//
// What it is: the three encodings profile.proto needs (varint fields, packed repeated varints,
// length-delimited fields for strings and nested messages), appended to a std::string. A
// nested message is written into its own encoder and appended as bytes. What it is not: a
// protobuf library (no schema, no reflection, no parsing); docs/export.md says why this is
// simpler than libprotobuf here and how `go tool pprof` checks it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace calltree::exporting {

class proto_encoder {
 public:
  // A varint field (wire type 0). Zero is written too (proto3 readers take it as the default).
  void varint_field(std::uint32_t field, std::uint64_t v) {
    tag(field, 0);
    varint(v);
  }
  void int64_field(std::uint32_t field, std::int64_t v) {
    varint_field(field, static_cast<std::uint64_t>(v));
  }
  // A length-delimited field (wire type 2): a string, bytes, or an encoded message.
  void bytes_field(std::uint32_t field, std::string_view bytes) {
    tag(field, 2);
    varint(bytes.size());
    out_.append(bytes);
  }
  void message_field(std::uint32_t field, const proto_encoder& m) { bytes_field(field, m.out_); }
  // A packed repeated varint field (wire type 2 holding varints).
  template <typename T>
  void packed_field(std::uint32_t field, std::span<const T> values) {
    if (values.empty()) return;
    std::size_t n = 0;
    for (T v : values) n += varint_size(static_cast<std::uint64_t>(v));
    tag(field, 2);
    varint(n);
    for (T v : values) varint(static_cast<std::uint64_t>(v));
  }

  // The pieces of a field written by hand (a packed field whose bytes are already encoded):
  // its tag, a varint (its length), its bytes.
  void tag(std::uint32_t field, std::uint32_t wire) { varint((std::uint64_t{field} << 3) | wire); }
  void varint(std::uint64_t v) {
    char b[10];
    std::size_t n = 0;
    while (v >= 0x80) {
      b[n++] = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    b[n++] = static_cast<char>(v);
    out_.append(b, n);
  }
  void raw(std::string_view bytes) { out_.append(bytes); }
  // Writes v's varint so that it ends at `end`; returns where it begins.
  static char* varint_before(char* end, std::uint64_t v) {
    char* p = end - varint_size(v);
    char* q = p;
    while (v >= 0x80) {
      *q++ = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    *q = static_cast<char>(v);
    return p;
  }

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }
  void clear() { out_.clear(); }
  std::size_t size() const { return out_.size(); }

  static std::size_t varint_size(std::uint64_t v) {
    std::size_t n = 1;
    while (v >= 0x80) {
      v >>= 7;
      ++n;
    }
    return n;
  }

 private:
  std::string out_;
};

}  // namespace calltree::exporting

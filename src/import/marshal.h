// marshal.h — Python's `marshal` data decoded into a tree of values (what pstats files hold).
//
// What it is: decode(), a bounds-checked reader of the marshal types a profile's stats dict is
// made of (CPython's Python/marshal.c, versions 0 to 4): None, True, False, int ('i'), long
// ('l', 15-bit digits), float (binary 'g', text 'f'), complex (read, not kept), every string
// type (bytes 's', 't', 'u', 'a', 'A', short 'z', 'Z'), tuple ('(' and small ')'), list,
// dict, set and frozenset; references (FLAG_REF 0x80 on a type code, TYPE_REF 'r' naming the
// n-th flagged object in the order the flags are met, containers numbered before their items)
// and Python 2's string table ('t' then 'R'); code objects (which the `profile` module puts in
// a key for its top-level frame), as their name, file and first line, in the layouts of
// CPython 3.0-3.7, 3.8-3.10 and 3.11 on. What it is not: a Python object model (other types
// are an error), nor anything pstats-specific (pstats.cc).
//
// It never reads past the end, never allocates more than the input can hold (a container's
// length is checked against the bytes left), nests at most 64 containers deep, and says what is
// wrong with the byte offset of the type code it could not read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace calltree::detail::marshal {

enum class kind : std::uint8_t {
  none,
  boolean,
  integer,      // fits in 64 bits: `integer`
  big_integer,  // a long beyond 64 bits (its value is not kept)
  real,         // `real`
  string,       // str or bytes: `text` (a view into the input; UTF-8 for str)
  tuple,        // `items`
  list,         // `items`
  dict,         // `items`: key, value, key, value, ...
  set,          // set or frozenset: `items`
  code,         // a code object: `text` its name, `file` its file, `integer` its first line
  other,        // complex, Ellipsis, StopIteration: read, nothing kept
};

struct node {
  kind type = kind::none;
  bool truth = false;
  std::int64_t integer = 0;
  double real = 0;
  std::string_view text;
  std::string_view file;             // a code object's
  std::vector<std::uint32_t> items;  // indexes into document::nodes
  std::uint64_t offset = 0;          // of its type code in the input
};

struct document {
  std::vector<node> nodes;
  std::uint32_t root = 0;
  std::uint64_t end = 0;  // the offset just past the root object (trailing bytes are not read)

  const node& at(std::uint32_t i) const { return nodes[i]; }
};

struct error {
  std::uint64_t offset = 0;
  std::string message;
};

// The first object of `bytes` (a view into `bytes` is kept: it must outlive the document).
std::variant<document, error> decode(std::string_view bytes);

}  // namespace calltree::detail::marshal

// string_pool.h — interned strings with dense 32-bit ids.
//
// What it is: the one place names (objects, files, functions) are stored. The reader interns a
// name once, when its line is read; every record after that carries the id. Id 0 is always the
// empty string ("unknown"). What it is not: the format's `(id)` name compression: those ids are
// aliases chosen by the producer and live in the reader's tables; several of them may map to
// one pool id.
//
// Threads: const members may be called from several threads at once; intern(), find() and
// release_index() need the pool to themselves.
// Lifetime: a view() lives as long as the pool (moving the pool keeps it valid); an id means
// its name in this pool only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "calltree/export.h"
#include "calltree/id.h"

namespace calltree {

// A name's id in its pool (id.h): `string_id{i}` from an index, `id.index()` back.
using string_id = strong_id<struct string_tag>;

class string_pool {
 public:
  // An empty pool: it holds the empty name, id 0.
  CALLTREE_API string_pool();
  string_pool(const string_pool&) = delete;
  string_pool& operator=(const string_pool&) = delete;
  CALLTREE_API string_pool(string_pool&&) noexcept;
  CALLTREE_API string_pool& operator=(string_pool&&) noexcept;
  CALLTREE_API ~string_pool();

  CALLTREE_API string_id intern(std::string_view s);
  // The id of `s` if it was interned, else none.
  CALLTREE_API std::optional<string_id> find(std::string_view s);

  // Frees the index that intern() and find() look names up in, which view() and text() do not
  // need (for a program that only reports once reading is over). A later intern() or find()
  // makes it again, hashing every name: correct, and as slow as that sounds.
  CALLTREE_API void release_index();

  // The name. Valid as long as the pool.
  CALLTREE_API std::string_view view(string_id id) const;
  // The whole name, in `scratch` if it had to be put together there (the view is then of
  // `scratch`, valid until it changes); for a pool made with this API, what view() gives. The
  // command-line tool's own readings may keep long names out of memory: then text() is what
  // reads them back, and view() gives their first bytes.
  CALLTREE_API std::string_view text(string_id id, std::string& scratch) const;
  std::string text(string_id id) const {
    std::string s;
    std::string_view v = text(id, s);
    if (v.data() != s.data()) s.assign(v);
    return s;
  }
  // The names interned (the empty one included).
  std::size_t size() const { return size_; }
  // The names' bytes as counted for limits (reader_options::max_name_bytes, the builder's
  // max_memory): their text, the index and the views.
  std::size_t bytes() const { return bytes_; }

  static constexpr string_id empty{0};
  // No name: a mark for tables that hold a name or none (no function here returns it).
  static constexpr string_id npos{0xffffffffu};

  // The pool's tables: the library's own, defined in none of these headers (nothing can be
  // done with them here).
  struct tables;

 private:
  explicit string_pool(std::unique_ptr<tables> t);
  std::size_t size_ = 0;   // names interned
  std::size_t bytes_ = 0;  // bytes()
  std::unique_ptr<tables> t_;
};

}  // namespace calltree

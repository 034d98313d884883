// id.h — typed ids, and the tables they index.
//
// What it is: `strong_id<Tag>`, a 32-bit index into one table that does not convert into the
// id of another table, nor to or from an integer without saying so (`function_id{i}`,
// `f.index()`); and `id_vector<Id, T>`, a vector indexed by its own id type, whose `ids()`
// walks every id in order. Both cost nothing: an id is a `std::uint32_t` in a struct
// (trivially copyable, the same size, passed in a register). What it is not: a check: an id is
// valid for the table it came from, and an index out of range is as undefined as a vector's.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <ostream>
#include <span>
#include <utility>
#include <vector>

#include "calltree/export.h"

namespace calltree {

// Threads and lifetime: a value; an id is valid for the table it came from, as long as that table
// does not shrink.
template <typename Tag>
class strong_id {
 public:
  constexpr strong_id() = default;
  // From an index (any integer type: `function_id{i}` for a std::size_t i).
  template <std::integral I>
  constexpr explicit strong_id(I index) : value_(static_cast<std::uint32_t>(index)) {}
  // The index into the id's table.
  constexpr std::uint32_t index() const { return value_; }
  friend constexpr bool operator==(strong_id, strong_id) = default;
  friend constexpr auto operator<=>(strong_id, strong_id) = default;
  // Writes the index.
  friend std::ostream& operator<<(std::ostream& os, strong_id id) { return os << id.index(); }

 private:
  std::uint32_t value_ = 0;
};

// The ids first, first + 1, ..., last - 1, in order (a forward range: `for (function_id f :
// p.functions.ids())`).
// Threads and lifetime: a value; it holds two indexes, not the table.
template <typename Id>
class id_range {
 public:
  class iterator {
   public:
    using value_type = Id;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;
    constexpr iterator() = default;
    constexpr explicit iterator(std::uint32_t i) : i_(i) {}
    constexpr Id operator*() const { return Id{i_}; }
    constexpr iterator& operator++() {
      ++i_;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    friend constexpr bool operator==(iterator, iterator) = default;

   private:
    std::uint32_t i_ = 0;
  };
  constexpr id_range(Id first, Id last) : first_(first.index()), last_(last.index()) {}
  constexpr iterator begin() const { return iterator{first_}; }
  constexpr iterator end() const { return iterator{last_}; }
  constexpr std::size_t size() const { return last_ - first_; }
  constexpr bool empty() const { return first_ == last_; }

 private:
  std::uint32_t first_, last_;
};

// A std::vector<T> whose elements are indexed by `Id`. Iterating it gives the elements, as a
// vector's would; ids() gives their ids.
// Threads: as std::vector (a const one from several threads at once). Lifetime: references and
// spans into it until it grows or shrinks.
template <typename Id, typename T>
class id_vector {
 public:
  using id_type = Id;
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  id_vector() = default;
  explicit id_vector(std::size_t n) : v_(n) {}
  id_vector(std::size_t n, const T& value) : v_(n, value) {}

  T& operator[](Id id) { return v_[id.index()]; }
  const T& operator[](Id id) const { return v_[id.index()]; }
  // Whether `id` names an element.
  bool contains(Id id) const { return id.index() < v_.size(); }
  id_range<Id> ids() const { return {Id{}, Id{v_.size()}}; }
  // The id the next push_back gets.
  Id next_id() const { return Id{v_.size()}; }

  // Appends `value` and returns its id.
  Id push_back(const T& value) {
    v_.push_back(value);
    return Id{v_.size() - 1};
  }
  Id push_back(T&& value) {
    v_.push_back(std::move(value));
    return Id{v_.size() - 1};
  }
  template <typename... A>
  T& emplace_back(A&&... args) {
    return v_.emplace_back(std::forward<A>(args)...);
  }

  std::size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  std::size_t capacity() const { return v_.capacity(); }
  void reserve(std::size_t n) { v_.reserve(n); }
  void resize(std::size_t n) { v_.resize(n); }
  void resize(std::size_t n, const T& value) { v_.resize(n, value); }
  void clear() { v_.clear(); }
  void shrink_to_fit() { v_.shrink_to_fit(); }
  T& front() { return v_.front(); }
  const T& front() const { return v_.front(); }
  T& back() { return v_.back(); }
  const T& back() const { return v_.back(); }
  T* data() { return v_.data(); }
  const T* data() const { return v_.data(); }
  iterator begin() { return v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }
  // The elements in id order, as a span (for code that takes one).
  std::span<T> values() { return v_; }
  std::span<const T> values() const { return v_; }

  friend bool operator==(const id_vector&, const id_vector&) = default;

 private:
  std::vector<T> v_;
};

}  // namespace calltree

namespace std {
template <typename Tag>
struct hash<calltree::strong_id<Tag>> {
  std::size_t operator()(calltree::strong_id<Tag> id) const noexcept {
    return std::hash<std::uint32_t>{}(id.index());
  }
};
}  // namespace std

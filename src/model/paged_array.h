// paged_array.h — an append-only array in fixed-size pages.
//
// What it is: storage for per-name tables that grow one element at a time to hundreds of
// thousands (string_pool): it never copies itself to grow, so it holds at most one page
// beyond its elements, and growing leaves no freed buffer of half its size behind (a
// std::vector that doubles holds up to twice its elements while it copies, and the heap keeps
// the old buffers). Elements never move: a reference stays valid as long as the array.
// What it is not: a general container (no erase, no insert, no iterators).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace calltree {

template <typename T, unsigned PageBits = 11>
class paged_array {
 public:
  static constexpr std::size_t page_size = std::size_t{1} << PageBits;

  T& operator[](std::size_t i) { return pages_[i >> PageBits][i & (page_size - 1)]; }
  const T& operator[](std::size_t i) const { return pages_[i >> PageBits][i & (page_size - 1)]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(const T& v) {
    if ((size_ & (page_size - 1)) == 0) pages_.push_back(std::unique_ptr<T[]>(new T[page_size]));
    pages_.back()[size_ & (page_size - 1)] = v;
    ++size_;
  }
  // Bytes held by the pages.
  std::size_t bytes() const { return pages_.size() * page_size * sizeof(T); }

 private:
  std::vector<std::unique_ptr<T[]>> pages_;
  std::size_t size_ = 0;
};

}  // namespace calltree

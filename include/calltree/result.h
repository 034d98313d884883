// result.h — a value or an error, shaped like C++23's std::expected.
//
// What it is: the way fatal failures (an unreadable file, a broken stream) travel out of the
// library without exceptions. What it is not: the channel for problems inside a profile; those
// are diagnostics (diagnostic.h), reported and counted while reading goes on.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace calltree {

struct error {
  std::string message;
};

template <typename T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  result(calltree::error e) : v_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const calltree::error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, calltree::error> v_;
};

struct ok_t {};
using status = result<ok_t>;
inline status ok() { return ok_t{}; }

}  // namespace calltree

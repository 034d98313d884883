// result.h — a value or an error, shaped like C++23's std::expected.
//
// What it is: the way fatal failures (an unreadable file, a broken stream) travel out of the
// library without exceptions. What it is not: the channel for problems inside a profile; those
// are diagnostics (diagnostic.h), reported and counted while reading goes on.
//
// An error is a code a program can act on, the errno behind it where there is one, and a
// message for people. The messages of errors about a file (open_input, load_profile,
// read_callgrind, merge_inputs) begin with the file's name (the path, or
// reader_options::display_name) and a colon: print them as they are, without adding the name.
// Other errors (a bad event formula, an unknown part) name no file.
//
// `value()` (and `*r`, `r->`) on a result that holds an error throws `bad_result_access`, a
// std::runtime_error whose what() is the error's message and whose error() is the error itself
// (code, errno, message): a program that wants no branch may let it propagate. The library
// itself never throws it: only a caller's value() does.
//
// Threads and lifetime: `error` and `result` are values (copy or move them); a const one may
// be read from several threads at once. What value() returns lives as long as the result.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "calltree/export.h"

namespace calltree {

// Threads and lifetime: a value.
enum class error_code : std::uint8_t {
  other,              // none of those below: the message says what (a bad argument, say)
  not_found,          // the file does not exist (errno ENOENT)
  permission_denied,  // the file may not be read (EACCES, EPERM)
  is_directory,       // the path names a directory (EISDIR)
  io_error,           // opening or reading failed otherwise (errno says how, when it is set)
  no_profile,         // the input holds no profile: binary bytes, empty, or no `events:` line
};

// "not-found", "no-profile", ...: the code's name, for a log or a message.
constexpr std::string_view to_string(error_code c) {
  switch (c) {
    case error_code::not_found:
      return "not-found";
    case error_code::permission_denied:
      return "permission-denied";
    case error_code::is_directory:
      return "is-directory";
    case error_code::io_error:
      return "io-error";
    case error_code::no_profile:
      return "no-profile";
    case error_code::other:
      break;
  }
  return "other";
}

// Threads: a value; a const one may be read from several threads at once. Lifetime: it owns what it
// holds.
struct error {
  error() = default;
  explicit error(std::string m, error_code c = error_code::other, int e = 0)
      : message(std::move(m)), code(c), sys_errno(e) {}
  std::string message;  // for people; see above for when it names a file
  error_code code = error_code::other;
  int sys_errno = 0;  // the errno of the failed system call, else 0
};

// What value() throws when the result holds an error: the error, whole (code, errno, message).
// Threads and lifetime: a value (an exception); it holds a copy of the error.
class bad_result_access : public std::runtime_error {
 public:
  explicit bad_result_access(calltree::error e)
      : std::runtime_error(e.message), error_(std::move(e)) {}
  const calltree::error& error() const noexcept { return error_; }

 private:
  calltree::error error_;
};

// Threads: a value; a const one may be read from several threads at once. Lifetime: value(), `*`
// and `->` refer into the result, valid as long as it.
template <typename T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  result(calltree::error e) : v_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  // The value; throws bad_result_access (holding error()) when there is none.
  T& value() & {
    if (!has_value()) throw bad_result_access(std::get<1>(v_));
    return std::get<0>(v_);
  }
  const T& value() const& {
    if (!has_value()) throw bad_result_access(std::get<1>(v_));
    return std::get<0>(v_);
  }
  T&& value() && { return std::move(value()); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // The error; only when there is no value (!has_value()).
  const calltree::error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, calltree::error> v_;
};

// Threads and lifetime: a value.
struct ok_t {};
using status = result<ok_t>;
inline status ok() { return ok_t{}; }

}  // namespace calltree

// serve_walk.h — (tests) the walker's bookkeeping: costs as exact numbers, the findings of a
// walk (file, view, invariant) against the list of known failures, and the routes walked.
//
// A finding is one invariant broken on one view of one file, counted once however many
// functions or frames break it (the first example kept). A known failure is a finding the
// walker expects (a defect another part of issue 50 fixes): it is checked to still be found,
// so the list only shrinks. Anything else found fails the test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <tuple>

namespace calltree::test {

__extension__ typedef __int128 big;  // (sums of 64-bit costs, exact)

// A cost of the API: a JSON integer (signed or not) or a string of its digits (at 2^53 and
// beyond, with a sign when negative). 0 for null; anything else is an invariant broken too, so
// it reads as a value no sum meets.
inline big num(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return static_cast<big>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<big>(v.get<std::int64_t>());
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    big out = 0;
    const bool negative = !s.empty() && s[0] == '-';
    for (std::size_t i = negative ? 1 : 0; i < s.size(); ++i) out = out * 10 + (s[i] - '0');
    return negative ? -out : out;
  }
  if (v.is_null()) return 0;
  return static_cast<big>(1) << 100;
}

inline std::string str(big v) {
  if (v == 0) return "0";
  std::string out;
  const bool negative = v < 0;
  if (negative) v = -v;
  while (v > 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return negative ? "-" + out : out;
}

// Defects the walker finds on main: one invariant of one view, on each of `files` (the names
// the walker gives them, separated by spaces: the corpus file's name, golden/NAME, runs/NAME),
// and the part of issue 50 that fixes it.
struct known_failure {
  const char* view;
  const char* invariant;
  const char* fixed_by;
  const char* files;
};

class walk_log {
 public:
  explicit walk_log(std::span<const known_failure> known) : known_(known) {}

  void begin_file(const std::string& name) {
    file_ = name;
    files_.insert(name);
  }
  const std::string& file() const { return file_; }
  // One check: false records the finding (its first `detail`, and a count).
  bool check(bool ok, const std::string& view, const std::string& invariant,
             const std::string& detail) {
    ++checks_;
    if (ok) return true;
    auto& f = found_[{file_, view, invariant}];
    if (f.count++ == 0) f.first = detail;
    return false;
  }
  std::uint64_t checks() const { return checks_; }

  // The end of a walk: every finding not known fails, and so does every known failure of the
  // files walked that was not found (it is fixed: take it off the list).
  void settle() const {
    std::set<std::tuple<std::string, std::string, std::string>> expected;
    for (const known_failure& k : known_) {
      std::istringstream names(k.files);
      for (std::string file; names >> file;) {
        if (!files_.count(file)) continue;
        expected.insert({file, k.view, k.invariant});
        if (!found_.count({file, k.view, k.invariant}))
          ADD_FAILURE() << "known failure no longer found, take " << file << " off its list: {\""
                        << k.view << "\", \"" << k.invariant << "\"} (" << k.fixed_by << ")";
      }
    }
    std::size_t known_found = 0;
    for (const auto& [key, f] : found_) {
      const auto& [file, view, invariant] = key;
      if (expected.count(key)) {
        ++known_found;
        std::cout << "known failure: " << file << " | " << view << " | " << invariant << " ("
                  << f.count << "x; first: " << f.first << ")\n";
        continue;
      }
      ADD_FAILURE() << file << ": " << view << ": " << invariant << " (" << f.count
                    << " times; first: " << f.first << ")";
    }
    std::cout << "walked " << files_.size() << " files, " << checks_ << " checks, " << found_.size()
              << " findings (" << known_found << " known)\n";
  }

 private:
  struct finding {
    std::uint64_t count = 0;
    std::string first;
  };
  std::span<const known_failure> known_;
  std::string file_;
  std::set<std::string> files_;
  std::map<std::tuple<std::string, std::string, std::string>, finding> found_;
  std::uint64_t checks_ = 0;
};

}  // namespace calltree::test

// diff_match.h — how functions of two builds are matched: name rewrites applied before a diff.
//
// What it is: the rules `calltree diff` uses to decide that a function of the old profile and a
// function of the new profile are "the same" function. Identity is (object, file, name), as
// everywhere in calltree; the rules rewrite those names first:
//   - `s/OLD/NEW/` substitutions on file names and on function names (cg_annotate's
//     `--mod-filename` / `--mod-funcname`: a regular expression, `g` to replace every match,
//     `i` to ignore case; `\1`..`\9` and `$1`..`$9` in NEW are capture groups), applied in the
//     order given;
//   - dropping the object (`--ignore-object`: a library that moved, a renamed binary);
//   - dropping callgrind's recursion suffixes `'N` (`fib'2` -> `fib`; `--separate-recs`).
// What it is not: a fuzzy matcher. Two names match when they are equal after the rewrites.
//
// When two functions of one profile become one (`fib` and `fib'2`), their self costs add but
// their inclusive costs do not (fib's already contains fib'2's): the diff therefore computes
// inclusive costs on the graph of rewritten names, where fib -> fib'2 is a self-call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "calltree/export.h"
#include "calltree/result.h"
#include "calltree/string_pool.h"

namespace calltree {

// One `s/OLD/NEW/flags` substitution. Build with `parse_substitution`.
// Threads: a const one may be used from several threads at once. Lifetime: a value (it holds its
// compiled pattern).
class CALLTREE_API name_substitution {
 public:
  ~name_substitution();
  name_substitution(name_substitution&&) noexcept;
  name_substitution& operator=(name_substitution&&) noexcept;
  name_substitution(const name_substitution&);
  name_substitution& operator=(const name_substitution&);

  // Applies the substitution to `s` (unchanged if the expression does not match).
  std::string apply(std::string_view s) const;
  // The expression as the user wrote it.
  const std::string& text() const { return text_; }

 private:
  friend result<name_substitution> parse_substitution(std::string_view expr);
  name_substitution() = default;
  struct impl;
  std::unique_ptr<impl> impl_;
  std::string text_;
};

// Parses `s/OLD/NEW/` with optional flags `g` and `i` after the last delimiter. The delimiter is
// the character after `s` (so `s|a/b|c|` works); `\` escapes the delimiter inside OLD and NEW.
CALLTREE_API result<name_substitution> parse_substitution(std::string_view expr);

// Threads and lifetime: a value, copied freely.
struct match_options {
  std::vector<name_substitution> file_rewrites;      // --mod-filename, in order
  std::vector<name_substitution> function_rewrites;  // --mod-funcname, in order
  bool ignore_object = false;                        // --ignore-object
  bool strip_recursion = false;                      // drop callgrind's 'N suffixes
  // True when no rule is set: names are used as they are.
  bool empty() const {
    return file_rewrites.empty() && function_rewrites.empty() && !ignore_object && !strip_recursion;
  }
};

// Drops callgrind's recursion-level suffixes: every `'` followed by digits up to the next `'`
// or the end of the name (`fib'2` -> `fib`, `is_odd'3'is_even'is_odd` -> `is_odd'is_even'is_odd`;
// the `'caller` context of --separate-callers is kept).
CALLTREE_API std::string strip_recursion_suffixes(std::string_view name);

// Rewrites the names of one profile's pool (a pool in full mode: view() is the whole name),
// remembering every answer, so each distinct name is rewritten once however many rows carry
// it. A name no rule changes is the pool's own view, not a copy. Views are valid as long as
// the rewriter and the pool.
// Threads: one thread at a time (it remembers its answers). Lifetime: it refers to its pool and its
// match_options: destroy it first; its views live as long as it and the pool.
class CALLTREE_API name_rewriter {
 public:
  name_rewriter(const string_pool& names, const match_options& options);
  std::string_view object(string_id id) { return translate(id, 0); }
  std::string_view file(string_id id) { return translate(id, 1); }
  std::string_view function(string_id id) { return translate(id, 2); }

 private:
  std::string_view translate(string_id id, int kind);
  const string_pool& names_;
  const match_options& options_;
  std::unordered_map<string_id, std::string> memo_[3];
};

}  // namespace calltree

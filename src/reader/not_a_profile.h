// not_a_profile.h — what a file that holds no profile is, and what makes one of it.
//
// What it is: the words the reader adds to its "no 'events:' line" and "the input is binary"
// errors ("x.py: error: no 'events:' line: this is Python source, not a profile: `calltree
// record -- python3 x.py` makes one"), so that `calltree check x.py`, annotate, serve and the
// mcp tools say the same thing of a file given by mistake. Only files that are plainly something
// else are named: source files by their extension (.py, .php, .js, .c, .cc, ...), scripts by their
// #! line, text by its extension (.md, .txt) or a README's name, programs and objects by ELF's
// first bytes. Anything else gets nullopt, and the reader says what it always said.
//
// What it is not: a format sniffer. It is asked only after the reader found no profile in the
// file (formats.h tells profiles apart, by content); a file named x.py that holds a profile is
// read as one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace calltree::detail {

struct non_profile {
  std::string what;    // "Python source", "a shell script", "an ELF executable", "text"
  std::string advice;  // "`calltree record -- python3 x.py` makes one"
  // "x.py is Python source, not a profile: `calltree record -- python3 x.py` makes one"
  std::string sentence(std::string_view name) const;
  // "this is Python source, not a profile: ..." (after a message that names the file already)
  std::string clause() const;
};

// What the file `name` (as the user gave it; "-" is standard input) whose first bytes are
// `head` is, when it is plainly not a profile; nullopt when it cannot be told.
std::optional<non_profile> describe_non_profile(std::string_view name, std::string_view head);

}  // namespace calltree::detail

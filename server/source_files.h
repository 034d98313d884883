// server/source_files.h — (internal to server/) reading a source file the profile names.
//
// What it is: the one place the server opens a file a client asks about, and only by the id
// of a file the profile names: the name is looked up as `calltree annotate` looks for it (as
// written, relative to the current directory; under each -I directory; under each
// --source-root rewrite), and must be a regular file of at most 32 MB whose first 64 KB hold
// no NUL byte. A client never sends a path. What it is not: a file server.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "views/session.h"

namespace calltree::server::detail {

struct source_text {
  bool found = false;
  std::string path;                // where it was read from
  std::string message;             // why not, when not found
  std::vector<std::string> lines;  // without their line ends
  // The profile names no file here: `???` (code without debug information) or a producer's
  // pseudo-file (Xdebug's `php:internal`, PHP's built-in functions): nothing to look for.
  bool no_file = false;
};

// `???` (or empty) and `php:internal`: names of no file (source_text::no_file).
bool names_no_file(const std::string& name);

source_text read_source(const std::string& name, const views::load_options& where);

}  // namespace calltree::server::detail

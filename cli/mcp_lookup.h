// mcp_lookup.h — a function or source file of a profile named by an agent, for `calltree mcp`'s
// function and source tools.
//
// An agent names a function as a list showed it ("main", "cyc_a", "std::vector<int>::
// push_back(int const&)") or as it remembers it ("push_back" without its parameters, "Main").
// The lookup takes, in order: the functions of exactly that name; those whose name is it
// followed by a C++ parameter list ("f(int)" for "f"). Several of them (a static function in
// two files, `_init` of every library) are told apart by `file` when given, else the one of
// highest inclusive cost is taken and the others are listed. None: a tool_failure naming the
// closest names (those that contain it, then the nearest in spelling), so the next call can
// succeed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mcp_profiles.h"

namespace calltree::cli::mcp {

struct found_function {
  std::uint64_t id = 0;         // serve's id (a /functions row's)
  json others = json::array();  // the other functions of that name: name, file, object
};

// `event` is empty for the profile's first.
found_function find_function(const served& s, const std::string& path, const std::string& name,
                             const std::optional<std::string>& file, const std::string& event);

// The id of source file `file` (as the profile names it, or a path ending in it), or a
// tool_failure naming the profile's files closest to it.
std::uint64_t find_file(const served& s, const std::string& file);

// Up to `n` names of `s` closest to `name`, for "closest: ..." (each once).
std::string closest_names(const views::session& s, const std::string& name, std::size_t n = 5);

}  // namespace calltree::cli::mcp

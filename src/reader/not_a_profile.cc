// not_a_profile.cc — describe_non_profile(): what a file that holds no profile plainly is
// (not_a_profile.h).
#include "reader/not_a_profile.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace calltree::detail {

namespace {

std::string lowered_name(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The file's name without its folders; its extension (".py"), lower case, or "".
std::string_view file_part(std::string_view name) {
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}
std::string ext_of(std::string_view name) {
  const std::string_view base = file_part(name);
  const auto dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return lowered_name(base.substr(dot));
}

// How a shell runs the file itself: "./x" for a name without a folder.
std::string as_runnable(std::string_view name) {
  return name.find('/') == std::string_view::npos ? "./" + std::string(name) : std::string(name);
}

std::string record_advice(std::string_view command) {
  return "`calltree record -- " + std::string(command) + "` makes one";
}

// The interpreter a "#!" line names ("#!/usr/bin/env python3" -> "python3"), or "".
std::string shebang_interpreter(std::string_view head) {
  if (!head.starts_with("#!")) return {};
  std::string_view line = head.substr(2, head.find('\n') - 2);
  std::string word;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ' ' || line[i] == '\t') {
      std::string_view w = file_part(word);
      if (!w.empty() && w != "env" && !w.starts_with("-")) return std::string(w);
      word.clear();
    } else {
      word += line[i];
    }
  }
  return {};
}

non_profile source_kind(std::string_view language, std::string_view name, std::string_view runner) {
  return {std::string(language) + " source",
          record_advice(std::string(runner) + " " + std::string(name))};
}

}  // namespace

std::string non_profile::sentence(std::string_view name) const {
  return std::string(name) + " is " + what + ", not a profile: " + advice;
}

std::string non_profile::clause() const { return "this is " + what + ", not a profile: " + advice; }

std::optional<non_profile> describe_non_profile(std::string_view name, std::string_view head) {
  // Programs and objects: ELF's magic, then e_type (little-endian at offset 16: 1 a
  // relocatable object, 2 an executable, 3 a shared object or a position-independent program).
  if (head.starts_with("\x7f"
                       "ELF") &&
      head.size() > 17) {
    const int type = static_cast<unsigned char>(head[16]);
    const std::string ext = ext_of(name);
    if (type == 1)
      return non_profile{"an object file (ELF)",
                         "link it into a program; `calltree record -- PROGRAM` then profiles it"};
    if (type == 3 && (ext == ".so" || file_part(name).find(".so.") != std::string_view::npos))
      return non_profile{"a shared library (ELF)",
                         "`calltree record -- PROGRAM` profiles a program that uses it"};
    if (type == 2 || type == 3)
      return non_profile{"a program (ELF)", record_advice(as_runnable(name))};
    return std::nullopt;
  }
  const std::string ext = ext_of(name);
  const std::string run = shebang_interpreter(head);
  if (ext == ".py" || ext == ".pyw" || run.starts_with("python"))
    return source_kind("Python", name, "python3");
  if (ext == ".php" || run.starts_with("php")) return source_kind("PHP", name, "php");
  if (ext == ".js" || ext == ".mjs" || ext == ".cjs" || run == "node" || run == "nodejs")
    return source_kind("JavaScript", name, "node");
  if (ext == ".sh" || ext == ".bash" || run == "sh" || run == "bash" || run == "dash" ||
      run == "zsh")
    return non_profile{"a shell script",
                       "`calltree record --children -- " + as_runnable(name) +
                           "` makes one (--children follows the programs it runs)"};
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> compiled = {{
      {".c", "C source"},
      {".h", "a C or C++ header"},
      {".cc", "C++ source"},
      {".cpp", "C++ source"},
      {".cxx", "C++ source"},
      {".c++", "C++ source"},
      {".hpp", "a C++ header"},
      {".hh", "a C++ header"},
      {".rs", "Rust source"},
      {".go", "Go source"},
      {".f90", "Fortran source"},
      {".zig", "Zig source"},
      {".s", "assembler source"},
      {".java", "Java source"},
  }};
  for (const auto& [e, what] : compiled)
    if (ext == e)
      return non_profile{std::string(what),
                         "build the program, then `calltree record -- ./PROGRAM` makes one"};
  const std::string base = lowered_name(file_part(name));
  if (ext == ".md" || ext == ".txt" || ext == ".rst" || ext == ".html" ||
      base.starts_with("readme") || base.starts_with("license") || base.starts_with("changelog"))
    return non_profile{"text",
                       "a profile is what a profiler writes (callgrind.out.PID, pstats, "
                       ".cpuprofile, ...): `calltree record -- PROGRAM` makes one"};
  return std::nullopt;
}

}  // namespace calltree::detail

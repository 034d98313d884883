// flag_table_misuse.cc — what cli/flag_table.h makes a compile error (tests/CMakeLists.txt
// compiles it three times): as it is, it compiles; with -DMISSPELT a command's code reads a flag
// that is not in its struct; with -DDUPLICATE two rows of a table share a name.
#include <string>
#include <string_view>
#include <vector>

#include "flag_table.h"

struct sample_flags {
  bool json = false;
  std::optional<std::string> output;
};

constexpr auto sample_table = calltree::cli::make_flag_table<sample_flags>({
    {"json", 0, &sample_flags::json, "JSON"},
    {"output", 'o', &sample_flags::output, "the file", "FILE"},
#ifdef DUPLICATE
    {"json", 0, &sample_flags::json, "JSON again"},
#endif
});

int main() {
  std::string err;
  const std::vector<std::string_view> args{"--json"};
  auto a = calltree::cli::parse_flags(args, sample_table, err);
#ifdef MISSPELT
  return a && a->jsn ? 0 : 1;
#else
  return a && a->json ? 0 : 1;
#endif
}

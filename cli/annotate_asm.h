// annotate_asm.h — `calltree annotate --asm`: annotated machine code after the report.
//
// What it is: the command-line half of machine-code annotation (the library's is
// calltree/asm.h): its flags, the second reading of the profile that keeps instruction rows of
// the chosen functions only, the objdump runs (the one place a process is spawned for it),
// --object-root, and the printing. cmd_annotate.cc calls these functions.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/annotate.h"

namespace calltree::cli {

struct asm_request {
  std::optional<std::string> regex;  // --asm=REGEX; none: the functions the report lists
  std::string objdump = "objdump";
  std::vector<std::pair<std::string, std::string>> object_roots;
  double hot_percent = 5.0;
};

// What annotate's --asm flags say (cmd_annotate.cc's table fills them).
struct asm_flags {
  std::optional<std::string> asm_regex;  // --asm[=REGEX]: "" alone
  std::optional<std::string> objdump, asm_hot;
  std::vector<std::string> object_root;
};

// The request, if --asm was given; an error message for a bad value in `err`.
std::optional<asm_request> parse_asm_request(const asm_flags& args, std::string& err);

// The functions the text report lists, gathered through annotate_options::on_function_row.
struct listed_function {
  std::string file, name, object;
};

// Reads `input` again keeping the chosen functions' instructions, runs objdump and writes each
// function's annotated machine code to stdout (or, with `json`, a JSON array of asm objects
// into *json). Returns an exit status (0, or 2 when objdump cannot be run or the input cannot
// be read).
int annotate_asm(const std::string& input, const annotate_options& o, const asm_request& r,
                 const std::vector<listed_function>& listed, std::string* json);

// `annotate --json --asm`: the asm objects of the chosen functions added to the report's JSON
// `json` as its "asm" array (without a regex, the functions the text report would list: the
// input read again for it). The exit status as annotate_asm's.
int annotate_asm_json(const std::string& input, const annotate_options& o, const asm_request& r,
                      std::string& json);

}  // namespace calltree::cli

// valgrind_options.h — the Valgrind options `calltree record` passes on, checked before the run.
//
// What it is: the option names the installed Valgrind knows, read from what `valgrind
// --tool=callgrind --help-debug` prints (so a newer Valgrind's options pass and an older one's
// missing options are refused before the run, not after the program was started), and for a
// name it does not know, the known names nearest to it (edit distance), so that
// `--collect-at-start=no` is answered with "did you mean --collect-atstart?". Also the options
// `record` sets itself and will not take from the user (the output file, the log, the tool).
// What it is not: a check of values (Valgrind says what is wrong with `--cache-sim=maybe`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace calltree::cli {

// The option names of a Valgrind help text, without "--" ("trace-children", "dump-instr";
// "separate-callers<n>" for the options numbered by the user, `--separate-callers2=f`), and
// the one-letter options ("q", "v", ...). Sorted, no duplicates.
std::vector<std::string> valgrind_option_names(std::string_view help_text);

// The name of an option as the user wrote it: "--cache-sim=yes" -> "cache-sim", "-q" -> "q".
// nullopt when it does not begin with '-' (not an option at all).
std::optional<std::string> option_name(std::string_view option);

// Whether `name` (option_name's) is one of `known` ("separate-callers3" is
// "separate-callers<n>").
bool known_option(std::string_view name, const std::vector<std::string>& known);

// The names of `known` nearest to `name`, nearest first (at most 3; within 1 edit for names of
// up to 4 characters, 2 up to 10, else 3; an edit is an insertion, deletion, substitution or a
// swap of two neighbours). Empty when none is near.
std::vector<std::string> similar_options(std::string_view name,
                                         const std::vector<std::string>& known);

// The options `record` writes itself ("tool", "callgrind-out-file", "log-file", "log-fd",
// "log-socket"): a user's is refused, with what to use instead. Empty for any other name.
std::string_view reserved_option(std::string_view name);

}  // namespace calltree::cli

// cmd_merge.cc — `calltree merge A B ... -o OUT`: sum profiles into one callgrind file.

#include <cstdio>
#include <string>
#include <vector>

#include "analysis/merge_any.h"
#include "calltree/analysis/merge.h"
#include "calltree/diagnostic.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "profile_output.h"
#include "progress.h"

namespace calltree::cli {
namespace {

struct merge_flags {
  std::optional<std::string> output, parts, compress, threads;
  bool help = false;
};

constexpr auto merge_table = make_flag_table<merge_flags>({
    {"output", 'o', &merge_flags::output,
     "write the merged profile to FILE ('-' = standard output)", "FILE"},
    {"parts", 0, &merge_flags::parts,
     "sum: fold every part of every input into one part (default); keep: one part per input part",
     "sum|keep"},
    {"compress", 0, &merge_flags::compress,
     "name and position compression in the output (default yes)", "yes|no"},
    {"threads", 0, &merge_flags::threads,
     "threads to read with; 2 or more decode a compressed input on a thread of its own (the "
     "result is the same) [number of cores]",
     "N"},
    {"help", 'h', &merge_flags::help, "show this help"},
});

constexpr std::string_view merge_usage = "[OPTIONS] FILE... -o OUT";
constexpr std::string_view merge_summary =
    "Sum any number of profiles (threads, processes, runs, parts) into one callgrind file:\n"
    "self costs, calls (counts and inclusive costs) and jumps are added, event sets united\n"
    "(missing = 0), summary: and totals: recomputed. Inputs are read one after another into\n"
    "one model, so memory follows the merged result, not the number of inputs.\n"
    "'calltree merge FILE --parts=sum -o OUT' folds the parts of one file.\n"
    "Exit status: 0 ok (warnings alone), 1 an input had errors (their lines are left\n"
    "out of the sum) or was not read to its end (nothing is written), 2 usage or I/O error.";

int run_merge(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, merge_table, err);
  if (!parsed) return usage_error("merge", err);
  const command_line<merge_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("merge", merge_usage, merge_summary, merge_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (a.positional.empty()) return usage_error("merge", "needs at least one input file");
  const auto& output = a.output;
  if (!output || output->empty())
    return usage_error("merge", "needs -o OUT (use '-o -' for stdout)");
  merge_options options;
  if (const auto& v = a.parts) {
    if (*v == "sum")
      options.parts = parts_mode::sum;
    else if (*v == "keep")
      options.parts = parts_mode::keep;
    else
      return usage_error("merge", "--parts needs sum or keep");
  }
  writer_options wo;
  wo.creator = std::string("calltree ") + CALLTREE_VERSION + " merge";
  if (const auto& v = a.compress) {
    auto b = parse_yes_no(*v);
    if (!b) return usage_error("merge", "--compress needs yes or no");
    wo.compress_names = wo.compress_positions = *b;
  }
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("merge", "--threads needs a number from 1 to 64");
  options.threads = *threads;
  options.max_memory = memory_limit();
  std::size_t stdin_inputs = 0;
  for (const auto& p : a.positional) stdin_inputs += p == "-";
  if (stdin_inputs > 1) return usage_error("merge", "standard input ('-') can be read only once");

  diagnostic_collector diags(5);
  profile merged;
  auto stats = detail::merge_any_inputs(a.positional, merged, diags, options);
  return write_summed_profile(stats, diags, merged, *output, wo, "merge");
}

}  // namespace
}  // namespace calltree::cli

CALLTREE_COMMAND(merge, {.name = "merge",
                         .summary = "sum profiles (threads, processes, parts) into one file",
                         .usage = calltree::cli::merge_usage,
                         .description = calltree::cli::merge_summary,
                         .flags = calltree::cli::merge_table.flags,
                         .run = calltree::cli::run_merge});

// cmd_convert.cc — `calltree convert FILE -o OUT`: any Callgrind-format input to clean callgrind.
//
// Streams: reader -> callgrind_writer, never the whole profile in memory; the text of long
// names waits in a temporary file (pool_mode::spill). Every part and the
// header facts are kept; diagnostics from reading go to stderr. The output file is written
// under a temporary name beside OUT and renamed at the end, so OUT may be FILE itself, and a run
// that fails (exit status 2: the input could not be read to its end, or OUT not written) leaves
// OUT as it was. A device or FIFO OUT (/dev/null) is written in place (output_file.h).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/reader.h"
#include "calltree/writer.h"
#include "command.h"
#include "diagnostics_output.h"
#include "flag_table.h"
#include "memory_option.h"
#include "model/string_pool_access.h"
#include "output_file.h"
#include "reader/read_profile.h"
#include "standard_output.h"

namespace calltree::cli {
namespace {

struct convert_flags {
  std::optional<std::string> output;
  bool no_compress_names = false, no_compress_positions = false, help = false;
};

constexpr auto convert_table = make_flag_table<convert_flags>({
    {"output", 'o', &convert_flags::output, "write to FILE ('-' = standard output, the default)",
     "FILE"},
    {"no-compress-names", 0, &convert_flags::no_compress_names,
     "no '(id) name' compression (names like '(1) x' stay compressed)"},
    {"no-compress-positions", 0, &convert_flags::no_compress_positions,
     "write every position absolute (no '+N', '-N', '*')"},
    {"help", 'h', &convert_flags::help, "show this help"},
});

constexpr std::string_view convert_usage = "[OPTIONS] FILE";
constexpr std::string_view convert_summary =
    "Read a Callgrind-format profile (callgrind, cachegrind, Xdebug, pyprof2calltree, pprof, ...;\n"
    "plain, gzip, zstd, xz or bzip2; '-' = standard input) and write it as clean callgrind\n"
    "format that callgrind_annotate and KCachegrind read: every part and header fact kept,\n"
    "names and positions compressed unless told otherwise, 'totals:' = sum of self costs.\n"
    "Warnings and errors found while reading go to standard error ('calltree check' also\n"
    "lists notes).\n\n"
    "Exit status: 0 ok (warnings alone), 1 the input had errors (the output holds what\n"
    "could be read) or was not read to its end (standard output holds what was read; an\n"
    "output file is left as it was), 2 usage or I/O error.";

// Notes (valid but unusual lines, such as calls=0) are not a conversion's business: only
// warnings and errors reach stderr. `calltree check` and `calltree dump` show notes too.
class warnings_and_errors final : public diagnostic_sink {
 public:
  explicit warnings_and_errors(diagnostic_sink& next) : next_(next) {}
  void report(diagnostic d) override {
    if (d.severity != severity::note) next_.report(std::move(d));
  }
  bool wants(diag_code code) const override { return next_.wants(code); }
  void count_only(diag_code code, severity s) override {
    if (s != severity::note) next_.count_only(code, s);
  }

 private:
  diagnostic_sink& next_;
};

int run_convert(std::span<const std::string_view> argv) {
  std::string err;
  auto args = parse_flags(argv, convert_table, err);
  if (!args) {
    std::fprintf(stderr, "calltree convert: %s (see 'calltree convert --help')\n", err.c_str());
    return exit_usage;
  }
  if (args->help) {
    std::fputs(format_help("convert", convert_usage, convert_summary, convert_table.flags).c_str(),
               stdout);
    return exit_ok;
  }
  if (args->positional.size() != 1) {
    std::fprintf(stderr,
                 "calltree convert: expected one input FILE, got %zu (see 'calltree "
                 "convert --help')\n",
                 args->positional.size());
    return exit_usage;
  }
  const std::string in_path = args->positional[0];
  const std::string out_path = args->output.value_or("-");
  if (out_path.empty()) {
    std::fprintf(stderr, "calltree convert: empty output file name\n");
    return exit_usage;
  }

  auto in = open_input(in_path);
  if (!in) {
    std::fprintf(stderr, "calltree convert: %s: %s\n", in_path.c_str(), in.error().message.c_str());
    return exit_usage;
  }

  writer_options wopt;
  wopt.compress_names = !args->no_compress_names;
  wopt.compress_positions = !args->no_compress_positions;

  std::ofstream file;
  std::vector<char> file_buffer;
  std::string tmp_path;
  std::ostream* out = &std::cout;
  const bool in_place = out_path != "-" && written_in_place(out_path);
  if (out_path != "-") {
    tmp_path = in_place ? out_path : out_path + ".calltree-tmp." + std::to_string(::getpid());
    file_buffer.resize(1u << 20);
    file.rdbuf()->pubsetbuf(file_buffer.data(), static_cast<std::streamsize>(file_buffer.size()));
    file.open(tmp_path, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::fprintf(stderr, "calltree convert: cannot write %s: %s\n", out_path.c_str(),
                   std::strerror(errno));
      return exit_usage;
    }
    out = &file;
  }

  // The writer needs a name's text once per part where it defines it, so long names wait in a
  // temporary file (pool_mode::spill) rather than in memory. Uncompressed output
  // writes every name at every use: there the names stay in memory.
  string_pool names =
      string_pool_access::make(wopt.compress_names ? pool_mode::spill : pool_mode::full);
  callgrind_writer writer(*out, names, wopt);
  diagnostic_collector diags;
  reader_options ropt;
  ropt.display_name = in_path == "-" ? "<stdin>" : in_path;
  ropt.max_name_bytes = memory_limit();
  warnings_and_errors shown(diags);
  auto stats = detail::read_profile(**in, names, writer, shown, ropt, detail::any_input());
  bool wrote = writer.finish();
  int write_errno = errno;
  print_diagnostics(diags);

  bool read_ok = stats && detail::read_to_end(*stats);
  if (!stats)
    std::fprintf(stderr, "calltree convert: %s: %s\n", ropt.display_name.c_str(),
                 stats.error().message.c_str());
  if (string_pool_access::read_failed(names)) {
    std::fprintf(stderr, "calltree convert: cannot read names back from the temporary file\n");
    wrote = false;
    write_errno = EIO;
  }

  if (out_path != "-") {
    file.close();
    // (A device written in place is never removed.)
    auto remove_temporary = [&] {
      if (!in_place) std::remove(tmp_path.c_str());
    };
    if (!read_ok) {
      // A half-read input is not converted: OUT is left as it was.
      remove_temporary();
      return stats ? exit_findings : exit_usage;
    }
    if (!wrote || !file) {
      std::fprintf(stderr, "calltree convert: error writing %s: %s\n", out_path.c_str(),
                   std::strerror(write_errno));
      remove_temporary();
      return exit_usage;
    }
    if (!in_place && std::rename(tmp_path.c_str(), out_path.c_str()) != 0) {
      std::fprintf(stderr, "calltree convert: cannot write %s: %s\n", out_path.c_str(),
                   std::strerror(errno));
      std::remove(tmp_path.c_str());
      return exit_usage;
    }
  } else {
    if (standard_output_error()) write_errno = standard_output_error();
    if (!wrote && write_errno != EPIPE) {
      // A closed pipe (convert ... | head) is not an error.
      std::fprintf(stderr, "calltree convert: error writing standard output: %s\n",
                   std::strerror(write_errno));
      return exit_usage;
    }
  }
  if (!stats) return exit_usage;
  return diags.errors() || !read_ok ? exit_findings : exit_ok;
}

}  // namespace

CALLTREE_COMMAND(convert,
                 {.name = "convert",
                  .summary = "write a profile as clean callgrind format (keeps every part)",
                  .usage = convert_usage,
                  .description = convert_summary,
                  .flags = convert_table.flags,
                  .run = run_convert});

}  // namespace calltree::cli

// profile_output.cc — a profile written as a callgrind file, whole or not at all.
#include "profile_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "calltree/analysis/merge.h"
#include "command.h"
#include "diagnostics_output.h"
#include "output_file.h"
#include "standard_output.h"

namespace calltree::cli {

int write_profile_file(const profile& p, const std::string& output, const writer_options& wo,
                       const char* command, int status) {
  if (output == "-") {
    errno = 0;
    const bool wrote = write_callgrind(p, std::cout, wo);
    const int e = standard_output_error() ? standard_output_error() : errno;
    if (!wrote && e != EPIPE) {  // `| head` is success
      std::fprintf(stderr, "calltree %s: error writing standard output: %s\n", command,
                   std::strerror(e ? e : EIO));
      return exit_usage;
    }
    return status;
  }
  // Write beside the target, then rename: an output that is also an input, or a failed write,
  // never leaves a half-written file under the target name. A device or FIFO (/dev/null) is
  // written in place (output_file.h).
  const bool in_place = written_in_place(output);
  const std::string tmp = in_place ? output : output + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      std::fprintf(stderr, "calltree %s: cannot write '%s': %s\n", command, tmp.c_str(),
                   std::strerror(errno));
      return exit_usage;
    }
    errno = 0;
    bool ok = write_callgrind(p, out, wo);
    int e = errno;  // (the reason of the write that failed)
    if (ok) {
      out.close();  // (the last buffer's write, which may fail too)
      ok = !out.fail();
      e = errno;
    }
    if (!ok) {
      if (!in_place) std::remove(tmp.c_str());
      std::fprintf(stderr, "calltree %s: error writing '%s': %s\n", command, output.c_str(),
                   std::strerror(e ? e : EIO));
      return exit_usage;
    }
  }
  if (!in_place && std::rename(tmp.c_str(), output.c_str()) != 0) {
    std::remove(tmp.c_str());
    std::fprintf(stderr, "calltree %s: cannot rename the output to '%s'\n", command,
                 output.c_str());
    return exit_usage;
  }
  return status;
}

int write_summed_profile(const result<merge_stats>& stats, const diagnostic_collector& diags,
                         const profile& p, const std::string& output, const writer_options& wo,
                         const char* command) {
  print_serious(diags);
  if (!stats) {
    std::fprintf(stderr, "calltree %s: %s\n", command, stats.error().message.c_str());
    return exit_usage;
  }
  if (diags.errors() || diags.warnings())
    std::fprintf(stderr,
                 "calltree %s: the inputs have %llu errors and %llu warnings (see 'calltree "
                 "check')\n",
                 command, static_cast<unsigned long long>(diags.errors()),
                 static_cast<unsigned long long>(diags.warnings()));
  if (stats->state == read_state::stopped) {
    std::fprintf(stderr, "calltree %s: an input could not be read to its end; nothing written\n",
                 command);
    return exit_findings;
  }
  if (p.parts.empty()) {
    std::fprintf(stderr, "calltree %s: the inputs hold no profile data; nothing written\n",
                 command);
    return exit_usage;
  }
  return write_profile_file(p, output, wo, command, diags.errors() ? exit_findings : exit_ok);
}

}  // namespace calltree::cli

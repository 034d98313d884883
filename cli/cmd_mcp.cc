// cmd_mcp.cc — `calltree mcp`: a Model Context Protocol server over standard input and output,
// for coding agents (docs/mcp.md).
//
// The transport of MCP's stdio: one JSON-RPC message a line on standard input, each answer one
// line on standard output (nothing else is ever written there), what happens on standard error.
// Messages are answered one at a time, in order (mcp_rpc.h); a profile is read by the first
// call that names it and kept (mcp_profiles.h). The server ends with status 0 when standard
// input ends (the client closed it) or standard output is closed.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "command.h"
#include "flag_table.h"
#include "mcp_profiles.h"
#include "mcp_rpc.h"
#include "memory_option.h"
#include "progress.h"
#include "viewer_options.h"

namespace calltree::cli {
namespace {

struct mcp_flags {
  std::optional<std::string> threads, keep, index, valgrind;
  std::vector<std::string> include, source_root, event;
  bool allow_record = false, help = false;
};

constexpr auto mcp_table = make_flag_table<mcp_flags>({
    {"allow-record", 0, &mcp_flags::allow_record,
     "offer the record tool, which runs programs the agent names under valgrind"},
    {"include", 'I', &mcp_flags::include, "look for source files in DIR too (repeatable)", "DIR"},
    {"source-root", 0, &mcp_flags::source_root,
     "look for sources under NEW where the profile says OLD (repeatable)", "OLD=NEW"},
    {"event", 0, &mcp_flags::event, "define a derived event, e.g. 'CEst = Ir + 10 Bm' (repeatable)",
     "'NAME = FORMULA'"},
    {"threads", 0, &mcp_flags::threads, "threads to read with [number of cores]", "N"},
    {"keep", 0, &mcp_flags::keep,
     "profiles kept in memory between calls, the least recently used going first (a diff "
     "holds two) [4]",
     "N"},
    {"index", 0, &mcp_flags::index,
     "the trend tool's index of runs (SQLite; default: $XDG_CACHE_HOME/calltree/index.sqlite); "
     "none: no index",
     "PATH|none"},
    {"valgrind", 0, &mcp_flags::valgrind, "the valgrind the record tool runs [valgrind]", "PATH"},
    {"help", 'h', &mcp_flags::help, "show this help"},
});

constexpr std::string_view mcp_usage = "[OPTIONS]";
constexpr std::string_view mcp_summary =
    "A Model Context Protocol server on standard input and output, for coding\n"
    "agents (Claude Code: claude mcp add calltree -- calltree mcp). Its tools read\n"
    "profiles and answer structured JSON: summary, top_functions, function,\n"
    "source, diff, trend (and record, with --allow-record). Every tool takes the\n"
    "profile's path; a profile is read once and kept while the file does not\n"
    "change. Logs go to standard error. Tools, answers and client settings:\n"
    "docs/mcp.md. Exit status: 0 when the client closes standard input, 2 on\n"
    "usage errors.";

// Writes one line to standard output; false when it cannot (the client is gone).
bool write_line(const std::string& line) {
  std::string out = line;
  out += '\n';
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) return false;
  return std::fflush(stdout) == 0;
}

int run_mcp(std::span<const std::string_view> args) {
  std::string err;
  auto parsed = parse_flags(args, mcp_table, err);
  if (!parsed) return usage_error("mcp", err);
  const command_line<mcp_flags>& a = *parsed;
  if (a.help) {
    std::fputs(format_help("mcp", mcp_usage, mcp_summary, mcp_table.flags).c_str(), stdout);
    return exit_ok;
  }
  if (!a.positional.empty())
    return usage_error("mcp", "takes no file: each tool call names its profile (path)");
  std::size_t keep = 4;
  if (const auto& v = a.keep) {
    if (v->empty() || v->size() > 4 || v->find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(*v) < 1)
      return usage_error("mcp", "--keep takes a number from 1 to 9999");
    keep = static_cast<std::size_t>(std::stoi(*v));
  }
  auto viewer = viewer_options(a.include, a.source_root);
  if (!viewer) return usage_error("mcp", viewer.error().message);
  views::load_options lo = std::move(*viewer);
  lo.event_definitions = a.event;
  auto threads = parse_threads(a.threads);
  if (!threads) return usage_error("mcp", "--threads needs a number from 1 to 64");
  lo.threads = *threads;
  mcp::tool_settings settings;
  settings.allow_record = a.allow_record;
  if (a.valgrind) {
    if (a.valgrind->empty()) return usage_error("mcp", "--valgrind needs a program");
    settings.valgrind = *a.valgrind;
  }

  // (A client that goes away while an answer is written: an error of fwrite, not a signal.)
  signal(SIGPIPE, SIG_IGN);
  mcp::profile_cache profiles(lo, keep, a.index.value_or(""));
  mcp::tool_context context{profiles, settings};
  mcp::rpc_server server(context, [](const std::string& line) {
    std::fprintf(stderr, "calltree mcp: %s\n", line.c_str());
  });
  std::fprintf(stderr, "calltree mcp: ready on standard input%s\n",
               a.allow_record ? " (record allowed: it runs programs)" : "");

  // Lines of at most 16 MB (a longer one is answered as a parse error, read to its end).
  constexpr std::size_t max_line = 16u << 20;
  std::string line;
  bool too_long = false;
  char buf[65536];
  while (true) {
    const ssize_t n = read(0, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] != '\n') {
        if (line.size() < max_line)
          line.push_back(buf[i]);
        else
          too_long = true;
        continue;
      }
      std::optional<std::string> answer;
      if (too_long) {
        std::fprintf(stderr, "calltree mcp: a line longer than 16 MB, not read\n");
        answer =
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: a line longer than 16 MB"}})";
      } else {
        answer = server.handle(line);
      }
      line.clear();
      too_long = false;
      if (answer && !write_line(*answer)) {
        std::fprintf(stderr, "calltree mcp: standard output closed: %s\n", std::strerror(errno));
        return exit_ok;
      }
    }
  }
  // (A last message without its newline is still a message.)
  if (!line.empty() && !too_long)
    if (auto answer = server.handle(line)) write_line(*answer);
  return exit_ok;
}

}  // namespace

CALLTREE_COMMAND(mcp, {.name = "mcp",
                       .summary = "serve profiles to coding agents (Model Context Protocol)",
                       .usage = mcp_usage,
                       .description = mcp_summary,
                       .flags = mcp_table.flags,
                       .run = run_mcp});

}  // namespace calltree::cli

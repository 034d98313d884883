// mcp_record.cc — the record tool of `calltree mcp --allow-record`: runs a program under
// Callgrind and answers the profile it wrote (its path and summary).
//
// The hook. `calltree record` (cli/cmd_record.cc, issue 60's other half) is being written
// beside this; until it is in main, run_callgrind() below is the one place that starts
// valgrind, with the options `calltree record` gives it by default (--tool=callgrind
// --dump-instr=yes --collect-jumps=yes --callgrind-out-file=FILE). When the shared code lands,
// run_callgrind's body becomes a call of it and nothing else here changes.
//
// Safety. The tool runs any program the agent names, as the user who started the server: it is
// offered (tools/list) and accepted (tools/call) only with --allow-record. The program gets
// /dev/null as standard input (the protocol's is the server's), its output and valgrind's go to
// a pipe of which the last 8 KB are answered, and after timeout_seconds its process group gets
// SIGTERM, then SIGKILL two seconds later.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "args.h"
#include "mcp_profiles.h"
#include "mcp_tools.h"

extern char** environ;

namespace calltree::cli::mcp {

namespace {

struct callgrind_run {
  std::string profile;  // the file written (absolute)
  std::optional<int> exit_status, signal;
  bool timed_out = false;
  std::string output;  // the last bytes of the program's and valgrind's output
};

// Runs `command` under valgrind's Callgrind in `cwd`, writing `out` (or callgrind.out.PID in
// cwd); tool_failure when valgrind cannot be started.
callgrind_run run_callgrind(const std::string& valgrind, const std::vector<std::string>& command,
                            const std::string& cwd, std::string out, int timeout_seconds) {
  constexpr std::size_t kept_output = 8192;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw tool_failure(std::string("pipe: ") + std::strerror(errno));
  const bool named = !out.empty();
  if (!named) out = cwd + "/callgrind.out.%p";
  std::vector<std::string> argv = {valgrind, "--tool=callgrind", "--dump-instr=yes",
                                   "--collect-jumps=yes", "--callgrind-out-file=" + out};
  argv.insert(argv.end(), command.begin(), command.end());
  std::vector<char*> raw;
  for (auto& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, valgrind.c_str(), &actions, &attr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw tool_failure("could not run " + valgrind + ": " + std::strerror(rc) +
                       (rc == ENOENT ? " (install valgrind, or start the server with "
                                       "--valgrind=PATH)"
                                     : ""));
  }
  callgrind_run r;
  r.profile = named ? out : cwd + "/callgrind.out." + std::to_string(pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  bool open = true, termed = false;
  std::chrono::steady_clock::time_point killed_at;
  while (open) {
    const auto now = std::chrono::steady_clock::now();
    if (!termed && now >= deadline) {
      r.timed_out = termed = true;
      kill(-pid, SIGTERM);
      killed_at = now;
    } else if (termed && now >= killed_at + std::chrono::seconds(2)) {
      kill(-pid, SIGKILL);
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buf[4096];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      open = false;
      break;
    }
    r.output.append(buf, static_cast<std::size_t>(n));
    if (r.output.size() > 2 * kept_output) r.output.erase(0, r.output.size() - kept_output);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (r.output.size() > kept_output) r.output.erase(0, r.output.size() - kept_output);
  return r;
}

std::string absolute(const std::string& path) {
  char real[PATH_MAX];
  if (!realpath(path.c_str(), real)) throw tool_failure(path + ": " + std::strerror(errno));
  return real;
}

}  // namespace

tool_answer run_record(tool_context& c, const json& arguments_json) {
  arguments args("record", arguments_json);
  const std::vector<std::string> command = args.strings("command");
  if (command.empty() || command[0].empty())
    throw bad_arguments(
        "record: argument 'command' is required: the program and its "
        "arguments, e.g. [\"./bench\", \"--quick\"]");
  const std::string cwd =
      absolute(args.text_or("cwd", current_dir().empty() ? "." : current_dir()));
  std::string out = args.text_or("path", "");
  if (!out.empty() && out.front() != '/') out = cwd + "/" + out;
  const int timeout = static_cast<int>(args.count("timeout_seconds", 300, 3600));
  args.done();
  struct stat st;
  if (stat(cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw tool_failure(cwd + " is not a folder (cwd)");

  const callgrind_run r = run_callgrind(c.settings.valgrind, command, cwd, out, timeout);
  if (stat(r.profile.c_str(), &st) != 0)
    throw tool_failure("no profile was written (" + r.profile + "); valgrind said:\n" +
                       r.output.substr(r.output.size() > 2000 ? r.output.size() - 2000 : 0));
  tool_answer summary =
      summarize_profile(r.profile, c.profiles.single(r.profile).ask("/api/v1/profile"));
  tool_answer a;
  a.structured = {{"path", r.profile},
                  {"exit_status", r.exit_status ? json(*r.exit_status) : json(nullptr)},
                  {"signal", r.signal ? json(*r.signal) : json(nullptr)},
                  {"timed_out", r.timed_out},
                  {"output", r.output},
                  {"summary", summary.structured}};
  a.text = "Recorded " + r.profile + " (" +
           (r.timed_out     ? "stopped after " + std::to_string(timeout) + " s"
            : r.exit_status ? "exit status " + std::to_string(*r.exit_status)
                            : "killed by signal " + std::to_string(r.signal.value_or(0))) +
           ").\n" + summary.text;
  return a;
}

}  // namespace calltree::cli::mcp

// child_process.cc — the program `calltree record` profiles, run to its end (child_process.h).
#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace calltree::cli {

namespace {

constexpr std::array<int, 4> stop_signals{SIGINT, SIGTERM, SIGHUP, SIGQUIT};
std::array<struct sigaction, stop_signals.size()> saved{};
std::array<bool, stop_signals.size()> caught{};

// (Read and written by the handler: lock-free atomics are async-signal-safe.)
std::atomic<pid_t> child_pid{0};
std::atomic<int> last_signal{0};

std::atomic<bool> reaping{false};  // the child ended; its orphans are being waited for

// Sends `sig` to every child of this process (the orphans of the program's processes, which
// the kernel gave us as their subreaper), as listed by /proc/self/task/PID/children. Only
// async-signal-safe calls (open, read, kill).
void signal_children(int sig) {
  char path[64] = "/proc/self/task/";
  char digits[24];
  int n = 0;
  for (pid_t p = ::getpid(); p > 0; p /= 10) digits[n++] = static_cast<char>('0' + p % 10);
  std::size_t at = std::strlen(path);
  while (n > 0) path[at++] = digits[--n];
  std::memcpy(path + at, "/children", 10);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  const ssize_t got = ::read(fd, buf, sizeof buf);
  ::close(fd);
  pid_t pid = 0;
  for (ssize_t i = 0; i < got; ++i) {
    if (buf[i] >= '0' && buf[i] <= '9') {
      pid = pid * 10 + (buf[i] - '0');
    } else {
      if (pid > 0) ::kill(pid, sig);
      pid = 0;
    }
  }
}

void on_stop_signal(int sig, siginfo_t* info, void*) {
  last_signal.store(sig);
  // From a terminal (SI_KERNEL) the processes got it too; from kill(2) only we did.
  if (info != nullptr && info->si_code == SI_KERNEL) return;
  const pid_t pid = child_pid.load();
  if (pid > 0)
    ::kill(pid, sig);
  else if (reaping.load())
    signal_children(sig);
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

void catch_stop_signals() {
  for (std::size_t i = 0; i < stop_signals.size(); ++i) {
    struct sigaction now {};
    ::sigaction(stop_signals[i], nullptr, &now);
    if (now.sa_handler == SIG_IGN) continue;  // ignored when we started: stays so
    struct sigaction sa {};
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    caught[i] = ::sigaction(stop_signals[i], &sa, &saved[i]) == 0;
  }
}

void restore_signals() {
  for (std::size_t i = 0; i < stop_signals.size(); ++i)
    if (caught[i]) {
      ::sigaction(stop_signals[i], &saved[i], nullptr);
      caught[i] = false;
    }
}

namespace {

// Reads the child's output pipe to its end (every process holding it closed it), keeping the
// last `how.kept` bytes, and ends its process group when the time is up.
void read_output(int fd, pid_t group, const spawn_options& how, child_end& end) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::seconds(how.timeout_seconds);
  clock::time_point termed_at;
  std::string& out = *how.output;
  for (;;) {
    const auto now = clock::now();
    if (how.timeout_seconds > 0 && !end.timed_out && now >= deadline) {
      end.timed_out = true;
      termed_at = now;
      ::kill(-group, SIGTERM);
    } else if (end.timed_out && now >= termed_at + std::chrono::seconds(2)) {
      ::kill(-group, SIGKILL);
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > 2 * how.kept) out.erase(0, out.size() - how.kept);
  }
  if (out.size() > how.kept) out.erase(0, out.size() - how.kept);
}

}  // namespace

std::optional<child_end> spawn_and_wait(const std::vector<std::string>& argv,
                                        const std::vector<std::pair<std::string, std::string>>& env,
                                        std::string& error, const spawn_options& how) {
  std::vector<std::string> args = argv;
  std::vector<std::string> environment;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    bool replaced = false;
    for (const auto& kv : env)
      replaced = replaced || (entry.starts_with(kv.first) && entry.size() > kv.first.size() &&
                              entry[kv.first.size()] == '=');
    if (!replaced) environment.emplace_back(entry);
  }
  for (const auto& kv : env) environment.push_back(kv.first + "=" + kv.second);
  auto c_args = c_strings(args);
  auto c_env = c_strings(environment);

  // The child starts with the default action of the signals we catch (posix_spawn resets
  // caught signals; the ignored ones stay ignored, as intended).
  // The stop signals wait while it starts, so that one that comes before its pid is known
  // is passed on too (the child starts with the mask we had).
  sigset_t stops, before;
  sigemptyset(&stops);
  for (int s : stop_signals) sigaddset(&stops, s);
  ::sigprocmask(SIG_BLOCK, &stops, &before);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigmask(&attr, &before);
  posix_spawnattr_setflags(
      &attr, POSIX_SPAWN_SETSIGMASK | (how.timeout_seconds > 0 ? POSIX_SPAWN_SETPGROUP : 0));
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int fds[2] = {-1, -1};
  if (how.output && ::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::strerror(errno);
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return std::nullopt;
  }
  if (how.null_input) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (how.output) {
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  }
  if (!how.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, how.cwd.c_str());
  // The processes the program starts and leaves behind (a fork that outlives its parent, a
  // shell's background job) become ours when their parent ends, so that the run ends when the
  // last of them does: each writes its own profile at its end, a part of the run.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  pid_t pid = 0;
  last_signal.store(0);
  const int rc = ::posix_spawnp(&pid, c_args[0], &actions, &attr, c_args.data(), c_env.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == 0) child_pid.store(pid);
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
  if (how.output) ::close(fds[1]);
  if (rc != 0) {
    if (how.output) ::close(fds[0]);
    ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    error = std::strerror(rc);
    return std::nullopt;
  }
  child_end end;
  end.pid = pid;
  if (how.output) {
    read_output(fds[0], pid, how, end);
    ::close(fds[0]);
  }
  int status = 0;
  pid_t w;
  do {
    w = ::waitpid(pid, &status, 0);
  } while (w < 0 && errno == EINTR);
  if (w < 0) {
    child_pid.store(0);
    error = std::strerror(errno);
    return std::nullopt;
  }
  reaping.store(true);
  child_pid.store(0);
  int orphan_status = 0;
  while (::waitpid(-1, &orphan_status, 0) > 0 || errno == EINTR) {
  }
  reaping.store(false);
  ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
  if (WIFSIGNALED(status))
    end.signal = WTERMSIG(status);
  else
    end.exit_status = WEXITSTATUS(status);
  end.interrupted = last_signal.load();
  return end;
}

std::optional<int> run_capture(const std::vector<std::string>& argv, std::string& output,
                               std::size_t limit, std::string& error) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = argv;
  auto c_args = c_strings(args);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, c_args[0], &actions, nullptr, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    error = std::strerror(rc);
    return std::nullopt;
  }
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output.size() < limit)
      output.append(buf, std::min(static_cast<std::size_t>(n), limit - output.size()));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<std::string> find_program(const std::string& name) {
  auto runnable = [](const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (runnable(name)) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    // (made whole, not assigned "." after: GCC 12's -O3 -Wrestrict misreads that assignment)
    const std::string_view d = dirs.substr(0, colon);
    const std::string candidate = (d.empty() ? std::string(".") : std::string(d)) + "/" + name;
    if (runnable(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

std::string signal_name(int signal) {
  struct named {
    int number;
    const char* name;
  };
  static constexpr named names[] = {
      {SIGHUP, "HUP"},   {SIGINT, "INT"},   {SIGQUIT, "QUIT"}, {SIGILL, "ILL"},   {SIGTRAP, "TRAP"},
      {SIGABRT, "ABRT"}, {SIGBUS, "BUS"},   {SIGFPE, "FPE"},   {SIGKILL, "KILL"}, {SIGUSR1, "USR1"},
      {SIGSEGV, "SEGV"}, {SIGUSR2, "USR2"}, {SIGPIPE, "PIPE"}, {SIGALRM, "ALRM"}, {SIGTERM, "TERM"},
      {SIGXCPU, "XCPU"}, {SIGXFSZ, "XFSZ"}, {SIGSYS, "SYS"},
  };
  for (const auto& n : names)
    if (n.number == signal) return std::string("SIG") + n.name;
  return "SIG" + std::to_string(signal);
}

}  // namespace calltree::cli

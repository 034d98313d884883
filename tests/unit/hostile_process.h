// hostile_process.h — runs the calltree binary on a hostile input and measures what it took.
//
// What it is: the harness of the hostile-input tests (hostile*_test.cc). `run_calltree` runs
// CALLTREE_BINARY under /usr/bin/time (GNU time: its peak RSS and CPU time) with stdout and
// stderr captured to files, and kills the whole process group after a generous deadline so a
// hang fails the test instead of blocking the suite. Why GNU time and not wait4() here: Linux
// carries a process's peak RSS across exec, so a child forked from this (large, under ASan)
// test process would report the test's RSS, not calltree's; time forks calltree from a small
// process. Without /usr/bin/time, wait4()'s figure is used (an overestimate). `hostile_file` writes
// a generated input to a temporary file in chunks (a 100 MB line is never one string in memory) and
// removes it afterwards. `memory_budget_kb` scales the memory bounds for sanitizer builds. What it
// is not: a benchmark. Bounds are ceilings that catch unbounded growth (a copy of the input per
// line, a recursion as deep as the input), not tight performance figures.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace calltree::hostile {

namespace fs = std::filesystem;

// True when this binary (and so the calltree binary built with it) runs under ASan.
constexpr bool sanitized() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

// A peak-RSS ceiling in KiB: `plain_mb` for a normal build; ASan's shadow memory and redzones
// roughly triple heap use, and its quarantine keeps up to 256 MB of freed memory resident.
inline long memory_budget_kb(long plain_mb) {
  return (sanitized() ? plain_mb * 3 + 400 : plain_mb) * 1024;
}

struct run_result {
  int exit_code = -1;      // -1 if killed by a signal
  int signal = 0;          // the signal that ended it, if any
  bool timed_out = false;  // killed by the deadline
  long max_rss_kb = 0;     // the child's peak resident set size
  double cpu_seconds = 0;  // user + system time of the child
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A temporary directory for one test, removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "calltree-hostile-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Buffered writes of generated content to a file.
class file_writer {
 public:
  explicit file_writer(const fs::path& p) : out_(p, std::ios::binary) { buf_.reserve(1 << 20); }
  ~file_writer() { flush(); }
  file_writer& operator<<(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= (1 << 20)) flush();
    return *this;
  }
  file_writer& operator<<(std::uint64_t v) { return *this << std::string_view(std::to_string(v)); }
  // n copies of the byte c.
  void fill(char c, std::uint64_t n) {
    std::string chunk(1 << 20, c);
    while (n > 0) {
      std::uint64_t k = std::min<std::uint64_t>(n, chunk.size());
      *this << std::string_view(chunk.data(), k);
      n -= k;
    }
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  std::ofstream out_;
  std::string buf_;
};

// Runs CALLTREE_BINARY with `args`; stdin is `stdin_path` or /dev/null.
inline run_result run_calltree(const std::vector<std::string>& args, const fs::path& scratch,
                               int deadline_seconds = 300, const std::string& stdin_path = {}) {
  run_result r;
  const fs::path out_path = scratch / "stdout.txt";
  const fs::path err_path = scratch / "stderr.txt";
  std::vector<std::string> argv_s;
  argv_s.push_back(CALLTREE_BINARY);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  const fs::path time_path = scratch / "time.txt";
  const bool timed = ::access("/usr/bin/time", X_OK) == 0;
  if (timed) {
    std::vector<std::string> wrap = {"/usr/bin/time", "-f", "%M %U %S", "-o", time_path.string()};
    argv_s.insert(argv_s.begin(), wrap.begin(), wrap.end());
    argv.clear();
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
  }

  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // one group: the deadline kills time and calltree together
    int in = ::open(stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  struct rusage ru {};
  for (;;) {
    pid_t w = ::wait4(pid, &status, WNOHANG, &ru);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(deadline_seconds)) {
      ::kill(-pid, SIGKILL);
      ::wait4(pid, &status, 0, &ru);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.max_rss_kb = ru.ru_maxrss;
  r.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  if (timed && !r.timed_out) {
    // "Command terminated by signal N" (if so), then "MAXRSS USER SYSTEM".
    std::istringstream t(slurp(time_path));
    std::string line, last;
    while (std::getline(t, line)) {
      if (line.rfind("Command terminated by signal ", 0) == 0)
        r.signal = std::atoi(line.c_str() + 29);
      if (!line.empty()) last = line;
    }
    long rss = 0;
    double user = 0, sys = 0;
    if (std::sscanf(last.c_str(), "%ld %lf %lf", &rss, &user, &sys) == 3) {
      r.max_rss_kb = rss;
      r.cpu_seconds = user + sys;
    }
    if (r.signal) r.exit_code = -1;
  }
  return r;
}

// For failure messages: what the run gave, cut to a readable size.
inline std::string describe(const run_result& r) {
  std::ostringstream s;
  s << "exit " << r.exit_code << ", signal " << r.signal << (r.timed_out ? ", TIMED OUT" : "")
    << ", peak RSS " << r.max_rss_kb / 1024 << " MB, cpu " << r.cpu_seconds << " s\n--- stderr\n"
    << r.err.substr(0, 3000) << "\n--- stdout\n"
    << r.out.substr(0, 2000);
  return s.str();
}

}  // namespace calltree::hostile

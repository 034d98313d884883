// perf_data_runner.cc — a perf.data file read through `perf script`: the runner the command
// line sets for the library's importer (src/import/import.h, set_perf_data_runner).
//
// What it is: `perf script --header -i FILE` run with LC_ALL=C, its standard output the text the
// perf-script importer reads, its standard error kept for the error when it fails. FILE is the
// input's path when that is the file whose bytes were read (a regular file of their size), else
// (a pipe, a compressed perf.data) a temporary copy of the bytes, removed after. perf not on the
// PATH, or perf failing, is one error (perf-data) with perf's words and what to do instead.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "import/import.h"

extern char** environ;

namespace calltree::cli {

namespace {

// A temporary file, removed when this goes.
struct temp_file {
  std::string path;
  int fd = -1;
  explicit temp_file(const char* stem) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/" + stem + "-XXXXXX";
    fd = mkstemp(path.data());
    if (fd < 0) path.clear();
  }
  ~temp_file() {
    if (fd >= 0) close(fd);
    if (!path.empty()) unlink(path.c_str());
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The last lines of perf's standard error, for the error's message.
std::string tail_of(int fd) {
  std::string all;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    all.append(buf, static_cast<std::size_t>(n));
  while (!all.empty() && (all.back() == '\n' || all.back() == ' ')) all.pop_back();
  if (all.size() > 600) all = "..." + all.substr(all.size() - 600);
  for (char& c : all)
    if (c == '\n') c = ' ';
  return all;
}

result<std::string> run_perf_script(const std::string& path, std::string_view bytes) {
  const std::string how_else =
      "; or run `perf script -i FILE > FILE.txt` where perf reads it, and read that";
  std::string file = path;
  struct stat st {};
  temp_file copy("calltree-perf-data");
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uint64_t>(st.st_size) != bytes.size()) {
    if (copy.fd < 0 || !write_all(copy.fd, bytes))
      return error{"a perf.data file: no temporary copy of it for perf script (" +
                   std::string(std::strerror(errno)) + ")" + how_else};
    file = copy.path;
  }
  temp_file err("calltree-perf-script-err");
  int out[2];
  if (err.fd < 0 || pipe2(out, O_CLOEXEC) != 0)
    return error{"a perf.data file: cannot run perf script (" + std::string(std::strerror(errno)) +
                 ")" + how_else};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::string lc = "LC_ALL=C";
  std::vector<char*> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "LC_ALL=", 7) != 0) env.push_back(*e);
  env.push_back(lc.data());
  env.push_back(nullptr);
  std::string a0 = "perf", a1 = "script", a2 = "--header", a3 = "-i";
  char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), file.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "perf", &actions, nullptr, argv, env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (spawned != 0) {
    close(out[0]);
    if (spawned == ENOENT)
      return error{
          "a perf.data file: calltree reads it through `perf script`, and perf is not on "
          "the PATH (Debian: apt-get install linux-perf)" +
          how_else};
    return error{"a perf.data file: cannot run perf script (" +
                 std::string(std::strerror(spawned)) + ")" + how_else};
  }
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string why = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    return error{"a perf.data file: `perf script` failed (" + why + "): " + tail_of(err.fd)};
  }
  return text;
}

}  // namespace

void install_perf_data_runner() { detail::set_perf_data_runner(&run_perf_script); }

}  // namespace calltree::cli

// objdump_runner.cc — objdump run for asm_annotator (objdump_runner.h).
#include "objdump_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace calltree::cli {

namespace {

// A command line as a shell would take it back (for display: how to run it again).
std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./=+:,@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct process_output {
  bool started = false;
  std::string error;  // why it could not be started
  int exit_code = 0;
  std::string out, err;
};

// Runs `argv` (argv[0] found on PATH unless it holds a '/') with LC_ALL=C (objdump's text is
// then the one the parser knows), its standard output and error read to their ends.
process_output run_process(const std::vector<std::string>& argv) {
  process_output r;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.error = std::strerror(errno);
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.error = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "LC_ALL=", 7) != 0 && std::strncmp(*e, "LANGUAGE=", 9) != 0)
      env_text.emplace_back(*e);
  env_text.emplace_back("LC_ALL=C");
  std::vector<char*> env;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    r.error = std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return r;
  }
  r.started = true;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* into[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[1 << 16];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[k].fd, buf, sizeof buf);
      if (n > 0) {
        into[k]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace

bool is_file(const std::string& path, std::int64_t* mtime) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (mtime) *mtime = static_cast<std::int64_t>(st.st_mtime);
  return true;
}

objdump_runner make_objdump_runner(objdump_settings settings, std::atomic<bool>* objdump_missing) {
  return [s = std::move(settings), objdump_missing](const objdump_request& req) {
    objdump_reply reply;
    std::string path;
    for (const auto& [old_root, new_root] : s.object_roots)
      if (req.object.starts_with(old_root)) {
        std::string c = new_root + req.object.substr(old_root.size());
        if (is_file(c)) {
          path = c;
          break;
        }
      }
    if (path.empty() && is_file(req.object)) path = req.object;
    if (path.empty()) {
      reply.status = asm_status::object_missing;
      reply.message = "the object file " + req.object + " is not found" +
                      (s.object_roots.empty() ? " (--object-root OLD=NEW says where it moved)"
                                              : " (nor under --object-root)");
      return reply;
    }
    reply.path = path;
    std::int64_t mtime = 0;
    if (is_file(path, &mtime) && s.input_mtime && mtime > s.input_mtime)
      reply.notes.push_back("the object file " + path +
                            " was modified after the profile was written; its code still "
                            "matches the profile's addresses");
    std::vector<std::string> argv{s.objdump};
    argv.insert(argv.end(), req.arguments.begin(), req.arguments.end());
    argv.push_back(path);
    for (const auto& a : argv) {
      if (!reply.command.empty()) reply.command += ' ';
      reply.command += shell_quote(a);
    }
    process_output out = run_process(argv);
    if (!out.started) {
      if (objdump_missing) *objdump_missing = true;
      reply.status = asm_status::objdump_failed;
      reply.message = "cannot run " + s.objdump + ": " + out.error;
      return reply;
    }
    reply.exit_code = out.exit_code;
    reply.text = std::move(out.out);
    reply.errors = std::move(out.err);
    return reply;
  };
}

}  // namespace calltree::cli

// shrinking_file.cc — an LD_PRELOAD library that changes a file while calltree reads it
// (tests/cli/input_changed.sh).
//
// A profile rewritten by its producer while it is read (callgrind_control -d, a rerun) shrinks
// or grows under the reader at a moment no test can catch from outside. This library makes the
// moment exact: with CALLTREE_CHANGE_FILE=PATH and CALLTREE_CHANGE_TO=SIZE in the environment,
// PATH is truncated (or extended) to SIZE bytes once the process has read
// CALLTREE_CHANGE_AFTER bytes of it (read, pread; default 1: after its first read), or at once
// after the process maps it (mmap: the pages are then read later, from the changed file).
// The file is recognised by its device and inode, whatever name or descriptor it is read by.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

namespace {

const char* path = nullptr;
long long change_to = -1;
long long change_after = 1;
dev_t target_dev = 0;
ino_t target_ino = 0;
std::atomic<long long> seen{0};
std::atomic<bool> done{false};

__attribute__((constructor)) void start() {
  path = std::getenv("CALLTREE_CHANGE_FILE");
  const char* to = std::getenv("CALLTREE_CHANGE_TO");
  if (!path || !to) {
    path = nullptr;
    return;
  }
  change_to = std::atoll(to);
  if (const char* a = std::getenv("CALLTREE_CHANGE_AFTER")) change_after = std::atoll(a);
  struct stat st;
  if (::stat(path, &st) != 0) {
    path = nullptr;
    return;
  }
  target_dev = st.st_dev;
  target_ino = st.st_ino;
}

bool is_target(int fd) {
  if (!path || done.load()) return false;
  struct stat st;
  return ::fstat(fd, &st) == 0 && st.st_dev == target_dev && st.st_ino == target_ino;
}

void change() {
  if (done.exchange(true)) return;
  const int saved = errno;
  ::truncate(path, static_cast<off_t>(change_to));
  errno = saved;
}

void count(int fd, ssize_t n) {
  if (n <= 0 || !is_target(fd)) return;
  if (seen.fetch_add(n) + n >= change_after) change();
}

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

ssize_t read(int fd, void* buf, size_t n) {
  static auto f = real<ssize_t (*)(int, void*, size_t)>("read");
  const ssize_t r = f(fd, buf, n);
  count(fd, r);
  return r;
}

ssize_t __read_chk(int fd, void* buf, size_t n, size_t) { return read(fd, buf, n); }

ssize_t pread(int fd, void* buf, size_t n, off_t at) {
  static auto f = real<ssize_t (*)(int, void*, size_t, off_t)>("pread");
  const ssize_t r = f(fd, buf, n, at);
  count(fd, r);
  return r;
}

ssize_t pread64(int fd, void* buf, size_t n, off_t at) {
  static auto f = real<ssize_t (*)(int, void*, size_t, off_t)>("pread64");
  const ssize_t r = f(fd, buf, n, at);
  count(fd, r);
  return r;
}

void* mmap(void* at, size_t n, int prot, int flags, int fd, off_t off) {
  static auto f = real<void* (*)(void*, size_t, int, int, int, off_t)>("mmap");
  void* p = f(at, n, prot, flags, fd, off);
  if (p != MAP_FAILED && fd >= 0 && is_target(fd)) change();
  return p;
}

void* mmap64(void* at, size_t n, int prot, int flags, int fd, off_t off) {
  return mmap(at, n, prot, flags, fd, off);
}

}  // extern "C"

// failing_malloc.cc — an LD_PRELOAD library whose malloc runs out of memory on the process's
// other threads (tests/cli/out_of_memory_on_threads.sh).
//
// Out of memory on a thread other than the main one is where a program is most easily ended
// by it: an exception that leaves a thread's function calls std::terminate, and so does one
// thrown by the handler that was to catch it (a message made there, in a std::string). An
// address-space limit (`ulimit -v`, tests/cli/out_of_memory.sh) reaches those threads only
// now and then, as the threads' timing falls. This library reaches them every time: with
// CALLTREE_FAIL_AFTER=N in the environment, once N allocations were made on threads other
// than the main one (counted together), every later one on those threads fails — malloc,
// calloc, realloc and the aligned ones return null, and operator new throws std::bad_alloc —
// while the main thread allocates as ever. So memory that ran out stays out, as it does: a
// handler that allocates fails too.
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {

long limit = -1;            // CALLTREE_FAIL_AFTER; -1: no limit
std::atomic<long> made{0};  // allocations asked for on the other threads
pid_t main_thread = 0;

__attribute__((constructor)) void start() {
  main_thread = getpid();
  if (const char* n = std::getenv("CALLTREE_FAIL_AFTER")) limit = std::strtol(n, nullptr, 10);
}

// Whether this allocation is to fail.
bool fails() {
  if (limit < 0 || static_cast<pid_t>(syscall(SYS_gettid)) == main_thread) return false;
  if (made.fetch_add(1, std::memory_order_relaxed) < limit) return false;
  errno = ENOMEM;
  return true;
}

}  // namespace

extern "C" {
void* malloc(std::size_t n) { return fails() ? nullptr : __libc_malloc(n); }
void* calloc(std::size_t k, std::size_t n) { return fails() ? nullptr : __libc_calloc(k, n); }
void* realloc(void* p, std::size_t n) { return fails() ? nullptr : __libc_realloc(p, n); }
void* memalign(std::size_t a, std::size_t n) { return fails() ? nullptr : __libc_memalign(a, n); }
void* aligned_alloc(std::size_t a, std::size_t n) { return memalign(a, n); }
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  void* p = memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}

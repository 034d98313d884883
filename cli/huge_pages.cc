// huge_pages.cc — the command line's operator new: large blocks on transparent huge pages.
//
// Debian and Ubuntu ship the kernel's transparent huge pages in "madvise" mode: anonymous
// memory is mapped in 2 MB pages only where the program asks for it (madvise MADV_HUGEPAGE),
// and in 4 KB pages elsewhere. calltree's large blocks (a model's row tables, the json
// stream's ring, the estimate's tree, string pools, output buffers) are filled once, front to
// back, so on 4 KB pages every 4 KB of them costs a page fault: on the real 260 MB profile
// (docs/performance.md), `export --to=json` took 87,640 faults and 9,600 with the hint, and a
// third of its CPU time went with the difference. In a virtual machine a fault is dearer still.
//
// So every block of 4 MB or more that operator new hands out asks for huge pages on its
// 2 MB-aligned interior (the block comes from malloc as ever and goes back to free: nothing
// else about it changes; the kernel may still give 4 KB pages, as when no 2 MB of free memory
// is at hand). Small blocks are left alone: their pages are shared with their neighbours.
// CALLTREE_HUGE_PAGES=0 in the environment turns it off (bench/huge_pages.sh compares the two);
// a command turns it off for a while with no_huge_pages (huge_pages.h: `export --to=json`).
//
// The library does not do this (it never decides how the process allocates); the sanitizer
// builds do not either (they replace operator new themselves).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define CALLTREE_NO_HUGE_PAGES 1
#endif
#endif
#else
#define CALLTREE_NO_HUGE_PAGES 1
#endif

#include "huge_pages.h"

#include <atomic>

namespace {
// Off while a no_huge_pages lives (relaxed: it is a hint, and it changes between phases of a
// command, not while other threads allocate for it).
std::atomic<bool> paused{false};
}  // namespace

namespace calltree::cli {
no_huge_pages::no_huge_pages() : was_(paused.exchange(true, std::memory_order_relaxed)) {}
no_huge_pages::~no_huge_pages() { paused.store(was_, std::memory_order_relaxed); }
}  // namespace calltree::cli

#if !defined(CALLTREE_NO_HUGE_PAGES) && defined(__linux__)
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

constexpr std::uintptr_t huge_page = std::uintptr_t{2} << 20;
constexpr std::size_t large_block = std::size_t{4} << 20;

bool wanted() {
  static const bool on = [] {
    const char* v = std::getenv("CALLTREE_HUGE_PAGES");
    return !v || std::strcmp(v, "0") != 0;
  }();
  return on && !paused.load(std::memory_order_relaxed);
}

void* allocate(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (p && n >= large_block && wanted()) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + huge_page - 1) & ~(huge_page - 1);
    const std::uintptr_t end = (at + n) & ~(huge_page - 1);
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  return p;
}

}  // namespace

// As the standard's own: out of memory, the new-handler until it gives up, then bad_alloc.
void* operator new(std::size_t n) {
  for (;;) {
    if (void* p = allocate(n)) return p;
    const std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return ::operator new(n, std::nothrow);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#endif

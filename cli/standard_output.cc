// standard_output.cc — stdout through fopencookie, remembering why a write failed
// (standard_output.h).
#include "standard_output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ext/stdio_sync_filebuf.h>
#include <iostream>

namespace calltree::cli {

namespace {

int first_error = 0;

// fopencookie's write: all of `n` or 0 (an error, which stdio then records).
ssize_t write_all(void*, const char* bytes, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t w = ::write(STDOUT_FILENO, bytes + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (!first_error) first_error = w < 0 ? errno : EIO;
      return 0;
    }
    done += static_cast<std::size_t>(w);
  }
  return static_cast<ssize_t>(n);
}

}  // namespace

void track_standard_output() {
  static bool done = false;
  if (done) return;
  done = true;
  cookie_io_functions_t io{};
  io.write = write_all;
  std::FILE* f = ::fopencookie(nullptr, "w", io);
  if (!f) return;  // (stdout as it was: failures then end with "an earlier write failed")
  // The buffering stdout had, as glibc chooses it: by lines on a terminal, else in blocks of
  // the file's st_blksize (so output interleaves with stderr's as it did).
  struct stat st {};
  const std::size_t block = ::fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0
                                ? static_cast<std::size_t>(st.st_blksize)
                                : BUFSIZ;
  std::setvbuf(f, nullptr, ::isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, block);
  std::fflush(stdout);
  stdout = f;
  static __gnu_cxx::stdio_sync_filebuf<char> buffer(f);
  std::cout.rdbuf(&buffer);
}

int standard_output_error() { return first_error; }

int finish_standard_output() {
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (first_error) return first_error;
  if (!flushed || std::ferror(stdout) || std::cout.bad()) return EIO;
  return 0;
}

}  // namespace calltree::cli

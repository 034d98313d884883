// output_file.cc — a command's output file, written whole or not at all (output_file.h).
#include "output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "standard_output.h"

namespace calltree::cli {

bool written_in_place(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

bool output_file::open(const std::string& path, std::string& err) {
  path_ = path;
  if (path == "-") {
    f_ = stdout;
    return true;
  }
  // A device, FIFO or socket (/dev/null, a pipe's name) is written as it is: renaming a
  // temporary file onto it would replace the device with a regular file.
  if (struct stat st; stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    err = path + ": is a directory";
    return false;
  }
  if (written_in_place(path)) {
    f_ = std::fopen(path.c_str(), "wb");
    if (!f_) {
      err = "cannot write " + path + ": " + std::strerror(errno);
      return false;
    }
    direct_ = true;
    return true;
  }
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty()) {
    err = path + ": not a file name";
    return false;
  }
  tmp_ = dir + "." + base + ".calltree-XXXXXX";
  const int fd = mkstemp(tmp_.data());
  if (fd < 0) {
    err = "cannot write in " + (dir.empty() ? std::string(".") : dir) + ": " + std::strerror(errno);
    tmp_.clear();
    return false;
  }
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  f_ = fdopen(fd, "wb");
  return f_ != nullptr;
}

void output_file::write(std::string_view bytes) {
  // In pieces of at most 1 MiB. Linux 6.18's ext4 (this VM's) caches a larger write() in
  // larger folios, whose allocation now and then waits: the folded export of the real profile
  // handed over 2.8 MB chunks, and writing its 893 MB took 0.27-1.07 s (sum of the write
  // calls 0.22-0.50 s, single calls up to 13 ms); in 1 MiB pieces 0.26-0.29 s, every run.
  constexpr std::size_t piece = std::size_t{1} << 20;
  while (!failed_ && !bytes.empty()) {
    const std::string_view now = bytes.substr(0, piece);
    if (std::fwrite(now.data(), 1, now.size(), f_) != now.size()) {
      failed_ = true;
      errno_ = errno;
    }
    bytes.remove_prefix(now.size());
  }
}

bool output_file::commit(std::string& err) {
  if (f_ == stdout) {
    const bool flushed = std::fflush(stdout) == 0;
    int e = standard_output_error();  // (the first write that failed, standard_output.h)
    if (!e && (!flushed || failed_)) e = failed_ ? errno_ : errno;
    if (!e && std::ferror(stdout)) e = EIO;
    if (!e || e == EPIPE) return true;  // (a reader that went away: a quiet end)
    err = std::string("writing standard output: ") + std::strerror(e);
    return false;
  }
  if (direct_) {
    const bool flushed = std::fflush(f_) == 0 && !failed_;
    const int e = failed_ ? errno_ : errno;
    const bool closed = std::fclose(f_) == 0;
    f_ = nullptr;
    if (!flushed || !closed) {
      err = "writing " + path_ + ": " + std::strerror(e);
      return false;
    }
    return true;
  }
  const bool flushed = std::fflush(f_) == 0 && !failed_;
  const int e = failed_ ? errno_ : errno;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!flushed || !closed) {
    err = "writing " + path_ + ": " + std::strerror(e);
    discard();
    return false;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    err = "cannot rename to " + path_ + ": " + std::strerror(errno);
    discard();
    return false;
  }
  tmp_.clear();
  return true;
}

bool output_file::flush_only(std::string& err) {
  if (failed_ || std::fflush(f_) != 0) {
    err = "writing " + path_ + ": " + std::strerror(failed_ ? errno_ : errno);
    return false;
  }
  return true;
}

void output_file::discard() {
  if (f_ && f_ != stdout) std::fclose(f_);
  f_ = nullptr;
  if (!tmp_.empty()) unlink(tmp_.c_str());
  tmp_.clear();
}

}  // namespace calltree::cli

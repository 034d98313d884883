#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <thread>

namespace calltree::cli {

progress_line::progress_line(std::string name)
    : name_(std::move(name)),
      tty_(::isatty(2) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

progress_line::~progress_line() { finish(); }

void progress_line::attach(reader_options& options) {
  if (!tty_) return;
  options.progress = [this](const read_progress& p) { update(p); };
}

void progress_line::update(const read_progress& p) {
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  char line[256];
  const double mb = static_cast<double>(p.bytes) / 1e6;
  if (p.raw_size > 0) {
    const double pct =
        100.0 * static_cast<double>(p.raw_consumed) / static_cast<double>(p.raw_size);
    std::snprintf(line, sizeof line, "\rcalltree: reading %.80s: %3.0f%%, %.0f MB, %.0f MB/s\033[K",
                  name_.c_str(), pct, mb, mb / elapsed);
  } else {
    std::snprintf(line, sizeof line, "\rcalltree: reading %.80s: %.0f MB, %.0f MB/s\033[K",
                  name_.c_str(), mb, mb / elapsed);
  }
  std::fputs(line, stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void progress_line::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

std::optional<unsigned> parse_threads(const std::optional<std::string>& value) {
  if (!value) {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1u : n;
  }
  unsigned n = 0;
  for (char c : *value) {
    if (c < '0' || c > '9' || n > 64) return std::nullopt;
    n = n * 10 + static_cast<unsigned>(c - '0');
  }
  if (n < 1 || n > 64) return std::nullopt;
  return n;
}

}  // namespace calltree::cli

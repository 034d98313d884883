// views/header_read.cc — what a profile's first block says (see header_read.h).
#include "views/header_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "calltree/checker.h"
#include "calltree/diagnostic.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree::views {

namespace {

// Keeps the first part's header and counts the parts begun.
class header_sink final : public record_sink {
 public:
  void on_part_begin(const part_header& h) override {
    if (parts_++ == 0) first_ = h;
  }
  const part_header& first() const { return first_; }
  std::uint64_t parts() const { return parts_; }

 private:
  part_header first_;
  std::uint64_t parts_ = 0;
};

// Up to `limit` bytes from the start of the open file `fd`.
bool read_prefix(int fd, std::size_t limit, std::string& out, std::string& error) {
  out.resize(limit);
  std::size_t got = 0;
  while (got < limit) {
    const ssize_t n = pread(fd, out.data() + got, limit - got, static_cast<off_t>(got));
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot read it: ") + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return true;
}

}  // namespace

header_facts read_header(const std::string& path, std::size_t block_bytes) {
  header_facts f;
  // (O_NONBLOCK: a FIFO put in the file's place is not waited on; it is no regular file.)
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    f.problem = std::string("cannot open it: ") + std::strerror(errno);
    return f;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    f.problem = "not a regular file";
    return f;
  }
  f.size = static_cast<std::uint64_t>(st.st_size);
  constexpr std::size_t max_block = 1u << 20;
  std::size_t limit = block_bytes;
  for (;;) {
    std::string bytes, error;
    if (!read_prefix(fd, limit, bytes, error)) {
      close(fd);
      f.problem = error;
      return f;
    }
    f.block = bytes.size();
    f.whole = bytes.size() < limit || bytes.size() == f.size;
    if (f.size == 0 && bytes.empty()) {
      close(fd);
      f.problem = "an empty file";
      return f;
    }
    auto in = memory_input(bytes);
    f.kind = in->kind();
    // A plain file's block ends at its last newline (a line cut in two is no line of it).
    if (!f.whole && f.kind == compression::none) {
      const std::size_t nl = bytes.rfind('\n');
      if (nl != std::string::npos) {
        bytes.resize(nl + 1);
        in = memory_input(std::move(bytes));
      }
    }
    string_pool names;
    header_sink header;
    checker check;
    tee_sink both({&header, &check});
    diagnostic_collector diags(0);
    reader_options o;
    // (the table names the file: its problem need not repeat the path)
    o.display_name = path.substr(path.rfind('/') + 1);
    o.threads = 1;
    o.max_name_bytes = 64u << 20;
    auto read =
        read_callgrind(*in, names, f.whole ? static_cast<record_sink&>(both) : header, diags, o);
    if (!read) {
      // (A header longer than the block: its events: line may come later.)
      if (!f.whole && limit < max_block) {
        limit = max_block;
        continue;
      }
      close(fd);
      f.problem = "not a profile: " + read.error().message;
      return f;
    }
    const read_stats& rs = *read;
    // The header ends where the first cost line starts: a block without one, of a file that
    // goes on, holds only part of it.
    if (!f.whole && rs.cost_lines + rs.call_lines == 0) {
      if (limit < max_block) {
        limit = max_block;
        continue;
      }
      close(fd);
      f.problem = "no cost line in its first MiB (the header was not read to its end)";
      return f;
    }
    close(fd);
    const part_header& h = header.first();
    f.creator = h.creator;
    f.cmd = h.cmd;
    f.events = h.events;
    f.parts = header.parts();
    if (f.whole) {
      f.state = rs.state;
      f.errors = diags.errors();
      const check_result c = check.result();
      // (As annotate and the page show it: the program total of calltree/totals.h, the
      // stated total, else the sum of the self costs.)
      if (!c.program.empty()) {
        f.first_total = c.program.front().program;
        f.source = header_facts::total_source::read;
      }
      if (rs.state == read_state::likely_truncated)
        f.problem = "cut short (its producer ends every file in a way this one does not end)";
      else if (rs.state == read_state::stopped)
        f.problem =
            "cut short (a compressed stream ends early, or it could not be read to "
            "its end)";
    } else if (h.summary && !h.summary->empty()) {
      f.first_total = h.summary->front();
      f.source = header_facts::total_source::summary;
    }
    return f;
  }
}

}  // namespace calltree::views

// parse_floor.cc — the least a reading of a callgrind profile must do, as one tight loop: the
// floor under `calltree check`'s time on this machine, measured beside it by bench/compare.sh.
//
// What it is: for every body line, the work no reading can skip, with the reader's own token
// scanners (src/reader/fast_tokens.h) and the string pool's hash:
//   * a cost line: every position token resolved against the line before (+N, -N, *, decimal,
//     0x-hex), every cost turned into a number and summed;
//   * `calls=`, `jcnd=`, `jump=`: the counts and the target's first position;
//   * `KEY=(id)`: the id looked up in a table; `KEY=(id) name`: the name hashed and stored.
// With --threads=2 the file is cut in two at a line that starts with "fn=" and each half is read
// on a thread of its own (the second half's positions start from 0: nothing is fixed up).
// What it is not: a reader. No header, parts, diagnostics, records, sinks, name pool, bounds
// of a line's length or a number's size; a line it does not know it steps over (memchr); a
// malformed line may be read wrong. Its output is a count of what it read, so that nothing is
// optimized away; compare.sh times it from outside as it times calltree, the file mapped the
// same way. Where `wc -l` is the machine's limit for finding line ends, this is its limit for
// a scalar parse of the lines, and calltree's seconds over its seconds are the price of
// everything a real reading adds (docs/performance.md).
//
// Usage: parse_floor [--threads=1|2] FILE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

#include "calltree/string_pool.h"
#include "reader/fast_tokens.h"

namespace {

namespace fast = calltree::detail::fast;

struct tally {
  std::uint64_t lines = 0, cost_lines = 0, cost_sum = 0, keys = 0, definitions = 0, check = 0;
};

// Lines [p, end): `end` is just after a newline (or the file's end).
tally read_lines(const char* p, const char* end) {
  tally t;
  std::vector<std::uint64_t> ids(std::size_t{1} << 20);  // (id) -> a name's hash
  std::uint64_t instr = 0, line = 0;
  auto skip_line = [&](const char* q) {
    const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
    return nl ? static_cast<const char*>(nl) + 1 : end;
  };
  while (p < end) {
    ++t.lines;
    const char c = *p;
    if (fast::digit(c) < 10 || c == '+' || c == '-' || c == '*') {
      // Positions (as many as there are before the costs: two here, instr and line, or one),
      // then costs. Whatever does not scan is stepped over.
      const char* q = p;
      std::uint64_t i2 = instr, l2 = line, v = 0;
      bool ok = fast::position_token(q, end, i2, i2) && fast::separator(q, end);
      if (ok && q != end && *q != '\n')
        ok = fast::position_token(q, end, l2, l2) && fast::separator(q, end);
      while (ok && q != end && *q != '\n') {
        ok = fast::decimal_wide(q, end, v) && fast::separator(q, end);
        if (ok) t.cost_sum += v;
      }
      if (!ok || q == end) {
        p = skip_line(p);
        continue;
      }
      instr = i2;
      line = l2;
      ++t.cost_lines;
      p = q + 1;
      continue;
    }
    if (c == '\n') {
      ++p;
      continue;
    }
    const char* nl = skip_line(p);
    const std::string_view text(p, static_cast<std::size_t>(nl - p));
    std::uint64_t a = 0, b = 0;
    if (text.starts_with("calls=") || text.starts_with("jump=") || text.starts_with("jcnd=")) {
      const char* q = p + (c == 'c' ? 6 : 5);
      if (fast::decimal(q, nl, a) && q != nl && *q == '/') fast::decimal(++q, nl, b);
      if (q != nl && *q == ' ') {
        std::uint64_t target = instr;
        fast::position_token(++q, nl, target, target);
        t.check += a + b + target;
      }
      ++t.keys;
    } else if (const std::size_t open = text.find("=("); open != std::string_view::npos) {
      const char* q = p + open + 2;
      if (fast::decimal(q, nl, a) && q != nl && *q == ')') {
        ++q;
        std::uint64_t& slot = ids[a & (ids.size() - 1)];
        if (q + 1 < nl && *q == ' ') {  // a definition: the name to its line end
          const char* name_end = nl[-1] == '\n' ? nl - 1 : nl;
          slot = calltree::string_pool::digest_of(
                     std::string_view(q + 1, static_cast<std::size_t>(name_end - q - 1)))
                     .h;
          ++t.definitions;
        } else {
          t.check += slot;
        }
      }
      ++t.keys;
    }
    p = nl;
  }
  t.check += instr + line;
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 1;
  const char* path = nullptr;
  bool usage = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--threads=1" || a == "--threads=2")
      threads = static_cast<unsigned>(a.back() - '0');
    else if (!path && !a.starts_with("--"))
      path = argv[i];
    else
      usage = true;
  }
  if (usage || !path) {
    std::fprintf(stderr, "usage: parse_floor [--threads=1|2] FILE (a plain profile)\n");
    return 2;
  }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::perror(path);
    return 2;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) return 0;
  // Mapped as calltree maps a plain file (input.cc): read in order.
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    std::perror(path);
    return 2;
  }
  ::madvise(map, size, MADV_SEQUENTIAL);
  const char* data = static_cast<const char*>(map);
  const char* end = data + size;
  // The body: from the first function on (the header is a few lines).
  const char* body = data;
  if (const char* fn = static_cast<const char*>(memmem(data, size, "\nfn=", 4))) body = fn + 1;
  std::vector<tally> part(threads);
  if (threads == 1) {
    part[0] = read_lines(body, end);
  } else {
    // Half way, at the next function's first line.
    const char* cut = body + (end - body) / 2;
    const void* fn = memmem(cut, static_cast<std::size_t>(end - cut), "\nfn=", 4);
    cut = fn ? static_cast<const char*>(fn) + 1 : end;
    std::thread second([&] { part[1] = read_lines(cut, end); });
    part[0] = read_lines(body, cut);
    second.join();
  }
  tally sum;
  for (const tally& t : part) {
    sum.lines += t.lines;
    sum.cost_lines += t.cost_lines;
    sum.cost_sum += t.cost_sum;
    sum.keys += t.keys;
    sum.definitions += t.definitions;
    sum.check += t.check;
  }
  std::printf(
      "%s: %llu lines: %llu cost lines (costs sum to %llu), %llu key lines, %llu names "
      "(check %llx)\n",
      path, static_cast<unsigned long long>(sum.lines),
      static_cast<unsigned long long>(sum.cost_lines),
      static_cast<unsigned long long>(sum.cost_sum), static_cast<unsigned long long>(sum.keys),
      static_cast<unsigned long long>(sum.definitions), static_cast<unsigned long long>(sum.check));
  ::munmap(map, size);
  ::close(fd);
  return 0;
}

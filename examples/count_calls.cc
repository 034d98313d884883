// count_calls.cc — stream a profile of any size and count its calls, with no model in memory.
//
// The reader hands each record to a sink as it parses; this sink keeps four numbers, so memory
// is the reader's name tables and one line, whatever the file's size (a 1 GB callgrind file
// reads in constant memory beyond its distinct names):
//
//   count_calls callgrind.out.1234.zst
//
// library.md (share/doc/calltree/) walks through it.
#include <cstdio>

#include "calltree/input.h"
#include "calltree/reader.h"

namespace {
class call_counter final : public calltree::record_sink {
 public:
  void on_part_begin(const calltree::part_header&) override { ++parts; }
  void on_cost(const calltree::cost_record&) override { ++cost_lines; }
  void on_call(const calltree::call_record& r) override {
    ++call_lines;
    calls += r.count;  // `calls=COUNT ...`: how many calls the line stands for
  }
  unsigned long long parts = 0, cost_lines = 0, call_lines = 0, calls = 0;
};
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: count_calls PROFILE\n");
    return 2;
  }
  auto in = calltree::open_input(argv[1]);  // gzip, zstd, xz, bzip2 or plain; "-" = stdin
  if (!in) {
    std::fprintf(stderr, "%s\n", in.error().message.c_str());
    return 2;
  }
  // Each name is interned once; the records carry its id.
  calltree::string_pool names;
  calltree::diagnostic_collector diags(3);
  call_counter counter;
  calltree::reader_options options;
  options.display_name = argv[1];
  auto stats = calltree::read_callgrind(**in, names, counter, diags, options);
  if (!stats) {
    std::fprintf(stderr, "%s\n", stats.error().message.c_str());
    return 2;
  }
  std::printf("%llu parts, %llu cost lines, %llu call lines, %llu calls\n", counter.parts,
              counter.cost_lines, counter.call_lines, counter.calls);
  std::printf("%llu lines, %llu bytes, %llu errors, %llu warnings\n",
              static_cast<unsigned long long>(stats->lines),
              static_cast<unsigned long long>(stats->bytes),
              static_cast<unsigned long long>(diags.errors()),
              static_cast<unsigned long long>(diags.warnings()));
  return diags.errors() || !stats->complete() ? 1 : 0;
}

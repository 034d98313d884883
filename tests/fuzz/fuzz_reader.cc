// fuzz_reader.cc — libFuzzer target: the streaming reader on arbitrary bytes.
//
// Every record the reader emits is checked against records.h (ids in range, one cost per
// event, parts opened and closed in order) and every diagnostic must format. Compressed input
// is found by magic bytes, so the seeds' gzip/zstd/xz/bzip2 streams fuzz the decoders too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  string_pool names;
  fuzz::checking_sink records(names);
  fuzz::checking_diagnostics diagnostics;
  auto in = memory_input(std::string(bytes));
  auto stats = read_callgrind(*in, names, records, diagnostics, fuzz::fuzz_reader_options());
  if (!stats) return 0;                     // unreadable input: a fatal error, reported as a result
  CALLTREE_FUZZ_CHECK(!records.in_part());  // every part that began has ended
  CALLTREE_FUZZ_CHECK(stats->parts == records.parts);
  CALLTREE_FUZZ_CHECK(stats->skipped_lines <= stats->lines);
  CALLTREE_FUZZ_CHECK(stats->errors == diagnostics.errors);
  CALLTREE_FUZZ_CHECK(stats->warnings == diagnostics.warnings);
  CALLTREE_FUZZ_CHECK(stats->cost_lines >= records.costs);
  return 0;
}

// fuzz_reader.cc — libFuzzer target: the streaming reader on arbitrary bytes.
//
// Every record the reader emits is checked against records.h (ids in range, one cost per
// event, parts opened and closed in order) and every diagnostic must format. Compressed input
// is found by magic bytes, so the seeds' gzip/zstd/xz/bzip2 streams fuzz the decoders too,
// and each compressed input is read a second time with the decoder on its own thread.
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
  const bool compressed = in->kind() != compression::none;
  auto stats = read_callgrind(*in, names, records, diagnostics, fuzz::fuzz_reader_options());
  if (!stats) return 0;                     // unreadable input: a fatal error, reported as a result
  CALLTREE_FUZZ_CHECK(!records.in_part());  // every part that began has ended
  CALLTREE_FUZZ_CHECK(stats->parts == records.parts);
  CALLTREE_FUZZ_CHECK(stats->skipped_lines <= stats->lines);
  CALLTREE_FUZZ_CHECK(stats->errors == diagnostics.errors);
  CALLTREE_FUZZ_CHECK(stats->warnings == diagnostics.warnings);
  CALLTREE_FUZZ_CHECK(stats->cost_lines >= records.costs);

  // A compressed input is read again with its decoder on a thread of its own: the reading
  // must not change (reader_options::threads).
  if (compressed) {
    string_pool names2;
    fuzz::checking_sink records2(names2);
    fuzz::checking_diagnostics diagnostics2;
    auto options = fuzz::fuzz_reader_options();
    options.threads = 2;
    auto in2 = memory_input(std::string(bytes));
    auto stats2 = read_callgrind(*in2, names2, records2, diagnostics2, options);
    CALLTREE_FUZZ_CHECK(stats2.has_value());
    CALLTREE_FUZZ_CHECK(stats2->lines == stats->lines && stats2->bytes == stats->bytes);
    CALLTREE_FUZZ_CHECK(stats2->errors == stats->errors && stats2->complete == stats->complete);
    CALLTREE_FUZZ_CHECK(records2.costs == records.costs && records2.calls == records.calls);
    CALLTREE_FUZZ_CHECK(names2.size() == names.size());
  }
  // A plain input is read again on the parallel path (chunks of 64 bytes read ahead on
  // speculation, with the options that allow it) and with the same options on one thread:
  // statistics, diagnostics and names must be the same.
  if (!compressed) {
    auto once = [&](unsigned threads, string_pool& pool, fuzz::checking_diagnostics& d) {
      fuzz::checking_sink sink(pool);
      auto options = fuzz::fuzz_reader_options();
      options.threads = threads;
      options.chunk_bytes = 64;
      options.sum_cost_runs = true;
      options.skip_jump_records = true;
      options.speculate_every_chunk = true;
      auto in3 = memory_input(std::string(bytes));
      return read_callgrind(*in3, pool, sink, d, options);
    };
    string_pool n1, n2;
    fuzz::checking_diagnostics d1, d2;
    auto s1 = once(1, n1, d1);
    auto s2 = once(2, n2, d2);
    CALLTREE_FUZZ_CHECK(s1.has_value() && s2.has_value());
    CALLTREE_FUZZ_CHECK(s1->lines == s2->lines && s1->cost_lines == s2->cost_lines);
    CALLTREE_FUZZ_CHECK(s1->call_lines == s2->call_lines && s1->skipped_lines == s2->skipped_lines);
    CALLTREE_FUZZ_CHECK(s1->errors == s2->errors && s1->warnings == s2->warnings);
    CALLTREE_FUZZ_CHECK(d1.total == d2.total && n1.size() == n2.size());
    for (string_id i = 0; i < n1.size(); ++i) CALLTREE_FUZZ_CHECK(n1.view(i) == n2.view(i));
  }
  return 0;
}

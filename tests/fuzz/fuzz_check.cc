// fuzz_check.cc — libFuzzer target: `calltree check`'s sink against the profile builder.
//
// One reading feeds both the checker (which never holds a model) and the builder; they must
// agree on parts and on the program totals of every event, and the checker's result must be
// well formed (one total per event). `calltree check` reads with its names as digests
// (pool_mode::digest), summed by context on two threads: a second reading that way
// must count the same.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "calltree/checker.h"
#include "fuzz_common.h"
#include "model/string_pool_access.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profile p;
  checker check;
  fuzz::checking_diagnostics diagnostics;
  {
    profile_builder builder(p, &diagnostics, "fuzz");
    tee_sink both({&check, &builder});
    auto in = memory_input(std::string(bytes));
    if (!test::read_as(*in, p.strings, both, diagnostics, fuzz::fuzz_reader_options())) return 0;
  }
  const check_result r = check.result();
  CALLTREE_FUZZ_CHECK(r.totals.size() == r.events.size());
  if (r.summary) CALLTREE_FUZZ_CHECK(r.summary->size() == r.events.size());
  CALLTREE_FUZZ_CHECK(r.parts == p.parts.size());
  const auto total = p.total();
  for (std::size_t e = 0; e < r.events.size(); ++e) {
    const std::optional<event_id> id = p.find_event(r.events[e]);
    CALLTREE_FUZZ_CHECK(id.has_value());
    CALLTREE_FUZZ_CHECK(total[id->index()] == r.totals[e]);
  }
  string_pool digests = string_pool_access::make(pool_mode::digest);
  checker check2;
  fuzz::checking_diagnostics diagnostics2;
  auto in2 = memory_input(std::string(bytes));
  // ... and summed by context on two threads, in small chunks, as `calltree check` reads.
  auto opt2 = fuzz::fuzz_reader_options();
  opt2.sum_by_context = true;
  opt2.threads = 2;
  opt2.chunk_bytes = 64;
  CALLTREE_FUZZ_CHECK(test::read_as(*in2, digests, check2, diagnostics2, opt2).has_value());
  const check_result r2 = check2.result();
  CALLTREE_FUZZ_CHECK(r2.functions == r.functions && r2.calls == r.calls);
  CALLTREE_FUZZ_CHECK(r2.totals == r.totals && r2.parts == r.parts);
  return 0;
}

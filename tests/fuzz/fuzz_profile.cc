// fuzz_profile.cc — libFuzzer target: reader + profile builder, then replay into a new profile.
//
// The built profile must satisfy profile.h (ids in range, one cost row per row, each part's
// totals the saturating sum of its self rows), and replaying it (profile_builder.h `replay`)
// into a fresh builder must give a profile with the same functions, rows and totals.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "model/renaming_sink.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profile p;
  fuzz::checking_diagnostics diagnostics;
  if (!fuzz::build_profile(bytes, p, diagnostics)) return 0;
  fuzz::check_profile(p);

  profile q;
  fuzz::checking_diagnostics replay_diagnostics;
  {
    profile_builder builder(q, &replay_diagnostics, "replay");
    // The replayed records carry ids of p.strings; the builder interns into q.strings, so
    // route them through a sink that re-interns names (model/renaming_sink.h).
    detail::renaming_sink remap(p.strings, q.strings, builder);
    replay(p, remap);
  }
  fuzz::check_profile(q);
  CALLTREE_FUZZ_CHECK(q.total() == p.total());
  CALLTREE_FUZZ_CHECK(q.functions.size() == p.functions.size());
  CALLTREE_FUZZ_CHECK(q.self_rows.size() == p.self_rows.size());
  CALLTREE_FUZZ_CHECK(q.calls.size() == p.calls.size());
  CALLTREE_FUZZ_CHECK(q.jumps.size() == p.jumps.size());
  return 0;
}

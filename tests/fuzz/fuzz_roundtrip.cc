// fuzz_roundtrip.cc — libFuzzer target: read -> write -> read must give the same profile.
//
// The input is read into a profile; the profile is replayed into the callgrind writer; the
// written text is read into a second profile. Both must hold the same facts: the same self
// rows, call rows and jump rows (keyed by part, names and absolute positions, with costs by
// event name), the same part totals, and the written text must read without any error
// (unless a part has no events: then there is no valid way to write it).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "calltree/writer.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profile p;
  fuzz::checking_diagnostics diagnostics;
  if (!fuzz::build_profile(bytes, p, diagnostics)) return 0;
  if (p.parts.empty()) return 0;

  std::ostringstream text;
  {
    callgrind_writer writer(text, p.strings);
    replay(p, writer);
    CALLTREE_FUZZ_CHECK(writer.finish());
  }
  profile q;
  fuzz::checking_diagnostics reread;
  auto stats = fuzz::build_profile(text.str(), q, reread);
  CALLTREE_FUZZ_CHECK(stats.has_value());
  // A part without events (a file that never said events:) cannot be written validly: nothing
  // to compare. Every other profile must be written as a file that reads without error.
  for (const auto& part : p.parts)
    if (part.events.empty()) return 0;
  // Costs whose sum does not fit in 64 bits are written as they were read, and overflow again.
  const auto overflow = static_cast<std::size_t>(diag_code::cost_overflow);
  if (reread.errors != (diagnostics.by_code[overflow] ? reread.by_code[overflow] : 0)) {
    std::fprintf(stderr, "--- written text\n%s\n", text.str().substr(0, 4000).c_str());
    calltree::fuzz::fail("the written text reads with errors");
  }
  fuzz::check_profile(q);
  CALLTREE_FUZZ_CHECK(q.parts.size() == p.parts.size());
  auto a = fuzz::canonical_facts(p), b = fuzz::canonical_facts(q);
  if (a != b) fuzz::print_first_difference(a, b);
  CALLTREE_FUZZ_CHECK(a == b);
  return 0;
}

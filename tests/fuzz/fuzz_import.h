// fuzz_import.h — the body of the importers' libFuzzer targets (fuzz_import_<format>.cc): one
// target per reader of src/import/, each reading its input as that format only.
//
// The input is read as CALLTREE_FUZZ_IMPORT_FORMAT (as `--from=FORMAT` reads a file, whatever
// its first bytes say) into a profile, through the checker and the builder at once: every
// record is checked (ids in range, one cost per event, parts in order), the two agree on the
// totals of every event, and the profile is well formed (fuzz::check_profile). The profile is
// then written in callgrind's format and read back (as callgrind's format): the written text
// reads without an error and holds the same facts. This is `calltree convert X -o x.callgrind`
// on every input an importer accepts: what an importer makes must be a profile calltree (and
// so callgrind_annotate and KCachegrind) can read again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "calltree/checker.h"
#include "calltree/writer.h"
#include "fuzz_common.h"
#include "import/formats.h"

#ifndef CALLTREE_FUZZ_IMPORT_FORMAT
#error "define CALLTREE_FUZZ_IMPORT_FORMAT (a calltree::detail::profile_format) first"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profile p;
  checker check;
  fuzz::checking_diagnostics diagnostics;
  detail::set_process_format(detail::profile_format::CALLTREE_FUZZ_IMPORT_FORMAT);
  {
    profile_builder builder(p, &diagnostics, "fuzz");
    tee_sink both({&check, &builder});
    auto in = memory_input(std::string(bytes));
    const auto stats =
        test::read_as(*in, p.strings, both, diagnostics, fuzz::fuzz_reader_options());
    detail::set_process_format(std::nullopt);
    if (!stats) return 0;  // not this format: a fatal error, reported as a result
  }
  fuzz::check_profile(p);
  const check_result r = check.result();
  CALLTREE_FUZZ_CHECK(r.totals.size() == r.events.size());
  CALLTREE_FUZZ_CHECK(r.parts == p.parts.size());
  const auto total = p.total();
  for (std::size_t e = 0; e < r.events.size(); ++e) {
    const std::optional<event_id> id = p.find_event(r.events[e]);
    CALLTREE_FUZZ_CHECK(id.has_value());
    CALLTREE_FUZZ_CHECK(total[id->index()] == r.totals[e]);
  }
  if (p.parts.empty()) return 0;
  for (const auto& part : p.parts)
    if (part.events.empty()) return 0;  // (no valid way to write a part without events)

  std::ostringstream text;
  {
    callgrind_writer writer(text, p.strings);
    replay(p, writer);
    CALLTREE_FUZZ_CHECK(writer.finish());
  }
  profile q;
  fuzz::checking_diagnostics reread;
  CALLTREE_FUZZ_CHECK(fuzz::build_profile(text.str(), q, reread).has_value());
  // (a sum past 2^64-1, held there and reported, is written as it was read: it overflows again)
  const auto overflow = static_cast<std::size_t>(diag_code::cost_overflow);
  if (reread.errors != (diagnostics.by_code[overflow] ? reread.by_code[overflow] : 0)) {
    std::fprintf(stderr, "--- written text\n%s\n", text.str().substr(0, 4000).c_str());
    fuzz::fail("the converted text reads with errors");
  }
  fuzz::check_profile(q);
  auto a = fuzz::canonical_facts(p), b = fuzz::canonical_facts(q);
  if (a != b) fuzz::print_first_difference(a, b);
  CALLTREE_FUZZ_CHECK(a == b);
  return 0;
}

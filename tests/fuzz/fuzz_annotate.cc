// fuzz_annotate.cc — libFuzzer target: `calltree annotate` (text and JSON) on any profile.
//
// The profile is built, then reported (replayed through annotate's filler of tables) with
// inclusive costs (cycles), caller and callee trees, raw sums, and per part.
// Source files are never opened (auto-annotation off): names in the input are not paths to
// read. Then the same reports without the model (annotate_direct, what `annotate --auto=no`
// runs), from records summed per context on two threads in 64-byte chunks, as the CLI reads;
// the plain one also with its names read ahead on a thread of their own, which must give the
// same text.
// An error result is fine (an unknown --show event); a crash, a hang or a sanitizer report is
// not.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "model/string_pool_access.h"
#include "report/annotate.h"
#include "views/annotate_direct.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profile p;
  fuzz::checking_diagnostics diagnostics;
  {
    profile_builder builder(p, &diagnostics, "fuzz");
    auto in = memory_input(std::string(bytes));
    if (!test::read_as(*in, p.strings, builder, diagnostics, fuzz::fuzz_reader_options())) return 0;
  }
  if (p.parts.empty()) return 0;
  annotate_options o;
  o.auto_annotate = false;
  o.threshold = "100";
  o.input_name = "fuzz";
  std::vector<std::string> warnings;
  (void)annotate_text(p, o, &warnings);
  o.inclusive = true;
  o.tree_caller = o.tree_calling = true;
  (void)annotate_text(p, o, &warnings);
  (void)annotate_json(p, o, &warnings);
  o.raw = true;
  o.threshold = "50";
  if (!p.events.empty()) o.sort = {p.events.back().name};
  (void)annotate_text(p, o, &warnings);
  o.raw = false;
  o.part = static_cast<part_id>(p.parts.size() - 1);
  (void)annotate_json(p, o, &warnings);

  // Without the model: plain, then with inclusive costs and both trees. The plain report also
  // on two threads, its names read back ahead on a thread of their own: the same text.
  auto direct = [&](bool inclusive, std::size_t threads, std::string& text) {
    annotate_options d;
    d.auto_annotate = false;
    d.threshold = inclusive ? "100" : "50";
    d.input_name = "fuzz";
    d.inclusive = d.tree_caller = d.tree_calling = inclusive;
    d.threads = threads;
    profile q;
    q.strings = string_pool_access::make(pool_mode::spill);
    fuzz::checking_diagnostics direct_diagnostics;
    annotate_direct sink(q, d, &direct_diagnostics, "fuzz");
    auto ro = fuzz::fuzz_reader_options();
    ro.threads = 2;
    ro.sum_by_context = true;
    ro.skip_jump_records = true;
    ro.chunk_bytes = 64;
    auto in = memory_input(std::string(bytes));
    if (!test::read_as(*in, q.strings, sink, direct_diagnostics, ro)) return false;
    return annotate_text_of(
               sink, [&](std::string_view piece) { text.append(piece); }, &warnings)
        .has_value();
  };
  std::string one, two, trees;
  if (direct(false, 1, one) && direct(false, 2, two)) CALLTREE_FUZZ_CHECK(one == two);
  (void)direct(true, 1, trees);
  return 0;
}

// fuzz_merge.cc — libFuzzer target: `calltree merge` of two profiles made from one input.
//
// The input is cut in two at the first line "@@@@" (or in the middle). As merge does, both
// halves are read into one builder that folds every part into one (builder_options::sum_parts),
// and the result is written with write_callgrind and read back. The merged totals must be the
// sums of the halves' totals, event by event, before and after the round trip.
#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string_view>

#include "calltree/analysis/merge.h"
#include "fuzz_common.h"

namespace {

std::map<std::string, std::uint64_t> totals_by_name(const calltree::profile& p) {
  std::map<std::string, std::uint64_t> m;
  auto t = p.total();
  for (calltree::event_id e : p.events.ids())
    calltree::add_saturating(m[p.events[e].name], t[e.index()]);
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::size_t cut = bytes.find("\n@@@@\n");
  std::string_view halves[2] = {
      cut == std::string_view::npos ? bytes.substr(0, size / 2) : bytes.substr(0, cut + 1),
      cut == std::string_view::npos ? bytes.substr(size / 2) : bytes.substr(cut + 6)};

  std::map<std::string, std::uint64_t> expected;
  for (auto half : halves) {
    profile alone;
    fuzz::checking_diagnostics d;
    if (!fuzz::build_profile(half, alone, d)) return 0;
    for (const auto& [name, v] : totals_by_name(alone)) add_saturating(expected[name], v);
  }

  profile merged;
  fuzz::checking_diagnostics diagnostics;
  {
    builder_options bo;
    bo.sum_parts = true;
    profile_builder builder(merged, &diagnostics, "a", bo);
    for (int i = 0; i < 2; ++i) {
      builder.set_display_name(i == 0 ? "a" : "b");
      auto in = memory_input(std::string(halves[i]));
      if (!test::read_as(*in, merged.strings, builder, diagnostics, fuzz::fuzz_reader_options()))
        return 0;
    }
  }
  fuzz::check_profile(merged);
  CALLTREE_FUZZ_CHECK(merged.parts.size() <= 1);
  auto got = totals_by_name(merged);
  for (const auto& [name, v] : expected) CALLTREE_FUZZ_CHECK(got[name] == v);

  if (merged.parts.empty() || merged.parts.front().events.empty()) return 0;
  std::ostringstream text;
  CALLTREE_FUZZ_CHECK(write_callgrind(merged, text));
  profile reread;
  fuzz::checking_diagnostics d2;
  CALLTREE_FUZZ_CHECK(fuzz::build_profile(text.str(), reread, d2).has_value());
  auto back = totals_by_name(reread);
  for (const auto& [name, v] : got) {
    if (v != back[name])
      std::fprintf(stderr, "%s: merged %llu, read back %llu\n", name.c_str(),
                   static_cast<unsigned long long>(v), static_cast<unsigned long long>(back[name]));
    CALLTREE_FUZZ_CHECK(back[name] == v);
  }
  return 0;
}

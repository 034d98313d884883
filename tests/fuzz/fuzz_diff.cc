// fuzz_diff.cc — libFuzzer target: `calltree diff` on two profiles made from one input.
//
// The input is cut in two at the first line "@@@@" (or in the middle when there is none): the
// old and the new profile. They are diffed, ranked by self and by inclusive cost, gated, and
// written as text and JSON, with the per-function detail of the first listed function.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "calltree/analysis/diff.h"
#include "fuzz_common.h"
#include "report/diff.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace calltree;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::size_t cut = bytes.find("\n@@@@\n");
  std::string_view old_text =
      cut == std::string_view::npos ? bytes.substr(0, size / 2) : bytes.substr(0, cut + 1);
  std::string_view new_text =
      cut == std::string_view::npos ? bytes.substr(size / 2) : bytes.substr(cut + 6);
  profile old_profile, new_profile;
  fuzz::checking_diagnostics d1, d2;
  if (!fuzz::build_profile(old_text, old_profile, d1)) return 0;
  if (!fuzz::build_profile(new_text, new_profile, d2)) return 0;

  auto r = diff_profiles(old_profile, new_profile);
  if (!r) return 0;
  CALLTREE_FUZZ_CHECK(r->total_old.size() == r->events.size());
  CALLTREE_FUZZ_CHECK(r->total_new.size() == r->events.size());
  for (const auto& f : r->functions) {
    CALLTREE_FUZZ_CHECK(f.self_old.size() == r->events.size());
    CALLTREE_FUZZ_CHECK(f.inclusive_new.size() == r->events.size());
  }
  for (bool inclusive : {false, true}) {
    diff_ranking ranking;
    ranking.inclusive = inclusive;
    ranking.threshold_percent = 0;
    diff_selection sel = select_functions(*r, ranking);
    for (function_diff_id i : sel.listed) CALLTREE_FUZZ_CHECK(r->functions.contains(i));
    diff_report_options opt;
    opt.ranking = ranking;
    if (!r->events.empty()) {
      opt.gate = diff_gate{1.0, event_id{0}, inclusive};
      opt.gate_failures = check_gate(*r, sel, ranking, *opt.gate);
    }
    std::vector<function_detail> details;
    if (!sel.listed.empty()) {
      const auto& key = r->functions[sel.listed.front()].key;
      (void)function_label(key);
      details = diff_function(old_profile, new_profile, *r, key.name);
      (void)similar_function_names(*r, "f");
    }
    std::ostringstream text, json;
    write_diff_text(text, *r, sel, details, opt);
    write_diff_json(json, *r, sel, details, opt);
  }
  return 0;
}

// totals.cc — the stated, summed and program totals of totals.h, of a part and of a profile.
#include "calltree/totals.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "calltree/profile.h"

namespace calltree {

namespace {

std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

std::optional<std::uint64_t> count_of(const std::optional<std::vector<std::uint64_t>>& line,
                                      event_id e) {
  if (!line) return std::nullopt;
  return e.index() < line->size() ? (*line)[e.index()] : 0;
}

}  // namespace

void summed_totals::add(const event_totals& part) {
  const auto s = part.stated();
  if (s || stated) stated = plus(stated.value_or(summed), s.value_or(part.summed));
  summed = plus(summed, part.summed);
  program = plus(program, part.program());
}

std::string total_difference(const summed_totals& t, const std::string& event) {
  if (!t.differ()) return {};
  // The share with one decimal, or as many more as it takes not to read 100.0 (23,663,093 of
  // 23,661,972 is 100.005 %).
  const double ratio = 100.0 * static_cast<double>(t.summed) / static_cast<double>(*t.stated);
  char share[32];
  for (int decimals = 1; decimals <= 6; ++decimals) {
    std::snprintf(share, sizeof share, "%.*f", decimals, ratio);
    if (std::strtod(share, nullptr) != 100.0) break;
  }
  std::string w = "the file states a total of " + std::to_string(*t.stated) + " " + event +
                  " but its self costs sum to " + std::to_string(t.summed) + " (" + share +
                  " % of it): percentages are of the stated total";
  if (t.summed > *t.stated) w += " and can pass 100 %";
  return w;
}

event_totals part_totals(const profile& prof, part_id pt, event_id e) {
  const part& p = prof.parts[pt];
  event_totals t;
  t.summary = count_of(p.summary, e);
  t.totals_line = count_of(p.totals_line, e);
  t.summed = e.index() < p.totals.size() ? p.totals[e.index()] : 0;
  return t;
}

summed_totals totals_of(const profile& p, event_id e) {
  summed_totals t;
  for (part_id pt : p.parts.ids()) t.add(part_totals(p, pt, e));
  return t;
}

}  // namespace calltree

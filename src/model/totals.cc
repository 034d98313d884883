// totals.cc — the stated, summed and program totals of totals.h, of a part and of a profile.
#include "calltree/totals.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "calltree/profile.h"

namespace calltree {

namespace {

std::uint64_t plus(std::uint64_t a, std::uint64_t b, bool signed_costs) {
  if (!signed_costs) return a > UINT64_MAX - b ? UINT64_MAX : a + b;
  std::int64_t s;
  if (__builtin_add_overflow(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), &s))
    s = static_cast<std::int64_t>(b) < 0 ? INT64_MIN : INT64_MAX;
  return static_cast<std::uint64_t>(s);
}

std::string number(std::uint64_t v, bool signed_costs) {
  return signed_costs ? std::to_string(static_cast<std::int64_t>(v)) : std::to_string(v);
}

double value(std::uint64_t v, bool signed_costs) {
  return signed_costs ? static_cast<double>(static_cast<std::int64_t>(v)) : static_cast<double>(v);
}

std::optional<std::uint64_t> count_of(const std::optional<std::vector<std::uint64_t>>& line,
                                      event_id e) {
  if (!line) return std::nullopt;
  return e.index() < line->size() ? (*line)[e.index()] : 0;
}

}  // namespace

void summed_totals::add(const event_totals& part) {
  signed_costs = signed_costs || part.signed_costs;
  const auto s = part.stated();
  if (s || stated)
    stated = plus(stated.value_or(summed), s.value_or(part.summed), signed_costs);
  summed = plus(summed, part.summed, signed_costs);
  program = plus(program, part.program(), signed_costs);
}

std::string total_difference(const summed_totals& t, const std::string& event) {
  if (!t.differ()) return {};
  // The share with one decimal, or as many more as it takes not to read 100.0 (23,663,093 of
  // 23,661,972 is 100.005 %).
  const bool sg = t.signed_costs;
  const double ratio = 100.0 * value(t.summed, sg) / value(*t.stated, sg);
  char share[32];
  for (int decimals = 1; decimals <= 6; ++decimals) {
    std::snprintf(share, sizeof share, "%.*f", decimals, ratio);
    if (std::strtod(share, nullptr) != 100.0) break;
  }
  std::string w = "the file states a total of " + number(*t.stated, sg) + " " + event +
                  " but its self costs sum to " + number(t.summed, sg) + " (" + share +
                  " % of it): percentages are of the stated total";
  if (sg ? ratio > 100.0 : t.summed > *t.stated) w += " and can pass 100 %";
  return w;
}

event_totals part_totals(const profile& prof, part_id pt, event_id e) {
  const part& p = prof.parts[pt];
  event_totals t;
  t.summary = count_of(p.summary, e);
  t.totals_line = count_of(p.totals_line, e);
  t.summed = e.index() < p.totals.size() ? p.totals[e.index()] : 0;
  t.signed_costs = prof.signed_costs;
  return t;
}

summed_totals totals_of(const profile& p, event_id e) {
  summed_totals t;
  for (part_id pt : p.parts.ids()) t.add(part_totals(p, pt, e));
  return t;
}

}  // namespace calltree

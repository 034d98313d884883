// change_points.cc — the runs at which a cost stepped and stayed (see history/change_points.h).
#include "history/change_points.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace calltree::history {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  const double upper = v[h];
  if (v.size() % 2) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h));
  return (lower + upper) / 2;
}

// The median absolute deviation, scaled to a normal distribution's standard deviation.
double scaled_mad(const std::vector<double>& v, double m) {
  std::vector<double> d;
  d.reserve(v.size());
  for (double x : v) d.push_back(std::fabs(x - m));
  return 1.4826 * median(std::move(d));
}

bool big_enough(double before, double after, double threshold_percent) {
  if (before == after) return false;
  auto p = step_percent(before, after);
  return !p || std::fabs(*p) >= threshold_percent;
}

std::vector<change_point> exact_changes(std::span<const double> x, double threshold) {
  std::vector<change_point> out;
  if (x.empty()) return out;
  double level = x[0];
  for (std::size_t k = 1; k < x.size(); ++k) {
    if (!big_enough(level, x[k], threshold)) continue;
    // A spike: the next run is back nearer the old level than the new cost.
    if (k + 1 < x.size() && std::fabs(x[k + 1] - x[k]) > std::fabs(x[k + 1] - level)) continue;
    out.push_back({k, level, x[k]});
    level = x[k];
  }
  return out;
}

// Sum of absolute deviations from the median (the L1 cost of a segment).
double l1_cost(std::span<const double> v) {
  const double m = median(std::vector<double>(v.begin(), v.end()));
  double c = 0;
  for (double x : v) c += std::fabs(x - m);
  return c;
}

void robust_changes(std::span<const double> x, std::span<const double> logs, std::size_t a,
                    std::size_t b, const change_options& o, std::vector<change_point>& out) {
  constexpr std::size_t least = 3;  // runs on each side (a median of three outvotes one outlier)
  if (b - a < 2 * least) return;
  // Where: the split of [a, b) into two segments of least L1 cost of the logarithms (medians
  // are flat across a step: a window that straddles it keeps its median, the cost does not).
  std::size_t k = 0;
  double best = HUGE_VAL;
  for (std::size_t i = a + least; i + least <= b; ++i) {
    const double c = l1_cost(logs.subspan(a, i - a)) + l1_cost(logs.subspan(i, b - i));
    if (c < best) {
      best = c;
      k = i;
    }
  }
  // Whether: the medians of the windows on each side, in values (the threshold) and in
  // logarithms (the noise test).
  const std::size_t w = std::max<std::size_t>(o.window, least);
  const std::size_t from = std::max(a, k > w ? k - w : 0), to = std::min(b, k + w);
  std::vector<double> left(x.begin() + static_cast<std::ptrdiff_t>(from),
                           x.begin() + static_cast<std::ptrdiff_t>(k));
  std::vector<double> right(x.begin() + static_cast<std::ptrdiff_t>(k),
                            x.begin() + static_cast<std::ptrdiff_t>(to));
  const double ml = median(left), mr = median(right);
  if (!big_enough(ml, mr, o.threshold_percent)) return;
  // (A clock's noise grows with what it measures: a run twice as long is preempted twice as
  // often, so a window's spread is taken relative to its level.)
  std::vector<double> ll(logs.begin() + static_cast<std::ptrdiff_t>(from),
                         logs.begin() + static_cast<std::ptrdiff_t>(k));
  std::vector<double> lr(logs.begin() + static_cast<std::ptrdiff_t>(k),
                         logs.begin() + static_cast<std::ptrdiff_t>(to));
  const double mll = median(ll), mlr = median(lr);
  const double spread = std::max(scaled_mad(ll, mll), scaled_mad(lr, mlr));
  if (std::fabs(mlr - mll) <= o.noise * spread) return;
  out.push_back({k, ml, mr});
  robust_changes(x, logs, a, k, o, out);
  robust_changes(x, logs, k, b, o, out);
}

bool contains(std::string_view haystack, std::string_view needle) {
  std::string h(haystack), n(needle);
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.find(n) != std::string::npos;
}

}  // namespace

std::optional<double> step_percent(double before, double after) {
  if (before == after) return 0.0;
  if (before == 0) return std::nullopt;
  return (after - before) / before * 100.0;
}

std::vector<change_point> find_change_points(std::span<const double> series,
                                             const change_options& options) {
  if (options.how == detector::exact) return exact_changes(series, options.threshold_percent);
  std::vector<change_point> out;
  std::vector<double> logs;
  logs.reserve(series.size());
  for (double v : series) logs.push_back(std::log(std::max(v, 1.0)));
  robust_changes(series, logs, 0, series.size(), options, out);
  std::sort(out.begin(), out.end(),
            [](const change_point& x, const change_point& y) { return x.run < y.run; });
  return out;
}

std::optional<change_point> last_step(std::span<const double> series,
                                      const change_options& options) {
  const std::size_t n = series.size();
  if (n < 2) return std::nullopt;
  if (options.how == detector::exact) return change_point{n - 1, series[n - 2], series[n - 1]};
  const std::size_t w = std::max<std::size_t>(options.window, 1);
  const std::size_t from = n - 1 > w ? n - 1 - w : 0;
  std::vector<double> before(series.begin() + static_cast<std::ptrdiff_t>(from),
                             series.begin() + static_cast<std::ptrdiff_t>(n - 1));
  return change_point{n - 1, median(std::move(before)), series[n - 1]};
}

bool timed_event(std::string_view name, std::string_view long_name) {
  for (std::string_view s : {name, long_name}) {
    for (std::string_view word : {"time", "ns)", "nanosec", "usec", "microsec", "msec", "millisec",
                                  "(s)", "seconds", "tick", "cpu", "sample"})
      if (contains(s, word)) return true;
    // A unit as a word of its own: cProfile's `ns`, `cpu_ns`, `wall_us`, `self ms`.
    std::size_t at = 0;
    while (at < s.size()) {
      std::size_t end = at;
      while (end < s.size() && std::isalnum(static_cast<unsigned char>(s[end]))) ++end;
      const std::string_view w = s.substr(at, end - at);
      if (w == "ns" || w == "us" || w == "ms") return true;
      at = end + 1;
    }
  }
  // gperftools' `pprof --callgrind`: its one event, the samples' hits.
  return name == "Hits";
}

bool timed_creator(std::string_view creator) {
  if (creator.empty()) return false;
  for (std::string_view counter : {"callgrind", "cachegrind", "valgrind", "dhat", "xtree",
                                   "gungraun", "iai-callgrind", "calltree"})
    if (contains(creator, counter)) return false;
  return true;
}

}  // namespace calltree::history

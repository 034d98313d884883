// pstats.cc — Python's profile stats (`python -m cProfile -o FILE`, `profile`, pstats' dump).
//
// The file is marshal's (marshal.h) of one dict: {(filename, lineno, funcname): (cc, nc, tt,
// ct, callers)}, callers {(filename, lineno, funcname): (nc, cc, tt, ct)} for cProfile (note
// the order: the caller's tuple puts nc first) and {...: nc} for the pure-Python `profile`
// module, which times no call. nc is every call, cc the primitive ones (those made while the
// function was not already running: nc - cc recursive calls); tt the time in the function
// itself, ct its cumulative time, which counts only its outermost calls (a recursive call's
// time is in the outer one's already). These are measured, not sampled: no stacks.h here; the
// records are made directly, one part:
// - one event, `ns` ("Nanoseconds", as pyprof2calltree writes, so the two tools' files of one
//   profile diff and merge): each float of seconds times 1e9, rounded to the nearest integer.
//   cProfile's default timer counts integer nanoseconds and pstats holds n * 1e-9, so this
//   gives back its counts exactly and every sum below holds to the nanosecond; with another
//   timer (a custom one, `profile`'s float clock) each number is within 0.5 ns of pstats', a
//   sum of k of them within k/2 ns of pstats' float sum. A negative time (`profile`'s bias
//   calibration can make one) or NaN counts 0, with a warning;
// - a function's self cost is its tt, at (file, lineno); built-ins are pstats' `~` file at
//   line 0 (their names as pstats prints them). Functions of one file and name at different
//   lines (two classes' `__init__`, lambdas) are told apart as `name:lineno`;
// - a call caller -> callee, one per entry of the callee's callers, has count nc (every call:
//   exact, the `desc: Call counts` line says so; cc is not kept) and as inclusive cost the
//   callee's cumulative time spent under that caller, at the caller's first line (pstats knows
//   no call site), to the callee's first line.
// The inclusive cost: callgrind_annotate and `calltree annotate --inclusive=yes` (raw) give a
// function the sum of the calls into it, self-calls included. pstats' caller ct counts a call
// from c to f when no other call c -> f is under way (its recursion is per edge), so these
// edges sum to more than f's cumtime when f recurses. The calls' costs are chosen so that they
// sum to f's cumtime exactly (in ns):
// - a self-call f -> f is never an outermost call of f: cost 0 (its count is kept);
// - a call from a caller outside f's strongly connected component of the call graph (f cannot
//   be running when such a caller calls it) is always outermost: its ct, as pstats gives it;
// - what is left of f's cumtime goes to the calls from the other members of f's cycle (mutual
//   recursion), split by their ct (largest remainders, so the parts add up): exact when one
//   member calls f (is_odd -> is_even entered from outside only through is_even gets 0,
//   is_even -> is_odd all of is_odd's cumtime), an estimate of the split between several;
//   with no such caller it goes to f's self-calls (a recursive f called from outside the
//   profile's first frame), else it stays unaccounted (f is then a root, whose inclusive cost
//   is its self cost and its calls out).
// With `profile`'s counts-only callers f's cumtime is split over its callers (self-calls aside)
// by call count: the sum exact, the split an estimate. A function that is never a callee
// (cProfile's outermost `exec`) gets self + its calls out, which is its cumtime.
#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "import/import.h"
#include "import/marshal.h"

namespace calltree::detail {

namespace {

using marshal::kind;

struct function_key {
  std::string_view file;
  std::int64_t line = 0;
  std::string_view name;
  friend bool operator==(const function_key&, const function_key&) = default;
};

struct key_hash {
  std::size_t operator()(const function_key& k) const noexcept {
    const std::size_t h =
        std::hash<std::string_view>()(k.file) * 31 + std::hash<std::string_view>()(k.name);
    return h * 1000003u ^ std::hash<std::int64_t>()(k.line);
  }
};

struct function {
  function_key key;
  bool listed = false;  // a key of the stats dict (else only named as a caller)
  std::uint64_t self = 0, cumulative = 0;
  context ctx;
};

struct edge {
  std::uint32_t caller = 0, callee = 0;
  std::uint64_t count = 0;  // nc
  std::uint64_t time = 0;   // the edge's ct (ns), when `timed`
  bool timed = false;       // cProfile's (nc, cc, tt, ct); false: `profile`'s count alone
  std::uint64_t cost = 0;   // the call record's inclusive cost
};

std::uint64_t saturated_add(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t s = a + b;
  return s < a ? UINT64_MAX : s;
}

// `total` in parts proportional to `weights` (all equal when they are all 0), each rounded
// down and the rest one by one to the largest remainders: the parts add up to `total`.
std::vector<std::uint64_t> split(std::uint64_t total, const std::vector<std::uint64_t>& weights) {
  __extension__ using u128 = unsigned __int128;
  std::vector<std::uint64_t> parts(weights.size(), 0);
  if (weights.empty()) return parts;
  u128 sum = 0;
  for (auto w : weights) sum += w;
  std::vector<std::uint64_t> w = weights;
  if (sum == 0) {
    std::fill(w.begin(), w.end(), 1);
    sum = w.size();
  }
  std::vector<std::pair<u128, std::size_t>> rest;
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const u128 x = static_cast<u128>(total) * w[i];
    parts[i] = static_cast<std::uint64_t>(x / sum);
    given += parts[i];
    rest.emplace_back(x % sum, i);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < total && k < rest.size(); ++k, ++given) ++parts[rest[k].second];
  return parts;
}

// The strongly connected components of the call graph without its self-calls (Tarjan's,
// without recursion): each function's component number.
std::vector<std::uint32_t> components(std::size_t n, const std::vector<edge>& edges) {
  std::vector<std::vector<std::uint32_t>> out(n);
  for (const auto& e : edges)
    if (e.caller != e.callee) out[e.caller].push_back(e.callee);
  constexpr std::uint32_t unseen = UINT32_MAX;
  std::vector<std::uint32_t> index(n, unseen), low(n, 0), comp(n, unseen), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::pair<std::uint32_t, std::size_t>> work;  // (node, next out-edge)
  std::uint32_t next_index = 0, next_comp = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != unseen) continue;
    work.emplace_back(root, 0);
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!work.empty()) {
      auto& [v, i] = work.back();
      if (i < out[v].size()) {
        const std::uint32_t w = out[v][i++];
        if (index[w] == unseen) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          on_stack[w] = true;
          work.emplace_back(w, 0);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      work.pop_back();
      if (!work.empty()) low[work.back().first] = std::min(low[work.back().first], low[done]);
      if (low[done] == index[done]) {
        std::uint32_t m = 0;
        do {
          m = stack.back();
          stack.pop_back();
          on_stack[m] = false;
          comp[m] = next_comp;
        } while (m != done);
        ++next_comp;
      }
    }
  }
  return comp;
}

class stats_reader {
 public:
  stats_reader(const marshal::document& doc, import_target& to) : doc_(doc), to_(to) {}

  void run() {
    const auto& root = doc_.at(doc_.root);
    if (root.type != kind::dict) {
      bad(root, "the data is not a dict of profile stats");
      to_.no_profile = "no stats dict in it";
      return;
    }
    for (std::size_t i = 0; i + 1 < root.items.size(); i += 2)
      entry(root.items[i], root.items[i + 1]);
    std::uint64_t functions = 0;
    for (const auto& f : fns_) functions += f.listed;
    if (functions == 0) {
      to_.no_profile = root.items.empty() ? "its stats dict is empty" : "no function's stats in it";
      return;
    }
    if (clamped_)
      to_.report(severity::warning, diag_code::bad_pstats, 0, 0,
                 std::to_string(clamped_) + " times were negative or not a number: they count 0");
    allocate();
    emit();
  }

 private:
  const marshal::document& doc_;
  import_target& to_;
  std::vector<function> fns_;
  std::unordered_map<function_key, std::uint32_t, key_hash> index_;
  std::vector<edge> edges_;
  std::unordered_set<std::uint64_t> pairs_;  // caller << 32 | callee
  std::deque<std::string> made_;             // names made of code objects
  std::uint64_t clamped_ = 0;
  bool timed_ = false, counted_ = false;

  void bad(const marshal::node& n, const std::string& message) {
    to_.report(severity::error, diag_code::bad_pstats, 0, 0,
               "byte " + std::to_string(n.offset) + ": " + message);
  }

  // A (filename, lineno, funcname) tuple.
  bool key_of(std::uint32_t id, function_key& k) {
    const auto& n = doc_.at(id);
    if (n.type != kind::tuple || n.items.size() != 3) return false;
    const auto &file = doc_.at(n.items[0]), &line = doc_.at(n.items[1]),
               &name = doc_.at(n.items[2]);
    if (file.type != kind::string || line.type != kind::integer) return false;
    if (name.type == kind::code) {
      // (`profile`'s top-level frame: named as pstats prints it, without the address)
      made_.push_back("<code object " + std::string(name.text) + ", file \"" +
                      std::string(name.file) + "\", line " + std::to_string(name.integer) + ">");
      k = {file.text, line.integer, made_.back()};
      return true;
    }
    if (name.type != kind::string) return false;
    k = {file.text, line.integer, name.text};
    return true;
  }
  static std::string said(const function_key& k) {
    return std::string(k.file) + ":" + std::to_string(k.line) + "(" + std::string(k.name) + ")";
  }

  std::uint32_t function_of(const function_key& k) {
    auto [it, added] = index_.try_emplace(k, static_cast<std::uint32_t>(fns_.size()));
    if (added) fns_.push_back(function{k, false, 0, 0, {}});
    return it->second;
  }

  bool count_of(std::uint32_t id, std::uint64_t& c) const {
    const auto& n = doc_.at(id);
    if (n.type != kind::integer || n.integer < 0) return false;
    c = static_cast<std::uint64_t>(n.integer);
    return true;
  }
  // Seconds (a float, or an int) as nanoseconds, rounded to the nearest (file comment).
  bool time_of(std::uint32_t id, std::uint64_t& ns) {
    const auto& n = doc_.at(id);
    double s = 0;
    if (n.type == kind::real) {
      s = n.real;
    } else if (n.type == kind::integer) {
      s = static_cast<double>(n.integer);
    } else {
      return false;
    }
    if (!(s > 0)) {
      if (s < 0 || std::isnan(s)) ++clamped_;
      ns = 0;
      return true;
    }
    const double v = std::round(s * 1e9);
    ns = v >= 18446744073709551616.0 ? UINT64_MAX : static_cast<std::uint64_t>(v);
    return true;
  }

  void entry(std::uint32_t key_id, std::uint32_t value_id) {
    function_key k;
    if (!key_of(key_id, k)) {
      bad(doc_.at(key_id), "a stats key is not a (filename, lineno, funcname) tuple: left out");
      return;
    }
    const auto& v = doc_.at(value_id);
    std::uint64_t cc = 0, nc = 0, tt = 0, ct = 0;
    if (v.type != kind::tuple || v.items.size() != 5 || !count_of(v.items[0], cc) ||
        !count_of(v.items[1], nc) || !time_of(v.items[2], tt) || !time_of(v.items[3], ct) ||
        doc_.at(v.items[4]).type != kind::dict) {
      bad(v, "the stats of " + said(k) +
                 " are not a tuple (cc, nc, tt, ct, callers) of counts, times and a dict: "
                 "left out");
      return;
    }
    const std::uint32_t f = function_of(k);
    if (fns_[f].listed) {
      bad(doc_.at(key_id), said(k) + " is in the stats twice: the second is left out");
      return;
    }
    fns_[f].listed = true;
    fns_[f].self = tt;
    fns_[f].cumulative = ct;
    const auto& callers = doc_.at(v.items[4]);
    for (std::size_t i = 0; i + 1 < callers.items.size(); i += 2) {
      function_key ck;
      if (!key_of(callers.items[i], ck)) {
        bad(doc_.at(callers.items[i]), "a caller of " + said(k) +
                                           " is not a (filename, lineno, funcname) tuple: "
                                           "left out");
        continue;
      }
      edge e;
      const auto& cv = doc_.at(callers.items[i + 1]);
      std::uint64_t ccc = 0, ctt = 0;
      if (cv.type == kind::integer) {
        e.timed = false;
        if (!count_of(callers.items[i + 1], e.count)) {
          bad(cv, "the call count of " + said(ck) + " -> " + said(k) + " is negative: left out");
          continue;
        }
      } else if (cv.type == kind::tuple && cv.items.size() == 4 && count_of(cv.items[0], e.count) &&
                 count_of(cv.items[1], ccc) && time_of(cv.items[2], ctt) &&
                 time_of(cv.items[3], e.time)) {
        e.timed = true;
      } else {
        bad(cv, "the call " + said(ck) + " -> " + said(k) +
                    " is neither a count nor a tuple (nc, cc, tt, ct): left out");
        continue;
      }
      (e.timed ? timed_ : counted_) = true;
      e.caller = function_of(ck);
      e.callee = f;
      if (!pairs_.insert(std::uint64_t{e.caller} << 32 | f).second) {
        bad(cv, "the caller " + said(ck) + " of " + said(k) + " is there twice: left out");
        continue;
      }
      edges_.push_back(e);
    }
  }

  // Each call's cost: the calls into a function sum to its cumulative time (file comment).
  void allocate() {
    const auto comp = components(fns_.size(), edges_);
    std::vector<std::vector<std::size_t>> into(fns_.size());
    for (std::size_t i = 0; i < edges_.size(); ++i) into[edges_[i].callee].push_back(i);
    for (std::uint32_t f = 0; f < fns_.size(); ++f) {
      if (into[f].empty()) continue;
      const std::uint64_t total = fns_[f].cumulative;
      std::vector<std::size_t> outside, cycle, self;
      bool timed = true;
      for (auto i : into[f]) {
        const auto& e = edges_[i];
        timed = timed && e.timed;
        (e.caller == f ? self : comp[e.caller] == comp[f] ? cycle : outside).push_back(i);
      }
      auto share = [&](std::uint64_t amount, const std::vector<std::size_t>& among, bool by_time) {
        std::vector<std::uint64_t> w;
        for (auto i : among) w.push_back(by_time ? edges_[i].time : edges_[i].count);
        const auto parts = split(amount, w);
        for (std::size_t k = 0; k < among.size(); ++k) edges_[among[k]].cost = parts[k];
      };
      if (!timed) {  // `profile`'s counts: the cumulative time by call count
        std::vector<std::size_t> others = outside;
        others.insert(others.end(), cycle.begin(), cycle.end());
        share(total, others.empty() ? self : others, false);
        continue;
      }
      std::uint64_t from_outside = 0;
      for (auto i : outside) from_outside = saturated_add(from_outside, edges_[i].time);
      if (from_outside > total) {  // (only with a timer whose floats do not add up exactly)
        share(total, outside, true);
        continue;
      }
      for (auto i : outside) edges_[i].cost = edges_[i].time;
      if (!cycle.empty())
        share(total - from_outside, cycle, true);
      else if (!self.empty())
        share(total - from_outside, self, true);
    }
  }

  void emit() {
    // Names: `name:lineno` where one file has the name at several lines.
    std::unordered_map<std::string, std::vector<std::int64_t>> lines;
    for (const auto& f : fns_) {
      auto& l = lines[std::string(f.key.file) + '\0' + std::string(f.key.name)];
      if (std::find(l.begin(), l.end(), f.key.line) == l.end()) l.push_back(f.key.line);
    }
    for (auto& f : fns_) {
      std::string name(f.key.name);
      if (lines[std::string(f.key.file) + '\0' + name].size() > 1)
        name += ":" + std::to_string(f.key.line);
      f.ctx.file = f.ctx.source_file = import_name(to_.names, f.key.file);
      f.ctx.function = import_name(to_.names, name);
    }
    auto line_of = [](const function& f) {
      return f.key.line > 0 ? static_cast<std::uint64_t>(f.key.line) : 0;
    };

    part_header h;
    h.line = 1;
    h.version = "1";
    h.creator = counted_ && !timed_ ? "Python profile (pstats)" : "Python cProfile (pstats)";
    h.positions = pos_line;
    h.events = {"ns"};
    h.event_definitions = {event_definition{"ns", "", "Nanoseconds"}};
    h.descriptions = {
        {"Timer", "the profiler's seconds as nanoseconds, each rounded to the nearest"},
        {"Call counts",
         "calls made, recursive ones included (pstats' nc; its primitive calls, cc, are not "
         "kept); a recursive function's inclusive time is its cumtime"}};
    for (const auto& [type, value] : h.descriptions)
      h.description_lines.push_back(type + ": " + value);
    to_.sink.on_part_begin(h);
    ++to_.stats.parts;

    std::vector<std::vector<std::size_t>> out(fns_.size());
    for (std::size_t i = 0; i < edges_.size(); ++i) out[edges_[i].caller].push_back(i);
    std::uint64_t total = 0;
    bool overflowed = false;
    for (std::size_t i = 0; i < fns_.size(); ++i) {
      const auto& f = fns_[i];
      if (f.listed) {
        cost_record c;
        c.ctx = f.ctx;
        c.pos.line = line_of(f);
        c.costs = std::span<const std::uint64_t>(&f.self, 1);
        c.given = 1;
        to_.sink.on_cost(c);
        ++to_.stats.cost_lines;
        // (Reported once, as the callgrind reader reports the converted file's sum: a sum held
        // at 2^64-1 that a later cost would pass again is still past it.)
        if (total + f.self < total && !overflowed) {
          overflowed = true;
          to_.report(severity::error, diag_code::cost_overflow, 0, 0,
                     "the sum of ns costs in this part goes above 2^64-1; it is held at 2^64-1");
        }
        total = saturated_add(total, f.self);
      }
      for (auto k : out[i]) {
        const auto& e = edges_[k];
        const auto& callee = fns_[e.callee];
        call_record r;
        r.ctx = f.ctx;
        r.callee_object = callee.ctx.object;
        r.callee_file = callee.ctx.file;
        r.callee_function = callee.ctx.function;
        r.count = e.count;
        r.site.line = line_of(f);
        r.target.line = line_of(callee);
        r.has_target = true;
        r.costs = std::span<const std::uint64_t>(&e.cost, 1);
        r.given = 1;
        to_.sink.on_call(r);
        ++to_.stats.call_lines;
      }
    }
    part_end end;
    end.computed = {total};
    to_.sink.on_part_end(end);
  }
};

}  // namespace

void read_pstats(std::string_view bytes, import_target& to) {
  auto decoded = marshal::decode(bytes);
  if (auto* e = std::get_if<marshal::error>(&decoded)) {
    to.report(severity::error, diag_code::bad_pstats, 0, 0, "not a pstats file: " + e->message);
    to.no_profile = "its marshal data cannot be read";
    return;
  }
  const auto& doc = std::get<marshal::document>(decoded);
  if (doc.end < bytes.size())
    to.report(severity::warning, diag_code::bad_pstats, 0, 0,
              "byte " + std::to_string(doc.end) + ": " + std::to_string(bytes.size() - doc.end) +
                  " bytes after the stats dict are not read");
  stats_reader(doc, to).run();
}

}  // namespace calltree::detail

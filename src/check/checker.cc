#include "calltree/checker.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "calltree/cost_matrix.h"
#include "model/paged_array.h"
#include "model/row_index.h"

namespace calltree {

namespace {
struct fn_key {
  string_id object, file, name;
  bool operator==(const fn_key&) const = default;
};
struct fn_key_hash {
  std::size_t operator()(const fn_key& k) const {
    return static_cast<std::size_t>(
        detail::mix(detail::mix(detail::mix(0, k.object.index()), k.file.index()), k.name.index()));
  }
};

// The distinct functions, numbered from 0 in order of first appearance. A function is keyed by
// its name's pool id first: a table indexed by that id holds the first function of each name
// (its object, its file and its number), in pages made as ids are first used. A name met again
// with another object or file (a `static` function in two files, one name in two libraries) is
// a function of its own, found in a hash map beside. Lookups are one indexed read, and memory
// is 12 bytes per name, with nothing copied to grow. (A pool id is below the pool's size: the
// pages are as many as the names the reader interned.)
class function_table {
 public:
  std::uint32_t find_or_add(const fn_key& k) {
    entry& e = slot(k.name);
    if (e.number == 0) {
      e = {k.object, k.file, ++count_};
      return e.number - 1;
    }
    if (e.object == k.object && e.file == k.file) return e.number - 1;
    auto [it, fresh] = others_.try_emplace(k, count_);
    if (fresh) ++count_;
    return it->second;
  }
  std::uint32_t size() const { return count_; }

 private:
  struct entry {
    string_id object, file;
    std::uint32_t number = 0;  // the function's number + 1; 0: no function of this name yet
  };
  static constexpr unsigned page_bits = 12;
  entry& slot(string_id name) {
    const std::size_t page = name.index() >> page_bits;
    if (page >= pages_.size()) pages_.resize(page + 1);
    if (!pages_[page]) pages_[page] = std::make_unique<entry[]>(std::size_t{1} << page_bits);
    return pages_[page][name.index() & ((1u << page_bits) - 1)];
  }
  std::vector<std::unique_ptr<entry[]>> pages_;
  std::unordered_map<fn_key, std::uint32_t, fn_key_hash> others_;
  std::uint32_t count_ = 0;
};

// The distinct call arcs, per caller. Functions are numbered in order of first appearance and
// a caller's calls mostly come together (its function block), so the arcs are kept by caller:
// up to three callees in the caller's own entry, more in an open-addressing set of the
// caller's own. A lookup reads the entry of the function just read, mostly in the cache; one
// set of all arcs (caller << 32 | callee) took a cache miss on nearly every call of a big
// profile (three quarters of check's time in the sink). 16 bytes per function, plus the sets
// of the callers of more than three.
class arc_set {
 public:
  // True if the arc is new.
  bool insert(std::uint32_t caller, std::uint32_t callee) {
    while (callers_.size() <= caller) callers_.push_back(entry{});
    entry& e = callers_[caller];
    const std::uint32_t v = callee + 1;  // 0: an empty place (numbers are below 2^32 - 1)
    if (e.more == 0) {
      for (std::uint32_t& c : e.first) {
        if (c == v) return false;
        if (c == 0) {
          c = v;
          ++size_;
          return true;
        }
      }
      // A fourth callee: the caller's callees go to a set of their own, the first three too.
      callee_set& set = more_.emplace_back();
      for (std::uint32_t c : e.first) set.insert(c);
      e.more = static_cast<std::uint32_t>(more_.size());
    }
    if (!more_[e.more - 1].insert(v)) return false;
    ++size_;
    return true;
  }
  std::uint64_t size() const { return size_; }
  // Every arc, (caller, callee), in no particular order.
  void each(std::vector<std::uint32_t>& from, std::vector<std::uint32_t>& to) const {
    for (std::uint32_t c = 0; c < callers_.size(); ++c) {
      const entry& e = callers_[c];
      auto put = [&](std::uint32_t v) {
        if (v) from.push_back(c), to.push_back(v - 1);
      };
      if (e.more == 0)
        for (std::uint32_t v : e.first) put(v);
      else
        for (std::uint32_t v : more_[e.more - 1].slots) put(v);
    }
  }

 private:
  struct entry {
    std::uint32_t first[3] = {0, 0, 0};  // callee + 1, in order of first call (without a set)
    std::uint32_t more = 0;  // 1 + the index of the caller's set (all its callees) in more_
  };
  // The callees of one caller past its first three: callee + 1, 0 for unused.
  struct callee_set {
    std::vector<std::uint32_t> slots = std::vector<std::uint32_t>(8, 0);
    std::uint32_t count = 0;
    static std::size_t home(std::uint32_t v, std::size_t mask) {
      return static_cast<std::size_t>((std::uint64_t{v} * 0x9e3779b97f4a7c15ull) >> 32) & mask;
    }
    bool insert(std::uint32_t v) {
      if ((count + 1) * 4 > slots.size() * 3) grow();
      const std::size_t mask = slots.size() - 1;
      for (std::size_t i = home(v, mask);; i = (i + 1) & mask) {
        if (slots[i] == v) return false;
        if (slots[i] == 0) {
          slots[i] = v;
          ++count;
          return true;
        }
      }
    }
    void grow() {
      std::vector<std::uint32_t> old = std::move(slots);
      slots.assign(old.size() * 2, 0);
      const std::size_t mask = slots.size() - 1;
      for (std::uint32_t v : old) {
        if (v == 0) continue;
        std::size_t i = home(v, mask);
        while (slots[i] != 0) i = (i + 1) & mask;
        slots[i] = v;
      }
    }
  };
  paged_array<entry, 12> callers_;  // by caller number
  std::vector<callee_set> more_;
  std::uint64_t size_ = 0;
};
}  // namespace

struct checker::impl {
  check_result r;
  std::vector<std::size_t> event_map;                        // part event -> r.events index
  std::unordered_map<std::string, std::size_t> event_index;  // r.events by name
  function_table functions;
  arc_set arcs;
  std::optional<std::vector<std::uint64_t>> header_summary;
  bool any_summary = false;
  std::vector<std::uint64_t> summary;

  // The function of the last cost line and the last callee: runs of lines of one function,
  // and calls between them, mostly skip the lookup.
  fn_key last{}, last_callee{};
  std::uint32_t last_id = 0, last_callee_id = 0;
  bool have_last = false, have_last_callee = false;

  // The calls into each function and its own lines (self and calls out), in this part's first
  // event, for check_result::calls_above_lines; the line of each function's first record.
  // (a function's sums and first line side by side: a call's callee is a random function, and
  // a function met again is one cache line away)
  struct balance {
    std::uint64_t called = 0, lines = 0, first_line = 0;
  };
  paged_array<balance, 12> sums;       // (paged: no copy of half a million functions' to grow)
  std::vector<std::uint32_t> touched;  // the functions of this part with a sum
  std::vector<check_result::call_balance> above;
  std::string first_event;

  std::uint32_t lookup(const fn_key& k) {
    const std::uint32_t id = functions.find_or_add(k);
    if (id == sums.size()) sums.push_back({});
    return id;
  }
  // (`line`: a record of the function's own, its first kept)
  // (the same function as the last record's inline, another one out of line)
  std::uint32_t function(string_id o, string_id f, string_id n, std::uint64_t line) {
    fn_key k{o, f, n};
    if (have_last && k == last) [[likely]]
      return last_id;
    return another_function(k, line);
  }
  [[gnu::noinline]] std::uint32_t another_function(const fn_key& k, std::uint64_t line) {
    flush_lines();
    last = k;
    last_id = lookup(k);
    if (auto& first = sums[last_id].first_line; !first) first = line;
    have_last = true;
    return last_id;
  }
  std::uint32_t callee(string_id o, string_id f, string_id n) {
    fn_key k{o, f, n};
    if (have_last_callee && k == last_callee) return last_callee_id;
    last_callee = k;
    last_callee_id = lookup(k);
    have_last_callee = true;
    return last_callee_id;
  }
  // The first event's cost of a record, 0 when there is none (then nothing is summed).
  std::uint64_t first_cost(std::span<const std::uint64_t> c) const {
    return c.empty() || first_event.empty() ? 0 : c[0];
  }
  template <std::uint64_t balance::*To>
  void add(std::uint32_t f, std::uint64_t c) {
    if (!c) return;
    balance& b = sums[f];
    if (!(b.called | b.lines)) [[unlikely]]
      touch(f);
    add_saturating(b.*To, c);
  }
  [[gnu::noinline]] void touch(std::uint32_t f) { touched.push_back(f); }
  // The lines of the last record's function (last_id) not yet in its sums: a run of records of
  // one function adds here, and the sum goes to `sums` when another function comes or the part
  // ends.
  std::uint64_t pending_lines = 0;
  void add_lines(std::uint64_t c) { add_saturating(pending_lines, c); }
  void flush_lines() {
    if (pending_lines) add<&balance::lines>(last_id, pending_lines), pending_lines = 0;
  }
  void arc(std::uint32_t caller, std::uint32_t to) { arcs.insert(caller, to); }
};

checker::checker() : impl_(std::make_unique<impl>()) {}
checker::~checker() = default;

void checker::on_part_begin(const part_header& h) {
  auto& m = *impl_;
  ++m.r.parts;
  m.event_map.clear();
  // A hash index, not a scan: a hostile part may name a million events.
  for (const auto& e : h.events) {
    auto [it, fresh] = m.event_index.try_emplace(e, m.r.events.size());
    if (fresh) {
      m.r.events.push_back(e);
      m.r.totals.push_back(0);
      m.summary.push_back(0);
      m.r.program.emplace_back();
    }
    m.event_map.push_back(it->second);
  }
  m.header_summary = h.summary;
  m.have_last = m.have_last_callee = false;
  m.first_event = h.events.empty() ? std::string() : h.events[0];
}

void checker::on_cost(const cost_record& r) {
  auto& m = *impl_;
  m.function(r.ctx.object, r.ctx.file, r.ctx.function, r.line);
  m.add_lines(m.first_cost(r.costs));
}

void checker::on_call(const call_record& r) {
  auto& m = *impl_;
  auto caller = m.function(r.ctx.object, r.ctx.file, r.ctx.function, r.line);
  auto callee = m.callee(r.callee_object, r.callee_file, r.callee_function);
  m.arc(caller, callee);
  if (caller == callee) return;  // (a self-call: neither a call in nor a line of its own)
  const std::uint64_t c = m.first_cost(r.costs);
  m.add_lines(c);  // (the caller is the last record's function)
  m.add<&impl::balance::called>(callee, c);
}

void checker::on_jump(const jump_record& r) {
  impl_->function(r.ctx.object, r.ctx.file, r.ctx.function, r.line);
}

void checker::on_part_end(const part_end& e) {
  auto& m = *impl_;
  m.flush_lines();
  for (std::uint32_t f : m.touched) {
    auto& b = m.sums[f];
    if (b.called > b.lines)
      m.above.push_back({static_cast<std::uint32_t>(m.r.parts), f, b.first_line, m.first_event,
                         b.called, b.lines});
    b.called = b.lines = 0;
  }
  m.touched.clear();
  for (std::size_t i = 0; i < e.computed.size() && i < m.event_map.size(); ++i)
    m.r.totals_saturated |= !add_saturating(m.r.totals[m.event_map[i]], e.computed[i]);
  const auto* s = e.summary ? &*e.summary : m.header_summary ? &*m.header_summary : nullptr;
  if (s) m.any_summary = true;
  const auto& src = s ? *s : e.computed;
  for (std::size_t i = 0; i < src.size() && i < m.event_map.size(); ++i)
    add_saturating(m.summary[m.event_map[i]], src[i]);
  for (std::size_t i = 0; i < m.event_map.size(); ++i) {
    event_totals t;
    if (s) t.summary = i < s->size() ? (*s)[i] : 0;
    if (e.totals) t.totals_line = i < e.totals->size() ? (*e.totals)[i] : 0;
    t.summed = i < e.computed.size() ? e.computed[i] : 0;
    t.signed_costs = signed_costs_here();  // the reader's mode: a file of differences
    m.r.program[m.event_map[i]].add(t);
  }
}

check_result checker::result() const {
  check_result r = impl_->r;
  r.functions = impl_->functions.size();
  r.calls = impl_->arcs.size();
  if (impl_->any_summary) r.summary = impl_->summary;
  r.calls_above_lines = impl_->above;
  if (!r.calls_above_lines.empty()) impl_->arcs.each(r.arc_from, r.arc_to);
  return r;
}

}  // namespace calltree

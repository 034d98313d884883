// views/part_costs.cc — the costs of a selection of parts (see part_costs.h).
#include "views/part_costs.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "calltree/analysis/inclusive.h"
#include "analysis/inclusive_solver.h"
#include "views/session.h"

namespace calltree::views {

part_costs::part_costs(const session& s, bool detect_cycles) : nrec_(s.columns.nrec) {
  const views::annotate_data& t = s.t;
  self_ = &t.self;
  inclusive_ = &t.inclusive;
  call_cc_ = &t.call_cc;
  cycle_cc_ = &t.cycle_cc;
  totals_ = &t.totals;
  calls_ = &t.calls;
  cycle_of_ = &t.cycle_of;
  cycles_ = &t.cycles;
  totals_calculated_ = t.totals_calculated;
  present_.resize(t.keys());
  for (std::size_t k = 0; k < t.keys(); ++k) present_[k] = t.key_seen[k] || t.key_called[k];
  if (!detect_cycles) drop_cycles(s, std::vector<char>(s.p.parts.size(), 1));
  finish(s);
}

part_costs::part_costs(const session& s, const std::vector<std::uint32_t>& parts,
                       bool detect_cycles)
    : nrec_(s.columns.nrec), parts_(parts) {
  const views::annotate_data& t = s.t;
  const std::size_t nk = t.keys();
  std::vector<char> selected(s.p.parts.size(), 0);
  for (std::uint32_t pt : parts)
    if (pt < selected.size()) selected[pt] = 1;

  own_self_ = cc_table(nrec_);
  own_self_.reserve(nk);
  for (std::size_t k = 0; k < nk; ++k) own_self_.add_row();
  present_.assign(nk, 0);
  inclusive_solver solver(nk, nrec_);
  std::vector<std::uint64_t> row(nrec_);
  for (std::size_t i = 0; i < t.part_self_part.size(); ++i) {
    const std::uint32_t pt = t.part_self_part[i];
    if (!selected[pt]) continue;
    const std::uint32_t k = t.part_self_key[i];
    const std::uint64_t* v = t.part_self.values(i);
    std::uint64_t* dst = own_self_.values(k);
    for (std::size_t c = 0; c < nrec_; ++c) add_saturating(dst[c], v[c]);
    present_[k] = 1;
    solver.add_self(pt, k, std::span<const std::uint64_t>(v, nrec_));
  }
  own_call_cc_ = cc_table(nrec_);
  own_call_cc_.reserve(t.calls.size());
  for (std::size_t ci = 0; ci < t.calls.size(); ++ci) own_call_cc_.add_row();
  own_count_.assign(t.calls.size(), 0);
  call_present_.assign(t.calls.size(), 0);
  for (std::size_t i = 0; i < t.part_call_part.size(); ++i) {
    const std::uint32_t pt = t.part_call_part[i];
    if (!selected[pt]) continue;
    const std::uint32_t ci = t.part_call_call[i];
    const ann_call& call = t.calls[ci];
    const std::uint64_t* v = t.part_call_cc.values(i);
    std::uint64_t* dst = own_call_cc_.values(ci);
    for (std::size_t c = 0; c < nrec_; ++c) add_saturating(dst[c], v[c]);
    add_saturating(own_count_[ci], t.part_call_count[i]);
    call_present_[ci] = 1;
    present_[call.caller] = present_[call.callee] = 1;
    solver.add_call(pt, call.caller, call.callee, t.part_call_count[i],
                    std::span<const std::uint64_t>(v, nrec_));
  }
  inclusive_result r = solver.solve(false);
  own_inclusive_ = cc_table(nrec_);
  own_inclusive_.reserve(nk);
  for (std::size_t k = 0; k < nk; ++k) {
    own_inclusive_.add_row();
    std::copy_n(r.inclusive.row(k).begin(), nrec_, own_inclusive_.values(k));
  }
  own_cycle_of_.resize(r.cycle_of.size());
  for (std::size_t k = 0; k < r.cycle_of.size(); ++k) own_cycle_of_[k] = r.cycle_of[k].index();
  own_cycle_cc_ = cc_table(nrec_);
  for (auto& cy : r.cycles) {
    own_cycles_.push_back(std::move(cy.members));
    const std::size_t c = own_cycle_cc_.add_row();
    std::copy_n(cy.inclusive.begin(), nrec_, own_cycle_cc_.values(c));
  }
  own_totals_ = cc_table(nrec_);
  own_totals_.add_row();
  const bool stated = add_part_totals(
      s.p, s.columns, [&](std::size_t pt) { return selected[pt] != 0; }, own_totals_.values(0),
      nullptr);
  totals_calculated_ = !stated;
  if (!stated) {
    std::uint64_t* tv = own_totals_.values(0);
    std::fill_n(tv, nrec_, 0);
    for (std::size_t k = 0; k < nk; ++k)
      for (std::size_t c = 0; c < nrec_; ++c) add_saturating(tv[c], own_self_.values(k)[c]);
  }
  self_ = &own_self_;
  inclusive_ = &own_inclusive_;
  call_cc_ = &own_call_cc_;
  cycle_cc_ = &own_cycle_cc_;
  totals_ = &own_totals_;
  calls_ = &t.calls;
  cycle_of_ = &own_cycle_of_;
  cycles_ = &own_cycles_;
  if (!detect_cycles) drop_cycles(s, selected);
  finish(s);
}

void part_costs::drop_cycles(const session& s, const std::vector<char>& selected) {
  const views::annotate_data& t = s.t;
  if (cycles() > 0) {
    // Per (part, member): its self, the calls into it from other keys and out of it to others.
    struct sums {
      std::vector<std::uint64_t> self, in, out;
      bool called = false;
    };
    std::unordered_map<std::uint64_t, sums> of;
    auto at = [&](std::uint32_t pt, std::uint32_t k) -> sums& {
      sums& x = of[(std::uint64_t{pt} << 32) | k];
      if (x.self.empty()) x.self.assign(nrec_, 0), x.in.assign(nrec_, 0), x.out.assign(nrec_, 0);
      return x;
    };
    // (A file of one part has no per-part rows: its tables are that part's.)
    const bool one_part = s.p.parts.size() <= 1;
    const std::size_t selfs = one_part ? t.keys() : t.part_self_part.size();
    for (std::size_t i = 0; i < selfs; ++i) {
      const std::uint32_t pt = one_part ? 0 : t.part_self_part[i];
      const auto k = one_part ? static_cast<std::uint32_t>(i) : t.part_self_key[i];
      if ((!one_part && (pt >= selected.size() || !selected[pt])) || !cycle_of(k)) continue;
      const std::uint64_t* v = one_part ? self(k) : t.part_self.values(i);
      auto& x = at(pt, k).self;
      for (std::size_t c = 0; c < nrec_; ++c) add_saturating(x[c], v[c]);
    }
    const std::size_t calls = one_part ? t.calls.size() : t.part_call_part.size();
    for (std::size_t i = 0; i < calls; ++i) {
      const std::uint32_t pt = one_part ? 0 : t.part_call_part[i];
      if (!one_part && (pt >= selected.size() || !selected[pt])) continue;
      const auto ci = one_part ? static_cast<std::uint32_t>(i) : t.part_call_call[i];
      const ann_call& call = t.calls[ci];
      if (call.caller == call.callee) continue;  // (a self-call never counts)
      const std::uint64_t* v = one_part ? call_cc_->values(ci) : t.part_call_cc.values(i);
      if (cycle_of(call.callee)) {
        sums& x = at(pt, call.callee);
        x.called = true;
        for (std::size_t c = 0; c < nrec_; ++c) add_saturating(x.in[c], v[c]);
      }
      if (cycle_of(call.caller)) {
        auto& x = at(pt, call.caller).out;
        for (std::size_t c = 0; c < nrec_; ++c) add_saturating(x[c], v[c]);
      }
    }
    if (inclusive_ != &own_inclusive_) {
      own_inclusive_ = *inclusive_;
      inclusive_ = &own_inclusive_;
    }
    for (std::size_t cy = 0; cy < cycles(); ++cy)
      for (std::uint32_t m : members(cy)) std::fill_n(own_inclusive_.values(m), nrec_, 0);
    for (const auto& [slot, x] : of) {
      std::uint64_t* dst = own_inclusive_.values(static_cast<std::uint32_t>(slot & 0xffffffffu));
      for (std::size_t c = 0; c < nrec_; ++c) {
        if (x.called) {
          add_saturating(dst[c], x.in[c]);
        } else {
          add_saturating(dst[c], x.self[c]);
          add_saturating(dst[c], x.out[c]);
        }
      }
    }
  }
  own_cycle_of_.clear();
  own_cycles_.clear();
  own_cycle_cc_ = cc_table(nrec_);
  cycle_of_ = &own_cycle_of_;
  cycles_ = &own_cycles_;
  cycle_cc_ = &own_cycle_cc_;
}

std::uint64_t part_costs::count(std::uint32_t ci) const {
  return own_count_.empty() ? (*calls_)[ci].count : own_count_[ci];
}

void part_costs::finish(const session& s) {
  const std::size_t nk = s.t.keys();
  cycle_self_.assign(cycles() * nrec_, 0);
  for (std::size_t c = 0; c < cycles(); ++c)
    for (std::uint32_t m : members(c))
      for (std::size_t e = 0; e < nrec_; ++e)
        add_saturating(cycle_self_[c * nrec_ + e], self(m)[e]);
  calls_in_.assign(nk, 0);
  cycle_calls_in_.assign(cycles(), 0);
  for (std::uint32_t ci = 0; ci < calls_->size(); ++ci) {
    if (!call_present(ci)) continue;
    const ann_call& c = (*calls_)[ci];
    if (c.caller == c.callee) continue;
    // A function's calls: from every other function, its cycle's members too (as the callers
    // list shows them); a cycle's: from outside it.
    add_saturating(calls_in_[c.callee], count(ci));
    const std::uint32_t from = cycle_of(c.caller), to = cycle_of(c.callee);
    if (to && from != to) add_saturating(cycle_calls_in_[to - 1], count(ci));
  }
}

result<std::vector<std::uint32_t>> parse_parts(std::string_view text, std::size_t part_count) {
  std::vector<std::uint32_t> out;
  if (text.empty() || text == "all") return out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view n = text.substr(pos, comma - pos);
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (n.empty() || ec != std::errc() || end != n.data() + n.size() || v == 0)
      return error{"parts takes 'all' or part numbers from 1, separated by commas"};
    if (v > part_count)
      return error{"part " + std::string(n) + " does not exist (the profile has " +
                   std::to_string(part_count) + " part" + (part_count == 1 ? "" : "s") + ")"};
    out.push_back(static_cast<std::uint32_t>(v - 1));
    pos = comma + 1;
    if (out.size() > part_count) break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() == part_count) out.clear();
  return out;
}

}  // namespace calltree::views

// views/tables.cc — callgrind_annotate's tables: their columns, totals, indexes and the steps
// every report shares once they are filled (see tables.h; views/annotate_direct.cc fills them).
#include "views/tables.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "analysis/inclusive_solve.h"
#include "calltree/totals.h"

namespace calltree {

namespace views {

using detail::mix;
using detail::row_index;

bool regular_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool source_found(const std::string& file, const annotate_options& o) {
  return look_for_source(
      file, o.include_dirs, o.source_roots,
      [](const std::string& path, const std::string&) { return regular_file(path); });
}

std::string display_name(std::string name, std::string_view cwd) {
  if (!cwd.empty() && name.size() > cwd.size() && name.compare(0, cwd.size(), cwd) == 0)
    name.erase(0, cwd.size());
  return name;
}

std::uint32_t display_files::of(const string_pool& names, string_id sid, std::string_view cwd,
                                std::vector<std::string>& files, bool* fresh) {
  const std::uint32_t i = sid.index();
  if (i >= of_sid_.size()) of_sid_.resize(i + 1, 0);
  if (fresh) *fresh = false;
  if (of_sid_[i]) return of_sid_[i] - 1;
  std::string name = display_name(names.text(sid), cwd);
  auto [it, added] = index_.emplace(std::move(name), static_cast<std::uint32_t>(files.size()));
  if (added) files.push_back(it->first);
  if (fresh) *fresh = added;
  of_sid_[i] = it->second + 1;
  return it->second;
}

void index_lists::build(std::size_t n, const std::vector<std::uint32_t>& owner,
                        const std::vector<std::uint32_t>& item) {
  start.assign(n + 1, 0);
  for (std::uint32_t o : owner) ++start[o + 1];
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  items.resize(item.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < owner.size(); ++i) items[fill[owner[i]]++] = item[i];
}

namespace {

std::uint64_t hash_site(std::uint32_t file, std::uint64_t line) { return mix(mix(1, file), line); }
std::uint64_t hash_call_line(std::uint32_t caller, std::uint32_t callee, std::uint64_t line) {
  return mix(mix(mix(2, caller), callee), line);
}

}  // namespace

void site_callee_pairs::note(std::uint32_t site, std::uint32_t callee) {
  const std::uint64_t h = mix(mix(5, site), callee);
  std::size_t slot;
  if (index_.find(
          h, [&](std::uint32_t i) { return site_[i] == site && callee_[i] == callee; }, slot) !=
      row_index::empty)
    return;
  index_.insert(h, static_cast<std::uint32_t>(site_.size()), slot);
  site_.push_back(site);
  callee_.push_back(callee);
}

void site_callee_pairs::renumber_callees(const std::vector<std::uint32_t>& new_of) {
  index_ = row_index();  // (its hashes are of the old numbers)
  for (std::uint32_t& k : callee_) k = new_of[k];
}

void site_callee_pairs::build_into(index_lists& out, std::size_t sites) {
  out.build(sites, site_, callee_);
  *this = site_callee_pairs();
}

void index_source_lines(annotate_data& d) {
  d.site_index = row_index();
  d.call_line_index = row_index();
  std::size_t slot;
  for (std::uint32_t i = 0; i < d.sites.size(); ++i) {
    const ann_site& s = d.sites[i];
    if (d.site_index.find(
            hash_site(s.file, s.line),
            [&](std::uint32_t j) { return d.sites[j].file == s.file && d.sites[j].line == s.line; },
            slot) == row_index::empty)
      d.site_index.insert(hash_site(s.file, s.line), i, slot);
  }
  for (std::uint32_t i = 0; i < d.call_lines.size(); ++i) {
    const ann_call_line& c = d.call_lines[i];
    const std::uint64_t h = hash_call_line(c.caller, c.callee, c.line);
    if (d.call_line_index.find(
            h,
            [&](std::uint32_t j) {
              const ann_call_line& o = d.call_lines[j];
              return o.caller == c.caller && o.callee == c.callee && o.line == c.line;
            },
            slot) == row_index::empty)
      d.call_line_index.insert(h, i, slot);
  }
}

const ann_site* annotate_data::find_site(std::uint32_t file, std::uint64_t line) const {
  std::size_t slot;
  auto r = site_index.find(
      hash_site(file, line),
      [&](std::uint32_t i) { return sites[i].file == file && sites[i].line == line; }, slot);
  return r == row_index::empty ? nullptr : &sites[r];
}

std::uint32_t annotate_data::find_call_line(std::uint32_t caller, std::uint32_t callee,
                                            std::uint64_t line) const {
  std::size_t slot;
  auto r = call_line_index.find(
      hash_call_line(caller, callee, line),
      [&](std::uint32_t i) {
        const ann_call_line& c = call_lines[i];
        return c.caller == caller && c.callee == callee && c.line == line;
      },
      slot);
  return r == row_index::empty ? UINT32_MAX : r;
}

result<annotate_columns> start_annotate_data(const profile& p, const annotate_options& o,
                                             annotate_data& d, std::vector<std::string>* warnings) {
  annotate_columns cols;
  d.names = &p.strings;
  d.lines = o.auto_annotate || !o.user_files.empty();

  // Columns.
  d.recorded = recorded_event_names(p);
  cols.nrec = d.recorded.size();
  for (const auto& n : d.recorded)
    cols.rec_ids.push_back(p.find_event(n).value_or(event_id{UINT32_MAX}));
  d.columns = d.recorded;
  std::vector<std::string> wanted;
  for (const auto* list : {&o.show, &o.sort})
    for (const auto& n : *list)
      if (std::find(d.columns.begin(), d.columns.end(), n) == d.columns.end() &&
          std::find(wanted.begin(), wanted.end(), n) == wanted.end())
        wanted.push_back(n);
  if (!wanted.empty()) {
    auto r = resolve_events(p, wanted, o.event_definitions);
    if (!r) {
      // callgrind_annotate's message for an event it does not know.
      for (const auto& n : wanted) {
        auto one = resolve_events(p, std::vector<std::string>{n}, o.event_definitions);
        if (!one) {
          bool in_show = std::find(o.show.begin(), o.show.end(), n) != o.show.end();
          return error{std::string(in_show ? "--show" : "--sort") + " event `" + n +
                       "' did not appear in input (" + one.error().message + ")"};
        }
      }
      return r.error();
    }
    if (warnings)
      for (auto& w : r->warnings) warnings->push_back(w);
    for (auto& e : r->events) {
      d.columns.push_back(e.name);
      // Recorded-event ids -> recorded column indices.
      linear_event le{e.name, {}};
      for (auto [id, f] : e.terms) {
        auto it = std::find(cols.rec_ids.begin(), cols.rec_ids.end(), id);
        if (it != cols.rec_ids.end())
          le.terms.emplace_back(static_cast<event_id>(it - cols.rec_ids.begin()), f);
      }
      d.derived.push_back(std::move(le));
    }
  }
  const std::size_t ncol = d.columns.size();
  d.self = cc_table(ncol);
  d.call_cc = cc_table(ncol);
  d.call_line_cc = cc_table(ncol);
  d.line_cc = cc_table(ncol);
  d.totals = cc_table(ncol);
  d.inclusive = cc_table(ncol);
  d.cycle_cc = cc_table(ncol);
  d.key_span_cc = cc_table(ncol);

  const annotate_columns where = recorded_columns(p, d.recorded);
  cols.part_index = where.part_index;
  return cols;
}

annotate_columns recorded_columns(const profile& p, const std::vector<std::string>& recorded) {
  annotate_columns cols;
  cols.nrec = recorded.size();
  for (const auto& n : recorded)
    cols.rec_ids.push_back(p.find_event(n).value_or(event_id{UINT32_MAX}));
  cols.part_index.resize(p.parts.size());
  for (std::size_t part = 0; part < p.parts.size(); ++part) {
    const auto& names = p.parts[part_id{part}].header.events;
    for (std::size_t c = 0; c < cols.nrec; ++c) {
      auto it = std::find(names.begin(), names.end(), recorded[c]);
      cols.part_index[part].push_back(it == names.end() ? -1
                                                        : static_cast<int>(it - names.begin()));
    }
  }
  return cols;
}

bool add_part_totals(const profile& p, const annotate_columns& cols,
                     const std::function<bool(std::size_t)>& selected, std::uint64_t* out,
                     char* def) {
  // Totals, per selected part, by the one rule of calltree/totals.h: the part's stated total
  // (summary:, else totals:, as callgrind_annotate takes them) when it is at least the sum of
  // its self costs, else that sum; every selected part summed (callgrind_annotate takes the
  // last part's line only). "Stated" (not "calculated") once a part states a total of an event.
  bool stated = false;
  const std::size_t nrec = cols.nrec;
  for (std::size_t part = 0; part < p.parts.size(); ++part) {
    if (!selected(part)) continue;
    const auto& idx = cols.part_index[part];
    for (std::size_t c = 0; c < nrec; ++c) {
      if (idx[c] < 0 || cols.rec_ids[c].index() >= p.events.size()) continue;
      if (part_totals(p, part_id{part}, cols.rec_ids[c]).stated()) stated = true;
    }
    for (std::size_t c = 0; c < nrec; ++c) {
      if (idx[c] < 0 || cols.rec_ids[c].index() >= p.events.size()) continue;
      add_saturating(out[c], part_totals(p, part_id{part}, cols.rec_ids[c]).program());
      if (stated && def) def[c] = 1;
    }
  }
  return stated;
}

inclusive_result solve_inclusive_of_keys(const annotate_data& d, std::size_t nrec, bool raw) {
  // d's tables as inclusive_solve.h's graph: every key a self entry (a key without self cost
  // has a row of zeros, which adds nothing), every call an entry, all in part 0.
  struct graph {
    const annotate_data& d;
    std::size_t nrec;
    std::size_t nodes() const { return d.keys(); }
    std::size_t events() const { return nrec; }
    std::uint32_t parts() const { return 1; }
    std::size_t selfs() const { return d.keys(); }
    std::uint32_t self_part(std::size_t) const { return 0; }
    std::uint32_t self_node(std::size_t i) const { return static_cast<std::uint32_t>(i); }
    std::span<const std::uint64_t> self_costs(std::size_t i) const {
      return {d.self.values(i), nrec};
    }
    std::size_t calls() const { return d.calls.size(); }
    std::uint32_t call_part(std::size_t) const { return 0; }
    std::uint32_t call_from(std::size_t i) const { return d.calls[i].caller; }
    std::uint32_t call_to(std::size_t i) const { return d.calls[i].callee; }
    bool call_counted(std::size_t i) const { return d.calls[i].count != 0; }
    std::span<const std::uint64_t> call_costs(std::size_t i) const {
      return {d.call_cc.values(i), nrec};
    }
  };
  return detail::solve_inclusive(graph{d, nrec}, raw);
}

void finish_annotate_data(const profile& p, const annotate_options& o, const annotate_columns& cols,
                          annotate_data& d, inclusive_result* inclusive,
                          std::vector<std::string>* warnings) {
  const std::size_t nrec = cols.nrec;
  const bool raw = o.raw;
  auto selected = [&](std::size_t part) { return !o.part || o.part->index() == part; };
  {
    // Callers and callees of each key, in order of first call.
    std::vector<std::uint32_t> owner(d.calls.size()), item(d.calls.size());
    for (std::uint32_t ci = 0; ci < d.calls.size(); ++ci) {
      owner[ci] = d.calls[ci].callee;
      item[ci] = ci;
    }
    d.callers_of.build(d.keys(), owner, item);
    for (std::uint32_t ci = 0; ci < d.calls.size(); ++ci) owner[ci] = d.calls[ci].caller;
    d.callees_of.build(d.keys(), owner, item);
  }

  d.totals.add_row();
  const bool stated = add_part_totals(p, cols, selected, d.totals.values(0), d.totals.defined(0));
  if (!stated) {
    for (std::size_t k = 0; k < d.keys(); ++k)
      for (std::size_t c = 0; c < nrec; ++c)
        if (d.self.defined(k)[c]) d.totals.defined(0)[c] = 1;
  }
  d.totals_calculated = !stated;
  // Where the stated and summed totals differ: both, first among the warnings.
  if (warnings) {
    std::vector<std::string> differ;
    for (std::size_t c = 0; c < nrec; ++c) {
      if (cols.rec_ids[c].index() >= p.events.size()) continue;
      summed_totals t;
      for (std::size_t part = 0; part < p.parts.size(); ++part)
        if (selected(part)) t.add(part_totals(p, part_id{part}, cols.rec_ids[c]));
      std::string w = total_difference(t, d.recorded[c]);
      if (!w.empty()) differ.push_back(std::move(w));
    }
    warnings->insert(warnings->begin(), differ.begin(), differ.end());
  }

  // Inclusive costs over the keys, as the front end solved them.
  if (inclusive) {
    inclusive_result& r = *inclusive;
    const std::size_t nk = d.keys();
    d.cycle_of.resize(r.cycle_of.size());
    for (std::size_t k = 0; k < r.cycle_of.size(); ++k) d.cycle_of[k] = r.cycle_of[k].index();
    d.inclusive.add_rows(nk);
    for (std::size_t k = 0; k < nk; ++k) {
      std::copy_n(r.inclusive.row(k).begin(), nrec, d.inclusive.values(k));
    }
    // Definedness: called functions take their incoming calls', others self + outgoing.
    for (std::size_t k = 0; k < nk; ++k) {
      char* def = d.inclusive.defined(k);
      bool from_in = false;
      for (std::uint32_t ci : d.callers_of[k]) {
        const ann_call& ac = d.calls[ci];
        if (ac.caller == ac.callee && !raw) continue;
        if (!raw && d.cycle_of[k] && d.cycle_of[ac.caller] == d.cycle_of[k]) continue;
        if (raw && ac.count == 0) continue;
        if (d.cycle_of[k] && !raw) continue;
        from_in = true;
        for (std::size_t c = 0; c < nrec; ++c) def[c] |= d.call_cc.defined(ci)[c];
      }
      if (!from_in) {
        for (std::size_t c = 0; c < nrec; ++c) def[c] |= d.self.defined(k)[c];
        for (std::uint32_t ci : d.callees_of[k]) {
          const ann_call& ac = d.calls[ci];
          if (raw && ac.count == 0) continue;
          for (std::size_t c = 0; c < nrec; ++c) def[c] |= d.call_cc.defined(ci)[c];
        }
      }
    }
    if (!raw) {
      for (std::size_t cy = 0; cy < r.cycles.size(); ++cy) {
        d.cycles.push_back(r.cycles[cy].members);
        std::size_t row = d.cycle_cc.add_row();
        std::copy_n(r.cycles[cy].inclusive.begin(), nrec, d.cycle_cc.values(row));
        for (std::uint32_t m : r.cycles[cy].members)
          for (std::size_t c = 0; c < nrec; ++c)
            d.cycle_cc.defined(row)[c] |= d.inclusive.defined(m)[c];
      }
    }
    if (r.saturated && warnings) warnings->push_back("an inclusive cost exceeded 2^64-1");
    r = inclusive_result();  // (given back before the derived columns)
  }

  if (raw && d.totals_calculated) {
    // callgrind_annotate sums its function table for "calculated" totals: with calls=0 cost
    // as self cost, and with --inclusive=yes the inclusive column. --raw keeps that too.
    const cc_table& t = o.inclusive ? d.inclusive : d.self;
    std::uint64_t* tv = d.totals.values(0);
    char* td = d.totals.defined(0);
    std::fill(tv, tv + nrec, 0);
    for (std::size_t k = 0; k < d.keys(); ++k) {
      if (!(d.key_seen[k] || (o.inclusive && d.key_called[k]))) continue;
      for (std::size_t c = 0; c < nrec; ++c)
        if (t.defined(k)[c]) {
          add_saturating(tv[c], t.values(k)[c]);
          td[c] = 1;
        }
    }
  }

  // Derived columns, from the recorded ones of each row.
  if (!d.derived.empty()) {
    for (cc_table* t :
         {&d.self, &d.inclusive, &d.cycle_cc, &d.call_cc, &d.call_line_cc, &d.line_cc, &d.totals}) {
      for (std::size_t r = 0; r < t->rows(); ++r) {
        std::uint64_t* v = t->values(r);
        char* def = t->defined(r);
        for (std::size_t j = 0; j < d.derived.size(); ++j) {
          const linear_event& le = d.derived[j];
          v[nrec + j] = le.evaluate(std::span<const std::uint64_t>(v, nrec));
          char any = 0;
          for (auto [c, f] : le.terms) any |= def[c.index()];
          def[nrec + j] = any;
        }
      }
    }
  }
}

}  // namespace views
}  // namespace calltree

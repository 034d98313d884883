// annotate_direct_tables.cc — the end of annotate_direct's reading: --raw's calls settled,
// the keys numbered (views/annotate_direct.cc says in what order), and the sums handed over as
// annotate's tables (views/tables.h).
//
// What it does not do: sum records (views/annotate_sums.h), or lay out a report
// (report/annotate_text.cc, report/annotate_json.cc).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <unordered_map>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "analysis/inclusive_solver.h"
#include "model/radix_sort.h"
#include "views/annotate_sums.h"

namespace calltree {

// Hands the heap's free pages back to the system (glibc). The tables of the reading (and the
// reader's own, freed by now) leave holes that the report's tables, made in other sizes,
// reuse only in part: without this the report's peak was 7-8 MB above the reading's.
void views::give_back_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

// --raw, once every record is in: as callgrind_annotate 3.19, a call whose count sums to 0
// is its caller's self cost (and its line's, in the caller's file); the others are calls.
// Rows in order of their first record: the calls', call sites' and call lines' order.
void annotate_direct::impl::settle_raw_calls() {
  raw_call_index = row_index();
  auto merge = [](std::vector<std::uint32_t>& given, std::vector<std::uint64_t>& bit_sets,
                  std::uint32_t to, std::uint32_t g, std::uint64_t bits) {
    if (!given.empty()) given[to] = std::max(given[to], g);
    if (!bit_sets.empty()) bit_sets[to] |= bits;
  };
  auto add_row = [](std::span<std::uint64_t> dst, std::span<const std::uint64_t> src) {
    for (std::size_t e = 0; e < src.size(); ++e) add_saturating(dst[e], src[e]);
  };
  if (raw_self.size() < keys.size()) raw_self.resize(keys.size(), 0);
  for (std::uint32_t i = 0; i < raw_calls.size(); ++i) {
    const raw_call c = raw_calls[i];
    const auto costs = raw_call_costs.row(i);
    const std::uint32_t g = raw_call_given.empty() ? 0 : raw_call_given[i];
    const std::uint64_t bits = raw_call_layouts.empty() ? 1 : raw_call_layouts[i];
    const std::uint32_t ck = c.caller, ek = c.callee;
    const std::uint32_t file = keys[ck].file;
    const bool with_lines = lines && (every_file_lines || file_found[file]);
    if (c.count == 0) {
      add_row(key_costs.row(ck), costs);
      merge(key_given, key_layouts, ck, g, bits);
      raw_self[ck] = 1;
      if (with_lines) {
        const std::uint32_t lr = line_of(file, c.site_line, 0);
        if (lr == none) return;
        add_row(line_costs.row(lr), costs);
        merge(line_given, line_layouts, lr, g, bits);
      }
      continue;
    }
    keys[ek].called = true;
    if (!keep_calls && !with_lines) continue;
    std::uint32_t ci = last_call;
    if (ci == none || calls[ci].caller != ck || calls[ci].callee != ek) {
      const std::uint64_t h = mix(mix(4, ck), ek);
      std::size_t slot = 0;
      ci = other_calls.find(
          h, [&](std::uint32_t j) { return calls[j].caller == ck && calls[j].callee == ek; }, slot);
      if (ci == row_index::empty) {
        if (!room(0)) return;
        ci = static_cast<std::uint32_t>(calls.size());
        other_calls.insert(h, ci, slot);
        calls.push_back({ck, ek, 0});
        call_costs.add_row();
        if (tracking) call_given.push_back(0);
        if (layouts.size() > 1) call_layouts.push_back(0);
      }
      last_call = ci;
    }
    add_saturating(calls[ci].count, c.count);
    add_row(call_costs.row(ci), costs);
    merge(call_given, call_layouts, ci, g, bits);
    if (with_lines) {
      const std::uint32_t li = call_line_of(ck, ek, c.site_line, 0);
      if (li == none) return;
      add_saturating(call_lines[li].count, c.count);
      add_row(call_line_costs.row(li), costs);
      merge(call_line_given, call_line_layouts, li, g, bits);
    }
  }
  detail::free_storage(raw_calls);
  raw_call_costs = cost_matrix();
  detail::free_storage(raw_call_given);
  detail::free_storage(raw_call_layouts);
}

status annotate_direct::impl::make_tables(views::annotate_data& d,
                                          std::vector<std::string>* warnings) {
  if (o.raw) settle_raw_calls();
  auto started = views::start_annotate_data(p, o, d, warnings);
  if (!started) return started.error();
  const views::annotate_columns& cols = *started;
  const std::size_t nrec = cols.nrec;
  const std::size_t nk = keys.size();

  // The keys' numbers (see the top of this file): the own keys of the functions in `order`,
  // by the first place of their functions, and the object of the last one; then the keys met
  // first in self records; then those met first in calls.
  // Reading is over: the indexes can go before the report's tables come.
  key_index = row_index();
  first_key_pages = decltype(first_key_pages)();
  other_function_index = row_index();
  other_calls = row_index();
  detail::free_storage(call_next);
  detail::free_storage(call_chain);
  detail::free_storage(latest_part_self);
  detail::free_storage(latest_part_call);
  detail::free_storage(display);
  if (&names == &p.strings) p.strings.release_index();
  constexpr std::uint64_t unranked = UINT64_MAX;
  std::vector<std::uint64_t> rank(nk, unranked), last(nk, 0);
  std::vector<string_id> object_of(nk, string_pool::npos);
  auto place_function = [&](const function_entry& f, std::uint32_t k) {
    std::uint64_t place;
    if (f.first_self != none)
      place = (std::uint64_t{1} << 32) | f.first_self;  // by its first self record
    else if (f.first_call != none)
      place = f.first_call;  // a caller with no self cost: by its first call, before the others
    else
      return;
    rank[k] = std::min(rank[k], place);
    if (object_of[k] == string_pool::npos || place >= last[k]) {
      last[k] = place;
      object_of[k] = f.object;
    }
  };
  // (Places are distinct, so the order the functions are visited in does not matter.)
  for (std::uint32_t k = 0; k < nk; ++k)
    if (keys[k].function_here.object != string_pool::npos) place_function(keys[k].function_here, k);
  for (std::size_t i = 0; i < other_functions.size(); ++i)
    place_function(other_functions[i].f, other_functions[i].own_key);
  detail::free_storage(other_functions);
  views::give_back_freed_memory();
  // (With key_by_function every key is one function, made with its object: a function met
  // only as a callee is placed by its first call below, and has its object all the same.)
  if (by_function)
    for (std::uint32_t k = 0; k < nk; ++k) object_of[k] = keys[k].function_here.object;
  for (std::size_t k = 0; k < nk; ++k) {
    if (rank[k] != unranked) continue;
    rank[k] = keys[k].self_rank != none ? (std::uint64_t{2} << 32) | keys[k].self_rank
                                        : (std::uint64_t{3} << 32) | keys[k].call_rank;
  }
  std::vector<std::uint32_t> order(nk), new_of(nk);
  {
    std::vector<detail::keyed_index> by_rank(nk);
    for (std::uint32_t k = 0; k < nk; ++k) by_rank[k] = {rank[k], k};
    detail::free_storage(rank);
    detail::radix_sort(by_rank);
    for (std::uint32_t i = 0; i < nk; ++i) order[i] = by_rank[i].index;
  }
  for (std::uint32_t i = 0; i < nk; ++i) new_of[order[i]] = i;
  for (auto& [k, c] : chunks.keys) k = new_of[k];
  detail::free_storage(last);

  // Where each recorded column sits in each layout, and a row's defined columns.
  std::vector<std::vector<int>> layout_index(layouts.size());
  for (std::size_t l = 0; l < layouts.size(); ++l)
    for (std::size_t c = 0; c < nrec; ++c) {
      auto it = std::find(layouts[l].begin(), layouts[l].end(), d.recorded[c]);
      layout_index[l].push_back(it == layouts[l].end() ? -1
                                                       : static_cast<int>(it - layouts[l].begin()));
    }
  auto fill = [&](views::cc_table& t, std::size_t row, std::span<const std::uint64_t> costs,
                  std::uint64_t layout_bits, std::uint32_t given) {
    std::uint64_t* v = t.values(row);
    char* def = t.defined(row);
    const std::uint32_t g = given == 0 ? UINT32_MAX : given - 1;
    for (std::size_t c = 0; c < nrec; ++c) {
      if (cols.rec_ids[c].index() < costs.size()) v[c] = costs[cols.rec_ids[c].index()];
      for (std::size_t l = 0; l < layouts.size() && l < 64; ++l) {
        if (!(layout_bits >> l & 1)) continue;
        const int i = layout_index[l][c];
        if (i >= 0 && static_cast<std::uint32_t>(i) < g) def[c] = 1;
      }
    }
  };

  // Keys, objects, self costs.
  std::unordered_map<string_id, std::uint32_t> object_index;
  d.files = std::move(files);
  d.key_file.resize(nk);
  d.key_function.resize(nk);
  d.key_object.assign(nk, 0);
  d.key_has_object.assign(nk, 0);
  d.key_seen.resize(nk);
  d.key_called.resize(nk);
  d.self.add_rows(nk);
  for (std::uint32_t n = 0; n < nk; ++n) {
    const std::uint32_t k = order[n];
    const key_entry& e = keys[k];
    d.key_file[n] = e.file;
    d.key_function[n] = e.function;
    d.key_seen[n] = e.seen;
    d.key_called[n] = e.called;
    if (object_of[k] != string_pool::npos) {
      auto [it, fresh] =
          object_index.emplace(object_of[k], static_cast<std::uint32_t>(d.objects.size()));
      if (fresh) d.objects.push_back(names.text(object_of[k]));
      d.key_object[n] = it->second;
      d.key_has_object[n] = 1;
    }
    if (e.has_self() || (k < raw_self.size() && raw_self[k]))
      fill(d.self, n, key_costs.row(k), key_layouts.empty() ? 1 : key_layouts[k],
           key_given.empty() ? 0 : key_given[k]);
  }
  detail::free_storage(object_of);
  // JSON lists source files in the order of their first key (as a regrouping of the model's
  // rows numbers them); the other reports and views do not print files in their order.
  std::vector<std::uint32_t> file_new;
  if (json) {
    file_new.assign(d.files.size(), none);
    std::uint32_t next = 0;
    for (std::uint32_t n = 0; n < nk; ++n)
      if (file_new[d.key_file[n]] == none) file_new[d.key_file[n]] = next++;
    for (std::uint32_t& f : file_new)
      if (f == none) f = next++;
    std::vector<std::string> renamed(d.files.size());
    for (std::size_t f = 0; f < d.files.size(); ++f) renamed[file_new[f]] = std::move(d.files[f]);
    d.files = std::move(renamed);
    for (std::uint32_t& f : d.key_file) f = file_new[f];
  }
  auto file_of = [&](std::uint32_t f) { return file_new.empty() ? f : file_new[f]; };
  d.names = &names;
  if (keys_numbered) keys_numbered();
  detail::free_storage(order);
  detail::free_storage(keys);
  key_costs = cost_matrix();
  detail::free_storage(key_given);
  detail::free_storage(key_layouts);

  // Calls, in order of first appearance: their costs, then (those of the reading given back)
  // the pairs.
  d.call_cc.add_rows(calls.size());
  for (std::uint32_t ci = 0; ci < calls.size(); ++ci) {
    fill(d.call_cc, ci, call_costs.row(ci), call_layouts.empty() ? 1 : call_layouts[ci],
         call_given.empty() ? 0 : call_given[ci]);
  }
  call_costs = cost_matrix();
  detail::free_storage(call_given);
  detail::free_storage(call_layouts);
  views::give_back_freed_memory();
  d.calls.reserve(calls.size());
  for (std::uint32_t ci = 0; ci < calls.size(); ++ci) {
    const call_entry& c = calls[ci];
    d.calls.push_back({new_of[c.caller], new_of[c.callee], c.count});
  }
  detail::free_storage(calls);
  views::give_back_freed_memory();

  // Source lines: the rows as the model path's report makes them, with the keys' new numbers.
  if (lines) {
    d.file_lines.resize(d.files.size());
    line_index = row_index();
    for (std::uint32_t i = 0; i < line_rows.size(); ++i) {
      const line_entry& e = line_rows[i];
      const auto row = static_cast<std::uint32_t>(d.line_cc.add_row());
      d.file_lines[file_of(e.file)].emplace(e.line, row);
      fill(d.line_cc, row, line_costs.row(i), line_layouts.empty() ? 1 : line_layouts[i],
           line_given.empty() ? 0 : line_given[i]);
    }
    detail::free_storage(line_rows);
    line_costs = cost_matrix();
    site_index = row_index();
    call_line_index = row_index();
    d.sites.reserve(sites.size());
    for (std::uint32_t i = 0; i < sites.size(); ++i)
      d.sites.push_back({file_of(sites[i].file), sites[i].line, new_of[sites[i].func]});
    detail::free_storage(sites);
    site_callees.renumber_callees(new_of);
    site_callees.build_into(d.site_callees, d.sites.size());
    d.call_lines.reserve(call_lines.size());
    for (std::uint32_t i = 0; i < call_lines.size(); ++i) {
      const views::ann_call_line& c = call_lines[i];
      d.call_lines.push_back(
          {new_of[c.caller], new_of[c.callee], c.line, c.count, file_of(c.file)});
      d.call_line_cc.add_row();
      fill(d.call_line_cc, i, call_line_costs.row(i),
           call_line_layouts.empty() ? 1 : call_line_layouts[i],
           call_line_given.empty() ? 0 : call_line_given[i]);
    }
    detail::free_storage(call_lines);
    call_line_costs = cost_matrix();
    detail::free_storage(line_given);
    detail::free_storage(line_layouts);
    detail::free_storage(call_line_given);
    detail::free_storage(call_line_layouts);
    views::index_source_lines(d);
  }

  // The views' source tables: which files were found, each key's line range, the jumps.
  if (views && lines) {
    d.file_found = file_found;
    d.file_found.resize(d.files.size(), 0);
    d.key_first_line.assign(nk, 0);
    d.key_last_line.assign(nk, 0);
    for (std::uint32_t k = 0; k < key_first_line.size() && k < nk; ++k) {
      d.key_first_line[new_of[k]] = key_first_line[k];
      d.key_last_line[new_of[k]] = key_last_line[k];
    }
    detail::free_storage(key_first_line);
    detail::free_storage(key_last_line);
    d.key_spans.reserve(inlined_spans.size());
    for (const auto& [at, sp] : inlined_spans)
      d.key_spans.push_back(
          {new_of[at >> 32], static_cast<std::uint32_t>(at), sp.first, sp.last, sp.row});
    inlined_spans = {};
    last_span = nullptr;
    std::sort(d.key_spans.begin(), d.key_spans.end(),
              [](const views::ann_span& a, const views::ann_span& b) {
                return std::tie(a.key, a.file) < std::tie(b.key, b.file);
              });
    // Each span's self cost, in the tables' columns (the row its span names).
    d.key_span_cc.reserve(span_costs.rows());
    for (std::size_t i = 0; i < span_costs.rows(); ++i) d.key_span_cc.add_row();
    for (std::size_t i = 0; i < span_costs.rows(); ++i)
      fill(d.key_span_cc, i, span_costs.row(i), 1, 0);
    span_costs = cost_matrix();
    jump_index = row_index();
    d.jumps.reserve(jump_rows.size());
    for (std::size_t i = 0; i < jump_rows.size(); ++i) {
      const jump_entry& e = jump_rows[i];
      d.jumps.push_back(
          {e.file, e.line, e.target_file, e.target_line, e.conditional, e.executed, e.followed});
    }
    detail::free_storage(jump_rows);
    std::sort(d.jumps.begin(), d.jumps.end(),
              [](const views::ann_jump& a, const views::ann_jump& b) {
                return std::tie(a.file, a.line, a.target_file, a.target_line, a.conditional) <
                       std::tie(b.file, b.line, b.target_file, b.target_line, b.conditional);
              });
  }

  // The inclusive costs: with one part, of d's own tables; else from a solver given each
  // part's sums per key and per call.
  std::optional<inclusive_result> solved;
  if (o.inclusive && !per_part) {
    if (solve_inclusive) solved = views::solve_inclusive_of_keys(d, nrec, o.raw);
  } else if (o.inclusive) {
    inclusive_solver s(nk, nrec);
    std::vector<std::uint64_t> tmp(nrec);
    auto project = [&](std::uint32_t pt, std::span<const std::uint64_t> costs) {
      const auto& idx = cols.part_index[pt];
      for (std::size_t c = 0; c < nrec; ++c)
        tmp[c] = idx[c] >= 0 ? costs[cols.rec_ids[c].index()] : 0;
      return std::span<const std::uint64_t>(tmp);
    };
    if (solve_inclusive) {
      s.reserve(part_selfs.size(), part_calls.size());
      for (std::uint32_t i = 0; i < part_selfs.size(); ++i)
        s.add_self(part_selfs[i].part, new_of[part_selfs[i].key],
                   project(part_selfs[i].part, part_self_costs.row(i)));
      for (std::uint32_t i = 0; i < part_calls.size(); ++i) {
        const part_call& c = part_calls[i];
        s.add_call(c.part, new_of[c.caller], new_of[c.callee], c.count,
                   project(c.part, part_call_costs.row(i)));
      }
    }
    if (views) {
      // Each part's rows, for views of some parts (recorded columns; calls by their index).
      d.part_self = views::cc_table(d.columns.size());
      d.part_self.add_rows(part_selfs.size());
      d.part_self_part.resize(part_selfs.size());
      d.part_self_key.resize(part_selfs.size());
      for (std::uint32_t i = 0; i < part_selfs.size(); ++i) {
        d.part_self_part[i] = part_selfs[i].part;
        d.part_self_key[i] = new_of[part_selfs[i].key];
        auto costs = project(part_selfs[i].part, part_self_costs.row(i));
        std::copy_n(costs.begin(), nrec, d.part_self.values(i));
      }
      d.part_call_cc = views::cc_table(d.columns.size());
      d.part_call_cc.add_rows(part_calls.size());
      d.part_call_part.resize(part_calls.size());
      d.part_call_call.resize(part_calls.size());
      d.part_call_count.resize(part_calls.size());
      for (std::uint32_t i = 0; i < part_calls.size(); ++i) {
        const part_call& c = part_calls[i];
        d.part_call_part[i] = c.part;
        d.part_call_call[i] = c.call;  // (every part's call is a call of the whole)
        d.part_call_count[i] = c.count;
        auto costs = project(c.part, part_call_costs.row(i));
        std::copy_n(costs.begin(), nrec, d.part_call_cc.values(i));
      }
    }
    detail::free_storage(part_selfs);
    part_self_costs = cost_matrix();
    detail::free_storage(part_calls);
    part_call_costs = cost_matrix();
    if (solve_inclusive) solved = s.solve(false);
  }
  detail::free_storage(new_of);

  views::finish_annotate_data(p, o, cols, d, solved ? &*solved : nullptr, warnings);
  return ok();
}

}  // namespace calltree

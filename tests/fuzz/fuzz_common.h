// fuzz_common.h — what every fuzz target shares: reading bytes, and invariant checks.
//
// What it is: the contract checks the fuzz targets run on whatever the library produced from
// hostile bytes. A crash, a sanitizer report, a hang (libFuzzer -timeout) or an out-of-memory
// (-rss_limit_mb) is found by libFuzzer itself; these checks add what only the contracts in
// records.h / profile.h say (ids in range, one cost per event, totals that add up), and trap
// when one is broken so libFuzzer saves the input.
// What it is not: a test of diagnostics' wording (tests/malformed does that).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "../unit/read_as.h"
#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/records.h"
#include "calltree/string_pool.h"

namespace calltree::fuzz {

// Stops the run with the reason on stderr; libFuzzer then writes the crash input.
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  __builtin_trap();
}
#define CALLTREE_FUZZ_CHECK(cond)               \
  do {                                          \
    if (!(cond)) ::calltree::fuzz::fail(#cond); \
  } while (0)

// Reader options for fuzzing: small enough limits that a few-kilobyte input can hit them.
// (Read modes as the fuzz target sets them: test::read_as, whatever its sink asks for.)
inline test::read_options fuzz_reader_options() {
  test::read_options o;
  o.display_name = "fuzz";
  o.max_line_length = 4096;
  o.max_name_bytes = 1u << 20;
  return o;
}

// Counts diagnostics and checks each one is well formed.
class checking_diagnostics final : public diagnostic_sink {
 public:
  void report(diagnostic d) override {
    CALLTREE_FUZZ_CHECK(static_cast<std::size_t>(d.code) < 64);
    CALLTREE_FUZZ_CHECK(d.severity == severity::note || d.severity == severity::warning ||
                        d.severity == severity::error);
    CALLTREE_FUZZ_CHECK(!d.message.empty());
    CALLTREE_FUZZ_CHECK(d.line_text.size() <= (1u << 16));
    // Formatting must work for every diagnostic (it is what the CLI prints).
    std::string text = format_diagnostic(d);
    CALLTREE_FUZZ_CHECK(!text.empty());
    if (d.severity == severity::error) ++errors;
    if (d.severity == severity::warning) ++warnings;
    ++total;
    ++by_code[static_cast<std::size_t>(d.code)];
  }
  std::uint64_t errors = 0, warnings = 0, total = 0;
  std::uint64_t by_code[64] = {};
};

// Checks each record against the contract of records.h, with the pool the reader interns into.
class checking_sink final : public record_sink {
 public:
  explicit checking_sink(const string_pool& names) : names_(names) {}

  void on_part_begin(const part_header& h) override {
    CALLTREE_FUZZ_CHECK(!in_part_);
    CALLTREE_FUZZ_CHECK(h.index == parts);
    CALLTREE_FUZZ_CHECK((h.positions & ~(pos_instr | pos_bb | pos_line)) == 0);
    CALLTREE_FUZZ_CHECK(h.positions != 0);
    if (h.summary) CALLTREE_FUZZ_CHECK(h.summary->size() == h.events.size());
    events_ = h.events.size();
    in_part_ = true;
    ++parts;
  }
  void on_cost(const cost_record& r) override {
    CALLTREE_FUZZ_CHECK(in_part_);
    check_context(r.ctx);
    CALLTREE_FUZZ_CHECK(r.costs.size() == events_);
    ++costs;
  }
  void on_call(const call_record& r) override {
    CALLTREE_FUZZ_CHECK(in_part_);
    check_context(r.ctx);
    check_id(r.callee_object);
    check_id(r.callee_file);
    check_id(r.callee_function);
    CALLTREE_FUZZ_CHECK(r.costs.size() == events_);
    ++calls;
  }
  void on_jump(const jump_record& r) override {
    CALLTREE_FUZZ_CHECK(in_part_);
    check_context(r.ctx);
    check_id(r.target_file);
    check_id(r.target_function);
    if (r.conditional == false) CALLTREE_FUZZ_CHECK(r.executed == r.followed);
    ++jumps;
  }
  void on_part_end(const part_end& e) override {
    CALLTREE_FUZZ_CHECK(in_part_);
    CALLTREE_FUZZ_CHECK(e.computed.size() == events_);
    if (e.summary) CALLTREE_FUZZ_CHECK(e.summary->size() == events_);
    if (e.totals) CALLTREE_FUZZ_CHECK(e.totals->size() == events_);
    in_part_ = false;
  }

  bool in_part() const { return in_part_; }
  std::uint64_t parts = 0, costs = 0, calls = 0, jumps = 0;

 private:
  void check_id(string_id id) const { CALLTREE_FUZZ_CHECK(id.index() < names_.size()); }
  void check_context(const context& c) const {
    check_id(c.object);
    check_id(c.file);
    check_id(c.source_file);
    check_id(c.function);
  }
  const string_pool& names_;
  std::size_t events_ = 0;
  bool in_part_ = false;
};

// Checks a built profile against the contract of profile.h: ids in range, one cost row per
// self/call row, each part's totals equal to the (saturating) sum of its self rows.
inline void check_profile(const profile& p) {
  // (a profile of differences sums signed: cost_matrix.h, "Signed costs")
  signed_costs_scope signed_sums(p.signed_costs);
  const std::size_t n_events = p.events.size();
  CALLTREE_FUZZ_CHECK(!p.objects.empty() && !p.files.empty());
  for (const auto& o : p.objects) CALLTREE_FUZZ_CHECK(o.name.index() < p.strings.size());
  for (const auto& f : p.files) CALLTREE_FUZZ_CHECK(f.name.index() < p.strings.size());
  for (const auto& f : p.functions) {
    CALLTREE_FUZZ_CHECK(p.objects.contains(f.object));
    CALLTREE_FUZZ_CHECK(p.files.contains(f.file));
    CALLTREE_FUZZ_CHECK(f.name.index() < p.strings.size());
  }
  for (const auto& part : p.parts) {
    CALLTREE_FUZZ_CHECK(part.events.size() == part.header.events.size());
    for (event_id e : part.events) CALLTREE_FUZZ_CHECK(e.index() < n_events);
    CALLTREE_FUZZ_CHECK(part.totals.size() == n_events);
    if (part.summary) CALLTREE_FUZZ_CHECK(part.summary->size() == n_events);
    if (part.totals_line) CALLTREE_FUZZ_CHECK(part.totals_line->size() == n_events);
  }
  CALLTREE_FUZZ_CHECK(p.self_costs.rows() == p.self_rows.size());
  CALLTREE_FUZZ_CHECK(p.call_costs.rows() == p.calls.size());
  if (!p.self_rows.empty()) CALLTREE_FUZZ_CHECK(p.self_costs.columns() == n_events);
  if (!p.calls.empty()) CALLTREE_FUZZ_CHECK(p.call_costs.columns() == n_events);

  id_vector<part_id, std::vector<std::uint64_t>> sums(p.parts.size(),
                                                      std::vector<std::uint64_t>(n_events, 0));
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const auto& r = p.self_rows[i];
    CALLTREE_FUZZ_CHECK(p.parts.contains(r.part));
    CALLTREE_FUZZ_CHECK(p.functions.contains(r.function));
    CALLTREE_FUZZ_CHECK(p.files.contains(r.source_file));
    auto row = p.self_costs.row(i);
    for (std::size_t e = 0; e < n_events; ++e) add_saturating(sums[r.part][e], row[e]);
  }
  // (a profile of differences whose sums saturated in the middle: the order of the sums
  // decides where they stop, a known gap of signed costs, docs/format.md)
  for (part_id i : p.parts.ids()) {
    if (!p.signed_costs) CALLTREE_FUZZ_CHECK(sums[i] == p.parts[i].totals);
  }
  for (const auto& c : p.calls) {
    CALLTREE_FUZZ_CHECK(p.parts.contains(c.part));
    CALLTREE_FUZZ_CHECK(p.functions.contains(c.caller));
    CALLTREE_FUZZ_CHECK(p.functions.contains(c.callee));
    CALLTREE_FUZZ_CHECK(p.files.contains(c.caller_source_file));
  }
  for (const auto& j : p.jumps) {
    CALLTREE_FUZZ_CHECK(p.parts.contains(j.part));
    CALLTREE_FUZZ_CHECK(p.functions.contains(j.function));
    CALLTREE_FUZZ_CHECK(p.files.contains(j.source_file));
    CALLTREE_FUZZ_CHECK(p.files.contains(j.target_file));
    CALLTREE_FUZZ_CHECK(p.functions.contains(j.target_function));
  }
}

// Every fact of a profile as sorted text lines, independent of ids and row order: self rows,
// call rows and jump rows keyed by part, names and absolute positions, with costs by event
// name (zero costs and all-zero self rows left out), and each part's totals. Two profiles
// hold the same facts when these are equal.
inline std::vector<std::string> canonical_facts(const profile& p) {
  std::vector<std::string> out;
  auto name = [&](string_id s) { return "\"" + std::string(p.strings.view(s)) + "\""; };
  auto fn = [&](function_id f) {
    const auto& x = p.functions[f];
    return name(p.objects[x.object].name) + " " + name(p.files[x.file].name) + " " + name(x.name);
  };
  auto pos = [](const position& q) {
    return std::to_string(q.instr) + "/" + std::to_string(q.bb) + "/" + std::to_string(q.line);
  };
  auto costs = [&](std::span<const std::uint64_t> c) {
    std::string s;
    for (std::size_t e = 0; e < c.size() && e < p.events.size(); ++e)
      if (c[e]) s += " " + p.events[event_id{e}].name + "=" + std::to_string(c[e]);
    return s;
  };
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const auto& r = p.self_rows[i];
    auto c = costs(p.self_costs.row(i));
    if (c.empty()) continue;  // a row of zeros says nothing a writer must keep
    out.push_back("self " + std::to_string(r.part.index()) + " " + fn(r.function) + " " +
                  name(p.files[r.source_file].name) + " " + pos(r.pos) + c);
  }
  // Calls are summed by key: a call written without a target (hotshot2calltree) is written
  // back with target 0, the format's unknown position, so it may join a call that had one.
  std::map<std::string, std::pair<std::uint64_t, std::vector<std::uint64_t>>> calls;
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const auto& r = p.calls[i];
    auto& [count, sum] =
        calls["call " + std::to_string(r.part.index()) + " " + fn(r.caller) + " " +
              name(p.files[r.caller_source_file].name) + " " + pos(r.site) + " -> " + fn(r.callee) +
              " " + pos(r.has_target ? r.target : position{})];
    add_saturating(count, r.count);
    auto row = p.call_costs.row(i);
    sum.resize(row.size(), 0);
    for (std::size_t e = 0; e < row.size(); ++e) add_saturating(sum[e], row[e]);
  }
  for (const auto& [key, value] : calls)
    out.push_back(key + " x" + std::to_string(value.first) + costs(value.second));
  for (const auto& j : p.jumps) {
    out.push_back("jump " + std::to_string(j.part.index()) + " " + fn(j.function) + " " +
                  name(p.files[j.source_file].name) + " " + pos(j.source) + " -> " +
                  fn(j.target_function) + " " + name(p.files[j.target_file].name) + " " +
                  pos(j.target) + (j.conditional ? " jcnd " : " jump ") +
                  std::to_string(j.followed) + "/" + std::to_string(j.executed));
  }
  for (part_id i : p.parts.ids())
    out.push_back("part " + std::to_string(i.index()) + costs(p.parts[i].totals));
  std::sort(out.begin(), out.end());
  return out;
}

// For a failing comparison: the first fact only one side has.
inline void print_first_difference(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  std::vector<std::string> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  if (!only_a.empty()) std::fprintf(stderr, "only in the first:  %s\n", only_a[0].c_str());
  if (!only_b.empty()) std::fprintf(stderr, "only in the second: %s\n", only_b[0].c_str());
}

// Reads `bytes` into `p` through the reader and the builder.
inline result<read_stats> build_profile(std::string_view bytes, profile& p,
                                        diagnostic_sink& diagnostics) {
  auto in = memory_input(std::string(bytes));
  profile_builder builder(p, &diagnostics, "fuzz");
  return test::read_as(*in, p.strings, builder, diagnostics, fuzz_reader_options());
}

}  // namespace calltree::fuzz

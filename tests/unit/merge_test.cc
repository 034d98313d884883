// merge_test.cc — `merge_inputs` + `write_callgrind` on corpus pairs: the merged file, read back,
// has per function and per line (self costs), per call site (counts and inclusive costs) and
// per jump exactly the sum of the inputs; events are united (missing = 0); summary: and totals:
// equal the sum of the self costs; parts are folded or kept; memory follows the merged result.
#include "calltree/analysis/merge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "corpus_case_names.h"
#include "reader/load_any.h"
#include "reader/read_hooks.h"

namespace fs = std::filesystem;

namespace calltree {
namespace {

const fs::path corpus = CALLTREE_CORPUS_DIR;

std::string path(const std::string& name) { return (corpus / name).string(); }

profile load(const std::string& name) {
  profile p;
  diagnostic_collector diags;
  auto r = detail::load_any_input(path(name), p, diags);
  EXPECT_TRUE(r.has_value()) << name;
  return p;
}

// Merges `names` in memory, writes the callgrind text, and reads that text back.
struct merged_file {
  std::string text;
  profile read_back;
  std::uint64_t read_back_errors = 0;
};

merged_file merge_and_read_back(const std::vector<std::string>& names, parts_mode mode) {
  std::vector<std::string> paths;
  for (const auto& n : names) paths.push_back(path(n));
  profile merged;
  diagnostic_collector diags;
  merge_options mo;
  mo.parts = mode;
  auto stats = merge_inputs(paths, merged, diags, mo);
  EXPECT_TRUE(stats.has_value());
  std::ostringstream out;
  EXPECT_TRUE(write_callgrind(merged, out));
  merged_file m;
  m.text = out.str();
  auto in = memory_input(m.text);
  diagnostic_collector back_diags;
  profile_builder builder(m.read_back, &back_diags, "merged");
  auto read =
      detail::read_profile(*in, m.read_back.strings, builder, back_diags, {}, detail::any_input());
  EXPECT_TRUE(read.has_value());
  m.read_back_errors = back_diags.errors();
  for (const auto& d : back_diags.kept())
    if (d.severity == severity::error) ADD_FAILURE() << format_diagnostic(d);
  return m;
}

// A profile flattened to string keys and event names, every part summed, zeros left out, so
// profiles with different ids and event orders compare directly.
using costs_by_event = std::map<std::string, std::uint64_t>;
struct flat {
  std::map<std::string, costs_by_event> self, calls, jumps;
  costs_by_event totals;
};

void add_costs(costs_by_event& into, const profile& p, std::span<const std::uint64_t> row) {
  for (std::size_t e = 0; e < row.size() && e < p.events.size(); ++e)
    if (row[e]) into[p.events[event_id{e}].name] += row[e];
}

std::string pos_key(const position& pos) {
  return std::to_string(pos.instr) + "/" + std::to_string(pos.bb) + "/" + std::to_string(pos.line);
}

std::string function_key(const profile& p, function_id f) {
  const auto& fn = p.functions[f];
  return std::string(p.object_name(fn.object)) + "|" + std::string(p.file_name(fn.file)) + "|" +
         std::string(p.function_name(f));
}

flat flatten(const profile& p) {
  flat out;
  for (std::size_t i = 0; i < p.self_rows.size(); ++i) {
    const auto& r = p.self_rows[i];
    std::string k = function_key(p, r.function) + "|" + std::string(p.file_name(r.source_file)) +
                    "|" + pos_key(r.pos);
    add_costs(out.self[k], p, p.self_costs.row(i));
    add_costs(out.totals, p, p.self_costs.row(i));
  }
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    const auto& r = p.calls[i];
    std::string k = function_key(p, r.caller) + "|" +
                    std::string(p.file_name(r.caller_source_file)) + "|" + pos_key(r.site) +
                    " -> " + function_key(p, r.callee) + "|" +
                    (r.has_target ? pos_key(r.target) : std::string("-"));
    auto& c = out.calls[k];
    add_costs(c, p, p.call_costs.row(i));
    c["(count)"] += r.count;
  }
  for (const auto& j : p.jumps) {
    std::string k = function_key(p, j.function) + "|" + std::string(p.file_name(j.source_file)) +
                    "|" + pos_key(j.source) + (j.conditional ? " jcnd " : " jump ") +
                    std::string(p.file_name(j.target_file)) + "|" +
                    function_key(p, j.target_function) + "|" + pos_key(j.target);
    out.jumps[k]["(executed)"] += j.executed;
    out.jumps[k]["(followed)"] += j.followed;
  }
  // An entry whose costs are all zero says nothing that a missing entry does not.
  for (auto* m : {&out.self, &out.calls, &out.jumps})
    std::erase_if(*m, [](const auto& kv) {
      for (const auto& [e, v] : kv.second)
        if (v) return false;
      return true;
    });
  return out;
}

void add_into(flat& into, const flat& f) {
  for (auto m : {std::pair{&into.self, &f.self}, std::pair{&into.calls, &f.calls},
                 std::pair{&into.jumps, &f.jumps}})
    for (const auto& [k, costs] : *m.second)
      for (const auto& [e, v] : costs) (*m.first)[k][e] += v;
  for (const auto& [e, v] : f.totals) into.totals[e] += v;
}

// Compares two flattened profiles and reports the first few differences.
void expect_same(const flat& expected, const flat& actual) {
  int shown = 0;
  auto compare = [&](const char* what, const std::map<std::string, costs_by_event>& a,
                     const std::map<std::string, costs_by_event>& b) {
    EXPECT_EQ(a.size(), b.size()) << what;
    for (const auto& [k, costs] : a) {
      auto it = b.find(k);
      if (it == b.end()) {
        if (shown++ < 5) ADD_FAILURE() << what << " missing in merged: " << k;
        continue;
      }
      if (it->second != costs && shown++ < 5) ADD_FAILURE() << what << " differs: " << k;
    }
  };
  compare("self", expected.self, actual.self);
  compare("call", expected.calls, actual.calls);
  compare("jump", expected.jumps, actual.jumps);
  EXPECT_EQ(expected.totals, actual.totals);
}

std::vector<std::uint64_t> part_order(const part& pt, const std::vector<std::uint64_t>& v) {
  std::vector<std::uint64_t> out;
  for (auto e : pt.events) out.push_back(e.index() < v.size() ? v[e.index()] : 0);
  return out;
}

class merge_pairs : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

// The merged file is the sum of its inputs.
TEST_P(merge_pairs, is_the_sum_of_its_inputs) {
  const auto [a, b] = GetParam();
  flat expected = flatten(load(a));
  add_into(expected, flatten(load(b)));

  merged_file m = merge_and_read_back({a, b}, parts_mode::sum);
  EXPECT_EQ(m.read_back_errors, 0u);
  ASSERT_EQ(m.read_back.parts.size(), 1u);
  expect_same(expected, flatten(m.read_back));

  // Events united; totals: as stated equals the sum of self costs, summary: is not below it.
  const part& pt = m.read_back.parts[part_id{0}];
  for (const auto& [event, total] : expected.totals)
    EXPECT_TRUE(m.read_back.find_event(event).has_value()) << event;
  ASSERT_TRUE(pt.totals_line.has_value());
  EXPECT_EQ(*pt.totals_line, pt.totals);
  ASSERT_TRUE(pt.header.summary.has_value());
  const auto totals = part_order(pt, pt.totals);
  ASSERT_EQ(pt.header.summary->size(), totals.size());
  for (std::size_t i = 0; i < totals.size(); ++i) EXPECT_GE((*pt.header.summary)[i], totals[i]);
}

INSTANTIATE_TEST_SUITE_P(
    corpus, merge_pairs,
    ::testing::Values(
        // Two threads of one run.
        std::pair{"vg-threads-separate.t01.callgrind", "vg-threads-separate.t02.callgrind"},
        // Events Ir Ge + Ir: Ge is 0 for the second input.
        std::pair{"vg-threads-collect-bus.callgrind", "vg-threads-separate.t03.callgrind"},
        // Jumps, instruction addresses, positions `instr line` + `instr`.
        std::pair{"vg-phases-instr-jumps-nocompress-pos.callgrind",
                  "vg-sort-instr-noline.callgrind"},
        // Multi-part input with calls=0 and a wrapped summary:, and a sampling profile.
        std::pair{"vg-clientreq-instr-atstart-no-combined.callgrind",
                  "gperftools-recurse-cpu.callgrind"},
        // Different producers and events; Xdebug's one block per call; calls=0 everywhere.
        std::pair{"xdebug-recursion.callgrind", "go-pprof-gowork-cpu.callgrind"},
        // Inlined files (fi=/fe=), cache events with omitted trailing costs.
        std::pair{"vg-wordfreq-cxx-O2g-default.callgrind", "cachegrind-recurse.cachegrind"}),
    [](const auto& p) {
      return corpus_case_name(p.param.first) + "_" + corpus_case_name(p.param.second);
    });

TEST(merge, a_profile_merged_with_itself_doubles) {
  const char* a = "vg-recurse-default.callgrind";
  flat one = flatten(load(a));
  flat two = one;
  add_into(two, one);
  merged_file m = merge_and_read_back({a, a}, parts_mode::sum);
  expect_same(two, flatten(m.read_back));
}

// The merged summary: is the sum of the stated summaries, each kept when plausible.
TEST(merge, summaries_add_up_and_implausible_ones_are_replaced) {
  // --collect-systime: `summary: 101533080 331 92` over `totals: 101533080 330 92`.
  merged_file m = merge_and_read_back(
      {"vg-perl-work-systime.callgrind", "vg-threads-separate.t05.callgrind"}, parts_mode::sum);
  const part& pt = m.read_back.parts[part_id{0}];
  ASSERT_EQ(pt.header.events, (std::vector<std::string>{"Ir", "sysCount", "sysTime"}));
  profile t05 = load("vg-threads-separate.t05.callgrind");
  const std::uint64_t t05_ir = t05.total()[t05.find_event("Ir")->index()];
  EXPECT_EQ(*pt.header.summary, (std::vector<std::uint64_t>{101533080 + t05_ir, 331, 92}));
  EXPECT_EQ(part_order(pt, pt.totals), (std::vector<std::uint64_t>{101533080 + t05_ir, 330, 92}));

  // Part 4 of the client-request file says `summary: 18446744073693740485` over `totals: 16`;
  // kept apart, that part states 16.
  merged_file kept =
      merge_and_read_back({"vg-clientreq-instr-atstart-no-combined.callgrind"}, parts_mode::keep);
  ASSERT_EQ(kept.read_back.parts.size(), 4u);
  EXPECT_EQ(*kept.read_back.parts[part_id{3}].header.summary, std::vector<std::uint64_t>{16});

  // The cacheuse file's summary: has 9 of 13 values (two of them above the totals: line); the 4
  // missing ones count as their totals.
  merged_file cacheuse = merge_and_read_back({"vg-recurse-cacheuse.callgrind"}, parts_mode::sum);
  const part& cp = cacheuse.read_back.parts[part_id{0}];
  EXPECT_EQ(*cp.header.summary,
            (std::vector<std::uint64_t>{362861226, 41376011, 40654943, 1292, 36359, 20811, 0, 58,
                                        7487, 7846118, 790802, 479545, 80924}));
}

TEST(merge, five_thread_files_sum_to_their_totals) {
  std::vector<std::string> names;
  std::map<std::string, std::uint64_t> sum;
  for (int t = 1; t <= 5; ++t) {
    names.push_back("vg-threads-separate.t0" + std::to_string(t) + ".callgrind");
    profile p = load(names.back());
    sum["Ir"] += p.total()[p.find_event("Ir")->index()];
  }
  merged_file m = merge_and_read_back(names, parts_mode::sum);
  ASSERT_EQ(m.read_back.parts.size(), 1u);
  EXPECT_EQ(m.read_back.total()[m.read_back.find_event("Ir")->index()], sum["Ir"]);
  EXPECT_EQ(m.read_back.parts[part_id{0}].header.cmd, "bin/threads");
  EXPECT_FALSE(m.read_back.parts[part_id{0}].header.thread.has_value());
}

TEST(merge, parts_sum_folds_the_parts_of_one_file) {
  const char* f = "vg-threads-separate-combined.callgrind";
  profile in = load(f);
  ASSERT_EQ(in.parts.size(), 5u);
  const std::size_t ir = in.find_event("Ir")->index();
  std::uint64_t sum = 0;
  for (const auto& pt : in.parts) sum += pt.totals[ir];

  merged_file m = merge_and_read_back({f}, parts_mode::sum);
  ASSERT_EQ(m.read_back.parts.size(), 1u);
  EXPECT_EQ(m.read_back.parts[part_id{0}].totals[m.read_back.find_event("Ir")->index()], sum);
  expect_same(flatten(in), flatten(m.read_back));
}

TEST(merge, parts_keep_keeps_every_part) {
  const char* f = "vg-threads-separate-combined.callgrind";
  profile in = load(f);
  merged_file m = merge_and_read_back({f}, parts_mode::keep);
  EXPECT_EQ(m.read_back_errors, 0u);
  ASSERT_EQ(m.read_back.parts.size(), in.parts.size());
  for (std::size_t i = 0; i < in.parts.size(); ++i) {
    EXPECT_EQ(m.read_back.parts[part_id{i}].totals, in.parts[part_id{i}].totals)
        << "part " << i + 1;
    EXPECT_EQ(m.read_back.parts[part_id{i}].header.thread, in.parts[part_id{i}].header.thread);
  }
  expect_same(flatten(in), flatten(m.read_back));

  // Two multi-part inputs kept: 5 + 4 parts.
  merged_file two =
      merge_and_read_back({f, "vg-phases-dump-before-zero-combined.callgrind"}, parts_mode::keep);
  EXPECT_EQ(two.read_back.parts.size(), 9u);
}

TEST(merge, memory_follows_the_merged_result_not_the_number_of_inputs) {
  // Twelve copies of one file: one model whose rows are those of one copy, costs times twelve.
  const char* f = "vg-threads-separate.t02.callgrind";
  profile one = load(f);
  std::vector<std::string> paths(12, path(f));
  profile merged;
  diagnostic_collector diags;
  ASSERT_TRUE(merge_inputs(paths, merged, diags).has_value());
  EXPECT_EQ(merged.self_rows.size(), one.self_rows.size());
  EXPECT_EQ(merged.calls.size(), one.calls.size());
  EXPECT_EQ(merged.functions.size(), one.functions.size());
  EXPECT_EQ(merged.strings.size(), one.strings.size());
  EXPECT_EQ(merged.parts.size(), 1u);
  const std::size_t ir = merged.find_event("Ir")->index();
  EXPECT_EQ(merged.total()[ir], 12 * one.total()[one.find_event("Ir")->index()]);
  EXPECT_EQ(merged.parts[part_id{0}].header.descriptions.back().second,
            "12 parts of 12 files summed");
}

TEST(merge, unreadable_input_is_an_error) {
  profile merged;
  diagnostic_collector diags;
  std::vector<std::string> paths{path("vg-threads-separate.t02.callgrind"),
                                 "/nonexistent/calltree-merge-test.callgrind"};
  auto r = merge_inputs(paths, merged, diags);
  EXPECT_FALSE(r.has_value());
}

}  // namespace
}  // namespace calltree

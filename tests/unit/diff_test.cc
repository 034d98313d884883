// diff_test.cc — `diff_profiles` and friends on the corpus: a profile against itself (no change),
// against itself merged twice (+100 % everywhere, the gate fires), matching rules (rewrites,
// --ignore-object, recursion suffixes), event sets, parts, per-line and per-call-site details.
#include "calltree/analysis/diff.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "calltree/profile_builder.h"
#include "reader/load_any.h"

namespace fs = std::filesystem;

namespace calltree {
namespace {

const fs::path corpus = CALLTREE_CORPUS_DIR;

profile load_path(const std::string& p) {
  profile out;
  diagnostic_collector diags;
  auto r = detail::load_any_input(p, out, diags);
  EXPECT_TRUE(r.has_value()) << p;
  return out;
}
profile load(const std::string& name) { return load_path((corpus / name).string()); }

// Several corpus files built into one profile, all parts folded into one (what `calltree merge`
// does before writing).
profile merged(const std::vector<std::string>& names) {
  profile out;
  diagnostic_collector diags;
  builder_options fold;
  fold.sum_parts = true;
  for (const auto& n : names)
    EXPECT_TRUE(detail::load_any_input((corpus / n).string(), out, diags, {}, fold).has_value())
        << n;
  return out;
}

// A copy of a corpus file with every `from` replaced by `to`, in a temporary file.
class edited_copy {
 public:
  edited_copy(const std::string& name,
              const std::vector<std::pair<std::string, std::string>>& edits)
      : path_(fs::temp_directory_path() /
              ("calltree-diff-test-" +
               std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" + name)) {
    std::ifstream in(corpus / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    for (const auto& [from, to] : edits) {
      for (std::size_t at = text.find(from); at != std::string::npos;
           at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    }
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~edited_copy() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

const function_diff* find(const diff_result& r, std::string_view name) {
  for (const auto& f : r.functions)
    if (f.key.name == name) return &f;
  return nullptr;
}

TEST(diff_match, substitutions) {
  auto s = parse_substitution("s/a/b/");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->apply("banana"), "bbnana");
  EXPECT_EQ(parse_substitution("s/a/b/g")->apply("banana"), "bbnbnb");
  EXPECT_EQ(parse_substitution("s/A/b/gi")->apply("banana"), "bbnbnb");
  EXPECT_EQ(parse_substitution("s|/build-[0-9]+/|/build/|")->apply("/x/build-17/y.c"),
            "/x/build/y.c");
  EXPECT_EQ(parse_substitution("s/a\\/b/c/")->apply("xa/by"), "xcy");
  EXPECT_EQ(parse_substitution("s/(\\w+)_v[0-9]+/\\1/")->apply("foo_v2(int)"), "foo(int)");
  EXPECT_EQ(parse_substitution("s/(\\w+)_v[0-9]+/$1/")->apply("foo_v2(int)"), "foo(int)");
  EXPECT_EQ(parse_substitution("s/x/$/")->apply("axb"), "a$b");
  EXPECT_EQ(parse_substitution("s/^/lib:/")->apply("f"), "lib:f");
  EXPECT_FALSE(parse_substitution("x/a/b/").has_value());
  EXPECT_FALSE(parse_substitution("s/a/b").has_value());
  EXPECT_FALSE(parse_substitution("s//b/").has_value());
  EXPECT_FALSE(parse_substitution("s/(/b/").has_value());
  EXPECT_FALSE(parse_substitution("s/a/b/q").has_value());
}

TEST(diff_match, recursion_suffixes) {
  EXPECT_EQ(strip_recursion_suffixes("fib'2"), "fib");
  EXPECT_EQ(strip_recursion_suffixes("cyc_b'12"), "cyc_b");
  EXPECT_EQ(strip_recursion_suffixes("is_odd'3'is_even'is_odd"), "is_odd'is_even'is_odd");
  EXPECT_EQ(strip_recursion_suffixes("is_even'main'(below main)"), "is_even'main'(below main)");
  EXPECT_EQ(strip_recursion_suffixes("fib"), "fib");
  EXPECT_EQ(strip_recursion_suffixes("f'2x"), "f'2x");
  EXPECT_EQ(strip_recursion_suffixes("'2"), "'2");
}

TEST(diff, a_profile_against_itself_has_no_change) {
  profile a = load("vg-recurse-default.callgrind");
  auto r = diff_profiles(a, a);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->events, std::vector<std::string>{"Ir"});
  EXPECT_EQ(r->total_old, r->total_new);
  EXPECT_EQ(r->total_old[0], 362861224u);  // callgrind_annotate's PROGRAM TOTALS
  EXPECT_EQ(r->count(function_change::unchanged), r->functions.size());
  EXPECT_EQ(r->functions_old, r->functions.size());
  EXPECT_GT(r->functions.size(), 200u);
  EXPECT_TRUE(select_functions(*r, {}).listed.empty());
  diff_gate gate;
  gate.percent = 0;
  gate.per_function = true;
  EXPECT_TRUE(check_gate(*r, select_functions(*r, {}), {}, gate).empty());
}

TEST(diff, against_itself_merged_twice_everything_doubles) {
  const char* f = "vg-recurse-default.callgrind";
  profile a = load(f);
  profile aa = merged({f, f});
  auto r = diff_profiles(a, aa);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->total_new[0], 2 * r->total_old[0]);
  EXPECT_EQ(r->count(function_change::added), 0u);
  EXPECT_EQ(r->count(function_change::removed), 0u);
  for (const auto& fd : r->functions) {
    EXPECT_EQ(fd.self_new[0], 2 * fd.self_old[0]) << fd.key.name;
    EXPECT_EQ(fd.inclusive_new[0], 2 * fd.inclusive_old[0]) << fd.key.name;
    // Inclusive cost with cycles handled is never above the program total.
    EXPECT_LE(fd.inclusive_old[0], r->total_old[0]) << fd.key.name;
    if (fd.inclusive_old[0]) {
      EXPECT_EQ(fd.change, function_change::changed);
      EXPECT_DOUBLE_EQ(*percent_change(fd.inclusive_old[0], fd.inclusive_new[0]), 100.0);
    }
  }

  diff_ranking all;
  all.threshold_percent = 0;
  auto sel = select_functions(*r, all);
  EXPECT_EQ(sel.listed.size(), r->count(function_change::changed));
  // Sorted by decreasing absolute change of self cost.
  for (std::size_t i = 1; i < sel.listed.size(); ++i) {
    const auto& prev = r->functions[sel.listed[i - 1]];
    const auto& cur = r->functions[sel.listed[i]];
    EXPECT_GE(prev.self_new[0] - prev.self_old[0], cur.self_new[0] - cur.self_old[0]);
  }
  EXPECT_EQ(r->functions[sel.listed[0]].key.name, "cyc_c'2");

  diff_gate gate;
  gate.percent = 50;
  auto failures = check_gate(*r, sel, all, gate);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_FALSE(failures[0].function.has_value());
  EXPECT_DOUBLE_EQ(*failures[0].percent, 100.0);
  gate.per_function = true;
  EXPECT_EQ(check_gate(*r, sel, all, gate).size(), 1 + sel.listed.size());
  gate.percent = 100;  // grows by exactly 100 %: not above
  EXPECT_TRUE(check_gate(*r, sel, all, gate).empty());
}

TEST(diff, threshold_and_limit) {
  const char* f = "vg-recurse-default.callgrind";
  profile a = load(f);
  profile aa = merged({f, f});
  auto r = diff_profiles(a, aa);
  ASSERT_TRUE(r.has_value());
  diff_ranking ranking;
  ranking.threshold_percent = 1;
  auto sel = select_functions(*r, ranking);
  // Functions with at least 1 % of the total as self cost: the three cycle members.
  ASSERT_EQ(sel.listed.size(), 3u);
  for (function_diff_id i : sel.listed)
    EXPECT_GE(r->functions[i].self_old[0] * 100, r->total_old[0]);
  EXPECT_EQ(sel.below_threshold + sel.listed.size(), r->count(function_change::changed));
  ranking.limit = 2;
  sel = select_functions(*r, ranking);
  EXPECT_EQ(sel.listed.size(), 2u);
  EXPECT_EQ(sel.beyond_limit, 1u);
}

TEST(diff, recursion_suffixes_join_levels_without_counting_twice) {
  profile a = load("vg-recurse-default.callgrind");
  auto plain = diff_profiles(a, a);
  diff_options strip;
  strip.match.strip_recursion = true;
  auto joined = diff_profiles(a, a, strip);
  ASSERT_TRUE(plain.has_value() && joined.has_value());
  EXPECT_LT(joined->functions.size(), plain->functions.size());
  const function_diff* fib = find(*plain, "fib");
  const function_diff* fib2 = find(*plain, "fib'2");
  const function_diff* fib_joined = find(*joined, "fib");
  ASSERT_TRUE(fib && fib2 && fib_joined);
  EXPECT_EQ(find(*joined, "fib'2"), nullptr);
  // Self costs of the levels add up; the inclusive cost is fib's, not fib's + fib'2's.
  EXPECT_EQ(fib_joined->self_old[0], fib->self_old[0] + fib2->self_old[0]);
  EXPECT_EQ(fib_joined->inclusive_old[0], fib->inclusive_old[0]);
  EXPECT_EQ(joined->count(function_change::unchanged), joined->functions.size());
}

TEST(diff, objects_and_files_that_moved) {
  const char* f = "vg-recurse-default.callgrind";
  profile a = load(f);
  edited_copy moved(f, {{"/tmp/cgcorpus/bin/recurse", "/opt/new/bin/recurse"},
                        {"./src/c/recurse.c", "./src/c/recurse_v2.c"}});
  profile b = load_path(moved.path());

  auto strict = diff_profiles(a, b);
  ASSERT_TRUE(strict.has_value());
  EXPECT_GT(strict->count(function_change::added), 10u);
  EXPECT_EQ(strict->count(function_change::added), strict->count(function_change::removed));
  const function_diff* fib = nullptr;
  for (const auto& fd : strict->functions)
    if (fd.key.name == "fib" && fd.change == function_change::added) fib = &fd;
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(fib->self_old[0], 0u);
  EXPECT_GT(fib->self_new[0], 0u);

  diff_options loose;
  loose.match.ignore_object = true;
  loose.match.file_rewrites.push_back(*parse_substitution("s/_v2[.]c$/.c/"));
  auto matched = diff_profiles(a, b, loose);
  ASSERT_TRUE(matched.has_value());
  EXPECT_EQ(matched->count(function_change::added), 0u);
  EXPECT_EQ(matched->count(function_change::removed), 0u);
  EXPECT_EQ(matched->count(function_change::changed), 0u);
  EXPECT_EQ(find(*matched, "fib")->key.object, "");
}

TEST(diff, function_renamed_between_builds) {
  const char* f = "vg-threads-separate.t05.callgrind";
  profile a = load(f);
  edited_copy renamed(f, {{") hash_block\n", ") hash_block_v2\n"}});
  profile b = load_path(renamed.path());
  auto strict = diff_profiles(a, b);
  ASSERT_TRUE(strict.has_value());
  ASSERT_NE(find(*strict, "hash_block_v2"), nullptr);
  EXPECT_EQ(find(*strict, "hash_block_v2")->change, function_change::added);
  EXPECT_EQ(find(*strict, "hash_block")->change, function_change::removed);
  diff_options o;
  o.match.function_rewrites.push_back(*parse_substitution("s/_v[0-9]+$//"));
  auto r = diff_profiles(a, b, o);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(find(*r, "hash_block")->change, function_change::unchanged);
  EXPECT_EQ(r->count(function_change::unchanged), r->functions.size());
}

TEST(diff, only_common_events_are_compared) {
  profile bus = load("vg-threads-collect-bus.callgrind");        // Ir Ge
  profile sep = load("vg-threads-separate-combined.callgrind");  // Ir, 5 parts
  auto r = diff_profiles(bus, sep);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->events, std::vector<std::string>{"Ir"});
  EXPECT_EQ(r->old_only_events, std::vector<std::string>{"Ge"});
  EXPECT_TRUE(r->new_only_events.empty());
  EXPECT_EQ(r->parts_new, 5u);
  EXPECT_EQ(r->total_new[0], sep.total()[sep.find_event("Ir")->index()]);
  auto back = diff_profiles(sep, bus);
  EXPECT_EQ(back->new_only_events, std::vector<std::string>{"Ge"});
}

TEST(diff, one_part) {
  profile c = load("vg-threads-separate-combined.callgrind");
  diff_options o;
  o.part = part_id{1};
  auto r = diff_profiles(c, c, o);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->total_old[0], c.parts[part_id{1}].totals[c.find_event("Ir")->index()]);
  EXPECT_LT(r->functions.size(), diff_profiles(c, c)->functions.size());
  EXPECT_EQ(r->count(function_change::unchanged), r->functions.size());

  // Thread 1 of the combined run against the whole run: everything else is removed.
  diff_options first;
  first.part = part_id{0};
  profile t01 = load("vg-threads-separate.t01.callgrind");
  EXPECT_TRUE(diff_profiles(c, t01, first).has_value());
  o.part = part_id{5};
  EXPECT_FALSE(diff_profiles(c, c, o).has_value());
}

TEST(diff, added_and_removed_functions) {
  profile t02 = load("vg-threads-separate.t02.callgrind");
  profile t05 = load("vg-threads-separate.t05.callgrind");
  auto r = diff_profiles(t02, t05);
  ASSERT_TRUE(r.has_value());
  EXPECT_GT(r->count(function_change::removed), 0u);
  EXPECT_EQ(r->functions_old, r->count(function_change::removed) +
                                  r->count(function_change::changed) +
                                  r->count(function_change::unchanged));
  EXPECT_EQ(r->functions_new, r->count(function_change::added) +
                                  r->count(function_change::changed) +
                                  r->count(function_change::unchanged));
  for (const auto& f : r->functions) {
    if (f.change == function_change::removed) {
      EXPECT_EQ(f.self_new[0], 0u);
      EXPECT_EQ(f.inclusive_new[0], 0u);
    }
    if (f.change == function_change::added) {
      EXPECT_EQ(f.self_old[0], 0u);
      EXPECT_EQ(f.inclusive_old[0], 0u);
    }
  }
}

TEST(diff, lines_and_call_sites_of_one_function) {
  const char* f = "vg-recurse-default.callgrind";
  profile a = load(f);
  profile aa = merged({f, f});
  auto r = diff_profiles(a, aa);
  ASSERT_TRUE(r.has_value());
  auto details = diff_function(a, aa, *r, "fib");
  ASSERT_EQ(details.size(), 1u);
  const function_detail& d = details[0];
  EXPECT_FALSE(d.by_instr);
  ASSERT_EQ(d.lines.size(), 1u);
  EXPECT_EQ(d.lines[0].file, "./src/c/recurse.c");
  EXPECT_EQ(d.lines[0].pos, 14u);
  EXPECT_EQ(d.lines[0].cost_old[0], 18u);
  EXPECT_EQ(d.lines[0].cost_new[0], 36u);
  ASSERT_EQ(d.calls.size(), 1u);
  EXPECT_EQ(d.calls[0].callee.name, "fib'2");
  EXPECT_EQ(d.calls[0].count_old, 2u);
  EXPECT_EQ(d.calls[0].count_new, 4u);
  EXPECT_EQ(d.calls[0].cost_new[0], 2 * d.calls[0].cost_old[0]);
  // The call's inclusive cost is fib's inclusive minus its self cost.
  EXPECT_EQ(d.calls[0].cost_old[0] + d.lines[0].cost_old[0],
            r->functions[d.function].inclusive_old[0]);

  EXPECT_EQ(diff_function(a, aa, *r, "./src/c/recurse.c:fib").size(), 1u);
  EXPECT_TRUE(diff_function(a, aa, *r, "no_such_function").empty());
  auto similar = similar_function_names(*r, "fib");
  EXPECT_NE(std::find(similar.begin(), similar.end(), "fib'2"), similar.end());
}

TEST(diff, instruction_positions_without_lines) {
  const char* f = "vg-sort-instr-noline.callgrind";
  profile a = load(f);
  profile aa = merged({f, f});
  auto r = diff_profiles(a, aa);
  ASSERT_TRUE(r.has_value());
  auto details = diff_function(a, aa, *r, "dl_main");
  ASSERT_FALSE(details.empty());
  EXPECT_TRUE(details[0].by_instr);
  ASSERT_FALSE(details[0].lines.empty());
  for (const auto& l : details[0].lines) {
    EXPECT_NE(l.pos, 0u);
    EXPECT_EQ(l.cost_new[0], 2 * l.cost_old[0]);
  }
}

TEST(diff, lines_where_there_are_lines_addresses_where_there_are_none) {
  // --dump-instr=yes: libc has debug info (lines), python3 has none (line 0 everywhere).
  profile p = load("vg-python-work-instr-jumps.callgrind");
  auto r = diff_profiles(p, p);
  ASSERT_TRUE(r.has_value());
  auto with_lines = diff_function(p, p, *r, "exit");
  ASSERT_EQ(with_lines.size(), 1u);
  EXPECT_FALSE(with_lines[0].by_instr);
  EXPECT_EQ(with_lines[0].lines.front().pos, 145u);
  auto without = diff_function(p, p, *r, "Py_BytesMain");
  ASSERT_EQ(without.size(), 1u);
  EXPECT_TRUE(without[0].by_instr);
  for (const auto& l : without[0].lines) EXPECT_NE(l.pos, 0u);
}

TEST(diff, percent_change) {
  EXPECT_EQ(*percent_change(0, 0), 0.0);
  EXPECT_FALSE(percent_change(0, 5).has_value());
  EXPECT_DOUBLE_EQ(*percent_change(200, 100), -50.0);
  EXPECT_DOUBLE_EQ(*percent_change(100, 250), 150.0);
}

}  // namespace
}  // namespace calltree

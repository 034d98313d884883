// callers_test.cc — the analysis API a user meets first (analysis/callers.h: callers and
// callees summed per function, recursion and cycles marked, the top functions, names) and the
// one failure signal of reading (an error with a code for no profile or no file, read_state
// for a file cut short).
#include "calltree/analysis/callers.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "calltree/analysis/merge.h"
#include "calltree/asm.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/string_pool_access.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

// main calls f once (100) and g twice from two lines (15 + 25); f calls itself twice (140) and
// g (30); g calls h; cyc_a and cyc_b call each other (a cycle) below main. A second g, in
// b.c, is another function of the same name.
const char* text =
    "events: Ir\n"
    "fl=a.c\n"
    "fn=main\n"
    "1 10\n"
    "cfn=f\n"
    "calls=1 2\n"
    "2 100\n"
    "cfn=g\n"
    "calls=1 3\n"
    "3 15\n"
    "cfn=g\n"
    "calls=1 3\n"
    "4 25\n"
    "cfn=cyc_a\n"
    "calls=1 20\n"
    "5 50\n"
    "fn=f\n"
    "6 20\n"
    "cfn=f\n"
    "calls=2 6\n"
    "7 140\n"
    "cfn=g\n"
    "calls=1 3\n"
    "8 30\n"
    "fn=g\n"
    "9 35\n"
    "cfl=b.c\n"
    "cfn=h\n"
    "calls=1 30\n"
    "10 5\n"
    "fn=cyc_a\n"
    "20 5\n"
    "cfn=cyc_b\n"
    "calls=3 25\n"
    "21 45\n"
    "fn=cyc_b\n"
    "25 15\n"
    "cfn=cyc_a\n"
    "calls=2 20\n"
    "26 30\n"
    "fl=b.c\n"
    "fn=h\n"
    "30 5\n"
    "fn=g\n"
    "31 1\n";

profile load_text(const std::string& t) {
  profile p;
  diagnostic_collector diags;
  auto in = memory_input(t);
  profile_builder b(p, &diags, "test");
  auto r = read_callgrind(*in, p.strings, b, diags);
  EXPECT_TRUE(r.has_value());
  EXPECT_TRUE(r && r->complete());
  EXPECT_EQ(diags.errors() + diags.warnings(), 0u);
  return p;
}

std::string name(const profile& p, function_id f) { return std::string(p.function_name(f)); }

std::string list(const profile& p, const std::vector<call_summary>& calls) {
  std::string s;
  for (const call_summary& c : calls) {
    s += name(p, c.function) + " " + std::to_string(c.count) + "x " +
         std::to_string(c.inclusive.at(0)) + (c.recursive ? " recursive" : "") + "; ";
  }
  return s;
}

TEST(callers, summed_per_function_sorted_by_cost_recursion_marked) {
  const profile p = load_text(text);
  const inclusive_result inc = compute_inclusive(p);
  const function_id main_id = *find_function(p, "main");
  auto c = calls_of(p, inc, main_id);
  EXPECT_EQ(list(p, c.callers), "");
  EXPECT_EQ(list(p, c.callees), "f 1x 100; cyc_a 1x 50; g 2x 40; ");
  // The first of the two call rows into g from main.
  EXPECT_EQ(p.calls.at(c.callees[2].first_call).caller, main_id);

  const function_id f = *find_function(p, "f");
  c = calls_of(p, inc, f);
  EXPECT_EQ(list(p, c.callers), "f 2x 140 recursive; main 1x 100; ");
  EXPECT_EQ(list(p, c.callees), "f 2x 140 recursive; g 1x 30; ");

  const function_id g = find_functions(p, "g").at(0);
  c = calls_of(p, inc, g);
  EXPECT_EQ(list(p, c.callers), "main 2x 40; f 1x 30; ");
  EXPECT_EQ(list(p, c.callees), "h 1x 5; ");

  // A cycle: the calls between its members are marked, the calls into it are not.
  const function_id a = *find_function(p, "cyc_a");
  ASSERT_NE(inc.cycle_of.at(a.index()), cycle_id{});
  c = calls_of(p, inc, a);
  EXPECT_EQ(list(p, c.callers), "main 1x 50; cyc_b 2x 30 recursive; ");
  EXPECT_EQ(list(p, c.callees), "cyc_b 3x 45 recursive; ");

  // No such function: empty lists.
  c = calls_of(p, inc, static_cast<function_id>(p.functions.size()));
  EXPECT_TRUE(c.callers.empty() && c.callees.empty());
}

TEST(callers, one_part_only) {
  // The same calls in two parts; part 2 (id 1) has main -> f once more, with 7.
  const std::string two =
      std::string(text) + "part: 2\nfl=a.c\nfn=main\n1 1\ncfn=f\ncalls=1 2\n2 7\n";
  const profile p = load_text(two);
  ASSERT_EQ(p.parts.size(), 2u);
  const function_id f = *find_function(p, "f");
  const inclusive_result inc = compute_inclusive(p);
  EXPECT_EQ(list(p, calls_of(p, inc, f).callers), "f 2x 140 recursive; main 2x 107; ");
  calls_options second;
  second.part = part_id{1};
  inclusive_options io;
  io.part = part_id{1};
  EXPECT_EQ(list(p, calls_of(p, compute_inclusive(p, io), f, second).callers), "main 1x 7; ");
}

TEST(callers, top_functions_and_names) {
  const profile p = load_text(text);
  const inclusive_result inc = compute_inclusive(p);
  std::string self;
  for (function_id f : top_functions(inc, event_id{0}, cost_kind::self, 3))
    self += name(p, f) + " ";
  EXPECT_EQ(self, "g f cyc_b ");  // 35, 20, 15
  const auto top = top_functions(inc, event_id{0}, cost_kind::inclusive, 100);
  ASSERT_FALSE(top.empty());
  EXPECT_EQ(name(p, top[0]), "main");
  EXPECT_EQ(top.size(), p.functions.size());  // every function here has cost
  for (std::size_t i = 1; i < top.size(); ++i)
    EXPECT_GE(inc.inclusive_of(top[i - 1])[0], inc.inclusive_of(top[i])[0]);
  EXPECT_TRUE(top_functions(inc, event_id{1}, cost_kind::self, 3).empty());  // no event 1

  const auto gs = find_functions(p, "g");
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_NE(p.functions[gs[0]].file, p.functions[gs[1]].file);
  EXPECT_EQ(find_function(p, "g"), gs[0]);
  EXPECT_FALSE(find_function(p, "ma").has_value());  // whole names only
  EXPECT_FALSE(find_function(p, "nowhere").has_value());
}

// ---- the failure signal -------------------------------------------------------------------

fs::path temp_file(const std::string& name, const std::string& bytes) {
  const fs::path path = fs::temp_directory_path() / ("calltree-callers-test-" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(read_failure, no_file_is_an_error_with_its_code_and_errno) {
  profile p;
  diagnostic_collector diags;
  const std::string missing = (fs::temp_directory_path() / "calltree-no-such-file").string();
  auto r = load_profile(missing, p, diags);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::not_found);
  EXPECT_EQ(r.error().sys_errno, ENOENT);
  EXPECT_EQ(r.error().message, missing + ": No such file or directory");
  EXPECT_EQ(to_string(r.error().code), "not-found");

  r = load_profile(fs::temp_directory_path().string(), p, diags);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::is_directory);
  EXPECT_EQ(r.error().sys_errno, EISDIR);
}

TEST(read_failure, no_profile_is_an_error_with_its_code) {
  struct no_profile_case {
    std::string name, bytes;
    diag_code diagnostic;
  };
  std::string binary(4096, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7 % 32);
  for (const auto& c : {no_profile_case{"binary", binary, diag_code::binary_input},
                        no_profile_case{"empty", "", diag_code::no_events},
                        no_profile_case{"text", "hello\nworld\n", diag_code::no_events}}) {
    SCOPED_TRACE(c.name);
    const fs::path path = temp_file(c.name, c.bytes);
    profile p;
    diagnostic_collector diags;
    auto r = load_profile(path.string(), p, diags);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::no_profile);
    EXPECT_EQ(r.error().sys_errno, 0);
    EXPECT_EQ(r.error().message.rfind(path.string() + ": ", 0), 0u) << r.error().message;
    EXPECT_EQ(diags.count(c.diagnostic), 1u);
    fs::remove(path);

    // The streaming reader too, the message beginning with the display name.
    string_pool names;
    record_sink nothing;
    diagnostic_collector d2;
    reader_options o;
    o.display_name = "in.callgrind";
    auto in = memory_input(c.bytes);
    auto s = read_callgrind(*in, names, nothing, d2, o);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, error_code::no_profile);
    EXPECT_EQ(s.error().message.rfind("in.callgrind: ", 0), 0u) << s.error().message;
  }
}

// merge_inputs and read_functions give the same error for an input that holds no profile.
TEST(read_failure, no_profile_is_an_error_of_merge_and_read_functions) {
  const std::string good =
      (fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind").string();
  std::string binary(4096, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7 % 32);
  for (const auto& [what, bytes] : {std::pair<std::string, std::string>{"binary", binary},
                                    {"empty", ""},
                                    {"text", "hello\nworld\n"}}) {
    SCOPED_TRACE(what);
    const fs::path path = temp_file("merge-" + what, bytes);
    const std::vector<std::string> paths{good, path.string()};
    profile merged;
    diagnostic_collector diags;
    auto r = merge_inputs(paths, merged, diags);
    fs::remove(path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::no_profile);
    EXPECT_EQ(r.error().sys_errno, 0);
    EXPECT_EQ(r.error().message.rfind(path.string() + ": ", 0), 0u) << r.error().message;
    EXPECT_TRUE(find_function(merged, "main").has_value());  // the input before it

    profile q;
    diagnostic_collector d2;
    reader_options o;
    o.display_name = "in.callgrind";
    auto in = memory_input(bytes);
    auto s = read_functions(
        *in, q, [](std::string_view) { return true; }, d2, o);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, error_code::no_profile);
    EXPECT_EQ(s.error().message.rfind("in.callgrind: ", 0), 0u) << s.error().message;
  }
}

TEST(read_failure, a_file_cut_short_is_not_complete) {
  const fs::path whole = fs::path(CALLTREE_CORPUS_DIR) / "vg-recurse-default.callgrind";
  {
    profile p;
    diagnostic_collector diags;
    auto r = load_profile(whole.string(), p, diags);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, read_state::complete);
    EXPECT_TRUE(r->complete());
  }
  // A plain file cut inside a line (the full disk, the copy stopped): read to its end, but
  // likely_truncated, as the likely-truncated warnings say.
  const fs::path cut = temp_file("cut", file_bytes(whole).substr(0, 30000));
  profile p;
  diagnostic_collector diags;
  auto r = load_profile(cut.string(), p, diags);
  fs::remove(cut);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, read_state::likely_truncated);
  EXPECT_FALSE(r->complete());
  EXPECT_EQ(to_string(r->state), "likely-truncated");
  EXPECT_GE(diags.count(diag_code::likely_truncated), 1u);
  EXPECT_FALSE(p.functions.empty());

  // A compressed stream that ends early: reading stopped.
  const std::string gz =
      file_bytes(fs::path(CALLTREE_CORPUS_DIR) / "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz");
  string_pool names;
  record_sink nothing;
  diagnostic_collector d2;
  auto in = memory_input(gz.substr(0, gz.size() / 2));
  auto s = read_callgrind(*in, names, nothing, d2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, read_state::stopped);
  EXPECT_EQ(d2.count(diag_code::truncated_input), 1u);
}

// Names come back whole through every public reading, however long: a pool made through the
// API is in full mode (the tool's digest and spill modes, which keep a prefix, are not made
// through it).
TEST(names, whole_through_every_public_reading) {
  const std::string caller = "ns::" + std::string(300, 'x') + "::caller(int)";
  const std::string callee = "ns::" + std::string(300, 'y') + "::callee(int)";
  const std::string t = "events: Ir\nfl=a.c\nfn=" + caller + "\n1 10\ncfn=" + callee +
                        "\ncalls=1 2\n2 5\nfn=" + callee + "\n2 5\n";
  auto whole = [&](const profile& p, const char* how) {
    SCOPED_TRACE(how);
    EXPECT_EQ(string_pool_access::mode(p.strings), pool_mode::full);
    for (const std::string& n : {caller, callee}) {
      const auto f = find_function(p, n);
      ASSERT_TRUE(f.has_value());
      EXPECT_EQ(p.function_name(*f), n);
      EXPECT_EQ(p.strings.text(p.functions[*f].name), n);
    }
  };
  {
    profile p;
    diagnostic_collector diags;
    auto in = memory_input(t);
    profile_builder b(p, &diags, "test");
    ASSERT_TRUE(read_callgrind(*in, p.strings, b, diags));
    whole(p, "read_callgrind");
  }
  const fs::path path = temp_file("long-names", t);
  {
    profile p;
    diagnostic_collector diags;
    ASSERT_TRUE(load_profile(path.string(), p, diags));
    whole(p, "load_profile");
  }
  {
    profile p;
    diagnostic_collector diags;
    const std::vector<std::string> paths{path.string(), path.string()};
    ASSERT_TRUE(merge_inputs(paths, p, diags));
    whole(p, "merge_inputs");
  }
  fs::remove(path);
  {
    profile p;
    diagnostic_collector diags;
    auto in = memory_input(t);
    ASSERT_TRUE(read_functions(
        *in, p, [](std::string_view) { return true; }, diags));
    whole(p, "read_functions");
  }
}

}  // namespace
}  // namespace calltree

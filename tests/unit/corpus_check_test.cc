// Every corpus file reads without errors, the checker and the builder agree, and the totals equal
// the PROGRAM TOTALS that callgrind_annotate printed, except where callgrind_annotate is wrong
// (each exception asserted here with its reason; see also the corpus README).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "calltree/checker.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "model/string_pool_access.h"
#include "profile_files.h"
#include "reader/read_hooks.h"

namespace fs = std::filesystem;
using namespace calltree;

namespace {

const fs::path corpus = CALLTREE_CORPUS_DIR;

// The numbers before "PROGRAM TOTALS" in callgrind_annotate's output ('.' = nullopt).
std::vector<std::optional<std::uint64_t>> annotate_totals(const fs::path& profile,
                                                          bool* calculated) {
  auto name = profile.filename().string();
  if (name.ends_with(".gz")) name.resize(name.size() - 3);
  std::ifstream in(corpus / (name + ".annotate.txt"));
  std::string line;
  while (std::getline(in, line)) {
    auto at = line.find("PROGRAM TOTALS");
    if (at == std::string::npos) continue;
    *calculated = line.find("(calculated)") != std::string::npos;
    std::vector<std::optional<std::uint64_t>> v;
    std::istringstream ss(line.substr(0, at));
    std::string tok;
    while (ss >> tok) {
      if (tok.front() == '(') continue;  // (100.0%)
      if (tok == ".") {
        v.emplace_back(std::nullopt);
        continue;
      }
      std::string digits;
      for (char c : tok)
        if (c != ',') digits += c;
      v.emplace_back(std::stoull(digits));
    }
    return v;
  }
  ADD_FAILURE() << "no PROGRAM TOTALS for " << name;
  return {};
}

struct loaded {
  profile p;
  check_result check;
  diagnostic_collector diags{1000};
  read_stats stats;
};

std::unique_ptr<loaded> load(const fs::path& f) {
  auto l = std::make_unique<loaded>();
  auto in = open_input(f.string());
  EXPECT_TRUE(in.has_value());
  checker chk;
  profile_builder b(l->p, &l->diags, f.filename().string());
  tee_sink tee({&chk, &b});
  reader_options opt;
  opt.display_name = f.filename().string();
  auto st = detail::read_profile(**in, l->p.strings, tee, l->diags, opt, detail::any_input());
  EXPECT_TRUE(st.has_value());
  l->stats = *st;
  l->check = chk.result();
  return l;
}

// How callgrind_annotate's PROGRAM TOTALS relate to the file, per file.
enum class oracle {
  totals,        // it equals the sum of self costs: ours must match exactly
  summary,       // it prints the summary: line, which the producer made larger (or smaller)
  last_part,     // multi-part file: it prints the last part's summary only
  calls_as_self  // calls=0: it adds the call costs to the self costs
};

oracle oracle_for(const std::string& name) {
  static const std::map<std::string, oracle> special = {
      // summary: is not the sum of self costs (allowed by the spec, or a producer's own notion).
      {"pyprof2calltree-work.callgrind", oracle::summary},  // max inclusive time, < sum
      {"vg-perl-work-systime.callgrind", oracle::summary},  // sysCount 331 vs 330 counted
      {"vg-sqlite3-workload-cache-branch-sim.callgrind", oracle::summary},
      {"vg-recurse-cacheuse.callgrind", oracle::summary},  // short summary: 9 of 13 values
      {"xdebug-classes.callgrind", oracle::summary},       // wall time + peak memory
      {"xdebug-closures.callgrind", oracle::summary},
      {"xdebug-includes.callgrind", oracle::summary},
      {"xdebug-recursion.callgrind", oracle::summary},
      // Several parts: callgrind_annotate reports the last part's summary as the program total.
      {"vg-threads-separate-combined.callgrind", oracle::last_part},
      {"vg-gzip-dump-every-bb-combined.callgrind", oracle::last_part},
      {"vg-phases-dump-before-zero-combined.callgrind", oracle::last_part},
      {"vg-clientreq-instr-atstart-no-combined.callgrind", oracle::last_part},
      // calls=0 everywhere: callgrind_annotate counts each call's inclusive cost as self cost.
      {"go-pprof-gowork-cpu.callgrind", oracle::calls_as_self},
  };
  auto it = special.find(name);
  return it == special.end() ? oracle::totals : it->second;
}

}  // namespace

TEST(Corpus, EveryFileReadsWithoutErrorsAndMatchesCallgrindAnnotate) {
  auto files = test::corpus_profiles(true);
  ASSERT_GE(files.size(), test::some_profiles_left_out() ? 30u : 40u)
      << "corpus not found at " << corpus;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    auto name = f.filename().string();
    if (name.ends_with(".gz")) name.resize(name.size() - 3);
    auto l = load(f);
    const auto& p = l->p;
    EXPECT_EQ(l->diags.errors(), 0u);
    EXPECT_EQ(l->stats.skipped_lines, 0u);
    EXPECT_TRUE(l->stats.complete());
    EXPECT_EQ(l->diags.count(diag_code::totals_mismatch), 0u);

    // The checker (streaming) and the builder (model) agree.
    auto total = p.total();
    ASSERT_EQ(l->check.events.size(), p.events.size());
    for (std::size_t i = 0; i < p.events.size(); ++i) {
      EXPECT_EQ(l->check.events[i], p.events[event_id{i}].name);
      EXPECT_EQ(l->check.totals[i], total[i]) << p.events[event_id{i}].name;
    }
    // The totals are the sum of the model's self rows, and each part's totals: line agrees.
    std::vector<std::uint64_t> rows(p.events.size(), 0);
    for (std::size_t r = 0; r < p.self_rows.size(); ++r) add_saturating(rows, p.self_costs.row(r));
    EXPECT_EQ(rows, total);
    for (const auto& pt : p.parts) {
      if (pt.totals_line) {
        EXPECT_EQ(*pt.totals_line, pt.totals);
      }
    }

    bool calculated = false;
    auto ca = annotate_totals(f, &calculated);
    switch (oracle_for(name)) {
      case oracle::totals:
        ASSERT_EQ(ca.size(), total.size());
        for (std::size_t i = 0; i < ca.size(); ++i) {
          ASSERT_TRUE(ca[i].has_value());
          EXPECT_EQ(*ca[i], total[i]) << p.events[event_id{i}].name;
        }
        break;
      case oracle::summary: {
        ASSERT_TRUE(l->check.summary.has_value());
        std::size_t compared = 0;
        for (std::size_t i = 0; i < ca.size(); ++i) {
          if (!ca[i]) continue;  // '.': a value missing from the short summary: line
          EXPECT_EQ(*ca[i], (*l->check.summary)[i]) << p.events[event_id{i}].name;
          ++compared;
        }
        EXPECT_GT(compared, 0u);
        EXPECT_NE(*l->check.summary, l->check.totals) << "expected the summary to differ";
        break;
      }
      case oracle::last_part: {
        ASSERT_GT(p.parts.size(), 1u);
        const auto& last = p.parts.back();
        const auto& stated = last.summary ? *last.summary : last.totals;
        ASSERT_EQ(ca.size(), 1u);
        EXPECT_EQ(*ca[0], stated[0]);
        EXPECT_NE(*ca[0], total[0]);
        break;
      }
      case oracle::calls_as_self: {
        EXPECT_TRUE(calculated);
        std::uint64_t zero_count_calls = 0;
        for (std::size_t c = 0; c < p.calls.size(); ++c)
          if (p.calls[c].count == 0) zero_count_calls += p.call_costs.row(c)[0];
        EXPECT_GT(l->diags.count(diag_code::zero_call_count), 0u);
        EXPECT_EQ(*ca[0], total[0] + zero_count_calls);
        break;
      }
    }
  }
}

TEST(Corpus, KnownDialectDiagnostics) {
  // Producers' quirks are read, and said: each is asserted so a change is noticed.
  auto l = load(corpus / "pyprof2calltree-work.callgrind");
  EXPECT_EQ(l->diags.count(diag_code::summary_mismatch), 1u);  // summary: is a max, not a sum
  auto x = load(corpus / "xdebug-recursion.callgrind");
  // calls=1 0 0: a note on each of its 16,190 calls= lines, every one counted, the first
  // 1000 kept whole (this test's collector), the others counted only (the reader never
  // builds their text: diagnostic_sink::wants).
  EXPECT_EQ(x->diags.count(diag_code::extra_call_target), 16190u);
  EXPECT_EQ(x->diags.notes(), 16190u);
  EXPECT_EQ(x->diags.kept().size(), 1000u);
  EXPECT_EQ(x->diags.suppressed(), 15190u);
  EXPECT_EQ(x->diags.warnings(), 0u);
  auto d = load(corpus / "dprof2calltree-work.callgrind");
  EXPECT_GT(d->diags.count(diag_code::callee_file_after_cfn), 0u);  // cfn= before cfi=
  auto c = load(corpus / "vg-clientreq-instr-atstart-no-combined.callgrind");
  EXPECT_EQ(c->p.parts.size(), 4u);
  // Part 4's summary is a negative number wrapped to 64 bits (a callgrind bug); totals: says 16.
  ASSERT_TRUE(c->p.parts[part_id{3}].summary.has_value());
  EXPECT_EQ((*c->p.parts[part_id{3}].summary)[0], 18446744073693740485ull);
  EXPECT_EQ(c->p.parts[part_id{3}].totals[0], 16u);
}

TEST(Corpus, MultiPartFilesKeepEveryPartAndTheirHeaders) {
  auto l = load(corpus / "vg-threads-separate-combined.callgrind");
  ASSERT_EQ(l->p.parts.size(), 5u);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const auto& h = l->p.parts[part_id{i}].header;
    ASSERT_TRUE(h.thread.has_value());
    EXPECT_EQ(*h.thread, i + 1);
    EXPECT_EQ(h.events, std::vector<std::string>{"Ir"});
    sum += l->p.parts[part_id{i}].totals[0];
  }
  // The per-thread files hold the same threads.
  std::uint64_t separate = 0;
  for (int t = 1; t <= 5; ++t) {
    auto s = load(corpus / ("vg-threads-separate.t0" + std::to_string(t) + ".callgrind"));
    separate += s->p.total()[0];
  }
  EXPECT_EQ(sum, l->p.total()[0]);
  // Different runs of the same program: close, not equal.
  EXPECT_NEAR(static_cast<double>(sum), static_cast<double>(separate),
              0.01 * static_cast<double>(sum));
}

TEST(Corpus, XdebugBlocksPerCallAreAggregated) {
  auto l = load(corpus / "xdebug-recursion.callgrind");
  // ~129k lines, one block per call, but only 9 distinct functions.
  EXPECT_EQ(l->p.functions.size(), 9u);
  EXPECT_LT(l->p.self_rows.size(), 200u);
  EXPECT_GT(l->stats.cost_lines, 10000u);
}

// `calltree check` keeps names as 128-bit digests (pool_mode::digest): on every corpus
// file it must count exactly what it counts with the names' full text, and what the model has.
TEST(Corpus, NameDigestsCountWhatFullNamesCount) {
  for (const auto& f : test::corpus_profiles(true)) {
    SCOPED_TRACE(f.filename().string());
    check_result r[2];
    std::uint64_t cost_lines[2] = {};
    for (int m = 0; m < 2; ++m) {
      auto in = open_input(f.string());
      ASSERT_TRUE(in);
      string_pool names = string_pool_access::make(m ? pool_mode::digest : pool_mode::full);
      checker chk;
      diagnostic_collector diags;
      auto st = detail::read_profile(**in, names, chk, diags, {}, detail::any_input());
      ASSERT_TRUE(st);
      cost_lines[m] = st->cost_lines;
      r[m] = chk.result();
    }
    EXPECT_EQ(r[0].functions, r[1].functions);
    EXPECT_EQ(r[0].calls, r[1].calls);
    EXPECT_EQ(cost_lines[0], cost_lines[1]);
    EXPECT_EQ(r[0].totals, r[1].totals);
    EXPECT_EQ(r[1].functions, load(f)->p.functions.size());
  }
}

// The checker's distinct functions (object, file, name) and call arcs (caller -> callee) are
// the model's functions and its distinct (caller, callee) pairs, on every corpus file and on a
// text where one name is several functions (two files, two objects; the checker keys functions
// by name first and must still tell these apart).
TEST(Corpus, CheckerCountsTheModelsFunctionsAndArcs) {
  auto same = [](const loaded& l) {
    std::set<std::pair<function_id, function_id>> arcs;
    for (const call_row& c : l.p.calls) arcs.emplace(c.caller, c.callee);
    EXPECT_EQ(l.check.functions, l.p.functions.size());
    EXPECT_EQ(l.check.calls, arcs.size());
  };
  for (const auto& f : test::corpus_profiles(true)) {
    SCOPED_TRACE(f.filename().string());
    same(*load(f));
  }
  const fs::path crafted = fs::path(::testing::TempDir()) / "one-name-several-functions.cg";
  {
    std::ofstream out(crafted);
    out << "events: Ir\n"
           "ob=a\nfl=x\nfn=f\n1 1\ncfn=g\ncalls=1 1\n1 1\n"
           "fl=y\nfn=f\n1 1\ncfl=x\ncfn=f\ncalls=1 1\n1 1\ncfn=f\ncalls=1 1\n1 1\n"
           "ob=b\nfl=x\nfn=f\n1 1\nfn=g\n1 1\ncfn=f\ncalls=1 1\n1 1\n"
           "ob=a\nfl=x\nfn=g\n1 1\ncfl=y\ncfn=f\ncalls=2 1\n1 1\n";
  }
  auto l = load(crafted);
  same(*l);
  // a:x:f, a:x:g, a:y:f, b:x:f, b:x:g; a:x:f->a:x:g, a:y:f->a:x:f, a:y:f->a:y:f,
  // b:x:g->b:x:f, a:x:g->a:y:f.
  EXPECT_EQ(l->check.functions, 5u);
  EXPECT_EQ(l->check.calls, 5u);
}

// The checker keeps arcs per caller: up to three callees in the caller's entry, more in a set
// of its own (checker.cc, arc_set). Callers of 3, 4 and 40 callees, each call made again from
// another block of the caller and the callees called back, count what the model counts.
TEST(Corpus, CheckerCountsArcsOfCallersOfManyCallees) {
  const fs::path crafted = fs::path(::testing::TempDir()) / "many-callees.cg";
  {
    std::ofstream out(crafted);
    out << "events: Ir\n";
    for (int round = 0; round < 2; ++round) {
      for (int n : {3, 4, 40}) {
        out << "fn=caller" << n << "\n1 1\n";
        for (int k = 0; k < n; ++k) out << "cfn=g" << k << "\ncalls=1 1\n1 1\n";
      }
      for (int k = 0; k < 40; ++k) out << "fn=g" << k << "\n1 1\ncfn=caller40\ncalls=1 1\n1 1\n";
    }
  }
  auto l = load(crafted);
  std::set<std::pair<function_id, function_id>> arcs;
  for (const call_row& c : l->p.calls) arcs.emplace(c.caller, c.callee);
  EXPECT_EQ(l->check.calls, arcs.size());
  EXPECT_EQ(l->check.calls, 3u + 4u + 40u + 40u);
  EXPECT_EQ(l->check.functions, 43u);
}

TEST(StringPool, DigestModeKeepsIdentityAndAPrefix) {
  string_pool full, digest = string_pool_access::make(pool_mode::digest);
  const std::string long_name(300, 'x');
  const std::string other = long_name + "y";
  for (auto* pool : {&full, &digest}) {
    const auto a = pool->intern(long_name), b = pool->intern(other);
    EXPECT_NE(a, b);
    EXPECT_EQ(pool->intern(long_name), a);
    EXPECT_EQ(pool->find(other), b);
    EXPECT_FALSE(pool->find("absent").has_value());
    EXPECT_EQ(pool->view(string_pool::empty), "");
  }
  EXPECT_EQ(full.view(*full.find(long_name)), long_name);
  EXPECT_EQ(digest.view(*digest.find(long_name)),
            long_name.substr(0, string_pool_access::digest_prefix));
  EXPECT_LT(digest.bytes(), full.bytes());
}

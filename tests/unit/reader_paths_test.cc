// The reader's fast path for cost lines gives exactly what its general path gives.
//
// The fast path only takes a line that ends inside the current input block, so reading a file
// in 1-byte blocks sends every line through the general path, and reading it in one block sends
// every well-formed cost line through the fast path. Both readings (and one in blocks of random
// sizes, which puts block ends everywhere) must give the same records, diagnostics and counts,
// on every corpus file, every malformed and golden case, and a text made of edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "calltree/reader.h"
#include "profile_files.h"
#include "reader/read_hooks.h"
#include "streamed_input.h"

using namespace calltree;
namespace fs = std::filesystem;

namespace {

// Every field of every record and diagnostic as text; one hash per item, so big files compare
// cheaply and a difference is reported with its index.
class fingerprint final : public record_sink, public diagnostic_sink {
 public:
  explicit fingerprint(const string_pool& names) : names_(names) {}
  std::vector<std::uint64_t> items;
  std::vector<std::string> texts;  // kept for small inputs, to show a difference
  bool keep_text = false;

  void on_part_begin(const part_header& h) override {
    std::string s = "part " + std::to_string(h.line) + " " + std::to_string(h.index) + " " +
                    h.version + "|" + h.creator + "|" + h.cmd + "|" + std::to_string(h.positions);
    for (auto& e : h.events) s += " " + e;
    if (h.summary)
      for (auto v : *h.summary) s += " s" + std::to_string(v);
    add(s);
  }
  // (Pieces appended one by one, not s += " " + std::to_string(v): GCC 12 at -O2 warns, wrongly,
  // -Wrestrict on a literal + std::string&& inlined into an append, GCC bug 105651.)
  void on_cost(const cost_record& r) override {
    std::string s =
        "cost " + std::to_string(r.line) + ctx(r.ctx) + pos(r.pos) + " g" + std::to_string(r.given);
    for (auto c : r.costs) s.append(" ").append(std::to_string(c));
    add(s);
  }
  void on_call(const call_record& r) override {
    std::string s = "call " + std::to_string(r.line) + ctx(r.ctx) + " -> " + name(r.callee_object) +
                    "|" + name(r.callee_file) + "|" + name(r.callee_function) + " n" +
                    std::to_string(r.count) + pos(r.site) + pos(r.target) +
                    (r.has_target ? " t" : " -") + " g" + std::to_string(r.given);
    for (auto c : r.costs) s.append(" ").append(std::to_string(c));
    add(s);
  }
  void on_jump(const jump_record& r) override {
    add("jump " + std::to_string(r.line) + ctx(r.ctx) + (r.conditional ? " c " : " u ") +
        std::to_string(r.executed) + "/" + std::to_string(r.followed) + pos(r.source) + " -> " +
        name(r.target_file) + "|" + name(r.target_function) + pos(r.target));
  }
  void on_part_end(const part_end& e) override {
    std::string s = "end " + std::to_string(e.line);
    for (auto v : e.computed) s.append(" ").append(std::to_string(v));
    if (e.totals)
      for (auto v : *e.totals) s += " t" + std::to_string(v);
    if (e.summary)
      for (auto v : *e.summary) s += " s" + std::to_string(v);
    add(s);
  }
  void report(diagnostic d) override { add("diag " + format_diagnostic(d)); }

 private:
  std::string name(string_id id) const { return std::string(names_.view(id)); }
  std::string ctx(const context& c) const {
    return " " + name(c.object) + "|" + name(c.file) + "|" + name(c.source_file) + "|" +
           name(c.function);
  }
  static std::string pos(const position& p) {
    return " @" + std::to_string(p.instr) + "," + std::to_string(p.bb) + "," +
           std::to_string(p.line);
  }
  void add(const std::string& s) {
    items.push_back(std::hash<std::string>{}(s));
    if (keep_text) texts.push_back(s);
  }
  const string_pool& names_;
};

struct reading {
  std::vector<std::uint64_t> items;
  std::vector<std::string> texts;
  std::string stats;
};

reading read_with(const std::string& text, std::function<std::size_t()> sizes) {
  test::streamed_input in(text, std::move(sizes));
  string_pool names;
  fingerprint fp(names);
  fp.keep_text = text.size() < (1u << 20);
  reader_options opt;
  opt.display_name = "t";
  auto st = detail::read_profile(in, names, fp, fp, opt, detail::any_input());
  reading r;
  r.items = std::move(fp.items);
  r.texts = std::move(fp.texts);
  if (st) {
    const auto& s = *st;
    r.stats = std::to_string(s.lines) + " " + std::to_string(s.skipped_lines) + " " +
              std::to_string(s.bytes) + " " + std::to_string(s.parts) + " " +
              std::to_string(s.cost_lines) + " " + std::to_string(s.call_lines) + " " +
              std::to_string(s.jump_lines) + " " + std::string(to_string(s.state));
  } else {
    r.stats = "error: " + st.error().message;
  }
  return r;
}

void expect_same(const reading& a, const reading& b, const std::string& what) {
  EXPECT_EQ(a.stats, b.stats) << what;
  ASSERT_EQ(a.items.size(), b.items.size()) << what;
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    if (a.items[i] != b.items[i]) {
      ADD_FAILURE() << what << ": item " << i << " differs"
                    << (a.texts.size() > i ? "\n  one block: " + a.texts[i] : "")
                    << (b.texts.size() > i ? "\n  small blocks: " + b.texts[i] : "");
      return;
    }
  }
}

std::string slurp(const fs::path& p) {
  auto in = open_input(p.string());
  std::string out;
  if (!in) return out;
  for (;;) {
    auto b = (*in)->next();
    if (!b || b->empty()) break;
    out.append(b->data(), b->size());
  }
  return out;
}

void check_text(const std::string& text, const std::string& what) {
  const reading whole = read_with(text, [&] { return text.size(); });
  const reading bytes = read_with(text, [] { return std::size_t{1}; });
  std::uint64_t seed = 12345;
  const reading random = read_with(text, [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(1 + (seed >> 33) % 97);
  });
  expect_same(whole, bytes, what + " (one block vs 1-byte blocks)");
  expect_same(whole, random, what + " (one block vs random blocks)");
}

std::vector<fs::path> inputs_under(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    auto name = e.path().filename().string();
    if (name.ends_with(".txt") || name.ends_with(".md") || name.ends_with(".sh") ||
        name.ends_with(".expected") || name.ends_with(".dump") || name.ends_with(".json"))
      continue;
    // (The corpus's src/ folder holds the programs that made it; a checkout may itself lie
    // under a folder named src/, so the path is looked at below `dir` only.)
    if (("/" + fs::relative(e.path(), dir).string()).find("/src/") != std::string::npos) continue;
    // (CALLTREE_TEST_MAX_BYTES: the sanitizers' runs read the files up to that size, as every
    // test of every profile does; in blocks of one byte the 24 MB one took 3 minutes there.)
    if (e.file_size() > test::largest_test_profile()) continue;
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ReaderPaths, CorpusFilesReadTheSameInAnyBlocks) {
  auto files = inputs_under(CALLTREE_CORPUS_DIR);
  ASSERT_GT(files.size(), 30u);
  for (auto& f : files) check_text(slurp(f), f.filename().string());
}

TEST(ReaderPaths, MalformedAndGoldenCasesReadTheSameInAnyBlocks) {
  auto files = inputs_under(fs::path(CALLTREE_SOURCE_DIR) / "tests" / "malformed");
  auto golden = inputs_under(fs::path(CALLTREE_SOURCE_DIR) / "tests" / "golden");
  files.insert(files.end(), golden.begin(), golden.end());
  ASSERT_GT(files.size(), 10u);
  for (auto& f : files) check_text(slurp(f), f.string());
}

// Lines the fast path must give up on, next to lines it takes, in one file.
TEST(ReaderPaths, EdgeCasesReadTheSameInAnyBlocks) {
  const std::string text =
      "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir Dr Dw\n"
      "summary: 100 10 1\n\nob=(1) /bin/x\nfl=(1) a.c\nfn=(1) main\n"
      "0x10 5 1 2 3\n+3 * 4\n+3 +1 5 \n-2 -1 6\n* * 7\n0x1A 10 8\n0XFF 3 1\n"
      "+0x10 * 9\n-100 * 1\n-0 -0 1\n00012 007 0010\n"
      "+3\t* 11\n+3  * 12\n+3 * 13\r\n * * 14\n+3 *\n+3 * 1 2 3 4\n"
      "+3 * 0x10\n+3 * -5\n+3 * +5\n+3 * *\n*5 * 1\n+ * 1\n0x * 1\n0xg * 1\n0x1g * 1\n"
      "+3 * 18446744073709551615\n+3 * 18446744073709551616\n+3 * 99999999999999999999\n"
      "0x00000000000000001234 1 1\n0x10000000000000000 1 1\n+18446744073709551615 * 1\n"
      "1234567890123456789 1 1\n12345678901234567890 1 1\n+3 * 1234567890123456789\n"
      "cfn=(2) f\ncalls=2 0x100 20\n* * 50\njcnd=1/2 +4 *\n* *\njump=3 -4 +1\n+1 +1\n"
      "fi=(2) b.h\n+1 50 1\nfe=(1)\n+1 * 1\n\n#comment\n+1 * 1\n"
      "+3 * 1 2 3 4 5 6 7\n"
      "totals: 100 10 1\n"
      "+1 * 1";  // no final newline
  check_text(text, "edge cases");
  // With a NUL inside a cost line, and with positions: line only.
  std::string with_nul = text;
  with_nul += "\n+3 * 1";
  with_nul.push_back('\0');
  with_nul += " 2\n";
  check_text(with_nul, "edge cases with NUL");
  check_text("events: A\npositions: line\nfn=x\n1 1\n+1 2\n* 3\n-5 4\n0x10 1\n2 3 4\n-1\n",
             "line positions");
  // Key lines the fast path takes (calls=, jcnd=, jump=, NAME=(ID)) and their odd cousins.
  check_text(
      "events: Ir\npositions: instr line\n"
      "fi=(9) before-any-fn.h\ncalls=1 0x10 1\n* * 1\njump=1 +1 +1\n* *\n"
      "ob=(1) /o\nfl=(1) a.c\nfn=(1) main\nfn=(2) f\nfn=(1)\n0x100 10 1\n"
      "cfn=(2)\ncalls=3 0x200 20\n* * 30\ncalls=3 0x200 20\n+1 * 9\n"
      "cfi=(1)\ncob=(1)\ncfn=(1)\ncalls=0 0x100 10\n* * 1\n"
      "cfn=(2)\ncfi=(1)\ncalls=1 0x200 20\n* * 2\n"
      "cfn=(2)\ncalls=0x10 0x200 20\n* * 2\ncfn=(2)\ncalls=2 0x200\n* * 2\n"
      "cfn=(2)\ncalls=2\n* * 2\ncfn=(2)\ncalls=2 0x200 20 7\n* * 2\n"
      "cfn=(2)\ncalls=2  0x200 20\n* * 2\ncfn=(2)\ncalls=2 -999 20\n* * 2\n"
      "cfn=(2)\ncalls=2 +3 * \n\n# between\n* * 2\ncfn=(2)\ncalls=1 * *\nfn=(1)\n"
      "jcnd=1/2 +4 *\n* *\njcnd=3/2 +4 *\n* *\njcnd=2 1 +4 *\n* *\njcnd=1/2/3 +1 +1\n* *\n"
      "jump=5 +4\n* *\njump=5 +4 * 9\n* *\njump=0x5 +4 *\n* *\njump=5 +4 *\n+1 +1 3\n"
      "jfi=(1)\njfn=(2)\njcnd=1/1 +1 +1\n* *\njfi=(77)\njcnd=1/1 +1 +1\n* *\n"
      "fn=(3)\nfn=(1) \nfn=(1)x\nfn=(1\nfn=(01)\nfn=()\nfn=(99999999999999999999)\n"
      "fi=(1)\n+1 * 1\nfe=(1)\nfl=(1)\nob=(1)\nob=(2)\ncob=(2)\ncfl=(1)\ncfn=(2)\n"
      "calls=1 0x200 20\n* * 1\nfn=(1)\ncalls=1 0x1 1\nfl=(1)\n* * 1\n"
      "jump=1 +1 +1\nfn=(2)\n* *\n",
      "key lines");
}

// A calls= line the fast path took as the last line of its block, its cost line never coming
// (a new part in the next block, or the end of the input): the error quotes the calls= line.
TEST(ReaderPaths, CallWithoutCostAtABlockEndQuotesItsLine) {
  const std::string head = "events: Ir\nfl=(1) a.c\nfn=(1) main\n1 5\ncfn=(2) f\ncalls=1 10\n";
  for (const std::string tail : {"events: Ir\nfn=(1)\n2 3\n", ""}) {
    // Two blocks: the head, then the rest, out of one buffer.
    test::streamed_input in(head + tail,
                            [n = head.size()]() mutable { return std::exchange(n, SIZE_MAX); });
    in.overwrite_blocks();
    string_pool names;
    fingerprint fp(names);
    fp.keep_text = true;
    reader_options opt;
    opt.display_name = "t";
    opt.threads = 1;  // (two would read the blocks into chunks of their own)
    ASSERT_TRUE(detail::read_profile(in, names, fp, fp, opt, detail::any_input()));
    bool quoted = false;
    for (const auto& t : fp.texts)
      if (t.find("[call-without-cost]") != std::string::npos) {
        EXPECT_NE(t.find("t:6:"), std::string::npos) << t;
        EXPECT_NE(t.find("\n  calls=1 10\n"), std::string::npos) << t;
        quoted = true;
      }
    EXPECT_TRUE(quoted) << "tail: " << tail;
  }
}

}  // namespace

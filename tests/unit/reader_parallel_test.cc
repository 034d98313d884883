// The parallel path of the reader (src/reader/parallel.cc and speculation.cc: chunks read ahead on
// speculation by other threads) gives what one thread gives: per context the same summed
// costs and largest `given`, the same calls, jumps, part ends and diagnostics in the same
// order, the same statistics and the same names in the same order, on every corpus, golden
// and malformed file, alone and concatenated, cut into chunks from a few bytes up (so that
// chunk starts fall everywhere, and speculations fail in every way a file allows).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "calltree/checker.h"
#include "calltree/input.h"
#include "context_sums.h"
#include "model/string_pool_access.h"
#include "streamed_input.h"

using namespace calltree;

namespace {

test::summed_reading read_input(input& in, unsigned threads, std::size_t chunk) {
  test::read_options opt;
  // (A std::string, not the bare "t": GCC 12 at -O2 warns, wrongly, -Wrestrict on assigning a
  // one-character literal to a std::string, GCC bug 105329.)
  opt.display_name = std::string("t");
  opt.threads = threads;
  opt.chunk_bytes = chunk;
  opt.sum_cost_runs = true;
  opt.skip_jump_records = true;
  opt.speculate_every_chunk = true;
  return test::read_summed(in, opt);
}

test::summed_reading read_text(const std::string& text, unsigned threads, std::size_t chunk) {
  auto in = memory_input(text);
  return read_input(*in, threads, chunk);
}

std::string slurp(const std::filesystem::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every corpus, golden and malformed file (name, bytes), and the corpus files concatenated.
const std::vector<std::pair<std::string, std::string>>& every_text() {
  static const auto texts = [] {
    std::vector<std::pair<std::string, std::string>> t;
    std::string all;
    const std::filesystem::path corpus = CALLTREE_CORPUS_DIR;
    for (const auto& f : test::every_profile(false)) {
      t.emplace_back(f.string(), slurp(f));
      if (f.parent_path() == corpus && all.size() < (4u << 20)) all += t.back().second;
    }
    t.emplace_back("corpus files concatenated", all);
    // Records of one function that differ in one field of their key only, each twice: a
    // chunk that sums them must keep them apart.
    std::string keys = "events: Ir\npositions: line\nfl=(1) a.c\nfn=(1) f\n1 1\n";
    for (int f = 2; f < 6; ++f) {
      // (fl=(1) in the chunk: the file of fe=(1) is then the chunk's own, as it is known.)
      std::string fn = "fn=(" + std::to_string(f) + ") f" + std::to_string(f) + "\nfl=(1)\n";
      std::string block =
          "jump=1 2\n2 1\njfn=(1)\njump=1 3\n3 1\njfi=(2) b.c\njump=1 3\n"
          "3 1\njcnd=1/2 4\n4 1\ncfn=(1)\ncalls=1 9\n5 3\ncfi=(2)\ncfn=(1)\n"
          "calls=1 9\n6 3\ncob=(1) o\ncfn=(1)\ncalls=1 9\n7 3\nfi=(2)\n8 1\n"
          "fe=(1)\n9 1\n";
      keys += fn + block + block;
    }
    t.emplace_back("keys that differ in one field", keys);
    // A chunk with no `cfn=` must leave the callee that a later `calls=` without one falls
    // back to as it was (found by fuzz_check: the adopted chunk's unset callee replaced it).
    t.emplace_back("the previous callee across chunks",
                   "events: Time Memory\nfl=(2) a.c\nfn=(1) f1\nfn=(5) f5\nfn=(9) f9\ncfn=(8)\n"
                   "calls=1 0 0\n20 97 16\nfn=(9)\n17 16 0\nfl=(2)\nfn=(5)\nfl=(2)\nfl=(2)\n"
                   "fn=(1)\n6 11 0\nfl=(2)\nfn=(2)\ncalls=1 0 0\n12 11 0\n");
    return t;
  }();
  return texts;
}

// Two lists of record or diagnostic texts, equal line by line (the first difference shown).
void expect_same_lines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << i;
}

// The chunk sizes a text is read in on two threads: 1 byte (a chunk ends in every line, the
// feed cuts where no function starts), 97 and 4096 bytes. Under the sanitizers
// (CALLTREE_TEST_MAX_BYTES set) a text over 200 KB is not read in chunks of 1 byte: the cuts
// are those of the 30 smaller texts, of every dialect, and chunks a byte long of the six texts
// from 200 KB to 1 MB took half of these tests' time there (the five tests that read in chunks:
// ASan 185 s -> 133 s, TSan 395 s -> 189 s, summed; 2-core machine, 2026-11-28).
std::vector<std::size_t> chunk_sizes(const std::string& text) {
  if (test::some_profiles_left_out() && text.size() > 200000) return {97, 4096};
  return {1, 97, 4096};
}

}  // namespace

TEST(ReaderParallel, SameAsOneThreadOnEveryFileAndChunkSize) {
  const auto& texts = every_text();
  ASSERT_GT(texts.size(), 60u);
  std::uint64_t speculated = 0;
  for (const auto& [name, text] : texts) {
    for (std::size_t chunk : chunk_sizes(text)) {
      SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk));
      const auto a = read_text(text, 1, chunk), b = read_text(text, 2, chunk);
      EXPECT_EQ(a.stats, b.stats);
      EXPECT_EQ(a.names, b.names);
      EXPECT_EQ(a.sums, b.sums);
      EXPECT_EQ(a.given, b.given);
      expect_same_lines(a.others, b.others);
      EXPECT_EQ(a.speculated, 0u);
      speculated += b.speculated;
    }
  }
  // The speculations must have been taken, not only tried (speculate_every_chunk makes the
  // number depend on the inputs only: 121,244 with the corpus of 2026-11-22).
  EXPECT_GT(speculated, test::some_profiles_left_out() ? 20000u : 100000u);
}

// Every text streamed, whole and cut off in its middle, read on one thread and on two: the
// same records, diagnostics (the last line cut short, the truncation's error), names and
// statistics, whatever the chunk and block sizes (blocks of 7 bytes put a cut's "\nfn="
// across blocks; a chunk of 1 byte makes the feed cut where no function starts, 16 bytes on).
TEST(ReaderParallel, SameAsOneThreadOnEveryStreamedFile) {
  const auto& texts = every_text();
  std::uint64_t speculated = 0;
  for (const auto& [name, text] : texts) {
    for (std::size_t fail_at : {text.size(), text.size() / 2 + 1}) {
      for (std::size_t chunk : chunk_sizes(text)) {
        const std::size_t block = chunk == 97 ? 7 : 4096;
        SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk) + ", blocks of " +
                     std::to_string(block) + ", " + std::to_string(fail_at) + " bytes");
        test::summed_reading r[2];
        for (unsigned threads : {1u, 2u}) {
          test::streamed_input in(text, block, fail_at);
          r[threads - 1] = read_input(in, threads, chunk);
        }
        EXPECT_EQ(r[0].stats, r[1].stats);
        EXPECT_EQ(r[0].names, r[1].names);
        EXPECT_EQ(r[0].sums, r[1].sums);
        EXPECT_EQ(r[0].given, r[1].given);
        expect_same_lines(r[0].others, r[1].others);
        EXPECT_EQ(r[0].speculated, 0u);
        speculated += r[1].speculated;
      }
    }
  }
  EXPECT_GT(speculated, test::some_profiles_left_out() ? 20000u : 100000u);
}

// A compressed file read on two threads: gzip, xz and bzip2 decoded ahead on a thread of their
// own (decode_ahead.h), zstd decoded and cut into chunks on one (chunk_feed.h). The same
// records, names, statistics and diagnostics as on one thread, whole and cut off in the middle
// of the compressed stream (the decoder's error, after every record before it). Compressed
// with the system's tools, as users' files are; a tool that is missing is skipped. This is
// what `calltree --threads` does with a compressed input, and what ThreadSanitizer checks
// (make test-threads); cli.threads checks the command's output on every corpus file.
TEST(ReaderParallel, CompressedFilesReadAsOnOneThread) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("calltree-compressed-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path corpus = CALLTREE_CORPUS_DIR;
  std::size_t compared = 0;
  for (const char* name : {"vg-recurse-default.callgrind", "xdebug-closures.callgrind",
                           "vg-python-work-instr-jumps.callgrind"}) {
    const fs::path plain = corpus / name;
    if (!fs::exists(plain)) continue;
    for (const char* tool : {"gzip", "xz", "bzip2", "zstd -q"}) {
      const fs::path packed = dir / (std::string(name) + "." + std::string(tool).substr(0, 2));
      const std::string command = std::string(tool) + " -c '" + plain.string() + "' > '" +
                                  packed.string() + "' 2>/dev/null";
      if (std::system(command.c_str()) != 0) continue;
      const std::string bytes = slurp(packed);
      const fs::path cut = packed.string() + ".cut";
      std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
      for (const fs::path& f : {packed, cut}) {
        SCOPED_TRACE(f.filename().string());
        test::summed_reading r[2];
        for (unsigned threads : {1u, 2u}) {
          auto in = open_input(f.string());
          ASSERT_TRUE(in.has_value());
          r[threads - 1] = read_input(**in, threads, 4096);
        }
        if (f == packed) {
          EXPECT_GT(r[0].cost_records, 0u);  // (a bzip2 block cut short gives none)
        }
        EXPECT_EQ(r[0].stats, r[1].stats);
        EXPECT_EQ(r[0].names, r[1].names);
        EXPECT_EQ(r[0].sums, r[1].sums);
        EXPECT_EQ(r[0].given, r[1].given);
        expect_same_lines(r[0].others, r[1].others);
        ++compared;
      }
    }
  }
  fs::remove_all(dir);
  EXPECT_GE(compared, 6u);  // gzip, at least, on every machine that builds calltree
}

// `text` read as check and annotate read a plain file with two threads: summed per key, cut
// into chunks of `chunk` bytes, every chunk after the first on speculation.
test::keyed_reading read_summed_in_chunks(const std::string& text, const test::read_options& plain,
                                          std::size_t chunk) {
  auto in = memory_input(text);
  test::read_options opt = plain;
  opt.threads = 2;
  opt.chunk_bytes = chunk;
  opt.sum_by_context = true;
  opt.speculate_every_chunk = true;
  return test::read_keyed(*in, opt);
}

// Sums per context (record_needs::sums_per_context): chunks read ahead hand over one record per key
// (speculation.cc). Against a plain reading on one thread: every key's sums, the
// keys in the order they first appear (with the line and positions of their first record) among the
// parts, the diagnostics, the names and the statistics.
TEST(ReaderParallel, SummedByContextKeepsEveryKeysSumsAndOrder) {
  const auto& texts = every_text();
  ASSERT_GT(texts.size(), 60u);
  std::uint64_t speculated = 0;
  for (const auto& [name, text] : texts) {
    auto plain_in = memory_input(text);
    test::read_options plain;
    plain.display_name = "t";
    const auto a = test::read_keyed(*plain_in, plain);
    for (std::size_t chunk : chunk_sizes(text)) {
      SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk));
      const auto b = read_summed_in_chunks(text, plain, chunk);
      EXPECT_EQ(a.stats, b.stats);
      EXPECT_EQ(a.names, b.names);
      EXPECT_EQ(a.sums, b.sums);
      EXPECT_EQ(a.diagnostics, b.diagnostics);
      expect_same_lines(a.order, b.order);
      speculated += b.speculated;
    }
  }
  EXPECT_GT(speculated, test::some_profiles_left_out() ? 20000u : 100000u);
}

// Xdebug writes `calls=1 0 0` (one target token too many) on every call: a note on every
// calls= line. A speculative reading keeps such notes (they say something of their own line
// only) and the chunk is still adopted, the notes sent on in their place among the others.
TEST(ReaderParallel, NotesOfOneLineDoNotStopASpeculation) {
  std::string text = "version: 1\ncreator: xdebug 3.2.0\npositions: line\nevents: Time Memory\n";
  for (int i = 0; i < 400; ++i) {
    const std::string n = std::to_string(i % 7 + 2);
    text += "\nfl=(1) a.php\nfn=(" + n + ") f" + n + "\n3 5 0\ncfl=(1)\ncfn=(1) php::strlen\n" +
            "calls=1 0 0\n4 2 0\n" + (i % 5 == 0 ? "cfn=(1)\ncalls=0 0\n5 1 0\n" : "");
  }
  auto plain_in = memory_input(text);
  test::read_options plain;
  plain.display_name = "t";
  const auto a = test::read_keyed(*plain_in, plain);
  const auto b = read_summed_in_chunks(text, plain, 256);
  EXPECT_EQ(a.diagnostics, b.diagnostics);
  EXPECT_EQ(a.sums, b.sums);
  expect_same_lines(a.order, b.order);
  // 400 extra-call-target notes and 80 zero-call-count ones, on both paths.
  EXPECT_EQ(a.diagnostics.size(), 480u);
  // Chunks were adopted (100 of the ~110; before notes were kept, none: each has a note).
  EXPECT_GT(b.speculated, 50u);
}

// `calltree check` reads so (and its names as digests): the same result as a plain reading.
TEST(ReaderParallel, CheckerCountsTheSameSummedOnTwoThreads) {
  for (const auto& [name, text] : every_text()) {
    SCOPED_TRACE(name);
    check_result r[2];
    std::string stats[2];
    for (int m = 0; m < 2; ++m) {
      auto in = memory_input(text);
      string_pool names = string_pool_access::make(m ? pool_mode::digest : pool_mode::full);
      checker chk;
      diagnostic_collector diags;
      test::read_options opt;
      opt.threads = m ? 2 : 1;
      opt.sum_by_context = m == 1;
      opt.chunk_bytes = 97;
      opt.speculate_every_chunk = true;
      auto st = test::read_as(*in, names, chk, diags, opt);
      ASSERT_TRUE(st);
      stats[m] = test::stats_text(*st);
      r[m] = chk.result();
    }
    EXPECT_EQ(stats[0], stats[1]);
    EXPECT_EQ(r[0].parts, r[1].parts);
    EXPECT_EQ(r[0].events, r[1].events);
    EXPECT_EQ(r[0].totals, r[1].totals);
    EXPECT_EQ(r[0].summary, r[1].summary);
    EXPECT_EQ(r[0].functions, r[1].functions);
    EXPECT_EQ(r[0].calls, r[1].calls);
  }
}

// A sink that wants no more records (record_sink::wants_no_more) stops the reading at the end
// of the block or chunk being read, on one thread and on two: the reading is incomplete, with
// no diagnostic, and most of the input is never read. A sink that never asks reads it all.
TEST(ReaderParallel, ASinkThatWantsNoMoreStopsTheReading) {
  std::string text = "events: Ir\nfl=a.c\n";
  for (int f = 0; f < 20000; ++f) text += "fn=f" + std::to_string(f) + "\n1 1\n2 2\n3 3\n";
  struct give_up final : record_sink {
    std::uint64_t after = 0, records = 0;
    void on_cost(const cost_record&) override { ++records; }
    bool wants_no_more() const override { return after && records >= after; }
  };
  for (unsigned threads : {1u, 2u}) {
    for (std::uint64_t after : {std::uint64_t{0}, std::uint64_t{100}}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, giving up after " + std::to_string(after));
      test::streamed_input in(text, 4096, text.size());
      string_pool names;
      diagnostic_collector diags;
      give_up sink;
      sink.after = after;
      test::read_options opt;
      opt.threads = threads;
      opt.chunk_bytes = 4096;
      const auto st = test::read_as(in, names, sink, diags, opt);
      ASSERT_TRUE(st);
      EXPECT_EQ(diags.errors() + diags.warnings(), 0u);
      if (!after) {
        EXPECT_TRUE(st->complete());
        EXPECT_EQ(sink.records, 60000u);
      } else {
        EXPECT_EQ(st->state, read_state::stopped);
        EXPECT_GE(sink.records, after);
        EXPECT_LT(sink.records, 6000u);  // a few chunks of 4 KB at most, not 800 KB
      }
    }
  }
}

namespace {

// A reading as read_needs::grain::runs_of_lines may order it: each context's cost lines in
// order (line, positions, given, costs), and every other record and diagnostic in order; and
// what came in cost_run_records (each of one context, its lines in order).
struct line_lists {
  std::map<std::string, std::vector<std::string>> lines;  // per part and context
  std::vector<std::string> others;
  std::vector<std::string> names;
  std::string stats;
  std::uint64_t speculated = 0;
  std::size_t runs = 0, run_lines = 0;
  bool runs_in_order = true;
};

class line_sink final : public test::text_sink {
 public:
  line_sink(const string_pool& names, line_lists& out) : text_sink(names), out_(out) {}

  void on_part_begin(const part_header& h) override { out_.others.push_back(begin_text(h)); }
  void on_cost(const cost_record& r) override {
    std::string s = std::to_string(r.line) + " @" + std::to_string(r.pos.instr) + "," +
                    std::to_string(r.pos.bb) + "," + std::to_string(r.pos.line) + " g" +
                    std::to_string(r.given);
    for (auto c : r.costs) s += " " + std::to_string(c);
    out_.lines[ctx(r.ctx)].push_back(s);
  }
  void on_cost_run(const cost_run_record& r) override {
    ++out_.runs;
    out_.run_lines += r.lines.size();
    for (std::size_t i = 1; i < r.lines.size(); ++i)
      out_.runs_in_order = out_.runs_in_order && r.lines[i - 1].line < r.lines[i].line;
    run_sink::on_cost_run(r);  // (a cost record a line)
  }
  void on_call(const call_record& r) override { out_.others.push_back(call_text(r)); }
  void on_jump(const jump_record& r) override {
    out_.others.push_back("jump " + std::to_string(r.line) + ctx(r.ctx) + " " +
                          std::to_string(r.executed) + "/" + std::to_string(r.followed) + " @" +
                          std::to_string(r.source.instr) + "," + std::to_string(r.source.line) +
                          " -> " + name(r.target_file) + "|" + name(r.target_function) + " " +
                          std::to_string(r.target.instr) + "," + std::to_string(r.target.line));
  }
  void on_part_end(const part_end& e) override { out_.others.push_back(end_text(e)); }
  void report(diagnostic d) override { out_.others.push_back(format_diagnostic(d)); }

 private:
  line_lists& out_;
};

// Cost lines in runs (merged by place or not), every chunk after the first read ahead.
test::read_options in_runs(unsigned threads, std::size_t chunk, bool merge) {
  test::read_options opt;
  opt.display_name = "t";
  opt.threads = threads;
  opt.chunk_bytes = chunk;
  opt.cost_run_records = true;
  opt.merge_cost_lines = merge;
  opt.speculate_every_chunk = true;
  return opt;
}

line_lists read_lines(const std::string& text, unsigned threads, std::size_t chunk) {
  auto in = memory_input(text);
  return test::read_with<line_sink, line_lists>(*in, in_runs(threads, chunk, false));
}

}  // namespace

// Runs of lines (read_needs::grain::runs_of_lines): chunks read ahead hand over each run of one
// context's cost lines at once. Against one thread (a record a line): every cost line of every
// context, in order, with its line number, positions, given and costs; every other record and
// diagnostic in order; the names and the statistics. The runs came (most lines in them), each in
// order.
TEST(ReaderParallel, CostRunRecordsKeepEveryLine) {
  const auto& texts = every_text();
  std::uint64_t speculated = 0;
  std::size_t runs = 0, lines = 0;
  for (const auto& [name, text] : texts) {
    const auto a = read_lines(text, 1, 4096);
    EXPECT_EQ(a.runs, 0u);
    for (std::size_t chunk : chunk_sizes(text)) {
      SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk));
      const auto b = read_lines(text, 2, chunk);
      EXPECT_EQ(a.stats, b.stats);
      EXPECT_EQ(a.names, b.names);
      EXPECT_EQ(a.lines, b.lines);
      expect_same_lines(a.others, b.others);
      EXPECT_TRUE(b.runs_in_order);
      speculated += b.speculated;
      runs += b.runs;
      lines += b.run_lines;
    }
  }
  EXPECT_GT(speculated, test::some_profiles_left_out() ? 20000u : 100000u);
  EXPECT_GT(lines, 2 * runs);
}

namespace {

// A reading as the model sums its self costs: per place (part, function: object, file and
// name; source file; position) the summed costs and the largest `given`, the places in the
// order they first appear; every other record and diagnostic in order; and, of runs a chunk
// merged (cost_run_record::merged_chunk), whether any held a place twice in its chunk.
struct place_sums {
  std::map<std::string, std::vector<std::uint64_t>> sums;
  std::vector<std::string> order;
  std::vector<std::string> others;
  std::vector<std::string> names;
  std::string stats;
  std::uint64_t speculated = 0;
  std::size_t merged_runs = 0, merged_lines = 0;
  bool places_once_a_chunk = true, chunks_grow = true;
};

class place_sink final : public test::others_sink<place_sums> {
 public:
  place_sink(const string_pool& names, place_sums& out) : others_sink(names, out) {}

  void on_cost(const cost_record& r) override { add(place(r.ctx, r.pos), r.costs); }
  void on_cost_run(const cost_run_record& r) override {
    if (r.merged_chunk) {
      ++out_.merged_runs;
      out_.merged_lines += r.lines.size();
      out_.chunks_grow = out_.chunks_grow && r.merged_chunk >= chunk_;
      if (r.merged_chunk != chunk_) seen_.clear();
      chunk_ = r.merged_chunk;
      for (const auto& l : r.lines)
        out_.places_once_a_chunk =
            seen_.insert(place(r.ctx, l.pos)).second && out_.places_once_a_chunk;
    }
    run_sink::on_cost_run(r);  // (a cost record a line)
  }

 private:
  std::string place(const context& c, const position& p) const {
    return ctx(c) + " @" + std::to_string(p.instr) + "," + std::to_string(p.bb) + "," +
           std::to_string(p.line);
  }
  void add(const std::string& key, std::span<const std::uint64_t> costs) {
    auto [it, fresh] = out_.sums.try_emplace(key);
    if (fresh) out_.order.push_back(key);
    if (it->second.size() < costs.size()) it->second.resize(costs.size());
    for (std::size_t i = 0; i < costs.size(); ++i) it->second[i] += costs[i];
  }
  std::set<std::string> seen_;  // the places of the chunk being merged
  std::uint64_t chunk_ = 0;
};

place_sums read_places(const std::string& text, unsigned threads, std::size_t chunk) {
  auto in = memory_input(text);
  return test::read_with<place_sink, place_sums>(*in, in_runs(threads, chunk, true));
}

}  // namespace

// Runs merged by place (read_needs::grain::runs_merged_by_place): chunks read ahead add each cost
// line to the earlier line of its function at its place. Against one thread (a record a line): the
// same sums per place, the places first met in the same order, every other record and diagnostic in
// order, the names and the statistics; and no merged chunk hands over a place twice.
TEST(ReaderParallel, MergedCostLinesSumAsTheModel) {
  std::uint64_t speculated = 0;
  std::size_t runs = 0, lines = 0;
  for (const auto& [name, text] : every_text()) {
    const auto a = read_places(text, 1, 4096);
    EXPECT_EQ(a.merged_runs, 0u);
    for (std::size_t chunk : chunk_sizes(text)) {
      SCOPED_TRACE(name + ", chunks of " + std::to_string(chunk));
      const auto b = read_places(text, 2, chunk);
      EXPECT_EQ(a.stats, b.stats);
      EXPECT_EQ(a.names, b.names);
      EXPECT_EQ(a.sums, b.sums);
      EXPECT_EQ(a.order, b.order);
      expect_same_lines(a.others, b.others);
      EXPECT_TRUE(b.places_once_a_chunk);
      EXPECT_TRUE(b.chunks_grow);
      speculated += b.speculated;
      runs += b.merged_runs;
      lines += b.merged_lines;
    }
  }
  EXPECT_GT(speculated, test::some_profiles_left_out() ? 20000u : 100000u);
  EXPECT_GT(lines, 2 * runs);
}

// A chunk that names one file by an id defined before it and again in full: its two lines at
// one place of g are two places to the chunk and one to the model. The chunk's runs go over
// unmarked (no merged_chunk), and the sums are the model's.
TEST(ReaderParallel, MergedChunkWhoseNamesJoinPlaces) {
  const std::string text =
      "events: Ir\nfl=(1) a.c\nfi=(2) b.h\nfn=(1) f\n1 1\n"
      "fn=(3) g\nfi=(2)\n5 1\n6 1\nfi=b.h\n5 2\n";
  const auto a = read_places(text, 1, 1);
  const auto b = read_places(text, 2, 1);
  EXPECT_EQ(a.sums, b.sums);
  EXPECT_EQ(a.order, b.order);
  EXPECT_TRUE(b.places_once_a_chunk);
  EXPECT_GE(b.speculated, 1u);
  EXPECT_EQ(a.sums.at("0||a.c|b.h|g @0,0,5"), std::vector<std::uint64_t>{3});
}

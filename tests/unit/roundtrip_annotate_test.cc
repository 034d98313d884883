// roundtrip_annotate_test.cc — callgrind_annotate reads `calltree convert`'s output as it reads
// the original, for every corpus file, with compression on and off.
//
// For each corpus file F (the .gz unpacked under its plain name), `calltree convert F -o OUT`
// and `calltree convert --no-compress-names --no-compress-positions F -o OUT` are run, then
// `callgrind_annotate --auto=no OUT` and `--inclusive=yes`, from a temporary folder (it strips
// the current directory from file names; the folder is no prefix of any path in the corpus),
// with PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 as the corpus README prescribes. The reports must
// equal the stored ones (F.annotate.txt, F.annotate-inclusive.txt) byte for byte: the writer
// states totals only where the input did, as it did (a file without summary: or totals: stays
// "(calculated)"), and writes desc: lines as they were (cachegrind's padded
// `desc: I1 cache:         32768 B`, callgrind's `desc: I1 cache: ` with its trailing blank).
//
// The exceptions, each asserted below, are places where callgrind_annotate misreads the
// original (corpus README, "callgrind_annotate problems"), and the writer's output is read right:
//  * header_after_events — `cmd:` (dprof2calltree, pprofile) comes after `events:`, where
//    callgrind_annotate no longer reads header lines: it warns "line N malformed" and reports
//    "Profiled target:  (unknown)". The writer puts `cmd:` before `events:`, so the converted
//    report names the command and callgrind_annotate gives no warning.
//  * multi-part files (callgrind --combine-dumps): the reports are equal; only the warnings on
//    stderr differ, as callgrind_annotate warns on every header line of parts 2..N ("line N
//    malformed, ignoring") and the converted parts state their header facts (version, creator,
//    pid, cmd) where the original let them be inherited. Asserted: stderr holds only such
//    warnings.
// Everywhere else stderr must be what it was for the original (empty where the corpus has no
// F.annotate.stderr.txt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "corpus_case_names.h"
#include "profile_files.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

enum exception_kind : unsigned { header_after_events = 1 };

const std::map<std::string, unsigned>& exceptions() {
  static const std::map<std::string, unsigned> table = {
      {"dprof2calltree-work.callgrind", header_after_events},
      {"pprofile-work-deterministic.callgrind", header_after_events},
      {"pprofile-work-statistic.callgrind", header_after_events},
  };
  return table;
}

struct corpus_file {
  std::string path;  // in the corpus
  std::string name;  // plain name (the .gz without .gz): the annotate reference's stem
};

// (`capped`: up to test::largest_test_profile() bytes, what the tests read; else every one.)
std::vector<corpus_file> corpus_files(bool capped = true) {
  std::vector<corpus_file> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(CALLTREE_CORPUS_DIR, ec)) {
    std::string n = e.path().filename().string();
    std::string plain = n;
    if (plain.size() > 3 && plain.compare(plain.size() - 3, 3, ".gz") == 0)
      plain.resize(plain.size() - 3);
    bool profile = (plain.size() > 10 && plain.compare(plain.size() - 10, 10, ".callgrind") == 0) ||
                   (plain.size() > 11 && plain.compare(plain.size() - 11, 11, ".cachegrind") == 0);
    if (profile && (!capped || e.file_size() <= test::largest_test_profile()))
      out.push_back({e.path().string(), plain});
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string collapse_blanks(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

int run(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

struct report {
  std::string out, err;
};

report annotate(const fs::path& dir, const std::string& name, const std::string& options) {
  std::string cmd = "cd '" + dir.string() +
                    "' && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 callgrind_annotate --auto=no " +
                    options + " '" + name + "' > annotate.out 2> annotate.err";
  EXPECT_EQ(run(cmd), 0) << cmd;
  return {read_file(dir / "annotate.out"), read_file(dir / "annotate.err")};
}

bool callgrind_annotate_available() { return run("command -v callgrind_annotate >/dev/null") == 0; }

class TempDir {
 public:
  explicit TempDir(const std::string& label) {
    path_ = fs::temp_directory_path() /
            ("calltree-annotate-" + std::to_string(::getpid()) + "-" + label);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

class AnnotateRoundTrip : public testing::TestWithParam<corpus_file> {};

TEST_P(AnnotateRoundTrip, ConvertedFileGivesTheSameReport) {
  if (!callgrind_annotate_available()) GTEST_SKIP() << "callgrind_annotate not installed";
  const corpus_file& f = GetParam();
  const fs::path corpus(CALLTREE_CORPUS_DIR);
  auto ex = exceptions().count(f.name) ? exceptions().at(f.name) : 0u;
  std::string label = f.name;
  for (char& c : label)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  TempDir tmp(label);

  const std::string reference[2] = {read_file(corpus / (f.name + ".annotate.txt")),
                                    read_file(corpus / (f.name + ".annotate-inclusive.txt"))};
  const fs::path stderr_ref = corpus / (f.name + ".annotate.stderr.txt");
  const std::string reference_err = fs::exists(stderr_ref) ? read_file(stderr_ref) : "";
  ASSERT_FALSE(reference[0].empty());
  ASSERT_FALSE(reference[1].empty());

  for (bool compress : {true, false}) {
    SCOPED_TRACE(compress ? "compression on" : "compression off");
    fs::path dir = tmp.path() / (compress ? "compressed" : "plain");
    fs::create_directories(dir);
    std::string cmd = std::string("'") + CALLTREE_BINARY + "' convert " +
                      (compress ? "" : "--no-compress-names --no-compress-positions ") + "'" +
                      f.path + "' -o '" + (dir / f.name).string() + "' 2>/dev/null";
    ASSERT_EQ(run(cmd), 0) << cmd;

    for (int inclusive = 0; inclusive < 2; ++inclusive) {
      SCOPED_TRACE(inclusive ? "--inclusive=yes" : "--inclusive=no");
      // Time: callgrind_annotate takes ~5 s on the 24 MB file; its inclusive report is checked
      // with compression on only.
      if (inclusive && !compress && fs::file_size(dir / f.name) > (16u << 20)) continue;
      report got = annotate(dir, f.name, inclusive ? "--inclusive=yes" : "");
      std::string want = reference[inclusive];
      std::string have = got.out;

      // header_after_events: the original's `cmd:` after `events:` was ignored, the converted
      // one is read. Puts the original's "(unknown)" back into a converted report.
      auto unname_target = [&](std::string& text) {
        if (!(ex & header_after_events)) return;
        std::string cmdline;
        for (const auto& l : lines_of(read_file(f.path)))
          if (l.rfind("cmd:", 0) == 0) cmdline = collapse_blanks(l.substr(4));
        ASSERT_FALSE(cmdline.empty());
        const std::string named = "Profiled target:  " + cmdline + "\n";
        auto at = text.find(named);
        ASSERT_NE(at, std::string::npos) << text;
        text.replace(at, named.size(), "Profiled target:  (unknown)\n");
      };
      if (ex & header_after_events) {
        ASSERT_NE(want.find("Profiled target:  (unknown)\n"), std::string::npos)
            << "the reference no longer shows the misreading";
        unname_target(have);
      }
      EXPECT_EQ(want, have);

      // stderr
      if (ex & header_after_events) {
        EXPECT_NE(reference_err.find("malformed"), std::string::npos);
        EXPECT_EQ(got.err, "");
      } else if (reference_err.find("WARNING: line") != std::string::npos &&
                 reference_err.find("malformed") != std::string::npos) {
        // A multi-part file: only "malformed" warnings on header lines, as for the original.
        static const std::regex ok(
            R"(WARNING: line [0-9]+ malformed, ignoring|    line: '(version|creator|pid|cmd|part|thread|desc|positions|events|summary|event):.*')");
        EXPECT_FALSE(got.err.empty());
        for (const auto& l : lines_of(got.err)) EXPECT_TRUE(std::regex_match(l, ok)) << l;
      } else if (!inclusive) {
        EXPECT_EQ(got.err, reference_err);
      }
    }
  }
}

std::string param_label(const testing::TestParamInfo<corpus_file>& p) {
  return corpus_case_name(p.param.name);
}

INSTANTIATE_TEST_SUITE_P(Corpus, AnnotateRoundTrip, testing::ValuesIn(corpus_files()), param_label);

TEST(AnnotateRoundTripSet, ExceptionsNameCorpusFiles) {
  auto files = corpus_files(false);
  EXPECT_EQ(files.size(), 41u);
  for (const auto& entry : exceptions()) {
    const std::string& name = entry.first;
    EXPECT_TRUE(std::any_of(files.begin(), files.end(), [&](auto& f) { return f.name == name; }))
        << name;
  }
}

}  // namespace
}  // namespace calltree

// golden_test.cc — the tricky valid inputs of format-semantics.md §5.1 (T1–T16), read.
//
// Each tests/golden/<case>/input.callgrind goes through the reader into the dump sink; the
// listing must equal tests/golden/<case>/expected.txt (the text of `calltree dump --records`),
// and the reader's diagnostics, one `file:line:col: severity: message [code]` line each, must
// equal tests/golden/<case>/diagnostics.txt. The `calltree dump --records` command, run in the
// case's folder, must print expected.txt too. CALLTREE_UPDATE_GOLDEN=1 rewrites both files:
// then review the diff by hand against the expectations written in §5.1 before committing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "reader/read_hooks.h"
#include "report/dump.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

fs::path golden_dir() { return fs::path(CALLTREE_SOURCE_DIR) / "tests" / "golden"; }

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(golden_dir(), ec))
    if (fs::exists(e.path() / "input.callgrind")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class keep_all final : public diagnostic_sink {
 public:
  void report(diagnostic d) override { all.push_back(std::move(d)); }
  std::vector<diagnostic> all;
};

bool updating() {
  const char* u = std::getenv("CALLTREE_UPDATE_GOLDEN");
  return u && *u && std::string(u) != "0";
}

void compare_or_update(const fs::path& file, const std::string& actual) {
  if (updating()) {
    std::ofstream(file, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(file)) << file << " is missing; run with CALLTREE_UPDATE_GOLDEN=1";
  EXPECT_EQ(read_file(file), actual) << "golden file " << file;
}

class Golden : public testing::TestWithParam<std::string> {};

TEST_P(Golden, DumpAndDiagnosticsMatch) {
  fs::path dir = golden_dir() / GetParam();
  std::string bytes = read_file(dir / "input.callgrind");
  ASSERT_FALSE(bytes.empty());
  auto in = memory_input(bytes);
  string_pool names;
  std::ostringstream out;
  dump_sink sink(out, names);
  keep_all diags;
  reader_options o;
  o.display_name = "input.callgrind";
  auto st = detail::read_profile(*in, names, sink, diags, o, detail::any_input());
  ASSERT_TRUE(st.has_value()) << st.error().message;
  EXPECT_TRUE(st->complete());
  ASSERT_TRUE(sink.finish());
  std::string diag_text;
  for (const auto& d : diags.all) diag_text += format_diagnostic(d, false);
  // T1–T16 are valid inputs: warnings and notes are allowed (and pinned), errors are not.
  for (const auto& d : diags.all) EXPECT_NE(d.severity, severity::error) << format_diagnostic(d);
  compare_or_update(dir / "expected.txt", out.str());
  compare_or_update(dir / "diagnostics.txt", diag_text);
}

std::string case_label(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, testing::ValuesIn(case_names()), case_label);

TEST(GoldenSet, HasTheSixteenCasesOfTheFormatNotes) {
  auto names = case_names();
  ASSERT_EQ(names.size(), 16u);
  for (int i = 1; i <= 16; ++i) {
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "t%02d-", i);
    EXPECT_TRUE(std::any_of(names.begin(), names.end(), [&](const std::string& n) {
      return n.rfind(prefix, 0) == 0;
    })) << prefix;
  }
}

// `calltree dump --records input.callgrind`, run in each case's folder, prints expected.txt.
TEST(GoldenCli, DumpRecordsCommandPrintsTheExpectedListing) {
  if (updating()) GTEST_SKIP() << "updating golden files";
  for (const auto& name : case_names()) {
    fs::path dir = golden_dir() / name;
    std::string cmd = "cd '" + dir.string() + "' && '" + CALLTREE_BINARY +
                      "' dump --records input.callgrind 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    int rc = pclose(p);
    EXPECT_EQ(rc, 0) << name;
    EXPECT_EQ(out, read_file(dir / "expected.txt")) << name;
  }
}

}  // namespace
}  // namespace calltree

// string_pool_test.cc — the pool's three modes: same ids, same text, same output.
//
// Spill mode keeps long names' text in a temporary file and reads it back on demand; it must
// give every name's exact text (from the file, from its write buffer, or from memory after a
// fallback), the ids full mode gives, and the writer must write the same bytes with it as with
// a full pool on every corpus file: with a working spill file, with none (a directory that
// does not exist), and when writes to it start failing half-way (RLIMIT_FSIZE).
#include "calltree/string_pool.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/reader.h"
#include "calltree/writer.h"
#include "model/string_pool_access.h"
#include "profile_files.h"
#include "reader/read_hooks.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

const std::string big_file =
    std::string(CALLTREE_CORPUS_DIR) + "/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz";

// Names of every length that matters: empty, short, exactly the prefix, one more, long, longer
// than the spill file's write buffer, and many of them (several buffers' worth).
std::vector<std::string> sample_names() {
  std::vector<std::string> v{"", "main", std::string(string_pool_access::digest_prefix, 'p'),
                             std::string(string_pool_access::digest_prefix + 1, 'q'),
                             std::string(300000, 'x') + "end"};
  for (int i = 0; i < 20000; ++i)
    v.push_back("ns::function_" + std::to_string(i) + "'caller_" + std::to_string(i * 7) +
                std::string(static_cast<std::size_t>(i % 97), 'z'));
  v.push_back(std::string(200000, 'y'));
  v.push_back("main");  // again: the same id
  return v;
}

void expect_same_names(const string_pool& full, const string_pool& other) {
  ASSERT_EQ(full.size(), other.size());
  EXPECT_EQ(full.bytes(), other.bytes());
  std::string scratch;
  for (std::size_t i = 0; i < full.size(); ++i) {
    const string_id id{i};
    ASSERT_EQ(full.view(id), other.text(id, scratch)) << "id " << id;
    // In memory: the whole name, or (spilled) its first spill_prefix bytes.
    const std::string_view kept = other.view(id);
    ASSERT_TRUE(kept == full.view(id) ||
                (full.view(id).size() > string_pool_access::digest_prefix &&
                 kept == full.view(id).substr(0, string_pool_access::spill_prefix)))
        << "id " << id;
  }
}

TEST(string_pool, spill_gives_the_text_and_ids_of_full_mode) {
  string_pool full, spill = string_pool_access::make(pool_mode::spill);
  for (const auto& n : sample_names()) {
    const string_id a = full.intern(n), b = spill.intern(n);
    ASSERT_EQ(a, b);
    // Each name's text at once, while it may still be in the write buffer.
    ASSERT_EQ(spill.text(b), n);
  }
  EXPECT_TRUE(string_pool_access::spilling(spill));
  EXPECT_GT(string_pool_access::spilled_bytes(spill), 500000u);
  expect_same_names(full, spill);
  for (const auto& n : sample_names()) EXPECT_EQ(spill.find(n), full.find(n));
  EXPECT_FALSE(spill.find("not interned").has_value());
  // view() holds the first bytes of a long name, the whole of a short one.
  const string_id l = *spill.find(std::string(300000, 'x') + "end");
  EXPECT_EQ(spill.view(l), std::string(string_pool_access::spill_prefix, 'x'));
  const string_id at_limit = *spill.find(std::string(string_pool_access::digest_prefix, 'p'));
  EXPECT_EQ(spill.view(at_limit), std::string(string_pool_access::digest_prefix, 'p'));
  EXPECT_EQ(spill.view(*spill.find("main")), "main");
  EXPECT_FALSE(string_pool_access::read_failed(spill));

  // Moved, it still reads its file.
  string_pool moved = std::move(spill);
  EXPECT_EQ(moved.text(l), std::string(300000, 'x') + "end");
}

// release_index() frees the index (and spill mode's digests); a later intern() or find() makes
// them again, so ids stay the same and new names get new ids, in every mode.
TEST(string_pool, intern_and_find_work_after_release_index) {
  const auto names = sample_names();
  for (auto m : {pool_mode::full, pool_mode::digest, pool_mode::spill}) {
    string_pool pool = string_pool_access::make(m);
    std::vector<string_id> ids;
    for (const auto& n : names) ids.push_back(pool.intern(n));
    const auto digest_before = string_pool_access::digest(pool, ids[7]);
    pool.release_index();
    // The names are all still there.
    std::string scratch;
    if (m != pool_mode::digest) {
      for (std::size_t i = 0; i < names.size(); ++i)
        ASSERT_EQ(pool.text(ids[i], scratch), names[i]) << "mode " << static_cast<int>(m);
    }
    if (m != pool_mode::full) {
      EXPECT_EQ(string_pool_access::digest(pool, ids[7]).h,
                digest_before.h);  // made again from the text
      EXPECT_EQ(string_pool_access::digest(pool, ids[7]).h2, digest_before.h2);
    }
    const std::size_t size = pool.size();
    EXPECT_EQ(pool.find(names[5]), ids[5]);  // rebuilds the index
    EXPECT_FALSE(pool.find("not a name").has_value());
    for (std::size_t i = 0; i < names.size(); ++i) ASSERT_EQ(pool.intern(names[i]), ids[i]);
    EXPECT_EQ(pool.size(), size);
    pool.release_index();
    const string_id fresh = pool.intern("a new name that is longer than the prefix of forty bytes");
    EXPECT_EQ(fresh.index(), size);
    EXPECT_EQ(pool.intern("a new name that is longer than the prefix of forty bytes"), fresh);
    EXPECT_EQ(pool.intern(names[3]), ids[3]);
  }
}

// A name's place is one word (block, offset, length of up to 2^22 - 2 bytes; a longer name has
// a block of its own and its length is the block's): names of every length around those limits,
// mixed with short ones that fill blocks to their ends, keep their bytes in full mode, and in
// spill mode when they stay in memory (no spill file).
TEST(string_pool, every_length_keeps_its_bytes) {
  std::vector<std::string> names;
  for (std::size_t len :
       {std::size_t{1}, std::size_t{40000}, (std::size_t{1} << 22) - 2, (std::size_t{1} << 22) - 1,
        std::size_t{1} << 22, (std::size_t{1} << 22) + 1, std::size_t{5} << 20, std::size_t{32768},
        std::size_t{32769}, std::size_t{65536}, std::size_t{65535}})
    for (int i = 0; i < 3; ++i) {
      std::string n(len, static_cast<char>('a' + i));
      n.back() = static_cast<char>('A' + (len % 26));
      names.push_back(std::move(n));
      // ~10 KB of short names between the long ones (appended piece by piece: GCC 12 at -O2
      // warns, wrongly, -Wrestrict on "f" + std::string&&, GCC bug 105651)
      for (int j = 0; j < 700; ++j)
        names.push_back(std::string("f")
                            .append(std::to_string(names.size()))
                            .append(static_cast<std::size_t>(j % 13), 's'));
    }
  // Full mode; spill mode with no file (every name in memory); spill mode with a file, where
  // the long names' places hold their length and the text is found from the marks.
  for (int config = 0; config < 3; ++config) {
    SCOPED_TRACE("config " + std::to_string(config));
    string_pool pool =
        string_pool_access::make(config == 0 ? pool_mode::full : pool_mode::spill,
                                 config == 1 ? "/nonexistent-directory-for-calltree-tests" : "");
    std::vector<string_id> ids;
    std::uint64_t long_bytes = 0;
    for (const auto& n : names) {
      ids.push_back(pool.intern(n));
      if (n.size() > string_pool_access::digest_prefix) long_bytes += n.size();
    }
    EXPECT_EQ(string_pool_access::spilling(pool), config == 2);
    EXPECT_EQ(string_pool_access::spilled_bytes(pool), config == 2 ? long_bytes : 0u);
    std::string scratch;
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::size_t i = k % 2 ? names.size() - 1 - k / 2 : k / 2;  // from both ends
      const std::string& n = names[i];
      const std::string_view kept =
          config == 2 && n.size() > string_pool_access::digest_prefix
              ? std::string_view(n).substr(0, string_pool_access::spill_prefix)
              : std::string_view(n);
      string_pool_access::prefetch_view(pool,
                                        ids[i]);  // (a hint: the view that follows is the same)
      ASSERT_TRUE(pool.view(ids[i]) == kept) << "name " << i << ", " << n.size() << " bytes";
      ASSERT_TRUE(pool.text(ids[i], scratch) == n) << "name " << i << ", " << n.size() << " bytes";
    }
    for (std::size_t i = 0; i < names.size(); i += 97) EXPECT_EQ(pool.intern(names[i]), ids[i]);
    string_pool_access::prefetch_view(pool,
                                      string_pool::npos);  // (an id it does not have: nothing)
    string_pool_access::prefetch_view(pool, string_pool::empty);
    EXPECT_EQ(pool.view(string_pool::empty), "");
    EXPECT_NE(pool.view(string_pool::empty).data(), nullptr);
  }
}

TEST(string_pool, digest_text_is_the_prefix) {
  string_pool d = string_pool_access::make(pool_mode::digest);
  const string_id id = d.intern(std::string(100, 'd'));
  EXPECT_EQ(d.text(id), std::string(string_pool_access::digest_prefix, 'd'));
  EXPECT_FALSE(string_pool_access::spilling(d));
  EXPECT_EQ(string_pool_access::spilled_bytes(d), 0u);
}

TEST(string_pool, no_spill_file_keeps_names_in_memory) {
  string_pool full,
      spill = string_pool_access::make(pool_mode::spill, "/nonexistent/calltree-test-dir");
  for (const auto& n : sample_names()) ASSERT_EQ(full.intern(n), spill.intern(n));
  EXPECT_FALSE(string_pool_access::spilling(spill));
  EXPECT_EQ(string_pool_access::spilled_bytes(spill), 0u);
  expect_same_names(full, spill);
}

// RLIMIT_FSIZE for this process while it lives: writes beyond `bytes` fail with EFBIG (SIGXFSZ
// ignored) instead of killing the process.
class file_size_limit {
 public:
  explicit file_size_limit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = signal(SIGXFSZ, SIG_IGN);
    rlimit r = old_;
    r.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &r) == 0;
  }
  ~file_size_limit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    signal(SIGXFSZ, old_handler_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit old_{};
  sighandler_t old_handler_{};
  bool ok_ = false;
};

TEST(string_pool, failed_write_moves_the_buffer_to_memory) {
  string_pool full;
  std::vector<std::string> names = sample_names();
  for (const auto& n : names) full.intern(n);
  string_pool spill = string_pool_access::make(pool_mode::spill);
  {
    file_size_limit limit(400000);  // the long name and about one buffer
    ASSERT_TRUE(limit.ok());
    for (const auto& n : names) spill.intern(n);
  }
  EXPECT_FALSE(string_pool_access::spilling(spill));
  EXPECT_GT(string_pool_access::spilled_bytes(spill), 0u);
  EXPECT_LE(string_pool_access::spilled_bytes(spill), 400000u);
  expect_same_names(full, spill);
}

// ---- the same output from the writer ----------------------------------------------------

struct converted {
  std::string text, diagnostics;
  std::size_t names = 0;
};

converted convert(const std::string& path, string_pool& names) {
  converted c;
  auto in = open_input(path);
  EXPECT_TRUE(in.has_value()) << path;
  if (!in) return c;
  std::ostringstream out;
  callgrind_writer w(out, names);
  diagnostic_collector diags;
  reader_options o;
  o.display_name = path;
  auto st = detail::read_profile(**in, names, w, diags, o, detail::any_input());
  EXPECT_TRUE(st.has_value()) << path;
  EXPECT_TRUE(w.finish()) << path;
  c.text = out.str();
  for (const auto& d : diags.kept()) c.diagnostics += format_diagnostic(d, false);
  c.names = names.size();
  EXPECT_FALSE(string_pool_access::read_failed(names)) << path;
  return c;
}

void expect_same(const converted& a, const converted& b, const std::string& path) {
  EXPECT_EQ(a.names, b.names) << path;
  EXPECT_EQ(a.diagnostics, b.diagnostics) << path;
  EXPECT_TRUE(a.text == b.text) << path << ": the outputs differ (sizes " << a.text.size() << ", "
                                << b.text.size() << ")";
}

TEST(string_pool, writer_output_is_the_same_in_spill_mode_on_every_corpus_file) {
  std::size_t spilled = 0;
  for (const auto& file : test::corpus_profiles(true)) {
    const std::string path = file.string();
    string_pool full,
        spill = string_pool_access::make(pool_mode::spill),
        no_file = string_pool_access::make(pool_mode::spill, "/nonexistent/calltree-test-dir");
    const converted a = convert(path, full);
    expect_same(a, convert(path, spill), path);
    expect_same(a, convert(path, no_file), path);
    EXPECT_FALSE(string_pool_access::spilling(no_file));
    spilled += string_pool_access::spilled_bytes(spill);
  }
  // (the corpus has long C++ names, most of them in the files the sanitizers' run leaves out)
  EXPECT_GT(spilled, test::some_profiles_left_out() ? 100000u : 500000u);
}

TEST(string_pool, writer_output_is_the_same_when_spilling_fails_half_way) {
  string_pool full, spill = string_pool_access::make(pool_mode::spill);
  const converted a = convert(big_file, full);
  converted b;
  {
    file_size_limit limit(150000);  // one write buffer, and part of a second
    ASSERT_TRUE(limit.ok());
    b = convert(big_file, spill);
  }
  EXPECT_FALSE(string_pool_access::spilling(spill));
  EXPECT_GT(string_pool_access::spilled_bytes(spill), 0u);
  EXPECT_LE(string_pool_access::spilled_bytes(spill), 150000u);
  expect_same(a, b, big_file);
}

}  // namespace
}  // namespace calltree

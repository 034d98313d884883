// deferred_lines_test.cc — serve's start reads the function-level tables alone and the source
// lines when a view first asks (views::load_options::defer_lines): every function's lines,
// spans and own self cost, and every file's source view, are those of a session loaded whole,
// on every profile of the corpus, the golden and the malformed cases; a file changed before
// the second reading gives no lines and says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "profile_files.h"
#include "views/function_detail.h"
#include "views/session.h"
#include "views/source.h"

namespace calltree {
namespace {

std::unique_ptr<views::session> load(const std::string& path, bool defer, unsigned threads) {
  views::load_options o;
  o.defer_lines = defer;
  o.threads = threads;
  auto s = views::load_session(path, o);
  EXPECT_TRUE(s) << s.error().message;
  return s ? std::move(*s) : nullptr;
}

// What the function view shows of a function's lines.
std::vector<std::uint64_t> lines_of_function(const views::session& s, std::uint32_t k) {
  auto d = views::describe_function(s, k, views::detail_query{});
  EXPECT_TRUE(d) << d.error().message;
  std::vector<std::uint64_t> out;
  if (!d) return out;
  out.push_back(d->file);
  out.push_back(d->file_found);
  out.push_back(d->first_line);
  out.push_back(d->last_line);
  out.insert(out.end(), d->own_self.begin(), d->own_self.end());
  out.insert(out.end(), d->self.begin(), d->self.end());
  out.insert(out.end(), d->inclusive.begin(), d->inclusive.end());
  for (const auto& sp : d->inlined) {
    out.push_back(std::hash<std::string>()(s.lines().files[sp.file]));
    out.push_back(sp.first_line);
    out.push_back(sp.last_line);
    out.insert(out.end(), sp.self.begin(), sp.self.end());
  }
  return out;
}

// What the source view shows of a file (by name: the files only jumps name may be numbered
// otherwise).
std::vector<std::uint64_t> source_of(const views::session& s, std::uint32_t f) {
  auto v = views::annotate_source(s, f, views::source_query{});
  EXPECT_TRUE(v) << v.error().message;
  std::vector<std::uint64_t> out;
  if (!v) return out;
  out.push_back(v->has_lines);
  for (const auto& l : v->lines) {
    out.push_back(l.line);
    out.insert(out.end(), l.self.begin(), l.self.end());
    out.push_back(l.hot);
    for (const auto& c : l.calls) {
      out.insert(out.end(), {c.caller, c.callee, c.count, std::uint64_t{c.recursive}});
      out.insert(out.end(), c.cost.begin(), c.cost.end());
    }
    for (const auto& j : l.jumps)
      out.insert(out.end(), {std::hash<std::string>()(s.lines().files[j.target_file]),
                             j.target_line, std::uint64_t{j.conditional}, j.executed, j.followed});
  }
  for (const auto& fn : v->functions) out.insert(out.end(), {fn.id, fn.first_line, fn.last_line});
  return out;
}

TEST(DeferredLines, EveryViewOfLinesIsThatOfAWholeLoad) {
  std::size_t files = 0, with_lines = 0;
  for (const auto& path : test::every_profile(true)) {
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE(path.string() + " threads=" + std::to_string(threads));
      auto whole = load(path.string(), false, threads);
      auto deferred = load(path.string(), true, threads);
      ASSERT_TRUE(whole && deferred);
      EXPECT_TRUE(whole->lines_ready());
      ASSERT_EQ(whole->keys(), deferred->keys());
      ASSERT_EQ(whole->t.files, deferred->t.files);
      ASSERT_EQ(whole->errors, deferred->errors);
      ASSERT_EQ(whole->warnings, deferred->warnings);
      EXPECT_FALSE(deferred->t.lines);  // (the start read no line)
      const auto& lt = deferred->lines();
      EXPECT_TRUE(deferred->lines_ready());
      EXPECT_EQ(deferred->lines_error(), "");
      EXPECT_EQ(lt.lines, whole->t.lines);
      // The line tables' files begin with the profile's, and are the whole load's.
      ASSERT_GE(lt.files.size(), deferred->t.files.size());
      EXPECT_TRUE(std::equal(deferred->t.files.begin(), deferred->t.files.end(), lt.files.begin()));
      EXPECT_EQ(deferred->t.file_found, std::vector<char>(whole->t.file_found.begin(),
                                                          whole->t.file_found.begin() +
                                                              static_cast<std::ptrdiff_t>(
                                                                  deferred->t.file_found.size())));
      for (std::uint32_t k = 0; k < whole->keys(); ++k)
        ASSERT_EQ(lines_of_function(*whole, k), lines_of_function(*deferred, k)) << "key " << k;
      for (std::uint32_t f = 0; f < whole->lines().files.size(); ++f) {
        const auto& name = whole->lines().files[f];
        const auto at = std::find(lt.files.begin(), lt.files.end(), name);
        ASSERT_NE(at, lt.files.end()) << name;
        ASSERT_EQ(source_of(*whole, f),
                  source_of(*deferred, static_cast<std::uint32_t>(at - lt.files.begin())))
            << name;
      }
      ++files;
      with_lines += whole->t.lines && !whole->t.file_lines.empty();
    }
  }
  EXPECT_GT(files, 50u);
  EXPECT_GT(with_lines, 50u);
}

// Two threads asking at once: one reads, the other waits, both see the same tables.
TEST(DeferredLines, ThreadsAskingAtOnceShareOneReading) {
  const std::string path = std::string(CALLTREE_CORPUS_DIR) + "/vg-recurse-cacheuse.callgrind";
  auto s = load(path, true, 2);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->lines_ready());
  const views::annotate_data* a = nullptr;
  const views::annotate_data* b = nullptr;
  std::thread t1([&] { a = &s->lines(); });
  std::thread t2([&] { b = &s->lines(); });
  t1.join();
  t2.join();
  EXPECT_EQ(a, b);
  EXPECT_TRUE(a->lines);
  EXPECT_TRUE(s->lines_ready());
}

// A server that ends stops the reading: lines() answers at once, without lines.
TEST(DeferredLines, StopReadingEndsTheSecondReading) {
  const std::string path = std::string(CALLTREE_CORPUS_DIR) + "/vg-recurse-cacheuse.callgrind";
  auto s = load(path, true, 2);
  ASSERT_TRUE(s);
  s->stop_reading();
  EXPECT_FALSE(s->lines().lines);
  EXPECT_TRUE(s->lines_ready());
  EXPECT_EQ(s->lines_error(), "the server is ending");
}

// A file changed between the start and the second reading: no lines, and why; the function
// view still answers.
TEST(DeferredLines, AFileChangedBeforeTheSecondReadingGivesNoLines) {
  const auto dir = std::filesystem::temp_directory_path() / "calltree_deferred_lines_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "p.callgrind";
  std::filesystem::copy_file(std::string(CALLTREE_CORPUS_DIR) + "/vg-recurse-cacheuse.callgrind",
                             path, std::filesystem::copy_options::overwrite_existing);
  auto s = load(path.string(), true, 1);
  ASSERT_TRUE(s);
  {
    std::ofstream out(path, std::ios::app);
    out << "\nfn=added\n1 1\n";
  }
  const auto& lt = s->lines();
  EXPECT_FALSE(lt.lines);
  EXPECT_NE(s->lines_error().find("changed since it was read"), std::string::npos)
      << s->lines_error();
  auto d = views::describe_function(*s, 0, views::detail_query{});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->first_line, 0u);
  auto v = views::annotate_source(*s, 0, views::source_query{});
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->has_lines);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace calltree

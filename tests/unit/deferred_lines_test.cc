// deferred_lines_test.cc — serve's start reads the function-level tables alone and the source
// lines when a view first asks (views::load_options::defer_lines): every function's lines,
// spans and own self cost, and every file's source view, are those of a session loaded whole,
// on every profile of the corpus, the golden and the malformed cases; a file changed before
// the second reading gives no lines and says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "profile_files.h"
#include "asm/read_any_functions.h"
#include "calltree/asm.h"
#include "calltree/input.h"
#include "reader/record_batch.h"
#include "views/function_detail.h"
#include "views/session.h"
#include "views/source.h"

namespace calltree {
namespace {

std::unique_ptr<views::session> load(const std::string& path, bool defer, unsigned threads,
                                     std::size_t chunk_bytes = 0, bool by_chunks = false) {
  views::load_options o;
  o.defer_lines = defer;
  o.lines_by_chunks = by_chunks;
  o.threads = threads;
  o.chunk_bytes = chunk_bytes;
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
    out.push_back(std::hash<std::string>()(s.file_names()[sp.file]));
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
      out.insert(out.end(), {std::hash<std::string>()(s.file_names()[j.target_file]),
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

// A file's lines read from the chunks that hold a function's or a file's records alone (chunks
// of a few hundred bytes, so that every file has many; a compressed file's from its decoded
// bytes, kept): every view of lines is that of a whole load, and no second reading is made.
TEST(DeferredLines, LinesReadByChunksAreThoseOfAWholeLoad) {
  // (The corpus's gzip file: read by chunks from its decoded bytes, with 1 and 2 threads,
  // where the tests read files of its size: CALLTREE_TEST_MAX_BYTES.)
  const std::string gz_file = "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz";
  std::size_t files = 0, by_chunks = 0, compressed = 0, gz_read = 0;
  for (const auto& path : test::every_profile(true)) {
    gz_read += path.filename() == gz_file;
    for (unsigned threads : {1u, 2u}) {
      // (One thread: chunks of a few hundred bytes on a small file, a hundredth of a big one;
      // two: of a few KB, a tenth.)
      const auto size = static_cast<std::size_t>(std::filesystem::file_size(path));
      {
        const std::size_t chunk = threads == 1 ? std::max<std::size_t>(300, size / 100)
                                               : std::max<std::size_t>(4096, size / 10);
        SCOPED_TRACE(path.string() + " threads=" + std::to_string(threads) +
                     " chunk=" + std::to_string(chunk));
        auto whole = load(path.string(), false, threads);
        auto ranged = load(path.string(), true, threads, chunk, true);
        ASSERT_TRUE(whole && ranged);
        ASSERT_EQ(whole->keys(), ranged->keys());
        ASSERT_EQ(whole->errors, ranged->errors);
        ASSERT_EQ(whole->warnings, ranged->warnings);
        ++files;
        if (!ranged->lines_by_chunks()) continue;
        ++by_chunks;
        compressed += path.filename() == gz_file;
        ASSERT_EQ(whole->lines().files, ranged->file_names());
        // (Every function and file of a small profile; of a big one, 150 spread over it.)
        const std::uint32_t nk = static_cast<std::uint32_t>(whole->keys());
        for (std::uint32_t k = 0; k < nk; k += std::max<std::uint32_t>(1, nk / 150))
          ASSERT_EQ(lines_of_function(*whole, k), lines_of_function(*ranged, k)) << "key " << k;
        const auto nf = static_cast<std::uint32_t>(whole->lines().files.size());
        for (std::uint32_t f = 0; f < nf; f += std::max<std::uint32_t>(1, nf / 150))
          ASSERT_EQ(source_of(*whole, f), source_of(*ranged, f)) << whole->lines().files[f];
        EXPECT_FALSE(ranged->lines_ready());  // (no second whole reading was made)
      }
    }
  }
  EXPECT_GT(files, 100u);
  EXPECT_GT(by_chunks, files / 2);
  EXPECT_EQ(compressed, 2 * gz_read);
}

// What the machine code view reads of a profile of a few functions: each self row, call and
// jump, with its names and costs, in order.
std::vector<std::string> rows_of(const profile& q) {
  std::vector<std::string> out;
  auto costs = [](std::span<const std::uint64_t> c) {
    std::string s;
    for (std::uint64_t v : c) s += " " + std::to_string(v);
    return s;
  };
  for (std::size_t i = 0; i < q.self_rows.size(); ++i) {
    const self_row& r = q.self_rows[i];
    out.push_back("self " + std::to_string(r.part.index()) + " " +
                  std::string(q.function_name(r.function)) + " " +
                  std::string(q.file_name(r.source_file)) + " " + std::to_string(r.pos.instr) +
                  " " + std::to_string(r.pos.line) + costs(q.self_costs.row(i)));
  }
  for (std::size_t i = 0; i < q.calls.size(); ++i) {
    const call_row& r = q.calls[i];
    out.push_back("call " + std::string(q.function_name(r.caller)) + " " +
                  std::string(q.function_name(r.callee)) + " " + std::to_string(r.site.instr) +
                  " " + std::to_string(r.count) + costs(q.call_costs.row(i)));
  }
  for (const jump_row& j : q.jumps)
    out.push_back("jump " + std::string(q.function_name(j.function)) + " " +
                  std::to_string(j.source.instr) + " " + std::to_string(j.target.instr) + " " +
                  std::to_string(j.executed) + " " + std::to_string(j.followed));
  return out;
}

// The machine code view's records of a function, read from the chunks of the functions of its
// name, are those of a whole reading filtered by its name (asm/select.cc).
TEST(DeferredLines, MachineCodeRecordsReadByChunksAreThoseOfAWholeReading) {
  std::size_t compared = 0, with_rows = 0;
  for (const char* name : {"vg-recurse-cacheuse.callgrind", "vg-sqlite3-workload-cache-branch-sim.callgrind",
                           "vg-python-work-instr-jumps.callgrind"}) {
    const std::string path = std::string(CALLTREE_CORPUS_DIR) + "/" + name;
    SCOPED_TRACE(path);
    const auto size = static_cast<std::size_t>(std::filesystem::file_size(path));
    auto s = load(path, true, 2, std::max<std::size_t>(300, size / 50), true);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->lines_by_chunks());
    const auto nk = static_cast<std::uint32_t>(s->keys());
    for (std::uint32_t k = 0; k < nk; k += std::max<std::uint32_t>(1, nk / 40)) {
      const std::string fn(s->name(k));
      auto keep = [&fn](std::string_view n) { return n == fn; };
      profile whole, ranged;
      {
        auto in = open_input(path);
        ASSERT_TRUE(in);
        detail::null_diagnostics quiet;
        ASSERT_TRUE(detail::read_any_functions(**in, whole, keep, quiet));
      }
      {
        // (as the machine code view reads them, server/routes_asm.cc)
        detail::null_diagnostics quiet;
        ASSERT_TRUE(detail::read_functions_by(ranged, keep, quiet, 0, path, [&](record_sink& sink) {
          return s->read_records_of_name(k, ranged.strings, sink);
        }));
      }
      ASSERT_EQ(rows_of(whole), rows_of(ranged)) << fn;
      ++compared;
      with_rows += !whole.jumps.empty() && !whole.calls.empty();
    }
  }
  EXPECT_GT(compared, 60u);
  EXPECT_GT(with_rows, 15u);
}

// Two runs in one file (`cat a b`), the second one's functions renamed: the same `(id)`s name
// other functions in the second part (the format allows it across parts). Its chunks resolve
// each id by the name in force on its line.
TEST(DeferredLines, IdsGivenAnotherNameInALaterPartReadByChunks) {
  const auto dir = std::filesystem::temp_directory_path() / "calltree_renamed_ids_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "two-runs.callgrind";
  {
    std::ifstream in(std::string(CALLTREE_CORPUS_DIR) + "/vg-recurse-cacheuse.callgrind");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string renamed;
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t end = text.find('\n', at);
      end = end == std::string::npos ? text.size() : end + 1;
      std::string line = text.substr(at, end - at);
      for (const char* key : {"fn=(", "cfn=("}) {
        const std::size_t close = line.find(") ");
        if (line.starts_with(key) && close != std::string::npos)
          line.insert(close + 2, "second_");
      }
      renamed += line;
      at = end;
    }
    std::ofstream out(path);
    out << text << renamed;
  }
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    auto whole = load(path.string(), false, threads);
    auto ranged = load(path.string(), true, threads, 2000, true);
    ASSERT_TRUE(whole && ranged);
    ASSERT_TRUE(ranged->lines_by_chunks());
    ASSERT_EQ(whole->keys(), ranged->keys());
    for (std::uint32_t k = 0; k < whole->keys(); ++k)
      ASSERT_EQ(lines_of_function(*whole, k), lines_of_function(*ranged, k)) << "key " << k;
    for (std::uint32_t f = 0; f < whole->lines().files.size(); ++f)
      ASSERT_EQ(source_of(*whole, f), source_of(*ranged, f)) << whole->lines().files[f];
    EXPECT_FALSE(ranged->lines_ready());
  }
  std::filesystem::remove_all(dir);
}

// A run of several files (callgrind --separate-threads: five threads) read as one profile: each
// file's chunks indexed, numbered across the files, every part of the run begun in order.
TEST(DeferredLines, ARunOfSeveralFilesReadByChunks) {
  std::vector<std::string> paths;
  for (int t = 1; t <= 5; ++t)
    paths.push_back(std::string(CALLTREE_CORPUS_DIR) + "/vg-threads-separate.t0" +
                    std::to_string(t) + ".callgrind");
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    views::load_options o;
    o.threads = threads;
    auto whole = views::load_run(paths, o);
    o.defer_lines = true;
    o.chunk_bytes = 400;
    auto ranged = views::load_run(paths, o);
    ASSERT_TRUE(whole && ranged);
    ASSERT_TRUE((*ranged)->lines_by_chunks());
    ASSERT_EQ((*whole)->keys(), (*ranged)->keys());
    ASSERT_EQ((*whole)->p.parts.size(), 5u);
    for (std::uint32_t k = 0; k < (*whole)->keys(); ++k)
      ASSERT_EQ(lines_of_function(**whole, k), lines_of_function(**ranged, k)) << "key " << k;
    for (std::uint32_t f = 0; f < (*whole)->lines().files.size(); ++f)
      ASSERT_EQ(source_of(**whole, f), source_of(**ranged, f)) << (*whole)->lines().files[f];
    EXPECT_FALSE((*ranged)->lines_ready());
  }
}

// A file changed after the start: the views of lines read by chunks say so.
TEST(DeferredLines, AFileChangedBeforeItsChunksAreReadSaysSo) {
  const auto dir = std::filesystem::temp_directory_path() / "calltree_chunk_lines_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "p.callgrind";
  std::filesystem::copy_file(std::string(CALLTREE_CORPUS_DIR) + "/vg-recurse-cacheuse.callgrind",
                             path, std::filesystem::copy_options::overwrite_existing);
  auto s = load(path.string(), true, 1, 300, true);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->lines_by_chunks());
  {
    std::ofstream out(path, std::ios::app);
    out << "\nfn=added\n1 1\n";
  }
  // (The function view answers without lines; the source view says why.)
  auto d = views::describe_function(*s, 0, views::detail_query{});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->first_line, 0u);
  auto v = views::annotate_source(*s, 0, views::source_query{});
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("changed since it was read"), std::string::npos)
      << v.error().message;
  std::filesystem::remove_all(dir);
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
  if (s->lines_by_chunks()) {  // (read by chunks: the source view says why it has none)
    auto d = views::describe_function(*s, 0, views::detail_query{});
    ASSERT_TRUE(d);
    EXPECT_EQ(d->first_line, 0u);
    auto v = views::annotate_source(*s, 0, views::source_query{});
    ASSERT_FALSE(v);
    EXPECT_NE(v.error().message.find("changed since it was read"), std::string::npos);
    std::filesystem::remove_all(dir);
    return;
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

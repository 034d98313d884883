// history/index.h — (internal) the index of a folder of runs: a cache of what each file says.
//
// What it is: per file (its absolute path, size and modification time) what
// history/run_costs.h keeps of it (header, events, totals, every function's self and
// inclusive cost per event), or why it holds no profile, in an SQLite database, so that a
// folder answers `calltree trend` and serve's Trend view fast after its first reading. By
// default in the user's cache directory ($XDG_CACHE_HOME/calltree/index.sqlite, else
// ~/.cache/calltree/index.sqlite); one index serves every folder.
//
// It is a cache, never trusted:
//  * an entry is used only when the file's size and modification time are the ones stored
//    (a changed file is read again, and its entry replaced);
//  * each entry's costs are one blob decoded with every length checked against the blob's
//    end; a blob that does not decode is a miss (the file is read again);
//  * a file at the index's path that is no SQLite database, or a corrupt one, is deleted and
//    made again; a database of another program or of another version of this schema (no
//    `meta` row saying `calltree-history-index` version 2) has its tables dropped and made
//    again; an error of SQLite while the index is used (SQLITE_CORRUPT, a full disk, ...)
//    (but a corruption, once: the index is made again) turns the index off for the rest of
//    the process: the files are read, the answer is the
//    same, only slower;
//  * two processes may use it at once: WAL journal, writes in short IMMEDIATE transactions of
//    at most 64 files each, made after the files are read, a busy timeout of 10 seconds.
// What it is not: a store of profiles (no calls, no lines), nor a listing of folders.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calltree/result.h"
#include "history/run_costs.h"

struct sqlite3;

namespace calltree::history {

// What the index keeps of one file: its costs, or the reason it holds none (`problem`).
struct indexed_run {
  std::string problem;  // empty: `costs` is the file's
  run_costs costs;
};

// $XDG_CACHE_HOME/calltree/index.sqlite (when XDG_CACHE_HOME is an absolute path), else
// $HOME/.cache/calltree/index.sqlite; an error when neither can be made.
result<std::string> default_index_path();

class run_index {
 public:
  // Opens (or makes, with its folder) the index at `path`; rebuilds one that is corrupt or
  // foreign (what was done: `note()`). An error only when no index can be made there.
  static result<std::unique_ptr<run_index>> open(const std::string& path);
  ~run_index();
  run_index(const run_index&) = delete;
  run_index& operator=(const run_index&) = delete;

  // The entry of `path` if it was stored for this size and modification time.
  std::optional<indexed_run> find(const std::string& path, std::uint64_t size,
                                  std::int64_t mtime_ns);
  // Stores (replaces) the entry of `path`; written at the latest by flush().
  void put(const std::string& path, std::uint64_t size, std::int64_t mtime_ns,
           const indexed_run& run);
  // Commits what put() stored.
  void flush();

  // What open() had to do ("" when the index was sound), and why the index was turned off
  // ("" while it works).
  const std::string& note() const { return note_; }
  const std::string& failure() const { return failure_; }
  const std::string& path() const { return path_; }
  bool working() const { return db_ != nullptr; }

 private:
  run_index() = default;
  void fail(const std::string& what);
  std::string path_, note_, failure_;
  sqlite3* db_ = nullptr;
  bool remade_ = false;  // made again once after a corruption found while used
  struct pending_entry {
    std::string path;
    std::uint64_t size;
    std::int64_t mtime_ns;
    std::string problem, creator, cmd, blob;
  };
  std::vector<pending_entry> pending_;  // put() but not written yet
};

// The blob of an entry's costs, and back (nullopt: not one, or cut short).
std::string encode_run(const run_costs& r);
std::optional<run_costs> decode_run(std::string_view blob);

}  // namespace calltree::history

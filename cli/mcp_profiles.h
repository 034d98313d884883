// mcp_profiles.h — the profiles `calltree mcp` has read, kept across calls, and serve's API of
// each asked in-process.
//
// What it is: a cache of views::session (one per file) and server::api (one profile, or OLD and
// NEW for a diff), keyed by each file's real path, size and modification time: a call on a
// file that changed on disk reads it again, a call on one that did not answers from memory.
// The least recently used go first past `keep` profiles (a diff holds two). A folder's runs
// (the trend tool) are kept the same way by a server::run_store per folder. Every number a
// tool gives is an answer of the API here, the JSON `calltree serve` sends the page, so the
// tools and the page cannot disagree. What it is not: thread-safe (the server answers one
// message at a time), nor a reader of standard input.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api.h"
#include "mcp_tools.h"
#include "views/session.h"

namespace calltree::server {
class run_store;
}

namespace calltree::cli::mcp {

// One profile, or a diff of two, as the API serves it.
struct served {
  std::vector<std::shared_ptr<const views::session>> sessions;  // one, or OLD and NEW
  std::unique_ptr<server::api> api;
  // GET `target` ("/api/v1/functions?..."): the parsed answer, or tool_failure with the API's
  // message (an event the profile lacks, a bad regex, ...).
  json ask(const std::string& target) const;
  std::string token;
};

class profile_cache {
 public:
  profile_cache(views::load_options options, std::size_t keep, std::string index);
  ~profile_cache();

  // The profile at `path` as it is on disk now: tool_failure when it cannot be read, or holds
  // no profile (its first diagnostics, file:line:col, in the message).
  const served& single(const std::string& path);
  // The diff of OLD and NEW (calltree diff's functions).
  const served& diff(const std::string& old_path, const std::string& new_path);
  // The answer of serve DIR's /api/v1/trend?`query` for the folder `dir` (its runs read once
  // and kept while their files do not change).
  json trend(const std::string& dir, bool recursive, const std::string& query);

  // For the record tool: what it reads the profile it made with.
  const views::load_options& load_options() const { return options_; }

 private:
  struct entry {
    std::string key;
    std::vector<std::string> files;  // file_key of each session (a diff: OLD, NEW)
    std::unique_ptr<served> value;
  };
  std::shared_ptr<const views::session> session_of(const std::string& path, std::string& key);
  const served& remember(std::string key, std::vector<std::string> files,
                         std::unique_ptr<served> value);
  const served* find(const std::string& key);

  views::load_options options_;
  std::size_t keep_;
  std::string index_;      // the trend's index: a path, "" for the default, "none"
  std::list<entry> kept_;  // the most recently used first
  std::map<std::string, std::shared_ptr<server::run_store>> stores_;  // by folder
};

// The real path of `path` (the file as the cache keys it) with its size and modification time,
// or tool_failure saying why it cannot be read (no such file, a folder where a file is wanted).
std::string file_key(const std::string& path, bool want_folder = false);

}  // namespace calltree::cli::mcp

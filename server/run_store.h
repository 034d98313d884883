// server/run_store.h — the runs of `serve DIR` as its Trend view and its table's totals need
// them: each file's history::run_costs, kept in memory once read, from the index
// (history/index.h) or read whole.
//
// What it is: a cache in front of history::load_runs, keyed by each file's path, size and
// modification time (a changed file is read again), shared by the folder's background thread
// (the table's totals) and the trend route; one reading at a time. What it is not: the
// listing (folder.h) nor the trend (history/trend.h).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "history/index.h"
#include "history/runs.h"

namespace calltree::server {

class run_store {
 public:
  // `index` may be null (serve --index=none, or no cache directory).
  explicit run_store(std::unique_ptr<history::run_index> index);

  // The run of each file, in the order given.
  std::vector<std::shared_ptr<const history::loaded_run>> runs(
      const std::vector<history::run_file>& files);
  // The run of one file.
  std::shared_ptr<const history::loaded_run> run(const history::run_file& file);

  // What the index said when opened or failed ("" when nothing).
  std::string index_note() const;

 private:
  mutable std::mutex m_;
  std::unique_ptr<history::run_index> index_;
  std::unordered_map<std::string, std::shared_ptr<const history::loaded_run>> kept_;
};

}  // namespace calltree::server

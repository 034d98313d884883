// server/run_store.cc — the runs of serve DIR, kept (see run_store.h).
#include "run_store.h"

namespace calltree::server {

run_store::run_store(std::unique_ptr<history::run_index> index) : index_(std::move(index)) {}

std::vector<std::shared_ptr<const history::loaded_run>> run_store::runs(
    const std::vector<history::run_file>& files) {
  std::lock_guard<std::mutex> lock(m_);
  std::vector<std::shared_ptr<const history::loaded_run>> out(files.size());
  std::vector<history::run_file> todo;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = kept_.find(files[i].path);
    if (it != kept_.end() && it->second->file.size == files[i].size &&
        it->second->file.mtime_ns == files[i].mtime_ns) {
      out[i] = it->second;
      continue;
    }
    todo.push_back(files[i]);
    where.push_back(i);
  }
  if (!todo.empty()) {
    auto read = history::load_runs(todo, index_.get());
    for (std::size_t k = 0; k < read.size(); ++k) {
      auto r = std::make_shared<const history::loaded_run>(std::move(read[k]));
      kept_[r->file.path] = r;
      out[where[k]] = std::move(r);
    }
  }
  return out;
}

std::shared_ptr<const history::loaded_run> run_store::run(const history::run_file& file) {
  return runs({file}).front();
}

std::string run_store::index_note() const {
  std::lock_guard<std::mutex> lock(m_);
  if (!index_) return "";
  return !index_->failure().empty() ? index_->failure() : index_->note();
}

}  // namespace calltree::server

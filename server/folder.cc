// server/folder.cc — the profiles of a folder (see folder.h).
#include "folder.h"

#include "run_store.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <tuple>

namespace calltree::server {

namespace {

struct found_file {
  std::string name;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
};

bool hidden(const std::filesystem::path& p) {
  const std::string n = p.filename().string();
  return !n.empty() && n.front() == '.';
}

// The regular files of `dir` (below it with `recursive`; symbolic links to folders are not
// followed, so no loop), but those whose name (or a folder's) begins with '.'. A folder that
// cannot be read is skipped.
std::vector<found_file> list_files(const std::string& dir, bool recursive) {
  namespace fs = std::filesystem;
  std::vector<found_file> out;
  std::error_code ec;
  const auto opts = fs::directory_options::skip_permission_denied;
  const std::string prefix = dir.ends_with('/') ? dir : dir + "/";
  auto add = [&](const fs::directory_entry& e) {
    if (hidden(e.path())) return;
    struct stat st;
    if (stat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    found_file f;
    // (The iterator's paths are DIR/NAME: NAME is what follows DIR, no realpath() a file.)
    const std::string& full = e.path().native();
    f.name = full.size() > prefix.size() && full.compare(0, prefix.size(), prefix) == 0
                 ? full.substr(prefix.size())
                 : e.path().filename().string();
    f.size = static_cast<std::uint64_t>(st.st_size);
    f.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    out.push_back(std::move(f));
  };
  if (recursive) {
    fs::recursive_directory_iterator it(dir, opts, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (hidden(it->path())) {
        std::error_code e2;
        if (it->is_directory(e2)) it.disable_recursion_pending();
        continue;
      }
      add(*it);
    }
  } else {
    fs::directory_iterator it(dir, opts, ec), end;
    for (; !ec && it != end; it.increment(ec)) add(*it);
  }
  return out;
}

// What a column sorts by: numbers, then text (unread headers sort as the smallest).
std::tuple<std::uint64_t, std::int64_t, const std::string*> key_of(const folder_entry& e,
                                                                   folder_column c) {
  static const std::string none;
  switch (c) {
    case folder_column::name:
      return {0, 0, &e.name};
    case folder_column::producer:
      return {e.headed, 0, &e.facts.creator};
    case folder_column::cmd:
      return {e.headed, 0, &e.facts.cmd};
    case folder_column::time:
      return {0, e.mtime_ns, &none};
    case folder_column::size:
      return {e.size, 0, &none};
    case folder_column::parts:
      if (e.opened) return {e.opened_parts, 1, &none};
      return {e.headed && e.facts.problem.empty() ? e.facts.parts : 0, e.facts.whole, &none};
    case folder_column::total: {
      const auto t = row_total(e);
      return {t ? t->value : 0, t.has_value(), &none};
    }
  }
  return {0, 0, &none};
}

}  // namespace

std::optional<row_total_value> row_total(const folder_entry& e) {
  const views::header_facts& h = e.facts;
  if (e.opened && e.opened_total) return row_total_value{*e.opened_total, row_total_from::opened};
  if (!e.headed || h.events.empty()) return std::nullopt;
  if (h.whole && h.first_total) return row_total_value{*h.first_total, row_total_from::read};
  if (e.indexed_total) return row_total_value{*e.indexed_total, row_total_from::index};
  if (h.first_total) return row_total_value{*h.first_total, row_total_from::summary};
  return std::nullopt;
}

folder::folder(std::string dir, bool recursive, unsigned interval_ms)
    : dir_(std::move(dir)), recursive_(recursive), interval_ms_(interval_ms) {
  scan();
  thread_ = std::thread([this] { run(); });
}

folder::~folder() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void folder::rescan(unsigned fresh_ms) {
  {
    std::lock_guard<std::mutex> lock(m_);
    if (scans_ != 0 &&
        std::chrono::steady_clock::now() - last_scan_ < std::chrono::milliseconds(fresh_ms))
      return;
  }
  scan();
}

void folder::scan() {
  std::lock_guard<std::mutex> one(scanning_);
  const auto began = std::chrono::steady_clock::now();
  std::vector<found_file> found = list_files(dir_, recursive_);
  std::lock_guard<std::mutex> lock(m_);
  std::vector<bool> seen(entries_.size(), false);
  for (auto& f : found) {
    auto it = by_name_.find(f.name);
    if (it != by_name_.end()) {
      folder_entry& e = entries_[it->second];
      seen[it->second] = true;
      if (e.size != f.size || e.mtime_ns != f.mtime_ns) {
        e.size = f.size;
        e.mtime_ns = f.mtime_ns;
        e.headed = false;
        e.totalled = false;
        e.indexed_total.reset();
        e.opened = false;
      }
      continue;
    }
    folder_entry e;
    e.id = next_id_++;
    e.path = (std::filesystem::path(dir_) / f.name).string();
    e.name = std::move(f.name);
    e.size = f.size;
    e.mtime_ns = f.mtime_ns;
    by_name_.emplace(e.name, entries_.size());
    by_id_.emplace(e.id, entries_.size());
    entries_.push_back(std::move(e));
  }
  // Deleted files leave the listing (their ids are not given again).
  if (std::find(seen.begin(), seen.end(), false) != seen.end()) {
    std::vector<folder_entry> kept;
    kept.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i)
      if (i >= seen.size() || seen[i]) kept.push_back(std::move(entries_[i]));
    entries_ = std::move(kept);
    by_name_.clear();
    by_id_.clear();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      by_name_.emplace(entries_[i].name, i);
      by_id_.emplace(entries_[i].id, i);
    }
  }
  ++scans_;
  last_scan_ = began;
}

void folder::note_opened(std::uint64_t id, std::uint64_t size, std::int64_t mtime_ns,
                         std::uint64_t parts, std::optional<std::uint64_t> first_total,
                         std::string event) {
  std::lock_guard<std::mutex> lock(m_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return;
  folder_entry& e = entries_[it->second];
  // (a file that changed since it was read keeps what its header says)
  if (e.size != size || e.mtime_ns != mtime_ns) return;
  e.opened = true;
  e.opened_parts = parts;
  e.opened_total = first_total;
  e.opened_event = std::move(event);
}

void folder::read_headers(const std::vector<std::uint64_t>& ids) {
  for (std::uint64_t id : ids) {
    std::string path;
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = by_id_.find(id);
      if (it == by_id_.end() || entries_[it->second].headed) continue;
      path = entries_[it->second].path;
    }
    views::header_facts facts = views::read_header(path);
    std::lock_guard<std::mutex> lock(m_);
    auto it = by_id_.find(id);
    if (it == by_id_.end()) continue;
    folder_entry& e = entries_[it->second];
    if (e.headed) continue;
    // (A file that changed since it was listed is read again after the next scan lists it.)
    if (facts.problem.empty() && facts.size != e.size) continue;
    e.facts = std::move(facts);
    e.headed = true;
  }
}

void folder::run() {
  auto last = std::chrono::steady_clock::now();
  for (;;) {
    // The headers not read yet, newest first, a few at a time (a query may take the lock).
    for (;;) {
      std::vector<std::pair<std::int64_t, std::uint64_t>> todo;
      {
        std::lock_guard<std::mutex> lock(m_);
        if (stop_) return;
        for (const auto& e : entries_)
          if (!e.headed) todo.emplace_back(e.mtime_ns, e.id);
      }
      if (todo.empty()) {
        // Then the totals the headers do not state, a few at a time.
        if (!read_totals()) break;
        if (std::chrono::steady_clock::now() - last >= std::chrono::milliseconds(interval_ms_))
          break;
        continue;
      }
      std::sort(todo.begin(), todo.end(), std::greater<>());
      if (todo.size() > 64) todo.resize(64);
      std::vector<std::uint64_t> ids;
      for (const auto& t : todo) ids.push_back(t.second);
      read_headers(ids);
      if (std::chrono::steady_clock::now() - last >= std::chrono::milliseconds(interval_ms_)) break;
    }
    {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait_until(lock, last + std::chrono::milliseconds(interval_ms_),
                       [this] { return stop_; });
      if (stop_) return;
    }
    last = std::chrono::steady_clock::now();
    scan();
  }
}

bool folder::read_totals() {
  std::shared_ptr<run_store> store;
  std::vector<std::pair<std::int64_t, std::uint64_t>> todo;
  {
    std::lock_guard<std::mutex> lock(m_);
    if (!store_ || stop_) return false;
    store = store_;
    for (const auto& e : entries_)
      if (e.headed && !e.totalled && e.facts.problem.empty() && !e.facts.whole)
        todo.emplace_back(e.mtime_ns, e.id);
  }
  if (todo.empty()) return false;
  std::sort(todo.begin(), todo.end(), std::greater<>());
  if (todo.size() > 8) todo.resize(8);
  for (const auto& t : todo) {
    history::run_file file;
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = by_id_.find(t.second);
      if (it == by_id_.end()) continue;
      const folder_entry& e = entries_[it->second];
      file = {e.path, e.size, e.mtime_ns};
    }
    auto run = store->run(file);
    std::lock_guard<std::mutex> lock(m_);
    auto it = by_id_.find(t.second);
    if (it == by_id_.end()) continue;
    folder_entry& e = entries_[it->second];
    if (e.size != file.size || e.mtime_ns != file.mtime_ns) continue;  // changed meanwhile
    e.totalled = true;
    if (run->problem.empty() && !run->costs.total.empty())
      e.indexed_total = run->costs.total.front();
  }
  return true;
}

std::vector<folder_entry> folder::entries() const {
  std::lock_guard<std::mutex> lock(m_);
  return entries_;
}

void folder::set_store(std::shared_ptr<run_store> store) {
  std::lock_guard<std::mutex> lock(m_);
  store_ = std::move(store);
}

std::shared_ptr<run_store> folder::store() const {
  std::lock_guard<std::mutex> lock(m_);
  return store_;
}

folder_page folder::query(const folder_query& q) {
  folder_page page;
  std::vector<std::uint64_t> window;
  auto select = [&] {
    std::vector<const folder_entry*> rows;
    rows.reserve(entries_.size());
    std::uint64_t pending = 0;
    for (const auto& e : entries_) {
      pending += !e.headed;
      if (!q.match || q.match(e)) rows.push_back(&e);
    }
    auto less = [&](const folder_entry* a, const folder_entry* b) {
      const auto ka = key_of(*a, q.by), kb = key_of(*b, q.by);
      if (std::get<0>(ka) != std::get<0>(kb)) return std::get<0>(ka) < std::get<0>(kb);
      if (std::get<1>(ka) != std::get<1>(kb)) return std::get<1>(ka) < std::get<1>(kb);
      if (*std::get<2>(ka) != *std::get<2>(kb)) return *std::get<2>(ka) < *std::get<2>(kb);
      return a->name < b->name;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const folder_entry* a, const folder_entry* b) {
      return q.descending ? less(b, a) : less(a, b);
    });
    page.matched = rows.size();
    page.listed = entries_.size();
    page.pending = pending;
    page.scans = scans_;
    return rows;
  };
  {
    std::lock_guard<std::mutex> lock(m_);
    auto rows = select();
    for (std::uint64_t i = q.offset; i < rows.size() && i - q.offset < q.limit; ++i)
      if (!rows[i]->headed) window.push_back(rows[i]->id);
  }
  // The page's rows are shown with their headers: those not read yet are read now.
  if (!window.empty()) read_headers(window);
  std::lock_guard<std::mutex> lock(m_);
  auto rows = select();
  for (std::uint64_t i = q.offset; i < rows.size() && i - q.offset < q.limit; ++i)
    page.rows.push_back(*rows[i]);
  return page;
}

std::optional<folder_entry> folder::entry(std::uint64_t id) const {
  std::lock_guard<std::mutex> lock(m_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return entries_[it->second];
}

result<std::shared_ptr<folder>> open_folder(const std::string& dir, bool recursive) {
  DIR* d = opendir(dir.c_str());
  if (!d) return error{dir + ": cannot read the folder: " + std::strerror(errno)};
  closedir(d);
  return std::make_shared<folder>(dir, recursive);
}

}  // namespace calltree::server

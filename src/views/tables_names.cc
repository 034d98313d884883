// views/tables_names.cc — the names of the tables' keys: read back from a spilling pool, ahead
// of a report on a thread of their own, and compared without being made (see tables.h).
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "model/free_storage.h"
#include "model/string_pool_access.h"
#include "views/tables.h"

namespace calltree::views {

std::string annotate_data::key_name(std::uint32_t k) const {
  std::string s;
  append_key_name(s, k);
  return s;
}

std::string_view annotate_data::function_name(std::uint32_t k) const {
  const string_id sid = key_function[k];
  if (string_pool_access::mode(*names) != pool_mode::spill)
    return string_pool_access::view(*names, sid);
  if (auto it = cache_.views.find(sid); it != cache_.views.end()) return it->second;
  std::string_view v = string_pool_access::text(*names, sid, scratch_);
  if (v.data() != scratch_.data()) return v;  // in the pool's memory
  // (A deque's strings stay where they are when it grows.)
  return cache_.views.emplace(sid, cache_.own.emplace_back(std::move(scratch_))).first->second;
}

// The names read ahead (read_names_ahead): batches of 64 names, each batch's texts in one
// buffer, read in order by a thread of their own and, while the report would wait for one, by
// the report itself (the reading is a pread a name, and the report formats in less time than
// that: two readers keep it busy). At most 32 batches or about 1 MB are read ahead of the
// report, but the batch it waits for may always be read. (The pool is only read by then:
// text() reads fixed tables and preads its file.) One lock and one allocation a batch, not a
// name: with a string a name, handed over one by one, the wake-ups and the frees of one
// thread's allocations by the other cost as much as the reading (73 k names of the real
// profile).
struct annotate_data::name_reader {
  const string_pool* names = nullptr;
  std::vector<string_id> ids;  // in the report's order; npos: no name
  static constexpr std::size_t batch_names = 64, most_batches = 32;
  static constexpr std::size_t most_bytes = std::size_t{1} << 20;
  std::mutex m;
  std::condition_variable cv;
  std::size_t claimed = 0;                    // batches [0, claimed) are read or being read
  std::size_t first = 0;                      // the batch the report takes next
  std::deque<std::optional<name_batch>> got;  // batches [first, first + got.size()), if read
  std::size_t bytes = 0;                      // the texts' bytes in `got`
  bool stop = false;
  // A batch the thread claimed and could not read (out of memory: it stopped there), for the
  // report to read itself when it comes to it.
  std::optional<std::size_t> dropped;
  std::thread thread;
  // (The report's alone: the names of ids[0, taken) went into its cache.)
  std::size_t taken = 0;

  std::size_t batches() const { return (ids.size() + batch_names - 1) / batch_names; }
  // Under the lock: whether a reader may claim batch `claimed` now.
  bool may_claim() const {
    return claimed < batches() &&
           (claimed == first || (claimed < first + most_batches && bytes < most_bytes));
  }
  // Reads batch `n` (without the lock) and stores it (with it).
  void read(std::size_t n, std::string& scratch) {
    name_batch b;
    b.first = n * batch_names;
    const std::size_t end = std::min(ids.size(), b.first + batch_names);
    for (std::size_t i = b.first; i < end; ++i)
      if (ids[i] != string_pool::npos) string_pool_access::prefetch_text(*names, ids[i]);
    for (std::size_t i = b.first; i < end; ++i) {
      if (ids[i] != string_pool::npos)
        b.text.append(string_pool_access::text(*names, ids[i], scratch));
      b.ends.push_back(b.text.size());
    }
    {
      std::lock_guard lock(m);
      const std::size_t at = n - first;
      if (got.size() <= at) got.resize(at + 1);
      bytes += b.text.size();
      got[at] = std::move(b);
    }
    cv.notify_all();
  }
  void run() {
    std::string scratch;
    for (;;) {
      std::size_t n;
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || claimed >= batches() || may_claim(); });
        if (stop || claimed >= batches()) return;
        n = claimed++;
      }
      try {
        read(n, scratch);
      } catch (const std::bad_alloc&) {
        // (On this thread it would end the process.) The report reads this batch and the rest
        // itself, where running out of memory reaches its caller.
        {
          std::lock_guard lock(m);
          dropped = n;
        }
        cv.notify_all();
        return;
      }
    }
  }
  // The report's: batch `first`, read by whichever reader got it.
  name_batch take(std::string& scratch) {
    for (;;) {
      std::size_t n;
      {
        std::unique_lock lock(m);
        cv.wait(lock,
                [&] { return (!got.empty() && got.front()) || may_claim() || dropped == first; });
        if (dropped == first) {
          dropped.reset();
          n = first;
        } else if (!got.empty() && got.front()) {
          name_batch b = std::move(*got.front());
          got.pop_front();
          ++first;
          bytes -= b.text.size();
          lock.unlock();
          cv.notify_all();
          return b;
        } else {
          n = claimed++;  // rather than wait, read the next batch too
        }
      }
      read(n, scratch);
    }
  }
  ~name_reader() {
    {
      std::lock_guard lock(m);
      stop = true;
    }
    cv.notify_all();
    if (thread.joinable()) thread.join();
  }
};

void annotate_data::forget_names() const {
  // clear() would keep (and sweep at every call) the buckets of the largest set held.
  if (cache_.views.bucket_count() > 1024)
    detail::free_storage(cache_.views);
  else
    cache_.views.clear();
  cache_.own.clear();
  // The batches whose names were all taken go; the last may hold names still to be taken.
  const std::size_t taken = ahead_ ? ahead_->taken : 0;
  while (!cache_.held.empty() && cache_.held.front().end() <= taken) cache_.held.pop_front();
}

void annotate_data::read_names_ahead(std::vector<std::uint32_t> keys) const {
  stop_reading_ahead();
  if (!names || string_pool_access::mode(*names) != pool_mode::spill) return;
  auto r = std::make_shared<name_reader>();
  r->names = names;
  r->ids.reserve(keys.size());
  for (std::uint32_t k : keys)
    r->ids.push_back(k == UINT32_MAX ? string_pool::npos : key_function[k]);
  try {
    r->thread = std::thread([p = r.get()] { p->run(); });
  } catch (...) {
    return;  // no thread: function_name() reads each name itself
  }
  ahead_ = std::move(r);
}

void annotate_data::take_names(std::size_t to) const {
  if (!ahead_) return;
  name_reader& r = *ahead_;
  to = std::min(to, r.ids.size());
  while (r.taken < to) {
    if (cache_.held.empty() || cache_.held.back().end() <= r.taken)
      cache_.held.push_back(r.take(scratch_));
    const name_batch& b = cache_.held.back();
    const std::size_t end = std::min(to, b.end());
    for (; r.taken < end; ++r.taken) {
      const string_id sid = r.ids[r.taken];
      if (sid != string_pool::npos) cache_.views.try_emplace(sid, b.name(r.taken - b.first));
    }
  }
}

void annotate_data::stop_reading_ahead() const {
  ahead_.reset();
  // (Views into the batches go with them.)
  detail::free_storage(cache_.views);
  cache_.own.clear();
  cache_.held.clear();
}

void annotate_data::append_key_name(std::string& out, std::uint32_t k) const {
  const std::string& f = files[key_file[k]];
  const std::string_view name = function_name(k);
  out.reserve(out.size() + f.size() + 1 + name.size());
  out.append(f).append(1, ':').append(name);
}

int annotate_data::compare_key_names(std::uint32_t a, std::uint32_t b) const {
  const std::string_view na = function_name(a), nb = function_name(b);
  if (key_file[a] == key_file[b]) return na.compare(nb);
  // Compare "fa:na" with "fb:nb" piece by piece.
  std::string_view pa[3] = {files[key_file[a]], ":", na};
  std::string_view pb[3] = {files[key_file[b]], ":", nb};
  std::size_t ia = 0, ib = 0;
  std::string_view ra = pa[0], rb = pb[0];
  while (true) {
    while (ra.empty() && ia < 2) ra = pa[++ia];
    while (rb.empty() && ib < 2) rb = pb[++ib];
    if (ra.empty() || rb.empty()) return ra.empty() ? (rb.empty() ? 0 : -1) : 1;
    const std::size_t n = std::min(ra.size(), rb.size());
    const int c = ra.substr(0, n).compare(rb.substr(0, n));
    if (c != 0) return c;
    ra.remove_prefix(n);
    rb.remove_prefix(n);
  }
}

}  // namespace calltree::views

// runs.cc — the runs of a folder or of a list of files (see history/runs.h).
#include "history/runs.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace calltree::history {

namespace {

std::string absolute_of(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

result<run_file> stat_run(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return error{path + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return error{path + ": not a regular file"};
  run_file f;
  f.path = path;
  f.size = static_cast<std::uint64_t>(st.st_size);
  f.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return f;
}

result<std::vector<run_file>> list_runs(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return error{dir + ": cannot read the folder: " + std::strerror(errno)};
  std::vector<run_file> out;
  const std::string prefix = dir.ends_with('/') ? dir : dir + "/";
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    auto f = stat_run(prefix + e->d_name);
    if (f) out.push_back(std::move(*f));
  }
  ::closedir(d);
  return out;
}

std::vector<loaded_run> load_runs(const std::vector<run_file>& files, run_index* index,
                                  const run_read_options& options,
                                  const std::function<void(std::size_t, std::size_t)>& progress) {
  std::vector<loaded_run> out;
  out.reserve(files.size());
  for (const run_file& f : files) {
    loaded_run r;
    r.file = f;
    const std::string key = index ? absolute_of(f.path) : std::string();
    std::optional<indexed_run> kept;
    if (index) kept = index->find(key, f.size, f.mtime_ns);
    if (kept) {
      r.from_index = true;
      r.problem = std::move(kept->problem);
      // (The index keeps only "holds no profile" problems: a file with another problem is
      // read again each time, so the next run says again what is wrong with it.)
      r.no_profile = !r.problem.empty();
      r.costs = std::move(kept->costs);
    } else {
      auto c = read_run_costs(f.path, options);
      if (c) {
        r.costs = std::move(*c);
        // (A profile read with errors is read again each time, so each run reports them.)
        if (index && r.costs.errors == 0) index->put(key, f.size, f.mtime_ns, {{}, r.costs});
      } else {
        r.problem = c.error().message;
        r.no_profile = c.error().code == error_code::no_profile;
        if (index && r.no_profile) index->put(key, f.size, f.mtime_ns, {r.problem, {}});
      }
    }
    out.push_back(std::move(r));
    if (progress) progress(out.size(), files.size());
  }
  if (index) index->flush();
  return out;
}

}  // namespace calltree::history

// mcp_profiles.cc — the profiles `calltree mcp` keeps, and serve's API asked in-process
// (mcp_profiles.h).
#include "mcp_profiles.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "args.h"
#include "diagnostics_output.h"
#include "folder.h"
#include "history/index.h"
#include "objdump_runner.h"
#include "reader/not_a_profile.h"
#include "reader/read_profile.h"
#include "run_store.h"

namespace calltree::cli::mcp {

namespace {

// serve's token check passes a request of this Host header: port 0 is the api's.
constexpr const char* local_host = "localhost:0";

std::string new_token() {
  auto t = server::make_token();
  if (!t) throw tool_failure(t.error().message);
  return *t;
}

// The first few diagnostics of a session that gave no profile, one a line.
std::string first_diagnostics(const views::session& s) {
  // (Errors first: the one that says why there is no profile comes after the warnings of
  // the lines it skipped.)
  std::string out;
  std::size_t n = 0;
  for (const bool errors : {true, false})
    for (const diagnostic& d : s.diagnostics) {
      if ((d.severity == severity::error) != errors) continue;
      if (n++ == 3) return out;
      std::string line = format_diagnostic(d, false);
      while (!line.empty() && line.back() == '\n') line.pop_back();
      out += "\n" + line;
    }
  return out;
}

// The first bytes of the file at `path` (what describe_non_profile looks at).
std::string file_head(const std::string& path) {
  std::string head(4096, '\0');
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return {};
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return head;
}

}  // namespace

json served::ask(const std::string& target) const {
  server::response r = api->handle_target("GET", target, local_host, "Bearer " + token);
  json body = json::parse(r.body, nullptr, false);
  if (r.status != 200) {
    std::string message = "the profile's API answered " + std::to_string(r.status);
    if (body.is_object() && body.contains("error") && body["error"].contains("message"))
      message = body["error"]["message"].get<std::string>();
    throw tool_failure(message);
  }
  if (body.is_discarded()) throw tool_failure("the profile's API answered no JSON for " + target);
  return body;
}

std::string file_key(const std::string& path, bool want_folder) {
  if (path.empty()) throw bad_arguments("path is empty: give a file's path");
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path.c_str(), real) || stat(real, &st) != 0)
    throw tool_failure(path + ": " + std::strerror(errno) +
                       (path.front() == '/' ? ""
                                            : " (a relative path is taken from the folder "
                                              "calltree mcp was started in: " +
                                                  current_dir() + ")"));
  if (want_folder && !S_ISDIR(st.st_mode))
    throw tool_failure(path + " is not a folder: the trend tool takes a folder of runs");
  if (!want_folder && S_ISDIR(st.st_mode))
    throw tool_failure(path +
                       " is a folder: give one profile's file (the trend tool takes a "
                       "folder of runs)");
  return std::string(real) + "\n" + std::to_string(st.st_size) + "\n" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

profile_cache::profile_cache(views::load_options options, std::size_t keep, std::string index)
    : options_(std::move(options)),
      keep_(std::max<std::size_t>(1, keep)),
      index_(std::move(index)) {}

profile_cache::~profile_cache() = default;

const served* profile_cache::find(const std::string& key) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (it->key != key) continue;
    kept_.splice(kept_.begin(), kept_, it);
    return kept_.front().value.get();
  }
  return nullptr;
}

const served& profile_cache::remember(std::string key, std::vector<std::string> files,
                                      std::unique_ptr<served> value) {
  kept_.push_front({std::move(key), std::move(files), std::move(value)});
  std::size_t held = 0;
  for (const auto& e : kept_) held += e.files.size();
  while (kept_.size() > 1 && held > keep_) {
    held -= kept_.back().files.size();
    kept_.pop_back();
  }
  return *kept_.front().value;
}

std::shared_ptr<const views::session> profile_cache::session_of(const std::string& path,
                                                                std::string& key) {
  key = file_key(path);
  // (A profile already held, alone or as a side of a diff, is not read again.)
  for (const auto& e : kept_)
    for (std::size_t i = 0; i < e.files.size(); ++i)
      if (e.files[i] == key) return e.value->sessions[i];
  auto loaded = views::load_run({path}, options_);
  if (!loaded) throw tool_failure(loaded.error().message);
  const views::session& s = **loaded;
  if (changed_while_read(s.diagnostics, calltree::detail::read_to_end(s.stats), path, s.input_size))
    throw tool_failure(path + " changed while it was read; call again when it is written");
  // A file plainly not a profile (x.py, a README, a program) is named as what it is, with
  // what makes a profile of it: the words the reader gives its no-events error (check's).
  if (s.p.parts.empty() || s.p.events.empty())
    if (auto what = calltree::detail::describe_non_profile(path, file_head(path)))
      throw tool_failure(what->sentence(path) +
                         " (calltree reads callgrind, cachegrind, pprof, perf script, pstats, "
                         ".cpuprofile and folded stacks)");
  if (s.p.parts.empty() || s.p.events.empty())
    throw tool_failure(
        path +
        " holds no profile that could be read (calltree reads callgrind, "
        "cachegrind, pprof, perf script, pstats, .cpuprofile and folded "
        "stacks):" +
        (s.diagnostics.empty() ? std::string(" it is empty") : first_diagnostics(s)));
  return std::shared_ptr<const views::session>(std::move(*loaded));
}

const served& profile_cache::single(const std::string& path) {
  const std::string key = "1\n" + file_key(path);
  if (const served* s = find(key)) return *s;
  std::string file;
  auto session = session_of(path, file);
  auto out = std::make_unique<served>();
  out->token = new_token();
  server::api_options ao;
  ao.token = out->token;
  // (The function tool's hottest instructions: /api/v1/asm/ID, objdump as serve runs it.)
  objdump_settings od;
  std::int64_t mtime = 0;
  if (is_file(path, &mtime)) od.input_mtime = mtime;
  ao.objdump = make_objdump_runner(std::move(od));
  out->api = std::make_unique<server::api>(ao, session);
  out->sessions.push_back(std::move(session));
  return remember(key, {file}, std::move(out));
}

const served& profile_cache::diff(const std::string& old_path, const std::string& new_path) {
  const std::string key = "2\n" + file_key(old_path) + "\t" + file_key(new_path);
  if (const served* s = find(key)) return *s;
  std::string old_key, new_key;
  auto old_side = session_of(old_path, old_key);
  auto new_side = session_of(new_path, new_key);
  auto out = std::make_unique<served>();
  out->token = new_token();
  server::api_options ao;
  ao.token = out->token;
  out->api = std::make_unique<server::api>(ao, old_side, new_side);
  out->sessions = {std::move(old_side), std::move(new_side)};
  return remember(key, {old_key, new_key}, std::move(out));
}

json profile_cache::trend(const std::string& dir, bool recursive, const std::string& query) {
  const std::string key = file_key(dir, true);
  const std::string real = key.substr(0, key.find('\n'));
  std::shared_ptr<server::run_store>& store = stores_[real + (recursive ? "\n-r" : "")];
  if (!store) {
    std::unique_ptr<history::run_index> index;
    std::string path = index_;
    if (path.empty())
      if (auto d = history::default_index_path()) path = *d;
    if (!path.empty() && path != "none")
      if (auto x = history::run_index::open(path)) index = std::move(*x);
    store = std::make_shared<server::run_store>(std::move(index));
  }
  // The folder is listed anew at each call (a run added since is a point), and dropped after
  // it: no thread of its own watches it between calls. Its runs stay in the store.
  auto listing = server::open_folder(real, recursive);
  if (!listing) throw tool_failure(listing.error().message);
  (*listing)->set_store(store);
  served s;
  s.token = new_token();
  server::api_options ao;
  ao.token = s.token;
  ao.dir = *listing;
  s.api = std::make_unique<server::api>(ao);
  return s.ask("/api/v1/trend?" + query);
}

}  // namespace calltree::cli::mcp

// index.cc — the SQLite cache of a folder's runs (see history/index.h).
#include "history/index.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace calltree::history {

namespace {

constexpr const char* format_name = "calltree-history-index";
// (2: the totals are the program totals of calltree/totals.h; version 1 kept the sums of the
// self costs, which differ where a file states its total: its entries are read again.)
constexpr const char* format_version = "2";
constexpr unsigned batch = 64;

// ---- the blob: varints and length-prefixed strings -------------------------------------
// magic "CTR1", then: creator, cmd, events (count, names), total (one per event), errors,
// warnings, functions (count; each: object, file, name, self and inclusive per event).

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void put_string(std::string& out, std::string_view s) {
  put_varint(out, s.size());
  out.append(s);
}

struct blob_reader {
  std::string_view in;
  bool ok = true;
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (in.empty()) return ok = false, 0;
      const auto b = static_cast<unsigned char>(in.front());
      in.remove_prefix(1);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return ok = false, 0;
  }
  std::string string() {
    const std::uint64_t n = varint();
    if (!ok || n > in.size()) return ok = false, std::string();
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
  // A count of items that each take at least `least` bytes: never more than the blob holds.
  std::size_t count(std::size_t least) {
    const std::uint64_t n = varint();
    if (!ok || n > in.size() / std::max<std::size_t>(least, 1)) return ok = false, 0;
    return static_cast<std::size_t>(n);
  }
};

bool remove_database(const std::string& path) {
  bool ok = true;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string p = path + suffix;
    if (::unlink(p.c_str()) != 0 && errno != ENOENT) ok = false;
  }
  return ok;
}

bool exec(sqlite3* db, const char* sql) {
  return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

bool busy(int rc) {
  rc &= 0xff;  // (the primary code of an extended one)
  return rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
}

// The schema's `meta` says this format and version. `busy`: another connection holds a lock
// SQLite would not wait for (it answers SQLITE_BUSY at once where waiting could deadlock, as
// when two processes make a new database WAL together): try again.
enum class state { ours, empty, foreign, broken, busy };
state inspect(sqlite3* db) {
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, nullptr);
  if (rc != SQLITE_OK) return busy(rc) ? state::busy : state::broken;
  rc = sqlite3_step(st);
  const bool any = rc == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0;
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW) return busy(rc) ? state::busy : state::broken;
  if (!any) return state::empty;
  rc = sqlite3_prepare_v2(db, "SELECT key, value FROM meta", -1, &st, nullptr);
  if (rc != SQLITE_OK) return state::foreign;  // no meta table
  bool name = false, version = false;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    auto text = [&](int c) {
      const unsigned char* t = sqlite3_column_text(st, c);
      return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
    };
    const std::string k = text(0), v = text(1);
    if (k == "format") name = v == format_name;
    if (k == "version") version = v == format_version;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) return state::broken;
  return name && version ? state::ours : state::foreign;
}

bool create_schema(sqlite3* db) {
  if (!exec(db, "BEGIN IMMEDIATE")) return false;
  // (Another process may have made it while this one waited for the lock.)
  if (inspect(db) == state::ours) return exec(db, "COMMIT");
  return exec(db,
              "DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS meta;"
              "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
              "CREATE TABLE runs(path TEXT PRIMARY KEY, size INTEGER NOT NULL,"
              " mtime_ns INTEGER NOT NULL, problem TEXT NOT NULL, creator TEXT NOT NULL,"
              " cmd TEXT NOT NULL, costs BLOB NOT NULL);") &&
         exec(db, (std::string("INSERT INTO meta VALUES('format','") + format_name +
                   "'),('version','" + format_version + "')")
                      .c_str()) &&
         exec(db, "COMMIT");
}

}  // namespace

std::string encode_run(const run_costs& r) {
  std::string out = "CTR1";
  put_string(out, r.creator);
  put_string(out, r.cmd);
  put_varint(out, r.events.size());
  for (const auto& e : r.events) put_string(out, e);
  for (std::size_t e = 0; e < r.events.size(); ++e)
    put_varint(out, e < r.total.size() ? r.total[e] : 0);
  put_varint(out, r.errors);
  put_varint(out, r.warnings);
  put_varint(out, r.functions.size());
  for (const auto& f : r.functions) {
    put_string(out, f.object);
    put_string(out, f.file);
    put_string(out, f.name);
    for (std::size_t e = 0; e < r.events.size(); ++e) {
      put_varint(out, e < f.self.size() ? f.self[e] : 0);
      put_varint(out, e < f.inclusive.size() ? f.inclusive[e] : 0);
    }
  }
  return out;
}

std::optional<run_costs> decode_run(std::string_view blob) {
  if (blob.substr(0, 4) != "CTR1") return std::nullopt;
  blob_reader in{blob.substr(4)};
  run_costs r;
  r.creator = in.string();
  r.cmd = in.string();
  const std::size_t events = in.count(1);
  for (std::size_t e = 0; in.ok && e < events; ++e) r.events.push_back(in.string());
  for (std::size_t e = 0; in.ok && e < events; ++e) r.total.push_back(in.varint());
  r.errors = in.varint();
  r.warnings = in.varint();
  const std::size_t functions = in.count(3 + 2 * events);
  r.functions.reserve(in.ok ? functions : 0);
  for (std::size_t i = 0; in.ok && i < functions; ++i) {
    function_costs f;
    f.object = in.string();
    f.file = in.string();
    f.name = in.string();
    f.self.reserve(events);
    f.inclusive.reserve(events);
    for (std::size_t e = 0; in.ok && e < events; ++e) {
      f.self.push_back(in.varint());
      f.inclusive.push_back(in.varint());
    }
    r.functions.push_back(std::move(f));
  }
  if (!in.ok || !in.in.empty()) return std::nullopt;
  return r;
}

result<std::string> default_index_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/calltree/index.sqlite";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/calltree/index.sqlite";
  return error{"no cache directory: neither XDG_CACHE_HOME nor HOME is an absolute path"};
}

result<std::unique_ptr<run_index>> run_index::open(const std::string& path) {
  std::unique_ptr<run_index> x(new run_index());
  x->path_ = path;
  {
    std::error_code ec;
    const auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    sqlite3* db = nullptr;
    int rc =
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
      std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
      sqlite3_close(db);
      return error{path + ": cannot open the index: " + msg};
    }
    sqlite3_busy_timeout(db, 10000);
    // (Busy answers are tried again for 10 s, as the busy timeout waits, before the index is
    // judged: a database another process is making is not a broken one.)
    state s = state::busy;
    for (int tries = 0; s == state::busy && tries < 200; ++tries) {
      if (tries) sqlite3_sleep(50);
      const int wal = sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
      s = wal == SQLITE_OK ? inspect(db) : busy(wal) ? state::busy : state::broken;
    }
    if (s == state::busy) {
      sqlite3_close(db);
      return error{path + ": the index is busy: another process holds it"};
    }
    if (s == state::broken) {
      // Not a database, or a corrupt one: made again.
      sqlite3_close(db);
      if (attempt == 0) {
        x->note_ = "the index was not a sound SQLite database: made again";
        if (!remove_database(path))
          return error{path +
                       ": the index is corrupt and cannot be removed: " + std::strerror(errno)};
        continue;
      }
      return error{path + ": cannot make an index there"};
    }
    exec(db, "PRAGMA synchronous=NORMAL");
    if (s != state::ours) {
      if (s == state::foreign) x->note_ = "the index was of another program or version: made again";
      if (!create_schema(db)) {
        exec(db, "ROLLBACK");
        // (Another process may have made it meanwhile.)
        if (inspect(db) != state::ours) {
          std::string msg = sqlite3_errmsg(db);
          sqlite3_close(db);
          return error{path + ": cannot make the index: " + msg};
        }
      }
    }
    x->db_ = db;
    return x;
  }
  return error{path + ": cannot make an index there"};
}

run_index::~run_index() {
  flush();
  if (db_) sqlite3_close(db_);
}

void run_index::fail(const std::string& what) {
  if (!db_) return;
  const int code = sqlite3_errcode(db_) & 0xff;
  failure_ = what + ": " + sqlite3_errmsg(db_);
  exec(db_, "ROLLBACK");
  sqlite3_close(db_);
  db_ = nullptr;
  // A database found corrupt while used is made again, once; anything else turns it off.
  if ((code == SQLITE_CORRUPT || code == SQLITE_NOTADB) && !remade_) {
    remade_ = true;
    remove_database(path_);
    if (auto again = open(path_); again && (*again)->db_) {
      db_ = (*again)->db_;
      (*again)->db_ = nullptr;
      note_ = "the index was found corrupt while read: made again";
      failure_.clear();
    }
  }
}

std::optional<indexed_run> run_index::find(const std::string& path, std::uint64_t size,
                                           std::int64_t mtime_ns) {
  if (!db_) return std::nullopt;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT size, mtime_ns, problem, costs FROM runs WHERE path = ?1", -1,
                         &st, nullptr) != SQLITE_OK) {
    fail("reading the index");
    return std::nullopt;
  }
  sqlite3_bind_text(st, 1, path.data(), static_cast<int>(path.size()), SQLITE_TRANSIENT);
  std::optional<indexed_run> out;
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER &&
      static_cast<std::uint64_t>(sqlite3_column_int64(st, 0)) == size &&
      sqlite3_column_int64(st, 1) == mtime_ns) {
    indexed_run r;
    if (const unsigned char* t = sqlite3_column_text(st, 2))
      r.problem.assign(reinterpret_cast<const char*>(t),
                       static_cast<std::size_t>(sqlite3_column_bytes(st, 2)));
    const void* b = sqlite3_column_blob(st, 3);
    const std::string_view blob(static_cast<const char*>(b),
                                b ? static_cast<std::size_t>(sqlite3_column_bytes(st, 3)) : 0);
    if (r.problem.empty()) {
      if (auto costs = decode_run(blob)) {
        r.costs = std::move(*costs);
        out = std::move(r);
      }
    } else {
      out = std::move(r);
    }
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail("reading the index");
  return out;
}

void run_index::put(const std::string& path, std::uint64_t size, std::int64_t mtime_ns,
                    const indexed_run& run) {
  if (!db_) return;
  pending_.push_back({path, size, mtime_ns, run.problem, run.costs.creator, run.costs.cmd,
                      run.problem.empty() ? encode_run(run.costs) : std::string()});
  if (pending_.size() >= batch) flush();
}

// The entries put() kept, in one short transaction (no file is read while it is open: another
// process waits for it at most that long).
void run_index::flush() {
  if (!db_ || pending_.empty()) return;
  std::vector<pending_entry> todo = std::move(pending_);
  pending_.clear();
  if (!exec(db_, "BEGIN IMMEDIATE")) return fail("writing the index");
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO runs VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1,
                         &st, nullptr) != SQLITE_OK)
    return fail("writing the index");
  auto text = [&](int i, const std::string& s) {
    sqlite3_bind_text(st, i, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
  };
  for (const pending_entry& e : todo) {
    text(1, e.path);
    sqlite3_bind_int64(st, 2, static_cast<sqlite3_int64>(e.size));
    sqlite3_bind_int64(st, 3, e.mtime_ns);
    text(4, e.problem);
    text(5, e.creator);
    text(6, e.cmd);
    sqlite3_bind_blob64(st, 7, e.blob.data(), e.blob.size(), SQLITE_STATIC);
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
      sqlite3_finalize(st);
      return fail("writing the index");
    }
  }
  sqlite3_finalize(st);
  if (!exec(db_, "COMMIT")) return fail("writing the index");
}

}  // namespace calltree::history

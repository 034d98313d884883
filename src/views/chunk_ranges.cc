// views/chunk_ranges.cc — one function's or one file's source lines, read from the chunks that
// hold its records alone (see chunk_ranges.h and session.h).
//
// How: the chunks a key's (or a display file's) records are in were noted by the first reading;
// the reader reads them again from the state noted at their starts (reader/read_chunks.cc) into
// annotate's tables with lines, as the whole reading fills them; and what the view shows is
// taken out of those tables into the session's key and file numbers. A function's lines, spans
// and jumps are all in its chunks, and a file's lines, calls and jumps all in the chunks of
// records with lines in it, so what is taken is what a whole reading gives
// (tests/unit/deferred_lines_test.cc compares them on every profile of the corpus). The other
// functions and files of those chunks are read and left.
#include "views/chunk_ranges.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "model/renaming_sink.h"
#include "reader/read_hooks.h"
#include "views/annotate_direct.h"
#include "views/session.h"

namespace calltree::views {

std::pair<std::uint64_t, std::int64_t> file_stamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return {UINT64_MAX, 0};
  return {static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

chunk_ranges::input::~input() {
  if (bytes_fd >= 0) ::close(bytes_fd);
}

namespace {

// Where a compressed input's decoded bytes are kept: $XDG_CACHE_HOME/calltree (or
// ~/.cache/calltree), else $TMPDIR (or /tmp). An unnamed file (O_TMPFILE), or one unlinked at
// once where the file system has none: either is gone when it is closed.
int open_kept_bytes() {
  std::vector<std::string> dirs;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dirs.push_back(std::string(x) + "/calltree");
  else if (const char* h = std::getenv("HOME"); h && *h)
    dirs.push_back(std::string(h) + "/.cache/calltree");
  const char* t = std::getenv("TMPDIR");
  dirs.push_back(t && *t ? t : "/tmp");
  for (const std::string& d : dirs) {
    ::mkdir(d.c_str(), 0700);  // (the cache folder may not be there yet)
#ifdef O_TMPFILE
    if (int fd = ::open(d.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600); fd >= 0) return fd;
#endif
    std::string name = d + "/calltree-decoded-XXXXXX";
    if (int fd = ::mkstemp(name.data()); fd >= 0) {
      ::unlink(name.c_str());
      ::fcntl(fd, F_SETFD, FD_CLOEXEC);
      return fd;
    }
  }
  return -1;
}

}  // namespace

bool chunk_ranges::input::keep(std::span<const char> bytes) {
  if (bytes_fd < 0 && bytes_kept == 0) bytes_fd = open_kept_bytes();
  if (bytes_fd < 0) return false;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(bytes_fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // (no room: the index is not used, and the file goes)
    done += static_cast<std::size_t>(n);
  }
  bytes_kept += done;
  return true;
}

namespace {

// `pairs` (item, chunk), each once, as ranges of one sorted array per item.
void as_ranges(std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs, std::size_t items,
               std::vector<std::uint32_t>& at, std::vector<std::uint32_t>& chunk) {
  std::sort(pairs.begin(), pairs.end());
  at.assign(items + 1, 0);
  chunk.resize(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    ++at[pairs[i].first + 1];
    chunk[i] = pairs[i].second;
  }
  for (std::size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
  pairs = {};
}

}  // namespace

void chunk_ranges::take(chunk_notes& notes, std::size_t keys, std::size_t files) {
  // (A display file or key past the tables' would be a note of nothing: none are.)
  std::erase_if(notes.keys, [&](const auto& p) { return p.first >= keys; });
  std::erase_if(notes.files, [&](const auto& p) { return p.first >= files; });
  as_ranges(notes.keys, keys, key_at, key_chunk);
  as_ranges(notes.files, files, file_at, file_chunk);
}

std::pair<std::uint64_t, std::uint64_t> lines_view::own_lines(std::uint32_t k) const {
  if (ranged) {
    auto it = std::lower_bound(ranged->own.begin(), ranged->own.end(), k,
                               [](const ann_span& a, std::uint32_t key) { return a.key < key; });
    if (it != ranged->own.end() && it->key == k) return {it->first, it->last};
    return {0, 0};
  }
  if (k < t->key_first_line.size()) return {t->key_first_line[k], t->key_last_line[k]};
  return {0, 0};
}

const std::vector<std::string>& session::file_names() const {
  return chunks_ ? t.files : lines().files;
}

result<lines_view> session::lines_of(bool of_file, std::uint32_t id) const {
  lines_view v;
  if (!chunks_) {
    v.t = &lines();
    return v;
  }
  auto r = read_by_chunks(of_file, id);
  if (!r) return r.error();
  v.ranged = std::move(*r);
  v.t = &v.ranged->t;
  return v;
}

namespace {

// A row of `from` added to `to` (same columns).
std::uint32_t copy_row(const cc_table& from, std::size_t row, cc_table& to) {
  const std::size_t r = to.add_row();
  std::copy_n(from.values(row), from.cols(), to.values(r));
  std::copy_n(from.defined(row), from.cols(), to.defined(r));
  return static_cast<std::uint32_t>(r);
}

}  // namespace

status session::read_chunks_into(std::span<const std::uint32_t> chunks, record_sink& sink,
                                 const read_needs& needs) const {
  chunk_ranges& cr = *chunks_;
  std::lock_guard lock(cr.reading);
  auto plain_name = [&](std::string_view text) -> string_id {
    if (!cr.plain_made) {
      cr.plain_made = true;
      cr.plain.reserve(p.strings.size());
      for (std::size_t i = 1; i < p.strings.size(); ++i)
        cr.plain.emplace(p.strings.view(string_id{i}), string_id{i});
    }
    if (text.empty()) return string_pool::empty;
    auto it = cr.plain.find(text);
    return it == cr.plain.end() ? string_pool::npos : it->second;
  };
  std::vector<const calltree::detail::part_state*> parts;
  for (const auto& in : cr.inputs)
    for (const auto& ps : in->index.parts) parts.push_back(&ps);
  calltree::detail::part_order order(sink, std::move(parts));
  reader_options ro;
  ro.threads = 1;
  // Each input's chunks of `chunks` (sorted: the inputs in order), in its own numbers.
  std::vector<std::uint32_t> local;
  std::size_t at = 0;
  for (std::size_t i = 0; i < cr.inputs.size(); ++i) {
    chunk_ranges::input& in = *cr.inputs[i];
    const std::uint32_t end = i + 1 < cr.inputs.size() ? cr.inputs[i + 1]->first_chunk : UINT32_MAX;
    local.clear();
    for (; at < chunks.size() && chunks[at] < end; ++at) local.push_back(chunks[at] - in.first_chunk);
    if (local.empty()) continue;
    if (file_stamp(in.path) != in.stamp)
      return error{in.path + " changed since it was read: reload the page to read it again"};
    // (A compressed input: its decoded bytes, kept.)
    const int fd = in.bytes_fd >= 0 ? in.bytes_fd : ::open(in.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return error{in.path + ": " + std::strerror(errno)};
    std::vector<char> buffer;
    auto bytes_at = [&](std::uint32_t k) -> std::span<const char> {
      const auto& st = in.index.starts;
      const std::uint64_t from = st[k].offset;
      const std::uint64_t to = k + 1 < st.size() ? st[k + 1].offset : in.index.end;
      buffer.resize(to - from);
      std::size_t got = 0;
      while (got < buffer.size()) {
        const ssize_t n = ::pread(fd, buffer.data() + got, buffer.size() - got,
                                  static_cast<off_t>(from + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      return {buffer.data(), got};
    };
    ro.display_name = in.path;
    order.first = in.first_part;
    // (The pool is only read: names resolve through the index's tables and plain_name.)
    auto read = calltree::detail::read_chunks(in.index, local, bytes_at,
                                              const_cast<string_pool&>(p.strings), plain_name,
                                              order, ro, needs);
    if (fd != in.bytes_fd) ::close(fd);
    if (!read)
      return error{in.path + " does not read as it did (" + read.error().message +
                   "): reload the page to read it again"};
  }
  order.finish();
  return ok();
}


status session::read_records_of_name(std::uint32_t k, string_pool& names, record_sink& sink) const {
  if (!chunks_) return error{"the profile's chunks are not indexed"};
  std::vector<std::uint32_t> chunks;
  for (std::uint32_t key : same_name(k)) {
    const auto c = chunks_->of_key(key);
    chunks.insert(chunks.end(), c.begin(), c.end());
  }
  const auto own = chunks_->of_key(k);
  chunks.insert(chunks.end(), own.begin(), own.end());
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  calltree::detail::renaming_sink renamed(p.strings, names, sink);
  return read_chunks_into(chunks, renamed, reader_needs_of(sink));
}

result<std::shared_ptr<const ranged_lines>> session::read_by_chunks(bool of_file,
                                                                    std::uint32_t id) const {
  chunk_ranges& cr = *chunks_;
  if (of_file ? id >= t.files.size() : id >= keys())
    return error{std::string("no ") + (of_file ? "file" : "function") + " has id " +
                 std::to_string(id)};
  const std::string what = (of_file ? "lines of file " : "lines of function ") + std::to_string(id);
  auto made = remembered<ranged_lines>(what, [&]() -> std::shared_ptr<const ranged_lines> {
    auto out = std::make_shared<ranged_lines>();
    std::string& failure = out->error;
    const auto chunks = of_file ? cr.of_file(id) : cr.of_key(id);
    annotate_data d;
    {
      // annotate's tables with lines, as the whole reading makes them (read_tables).
      profile p2;
      annotate_direct direct(p2, p.strings, view_annotate_options(options, input_name, true, 1),
                             nullptr, input_name);
      keep_view_tables(direct, options);
      if (auto read = read_chunks_into(chunks, direct, direct.reader_needs()); !read) {
        failure = read.error().message;
        return out;
      }
      if (p2.events.size() != p.events.size()) {
        failure = "the chunks of " + input_name + " gave other events";
        return out;
      }
      if (auto tables = direct.take_tables(d); !tables) {
        failure = tables.error().message;
        return out;
      }
    }
    if (d.recorded != t.recorded) {
      failure = "the chunks of " + input_name + " gave other columns";
      return out;
    }
    // d's files and keys in this session's numbers.
    std::vector<std::uint32_t> file_to(d.files.size(), UINT32_MAX);
    {
      std::unordered_map<std::string_view, std::uint32_t> index;
      for (std::uint32_t f = 0; f < t.files.size(); ++f) index.emplace(t.files[f], f);
      for (std::uint32_t f = 0; f < d.files.size(); ++f)
        if (auto it = index.find(d.files[f]); it != index.end()) file_to[f] = it->second;
    }
    std::vector<std::uint32_t> key_to(d.keys(), UINT32_MAX);
    auto key_of = [&](std::uint32_t rk) {
      if (key_to[rk] != UINT32_MAX) return key_to[rk];
      const string_id sid = d.key_function[rk];
      auto lo = std::lower_bound(keys_by_name.begin(), keys_by_name.end(), sid,
                                 [&](std::uint32_t a, string_id v) { return t.key_function[a] < v; });
      for (auto it = lo; it != keys_by_name.end() && t.key_function[*it] == sid; ++it) {
        const std::uint32_t k = *it;
        if (file_to[d.key_file[rk]] != t.key_file[k] || d.key_has_object[rk] != t.key_has_object[k])
          continue;
        if (t.key_has_object[k] && d.objects[d.key_object[rk]] != t.objects[t.key_object[k]])
          continue;
        return key_to[rk] = k;
      }
      return UINT32_MAX;
    };
    annotate_data& l = out->t;
    l.lines = d.lines;
    l.recorded = d.recorded;
    const std::size_t cols = d.line_cc.cols();
    l.line_cc = cc_table(cols);
    l.call_line_cc = cc_table(d.call_line_cc.cols());
    l.key_span_cc = cc_table(d.key_span_cc.cols());
    auto own_of = [&](std::uint32_t rk, std::uint32_t k) {
      if (rk < d.key_first_line.size() && d.key_first_line[rk])
        out->own.push_back({k, t.key_file[k], d.key_first_line[rk], d.key_last_line[rk], 0});
    };
    bool lost = false;  // a key or file the first reading did not have
    if (!of_file) {
      std::uint32_t rk = UINT32_MAX;
      for (std::uint32_t r = 0; r < d.keys() && rk == UINT32_MAX; ++r)
        if (d.key_function[r] == t.key_function[id] && key_of(r) == id) rk = r;
      if (rk != UINT32_MAX) {
        own_of(rk, id);
        for (const ann_span& sp : d.key_spans) {
          if (sp.key != rk) continue;
          if (file_to[sp.file] == UINT32_MAX) {
            lost = true;
            continue;
          }
          ann_span s2 = sp;
          s2.key = id;
          s2.file = file_to[sp.file];
          s2.cost = copy_row(d.key_span_cc, sp.cost, l.key_span_cc);
          l.key_spans.push_back(s2);
        }
      }
    } else {
      std::uint32_t rf = UINT32_MAX;
      for (std::uint32_t f = 0; f < d.files.size(); ++f)
        if (file_to[f] == id) rf = f;
      l.file_lines.resize(id + 1);
      if (rf != UINT32_MAX) {
        if (rf < d.file_lines.size())
          for (const auto& [line, row] : d.file_lines[rf])
            l.file_lines[id].emplace(line, copy_row(d.line_cc, row, l.line_cc));
        for (std::size_t i = 0; i < d.call_lines.size(); ++i) {
          ann_call_line c = d.call_lines[i];
          if (c.file != rf) continue;
          c.caller = key_of(c.caller);
          c.callee = key_of(c.callee);
          if (c.caller == UINT32_MAX || c.callee == UINT32_MAX) {
            lost = true;
            continue;
          }
          c.file = id;
          l.call_lines.push_back(c);
          copy_row(d.call_line_cc, i, l.call_line_cc);
        }
        for (ann_jump j : d.jumps) {
          if (j.file != rf) continue;
          if (file_to[j.target_file] == UINT32_MAX) {
            lost = true;
            continue;
          }
          j.file = id;
          j.target_file = file_to[j.target_file];
          l.jumps.push_back(j);
        }
        std::sort(l.jumps.begin(), l.jumps.end(), [](const ann_jump& a, const ann_jump& b) {
          return std::tie(a.file, a.line, a.target_file, a.target_line, a.conditional) <
                 std::tie(b.file, b.line, b.target_file, b.target_line, b.conditional);
        });
        for (std::uint32_t r = 0; r < d.keys(); ++r) {
          if (d.key_file[r] != rf) continue;
          const std::uint32_t k = key_of(r);
          if (k == UINT32_MAX) {
            lost = true;
            continue;
          }
          own_of(r, k);
        }
        for (const ann_span& sp : d.key_spans) {
          if (sp.file != rf) continue;
          ann_span s2 = sp;
          s2.key = key_of(sp.key);
          if (s2.key == UINT32_MAX) {
            lost = true;
            continue;
          }
          s2.file = id;
          s2.cost = copy_row(d.key_span_cc, sp.cost, l.key_span_cc);
          l.key_spans.push_back(s2);
        }
      }
    }
    if (lost) {
      failure = "the chunks of " + input_name + " name functions or files the first reading did not";
      return out;
    }
    std::sort(out->own.begin(), out->own.end(),
              [](const ann_span& a, const ann_span& b) { return a.key < b.key; });
    std::sort(l.key_spans.begin(), l.key_spans.end(), [](const ann_span& a, const ann_span& b) {
      return std::tie(a.key, a.file) < std::tie(b.key, b.file);
    });
    return out;
  });
  if (!made->error.empty()) return error{made->error};
  return made;
}

}  // namespace calltree::views

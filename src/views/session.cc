// views/session.cc — loading a profile for the views (see session.h).
#include "views/session.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "calltree/input.h"
#include "import/stacks.h"
#include "model/radix_sort.h"
#include "model/row_index.h"
#include "model/string_pool_access.h"
#include "reader/read_hooks.h"
#include "views/annotate_direct.h"
#include "views/call_balance.h"
#include "views/chunk_ranges.h"
#include "views/class_scope.h"
#include "views/function_list.h"
#include "views/part_costs.h"

namespace calltree::views {

namespace {

// Keeps the first `per_code` diagnostics of each code with their text, `keep` at most, and
// counts every one: a note on every line (Xdebug's extra-call-target) leaves room for the one
// warning that matters.
class keeping_sink final : public diagnostic_sink {
 public:
  explicit keeping_sink(std::size_t keep) : keep_(keep) {}
  void report(diagnostic d) override {
    tally(d.code, d.severity);
    if (!wants(d.code)) return;
    ++of_code_[static_cast<std::size_t>(d.code)];
    kept.push_back(std::move(d));
  }
  bool wants(diag_code c) const override {
    return kept.size() < keep_ && of_code_[static_cast<std::size_t>(c)] < per_code;
  }
  static constexpr std::size_t per_code = 20;
  void count_only(diag_code c, severity s) override { tally(c, s); }
  std::vector<diagnostic> kept;
  std::uint64_t errors = 0, warnings = 0, notes = 0;
  // Per code and severity: how many (the page says how many of each code it does not list).
  std::array<std::array<std::uint64_t, 3>, 256> counted{};

 private:
  void tally(diag_code c, severity s) {
    (s == severity::error ? errors : s == severity::warning ? warnings : notes)++;
    ++counted[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)];
  }
  std::size_t keep_;
  std::array<std::size_t, 256> of_code_{};
};

// The reader's `summary-mismatch` warnings that say what a warning of the tables says (a part's
// `summary: says N EVENT, less than ...` beside `the file states a total of N EVENT but ...`,
// the same N and EVENT: a file of one part) are dropped, with their counts: the page reports
// that fact once, with what follows from it (the percentages are of N and can pass 100 %).
void drop_repeated_mismatches(session& s) {
  std::uint64_t dropped = 0;
  std::erase_if(s.diagnostics, [&](const diagnostic& d) {
    static constexpr std::string_view says = "summary: says ";
    if (d.code != diag_code::summary_mismatch || !d.message.starts_with(says)) return false;
    const std::string_view m(d.message);
    const std::size_t comma = m.find(", less than", says.size());
    if (comma == std::string_view::npos) return false;
    const std::string stated = "the file states a total of " +
                               std::string(m.substr(says.size(), comma - says.size())) + " but ";
    for (const auto& w : s.table_warnings)
      if (w.starts_with(stated)) return ++dropped, true;
    return false;
  });
  if (!dropped) return;
  s.warnings -= std::min(s.warnings, dropped);
  for (auto& c : s.diagnostic_counts)
    if (c.code == diag_code::summary_mismatch && c.severity == severity::warning)
      c.count -= std::min(c.count, dropped);
  std::erase_if(s.diagnostic_counts,
                [](const session::diagnostic_count& c) { return c.count == 0; });
}

}  // namespace

session::~session() = default;

std::string_view session::name(std::uint32_t id) const {
  if (id < keys()) return t.function_name(id);
  return cycle_names_[id - keys()];
}

void session::prefetch_name(std::uint32_t id) const {
  if (id < keys()) string_pool_access::prefetch_view(*t.names, t.key_function[id]);
}

std::string_view session::object(std::uint32_t key) const {
  return t.key_has_object[key] ? std::string_view(t.objects[t.key_object[key]])
                               : std::string_view();
}

std::shared_ptr<const part_costs> session::costs_of(const std::vector<std::uint32_t>& parts,
                                                    bool detect_cycles) const {
  std::lock_guard lock(mutex_);
  if (parts.empty()) {
    auto& all = detect_cycles ? all_ : all_no_cycles_;
    if (!all) all = std::make_shared<part_costs>(*this, detect_cycles);
    return all;
  }
  auto& recent = detect_cycles ? recent_ : recent_no_cycles_;
  for (auto it = recent.begin(); it != recent.end(); ++it)
    if (it->first == parts) {
      auto found = it->second;
      std::rotate(recent.begin(), it, it + 1);  // most recent first
      return found;
    }
  auto made = std::make_shared<part_costs>(*this, parts, detect_cycles);
  recent.insert(recent.begin(), {parts, made});
  // (Every part of a file of a few, for the list's parts side by side, and a few selections.)
  if (recent.size() > 4 + std::min<std::size_t>(p.parts.size(), max_part_columns))
    recent.pop_back();
  return made;
}

std::vector<std::uint64_t> session::part_totals(std::uint32_t part) const {
  // add_part_totals gives a part that states no total the sum of its self costs (part::totals,
  // summed by the reader) already: adding the part's self rows to it again counted them twice
  // (issue 67: ruby-prof's files of one thread each, whose parts state nothing).
  std::vector<std::uint64_t> out(columns.nrec, 0);
  add_part_totals(
      p, columns, [&](std::size_t pt) { return pt == part; }, out.data(), nullptr);
  return out;
}

const std::vector<std::uint32_t>& session::name_order() const {
  std::call_once(name_order_once_, [&] {
    // The order of the comparison below (a strict total order: name, then file, then id), made
    // by the names' bytes 8 at a time first: a run of ids whose names share their first 8 * d
    // bytes is radix-sorted by the next 8 (big-endian, zero-padded: where two such keys differ,
    // the names differ there the same way), and each run of equal keys again, down to runs of
    // a few, which the comparison sorts. 1.1 M names in a fraction of a comparison sort's time
    // (each of whose ~20 compares a name missed the cache).
    auto less = [&](const detail::keyed_index& x, const detail::keyed_index& y) {
      const auto a = x.index, b = y.index;
      const int c = name(a).compare(name(b));
      if (c != 0) return c < 0;
      if (a < keys() && b < keys()) {
        const int f = file(a).compare(file(b));
        if (f != 0) return f < 0;
      }
      return a < b;
    };
    auto key_at = [&](std::uint32_t id, std::size_t from) {
      const std::string_view n = name(id);
      std::uint64_t k = 0;
      for (std::size_t i = from; i < from + 8; ++i)
        k = (k << 8) | (i < n.size() ? static_cast<unsigned char>(n[i]) : 0u);
      return k;
    };
    std::vector<detail::keyed_index> ranked(ids());
    for (std::uint32_t i = 0; i < ids(); ++i) ranked[i].index = i;
    std::vector<detail::keyed_index> run;
    // [from, to) share their names' first 8 * depth bytes.
    auto refine = [&](auto& self, std::size_t from, std::size_t to, std::size_t depth) -> void {
      const auto first = ranked.begin() + static_cast<std::ptrdiff_t>(from);
      const auto last = ranked.begin() + static_cast<std::ptrdiff_t>(to);
      if (to - from <= 32 || depth == 8) {
        std::sort(first, last, less);
        return;
      }
      run.assign(first, last);
      for (detail::keyed_index& r : run) r.key = key_at(r.index, 8 * depth);
      detail::radix_sort(run);  // (stable: equal keys stay in id order)
      std::copy(run.begin(), run.end(), first);
      for (std::size_t i = from; i < to;) {
        std::size_t j = i + 1;
        while (j < to && ranked[j].key == ranked[i].key) ++j;
        if (j - i > 1) self(self, i, j, depth + 1);
        i = j;
      }
    };
    refine(refine, 0, ranked.size(), 0);
    name_order_.resize(ids());
    for (std::size_t i = 0; i < ranked.size(); ++i) name_order_[i] = ranked[i].index;
  });
  return name_order_;
}

const group_index& session::groups(grouping g) const {
  const int i = g == grouping::object ? 0 : g == grouping::file ? 1 : 2;
  std::call_once(groups_once_[i], [&] {
    group_index& gi = groups_[i];
    std::unordered_map<std::string_view, std::uint32_t> index;
    gi.of.resize(keys());
    for (std::uint32_t k = 0; k < keys(); ++k) {
      const std::string_view n = group_name(*this, g, k);
      auto [it, fresh] = index.emplace(n, static_cast<std::uint32_t>(gi.names.size()));
      if (fresh) gi.names.push_back(n);
      gi.of[k] = it->second;
    }
  });
  return groups_[i];
}

const std::vector<std::string_view>& session::scopes() const {
  std::call_once(scopes_once_, [&] {
    scopes_.resize(keys());
    for (std::uint32_t k = 0; k < keys(); ++k) scopes_[k] = class_scope(t.function_name(k));
  });
  return scopes_;
}

std::shared_ptr<const void> session::remembered_any(
    const std::string& key, const std::function<std::shared_ptr<const void>()>& make) const {
  auto mine = std::make_shared<making>();
  {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (auto found = find_remembered(key)) return found;
      auto other = std::find_if(making_.begin(), making_.end(),
                                [&](const std::shared_ptr<making>& m) { return m->key == key; });
      if (other == making_.end()) break;
      const std::shared_ptr<making> m = *other;
      made_.wait(lock, [&] { return m->done; });
      if (m->value) return m->value;
      // (Its maker failed or gave nothing: made here, unless a third thread has begun it.)
    }
    mine->key = key;
    making_.push_back(mine);
  }
  auto finish = [&](std::shared_ptr<const void> value) {
    {
      std::lock_guard lock(mutex_);
      mine->done = true;
      mine->value = value;
      if (value) remember(key, std::move(value));
      std::erase(making_, mine);
    }
    made_.notify_all();
  };
  std::shared_ptr<const void> made;
  try {
    made = make();
  } catch (...) {
    finish(nullptr);
    throw;
  }
  finish(made);
  return made;
}

std::shared_ptr<const void> session::find_remembered(const std::string& key) const {
  for (auto it = remembered_.begin(); it != remembered_.end(); ++it)
    if (it->first == key) {
      auto found = it->second;
      std::rotate(remembered_.begin(), it, it + 1);
      return found;
    }
  return nullptr;
}

void session::remember(const std::string& key, std::shared_ptr<const void> value) const {
  remembered_.insert(remembered_.begin(), {key, std::move(value)});
  if (remembered_.size() > 16) remembered_.pop_back();
}

result<std::unique_ptr<session>> load_session(const std::string& path,
                                              const load_options& options) {
  return load_run({path}, options);
}

annotate_options view_annotate_options(const load_options& options, const std::string& input,
                                       bool lines, unsigned threads) {
  annotate_options o;
  o.inclusive = true;
  o.tree_caller = o.tree_calling = true;
  o.auto_annotate = lines;
  o.include_dirs = options.include_dirs;
  o.source_roots = options.source_roots;
  o.cwd = options.cwd;
  o.input_name = input;
  o.threads = threads;
  o.max_memory = options.max_memory;
  return o;
}

void keep_view_tables(annotate_direct& direct, const load_options& options) {
  direct.keep_view_tables(options.inclusive);
  direct.key_by_function();
  if (!options.keep_jumps) direct.skip_jumps();
}

namespace {

// What one reading of a session's files gives beside its tables.
struct reading {
  read_stats total;
  std::vector<session::run_file> run_files;
};

// Reads `paths` into `p` (parts, events, names) and `t` (annotate's tables keyed by function,
// with the views' tables): with `lines`, the source-line tables too (every file's lines,
// found or not, and the jumps unless load_options::keep_jumps says no), else the function-level
// tables alone, which the reader hands over as sums per function from every reading thread.
result<reading> read_tables(const std::vector<std::string>& paths, const load_options& options,
                            bool lines, profile& p, annotate_data& t, keeping_sink& diags,
                            std::vector<std::string>* warnings,
                            const std::atomic<bool>* stop = nullptr,
                            std::optional<std::uint32_t> part = std::nullopt,
                            std::vector<calltree::detail::recorded_stacks>* stacks = nullptr,
                            chunk_ranges* ranges = nullptr,
                            std::function<void()> keys_numbered = {}) {
  const std::string& path = paths.front();
  annotate_options o = view_annotate_options(options, path, lines, options.threads);
  if (part) o.part = part_id{*part};  // (one part's records alone, as annotate --part)
  const std::string display = path == "-" ? "<stdin>" : path;
  annotate_direct direct(p, o, &diags, display);
  keep_view_tables(direct, options);
  direct.stop_when(stop);
  if (keys_numbered) direct.when_keys_numbered(std::move(keys_numbered));

  // A run of several files: each file's parts, one after another, into the same tables (as
  // KCachegrind loads them).
  reading r;
  read_stats& total = r.total;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    auto in = open_input(paths[f]);
    if (!in) return in.error();
    reader_options ro;
    ro.display_name = paths[f] == "-" ? "<stdin>" : paths[f];
    ro.threads = options.threads;
    ro.max_name_bytes = options.max_memory;
    ro.progress = options.progress;
    const std::size_t parts_before = p.parts.size();
    // (read_profile with any_input, the imported stacks kept)
    detail::read_hooks hooks;
    hooks.any_input = true;
    std::vector<calltree::detail::recorded_stacks> file_stacks;
    if (stacks) hooks.stacks = &file_stacks;
    // (Each file's chunks indexed, and the chunks of each key's and file's records noted,
    // numbered across the files.)
    if (ranges) {
      chunk_ranges::input& indexed = *ranges->inputs[f];
      indexed.first_chunk = indexed.first_part = 0;
      for (std::size_t g = 0; g < f; ++g) {
        indexed.first_chunk += static_cast<std::uint32_t>(ranges->inputs[g]->index.starts.size());
        indexed.first_part += static_cast<std::uint32_t>(ranges->inputs[g]->index.parts.size());
      }
      hooks.index = &indexed.index;
      direct.note_chunks(&indexed.index.starts, indexed.first_chunk);
    }
    hooks.chunk_bytes = options.chunk_bytes;
    auto stats = detail::read_with_hooks(**in, p.strings, direct, diags, ro, hooks);
    if (!stats) return stats.error();
    for (auto& st : file_stacks) {
      st.part += parts_before;
      stacks->push_back(std::move(st));
    }
    if (paths.size() == 1) {
      total = *stats;
      break;
    }
    session::run_file rf;
    rf.name = paths[f];
    if (struct stat st; stat(paths[f].c_str(), &st) == 0)
      rf.size = static_cast<std::uint64_t>(st.st_size);
    rf.parts = static_cast<std::uint32_t>(p.parts.size() - parts_before);
    rf.complete = detail::read_to_end(*stats);
    r.run_files.push_back(std::move(rf));
    // The run's state: the worst of its files' (stopped, then likely cut short).
    if (stats->state == read_state::stopped ||
        (stats->state == read_state::likely_truncated && total.state == read_state::complete))
      total.state = stats->state;
    for (auto field :
         {&read_stats::lines, &read_stats::skipped_lines, &read_stats::bytes, &read_stats::parts,
          &read_stats::cost_lines, &read_stats::call_lines, &read_stats::jump_lines})
      total.*field += (*stats).*field;
  }
  if (auto made = direct.take_tables(t, warnings); !made) return made.error();
  if (ranges) {
    chunk_notes notes;
    direct.take_chunk_notes(notes);
    ranges->take(notes, t.keys(), t.files.size());
  }
  if (!lines) {
    // (What a reading with lines notes of each display file as it meets it.)
    t.file_found.resize(t.files.size());
    for (std::size_t f = 0; f < t.files.size(); ++f)
      t.file_found[f] = source_found(t.files[f], o) ? 1 : 0;
  }
  return r;
}

}  // namespace

result<std::unique_ptr<session>> load_run(const std::vector<std::string>& paths,
                                          const load_options& options) {
  if (paths.empty()) return error{"no profile to read"};
  const std::string& path = paths.front();
  auto s = std::make_unique<session>();
  s->input_name = path;
  s->options = options;
  if (path != "-") {
    struct stat st;
    if (stat(path.c_str(), &st) == 0) s->input_size = static_cast<std::uint64_t>(st.st_size);
  }
  // (Standard input cannot be read a second time: its lines are read with the rest.)
  const bool defer =
      options.defer_lines && std::find(paths.begin(), paths.end(), "-") == paths.end();
  if (defer) {
    s->paths_ = paths;
    for (const auto& f : paths) s->stamps_.push_back(file_stamp(f));
  }
  keeping_sink diags(options.kept_diagnostics);
  std::vector<calltree::detail::recorded_stacks> stacks;
  // The files read later by chunks: indexed by this reading (chunk_ranges.h).
  std::unique_ptr<chunk_ranges> ranges;
  if (defer && options.lines_by_chunks) {
    ranges = std::make_unique<chunk_ranges>();
    for (std::size_t f = 0; f < paths.size(); ++f) {
      auto in = std::make_unique<chunk_ranges::input>();
      in->path = paths[f];
      in->stamp = s->stamps_[f];
      chunk_ranges::input* r = in.get();
      in->index.keep_bytes = [r](std::span<const char> bytes) { return r->keep(bytes); };
      ranges->inputs.push_back(std::move(in));
    }
  }
  // The names are indexed on another thread once the tables' keys are numbered, while the
  // reading's calls, inclusive costs and totals are made (joined before anything reads them).
  std::thread indexing;
  std::exception_ptr indexing_failed;
  struct joined {
    std::thread& t;
    ~joined() {
      if (t.joinable()) t.join();
    }
  } join_indexing{indexing};
  auto index_names = [&] {
    if (options.threads == 1) {
      s->index_names();
      return;
    }
    try {
      indexing = std::thread([&] {
        try {
          s->index_names();
        } catch (...) {
          indexing_failed = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
      s->index_names();  // (no thread to be had)
    }
  };
  auto read = read_tables(paths, options, !defer, s->p, s->t, diags, &s->table_warnings, nullptr,
                          std::nullopt, &stacks, ranges.get(), index_names);
  if (!read) return read.error();
  // (Its chunks are read alone only where every one reads as the whole reading read it, and
  // the views can find their keys by name.)
  if (ranges && options.index_names &&
      std::all_of(ranges->inputs.begin(), ranges->inputs.end(),
                  [](const auto& in) { return in->index.usable; }))
    s->chunks_ = std::move(ranges);
  ranges.reset();
  s->stats = read->total;
  s->run_files = std::move(read->run_files);
  s->errors = diags.errors;
  s->warnings = diags.warnings;
  s->notes = diags.notes;
  // (by severity, errors first, then by code)
  for (int v = 2; v >= 0; --v)
    for (std::size_t c = 0; c < diags.counted.size(); ++c)
      if (const std::uint64_t n = diags.counted[c][static_cast<std::size_t>(v)])
        s->diagnostic_counts.push_back({static_cast<diag_code>(c), static_cast<severity>(v), n});
  s->diagnostics = std::move(diags.kept);
  // Errors first, then warnings, then notes, each in the order of the file.
  std::stable_sort(s->diagnostics.begin(), s->diagnostics.end(),
                   [](const diagnostic& a, const diagnostic& b) {
                     auto rank = [](severity v) {
                       return v == severity::error ? 0 : v == severity::warning ? 1 : 2;
                     };
                     return rank(a.severity) < rank(b.severity);
                   });
  drop_repeated_mismatches(*s);
  s->columns = recorded_columns(s->p, s->t.recorded);
  keep_recorded_stacks(*s, stacks);
  stacks = {};
  if (auto w = calls_above_lines(*s)) s->table_warnings.push_back(std::move(*w));
  if (indexing.joinable()) indexing.join();
  if (indexing_failed) std::rethrow_exception(indexing_failed);
  s->name_cycles();
  if (!defer) s->lines_done_ = true;
  return s;
}

const annotate_data& session::lines() const {
  if (paths_.empty()) return t;
  std::call_once(lines_once_, [&] { make_lines(); });
  return *lines_;
}

bool session::lines_ready() const { return paths_.empty() || lines_done_.load(); }

const std::string& session::lines_error() const { return lines_error_; }

std::shared_ptr<const part_lines> session::lines_of_part(std::uint32_t part) const {
  return remembered<part_lines>("lines of part " + std::to_string(part), [&] {
    auto out = std::make_shared<part_lines>();
    std::vector<std::string> paths = paths_;
    if (paths.empty()) {
      if (run_files.empty()) paths.push_back(input_name);
      for (const run_file& f : run_files) paths.push_back(f.name);
    }
    if (std::find(paths.begin(), paths.end(), "-") != paths.end()) {
      out->error = "standard input cannot be read again for one part's lines";
      return out;
    }
    const annotate_data& all = lines();
    if (!all.lines) {
      out->error = lines_error_.empty() ? "the profile has no source lines" : lines_error_;
      return out;
    }
    try {
      profile p2;
      keeping_sink diags(0);
      load_options o = options;
      o.progress = nullptr;
      annotate_data made;
      auto read = read_tables(paths, o, true, p2, made, diags, nullptr, &stop_lines_, part);
      if (!read) {
        out->error = read.error().message;
        return out;
      }
      for (std::size_t f = 0; f < stamps_.size() && f < paths.size(); ++f)
        if (file_stamp(paths[f]) != stamps_[f]) {
          out->error = paths[f] + " changed since it was read: reload the page to read it again";
          return out;
        }
      // Its keys are its own (a reading of one part meets its functions in another order):
      // this session's by object, file and name.
      auto text = [](const annotate_data& d, std::uint32_t k) {
        std::string s;
        if (d.key_has_object[k]) s = d.objects[d.key_object[k]];
        s.append(1, '\0').append(d.files[d.key_file[k]]).append(1, '\0');
        s.append(d.function_name(k));
        return s;
      };
      std::unordered_map<std::string, std::uint32_t> made_key;
      for (std::uint32_t k = 0; k < made.keys(); ++k) made_key.emplace(text(made, k), k);
      std::vector<std::uint32_t> key_to(made.keys(), UINT32_MAX);
      for (std::uint32_t k = 0; k < keys(); ++k)
        if (auto it = made_key.find(text(t, k)); it != made_key.end()) key_to[it->second] = k;
      // Its files: lines()'s by name.
      std::unordered_map<std::string_view, std::uint32_t> file_index;
      for (std::uint32_t f = 0; f < all.files.size(); ++f) file_index.emplace(all.files[f], f);
      std::vector<std::uint32_t> file_to(made.files.size(), UINT32_MAX);
      for (std::uint32_t f = 0; f < made.files.size(); ++f)
        if (auto it = file_index.find(made.files[f]); it != file_index.end())
          file_to[f] = it->second;

      annotate_data& l = out->t;
      l.recorded = made.recorded;
      l.files = all.files;
      l.lines = true;
      l.file_lines.resize(all.files.size());
      for (std::uint32_t f = 0; f < made.file_lines.size(); ++f)
        if (file_to[f] != UINT32_MAX) l.file_lines[file_to[f]] = std::move(made.file_lines[f]);
      l.line_cc = std::move(made.line_cc);
      l.call_line_cc = cc_table(made.call_line_cc.cols());
      for (std::size_t i = 0; i < made.call_lines.size(); ++i) {
        ann_call_line c = made.call_lines[i];
        if (key_to[c.caller] == UINT32_MAX || key_to[c.callee] == UINT32_MAX ||
            file_to[c.file] == UINT32_MAX)
          continue;
        c.caller = key_to[c.caller];
        c.callee = key_to[c.callee];
        c.file = file_to[c.file];
        l.call_lines.push_back(c);
        const std::size_t row = l.call_line_cc.add_row();
        std::copy_n(made.call_line_cc.values(i), made.call_line_cc.cols(),
                    l.call_line_cc.values(row));
        std::copy_n(made.call_line_cc.defined(i), made.call_line_cc.cols(),
                    l.call_line_cc.defined(row));
      }
      for (ann_jump j : made.jumps) {
        if (file_to[j.file] == UINT32_MAX || file_to[j.target_file] == UINT32_MAX) continue;
        j.file = file_to[j.file];
        j.target_file = file_to[j.target_file];
        l.jumps.push_back(j);
      }
      std::sort(l.jumps.begin(), l.jumps.end(), [](const ann_jump& a, const ann_jump& b) {
        return std::tie(a.file, a.line, a.target_file, a.target_line, a.conditional) <
               std::tie(b.file, b.line, b.target_file, b.target_line, b.conditional);
      });
    } catch (const std::bad_alloc&) {
      out->error = "out of memory reading part " + std::to_string(part + 1) + "'s lines";
    }
    return out;
  });
}

void session::make_lines() const {
  auto made = std::make_unique<annotate_data>();
  auto fail = [&](std::string why) {
    lines_error_ = std::move(why);
    made = std::make_unique<annotate_data>();
    made->files = t.files;
    made->file_found = t.file_found;
    lines_ = std::move(made);
    lines_done_ = true;
  };
  try {
    // The second reading: the same files and options, with the source lines; nothing it
    // reports is kept (the first reading's diagnostics are the page's).
    profile p2;
    keeping_sink diags(0);
    load_options o = options;
    o.progress = nullptr;
    if (stop_lines_) return fail("the server is ending");
    auto read = read_tables(paths_, o, true, p2, *made, diags, nullptr, &stop_lines_);
    if (!read) return fail(read.error().message);
    if (stop_lines_) return fail("the server is ending");
    for (std::size_t f = 0; f < paths_.size(); ++f)
      if (file_stamp(paths_[f]) != stamps_[f])
        return fail(paths_[f] +
                    " changed since it was read: its source lines are not shown "
                    "(reload the page to read it again)");
    annotate_data& l = *made;
    // Its keys must be t's, one for one (the same records in the same order make them so).
    // (Names compared as text: the two readings' pools number them each their own way.)
    bool same = l.keys() == keys();
    for (std::uint32_t k = 0; same && k < keys(); ++k)
      same = t.key_has_object[k] == l.key_has_object[k] &&
             (!t.key_has_object[k] || t.objects[t.key_object[k]] == l.objects[l.key_object[k]]) &&
             t.files[t.key_file[k]] == l.files[l.key_file[k]] &&
             t.function_name(k) == l.function_name(k);
    if (!same)
      return fail("the second reading of " + paths_.front() +
                  " did not give the functions of the first: its source lines are not shown");
    // Its files as t's: each of t's at its index in t, a file only the lines name (a jump's
    // target) after them.
    std::unordered_map<std::string_view, std::uint32_t> index;
    for (std::uint32_t f = 0; f < t.files.size(); ++f) index.emplace(t.files[f], f);
    std::vector<std::string> files = t.files;
    std::vector<std::uint32_t> to(l.files.size());
    bool moved = false;
    for (std::uint32_t f = 0; f < l.files.size(); ++f) {
      auto it = index.find(l.files[f]);
      if (it != index.end()) {
        to[f] = it->second;
      } else {
        to[f] = static_cast<std::uint32_t>(files.size());
        files.push_back(l.files[f]);
      }
      moved |= to[f] != f;
    }
    if (moved) {
      std::vector<std::map<std::uint64_t, std::uint32_t>> file_lines(files.size());
      std::vector<char> found(files.size(), 0);
      for (std::uint32_t f = 0; f < l.files.size(); ++f) {
        if (f < l.file_lines.size()) file_lines[to[f]] = std::move(l.file_lines[f]);
        if (f < l.file_found.size()) found[to[f]] = l.file_found[f];
      }
      l.file_lines = std::move(file_lines);
      l.file_found = std::move(found);
      for (auto& c : l.call_lines) c.file = to[c.file];
      for (auto& x : l.sites) x.file = to[x.file];
      for (auto& j : l.jumps) {
        j.file = to[j.file];
        j.target_file = to[j.target_file];
      }
      for (auto& sp : l.key_spans) sp.file = to[sp.file];
      std::sort(l.key_spans.begin(), l.key_spans.end(), [](const ann_span& a, const ann_span& b) {
        return std::tie(a.key, a.file) < std::tie(b.key, b.file);
      });
      std::sort(l.jumps.begin(), l.jumps.end(), [](const ann_jump& a, const ann_jump& b) {
        return std::tie(a.file, a.line, a.target_file, a.target_line, a.conditional) <
               std::tie(b.file, b.line, b.target_file, b.target_line, b.conditional);
      });
      index_source_lines(l);
    }
    l.files = std::move(files);
    // Only the line tables stay (the function-level ones are t's); the names were p2's.
    l.names = nullptr;
    l.key_file = {};
    l.key_function = {};
    l.key_object = {};
    l.key_has_object = {};
    l.key_seen = {};
    l.key_called = {};
    l.objects = {};
    l.self = cc_table();
    l.inclusive = cc_table();
    l.cycle_of = {};
    l.cycles = {};
    l.cycle_cc = cc_table();
    l.calls = {};
    l.call_cc = cc_table();
    l.callers_of = {};
    l.callees_of = {};
    l.part_self_part = {};
    l.part_self_key = {};
    l.part_self = cc_table();
    l.part_call_part = {};
    l.part_call_call = {};
    l.part_call_count = {};
    l.part_call_cc = cc_table();
    lines_ = std::move(made);
    lines_done_ = true;
  } catch (const std::bad_alloc&) {
    fail("out of memory reading the source lines of " + paths_.front());
  }
}

}  // namespace calltree::views

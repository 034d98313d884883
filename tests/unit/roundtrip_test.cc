// roundtrip_test.cc — read -> write -> read keeps every fact, on every corpus and golden file.
//
// For each file of tests/corpus (the .gz too) and each tests/golden/<case>/input, with
// name and position compression on and off:
//  1. the records the reader emits for the written text equal those it emits for the original
//     (compared as `dump` lines without line numbers, hashed line by line to keep memory
//     small), after the normalisations the writer makes on purpose:
//       - the header says `version: 1` (the format it writes) and drops unknown header lines;
//       - a call without a target position gets the target 0 (the format's unknown position);
//  2. the profile models built from both are the same: parts with their header facts,
//     summaries and totals, functions (by object, file, name), self rows, calls, jumps, and
//     every cost, matched by names, not ids;
//  3. writing the re-read text again gives the same bytes (the writer's output is a fixpoint);
//  4. replay(profile) -> writer -> reader gives the same profile model too.
// The reader reports no errors on any written text.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "calltree/diagnostic.h"
#include "calltree/input.h"
#include "calltree/profile.h"
#include "calltree/profile_builder.h"
#include "calltree/reader.h"
#include "calltree/writer.h"
#include "corpus_case_names.h"
#include "profile_files.h"
#include "reader/read_hooks.h"
#include "report/dump.h"

namespace calltree {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Inputs.

// (`capped`: up to test::largest_test_profile() bytes, what the tests read; else every one.)
std::vector<std::string> input_files(bool capped = true) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(CALLTREE_CORPUS_DIR, ec)) {
    std::string n = e.path().filename().string();
    auto ends = [&](std::string_view suffix) {
      return n.size() > suffix.size() &&
             n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if ((ends(".callgrind") || ends(".cachegrind") || ends(".callgrind.gz")) &&
        (!capped || e.file_size() <= test::largest_test_profile()))
      files.push_back(e.path().string());
  }
  for (const auto& e :
       fs::directory_iterator(fs::path(CALLTREE_SOURCE_DIR) / "tests" / "golden", ec))
    if (fs::exists(e.path() / "input.callgrind"))
      files.push_back((e.path() / "input.callgrind").string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string label_of(const std::string& path) {
  fs::path p(path);
  if (p.filename() != "input.callgrind") return corpus_case_name(p.filename().string());
  std::string s = "golden_" + p.parent_path().filename().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// ---------------------------------------------------------------------------------------------
// Records as hashed dump lines.

// A streambuf that keeps one 64-bit hash per line written to it.
class line_hashes final : public std::streambuf {
 public:
  std::vector<std::uint64_t> lines;

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      char ch = static_cast<char>(c);
      xsputn(&ch, 1);
    }
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::string_view rest(s, static_cast<std::size_t>(n));
    while (!rest.empty()) {
      std::size_t nl = rest.find('\n');
      if (nl == std::string_view::npos) {
        pending_.append(rest);
        break;
      }
      std::string_view line = rest.substr(0, nl);
      if (!pending_.empty()) {
        pending_.append(line);
        lines.push_back(std::hash<std::string_view>{}(pending_));
        pending_.clear();
      } else {
        lines.push_back(std::hash<std::string_view>{}(line));
      }
      rest.remove_prefix(nl + 1);
    }
    return n;
  }

 private:
  std::string pending_;
};

// What the writer changes on purpose (see the top of this file), applied to the original's
// records before they are compared with the re-read ones.
class normalise final : public record_sink {
 public:
  explicit normalise(record_sink& next) : next_(next) {}
  void on_part_begin(const part_header& h) override {
    part_header c = h;
    c.version = "1";
    c.unknown_lines.clear();
    next_.on_part_begin(c);
  }
  void on_cost(const cost_record& r) override { next_.on_cost(r); }
  void on_call(const call_record& r) override {
    if (r.has_target) return next_.on_call(r);
    call_record c = r;
    c.has_target = true;
    c.target = {};
    next_.on_call(c);
  }
  void on_jump(const jump_record& r) override { next_.on_jump(r); }
  // (summary: and totals: are written as stated, where stated: nothing to normalise.)
  void on_part_end(const part_end& e) override { next_.on_part_end(e); }

 private:
  record_sink& next_;
};

// ---------------------------------------------------------------------------------------------
// One reading: the profile, the hashed records, optionally the written text.

struct reading {
  profile p;
  diagnostic_collector diags{3};
  line_hashes hashes;
  std::string text;  // what the writer made of it (if asked)
  bool ok = false;
};

std::unique_ptr<reading> read_one(std::unique_ptr<input> in, const std::string& name,
                                  bool normalised, const writer_options* write) {
  auto r = std::make_unique<reading>();
  profile_builder builder(r->p, &r->diags, name);
  std::ostream hash_out(&r->hashes);
  dump_sink dump(hash_out, r->p.strings, dump_options{false});
  normalise norm(dump);
  std::ostringstream text;
  std::unique_ptr<callgrind_writer> writer;
  std::vector<record_sink*> sinks{&builder, normalised ? static_cast<record_sink*>(&norm) : &dump};
  if (write) {
    writer = std::make_unique<callgrind_writer>(text, r->p.strings, *write);
    sinks.push_back(writer.get());
  }
  tee_sink tee(sinks);
  reader_options o;
  o.display_name = name;
  auto st = detail::read_profile(*in, r->p.strings, tee, r->diags, o, detail::any_input());
  dump.finish();
  if (writer) {
    EXPECT_TRUE(writer->finish());
    r->text = text.str();
  }
  r->ok = st.has_value() && detail::read_to_end(*st);
  return r;
}

std::string diag_text(const diagnostic_collector& c) {
  std::string s;
  for (const auto& d : c.kept()) s += format_diagnostic(d, false);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Profile models compared by names.

struct model_diff {
  std::vector<std::string> problems;
  void add(std::string s) {
    if (problems.size() < 20) problems.push_back(std::move(s));
  }
};

std::string function_key(const profile& p, function_id f) {
  std::string k(p.object_name(p.functions[f].object));
  k += '\0';
  k += p.file_name(p.functions[f].file);
  k += '\0';
  k += p.function_name(f);
  return k;
}

std::string pos_text(const position& x) {
  return std::to_string(x.instr) + ":" + std::to_string(x.bb) + ":" + std::to_string(x.line);
}

// Row keys: fixed arrays of ids and positions, hashed without allocation.
using row_key = std::array<std::uint64_t, 12>;
struct row_key_hash {
  std::size_t operator()(const row_key& k) const noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (auto v : k) {
      h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
};
using row_index = std::unordered_map<row_key, std::size_t, row_key_hash>;

// `b` must hold exactly the facts of `a` (with the writer's normalisations).
model_diff compare_models(const profile& a, const profile& b) {
  model_diff d;
  // Events by name.
  id_vector<event_id, event_id> ev(a.events.size());
  if (a.events.size() != b.events.size())
    d.add("event count " + std::to_string(a.events.size()) + " vs " +
          std::to_string(b.events.size()));
  for (event_id e : a.events.ids()) {
    const std::optional<event_id> found = b.find_event(a.events[e].name);
    if (!found) {
      d.add("event " + a.events[e].name + " missing");
      return d;
    }
    const event_id m = *found;
    ev[e] = m;
    if (a.events[e].formula != b.events[m].formula ||
        a.events[e].long_name != b.events[m].long_name ||
        a.events[e].recorded != b.events[m].recorded)
      d.add("event definition of " + a.events[e].name + " differs");
  }
  auto same_costs = [&](std::span<const std::uint64_t> x, std::span<const std::uint64_t> y) {
    for (event_id e : a.events.ids()) {
      const std::size_t ex = e.index(), ey = ev[e].index();
      std::uint64_t vx = ex < x.size() ? x[ex] : 0, vy = ey < y.size() ? y[ey] : 0;
      if (vx != vy) return false;
    }
    return true;
  };
  auto same_opt = [&](const std::optional<std::vector<std::uint64_t>>& x,
                      const std::optional<std::vector<std::uint64_t>>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || same_costs(*x, *y);
  };

  // Parts.
  if (a.parts.size() != b.parts.size()) {
    d.add("part count " + std::to_string(a.parts.size()) + " vs " + std::to_string(b.parts.size()));
    return d;
  }
  for (part_id i : a.parts.ids()) {
    const part& x = a.parts[i];
    const part& y = b.parts[i];
    const auto& hx = x.header;
    const auto& hy = y.header;
    std::string at = "part " + std::to_string(i.index()) + ": ";
    if (hy.version != "1") d.add(at + "version " + hy.version);
    if (hx.creator != hy.creator) d.add(at + "creator");
    if (hx.cmd != hy.cmd) d.add(at + "cmd '" + hx.cmd + "' vs '" + hy.cmd + "'");
    if (hx.pid != hy.pid || hx.thread != hy.thread || hx.part_number != hy.part_number)
      d.add(at + "pid/thread/part");
    if (hx.descriptions != hy.descriptions) d.add(at + "desc");
    if (hx.positions != hy.positions) d.add(at + "positions");
    if (hx.events != hy.events) d.add(at + "events");
    if (hx.event_definitions.size() != hy.event_definitions.size()) d.add(at + "event: lines");
    if (hx.summary != hy.summary) d.add(at + "header summary");
    if (!same_opt(x.summary, y.summary)) d.add(at + "summary");
    if (!same_costs(x.totals, y.totals)) d.add(at + "computed totals");
    // The writer's totals: line is the input's, where it had one.
    if (!same_opt(x.totals_line, y.totals_line)) d.add(at + "totals: line");
  }

  // Functions by (object, file, name).
  std::unordered_map<std::string, function_id> bf;
  for (function_id f : b.functions.ids()) bf.emplace(function_key(b, f), f);
  id_vector<function_id, function_id> fmap(a.functions.size());
  if (a.functions.size() != b.functions.size())
    d.add("function count " + std::to_string(a.functions.size()) + " vs " +
          std::to_string(b.functions.size()));
  for (function_id f : a.functions.ids()) {
    auto it = bf.find(function_key(a, f));
    if (it == bf.end()) {
      d.add("function " + std::string(a.function_name(f)) + " in " +
            std::string(a.file_name(a.functions[f].file)) + " missing");
      return d;
    }
    fmap[f] = it->second;
  }
  std::unordered_map<std::string_view, file_id> bfile;
  for (file_id f : b.files.ids()) bfile.emplace(b.file_name(f), f);
  auto file_map = [&](file_id f) {
    auto it = bfile.find(a.file_name(f));
    return it == bfile.end() ? static_cast<file_id>(-1) : it->second;
  };

  // Self rows.
  {
    row_index idx;
    idx.reserve(b.self_rows.size());
    auto key = [](part_id pt, function_id f, file_id fl, const position& pos) {
      return row_key{pt.index(), f.index(), fl.index(), pos.instr, pos.bb, pos.line};
    };
    for (std::size_t r = 0; r < b.self_rows.size(); ++r) {
      const auto& s = b.self_rows[r];
      idx.emplace(key(s.part, s.function, s.source_file, s.pos), r);
    }
    if (a.self_rows.size() != b.self_rows.size())
      d.add("self rows " + std::to_string(a.self_rows.size()) + " vs " +
            std::to_string(b.self_rows.size()));
    for (std::size_t r = 0; r < a.self_rows.size(); ++r) {
      const auto& s = a.self_rows[r];
      auto it = idx.find(key(s.part, fmap[s.function], file_map(s.source_file), s.pos));
      if (it == idx.end()) {
        d.add("self row of " + std::string(a.function_name(s.function)) + " at " + pos_text(s.pos) +
              " missing");
      } else if (!same_costs(a.self_costs.row(r), b.self_costs.row(it->second))) {
        d.add("self costs of " + std::string(a.function_name(s.function)) + " at " +
              pos_text(s.pos) + " differ");
      }
    }
  }

  // Calls (a call without target is written with target 0).
  {
    row_index idx;
    idx.reserve(b.calls.size());
    auto key = [](const call_row& c, part_id pt, function_id caller, file_id fl,
                  function_id callee) {
      position t = c.has_target ? c.target : position{};
      return row_key{
          pt.index(),     caller.index(), fl.index(), c.site.instr, c.site.bb, c.site.line,
          callee.index(), t.instr,        t.bb,       t.line,       0,         0};
    };
    for (std::size_t r = 0; r < b.calls.size(); ++r) {
      const auto& c = b.calls[r];
      if (!c.has_target) d.add("a written call has no target");
      idx.emplace(key(c, c.part, c.caller, c.caller_source_file, c.callee), r);
    }
    if (a.calls.size() != b.calls.size())
      d.add("calls " + std::to_string(a.calls.size()) + " vs " + std::to_string(b.calls.size()));
    for (std::size_t r = 0; r < a.calls.size(); ++r) {
      const auto& c = a.calls[r];
      auto it =
          idx.find(key(c, c.part, fmap[c.caller], file_map(c.caller_source_file), fmap[c.callee]));
      std::string what = "call " + std::string(a.function_name(c.caller)) + " -> " +
                         std::string(a.function_name(c.callee)) + " at " + pos_text(c.site);
      if (it == idx.end()) {
        d.add(what + " missing");
      } else if (b.calls[it->second].count != c.count ||
                 !same_costs(a.call_costs.row(r), b.call_costs.row(it->second))) {
        d.add(what + " count or costs differ");
      }
    }
  }

  // Jumps.
  {
    row_index idx;
    idx.reserve(b.jumps.size());
    auto key = [](const jump_row& j, part_id pt, function_id f, file_id fl, file_id tfl,
                  function_id tf) {
      return row_key{pt.index(),
                     f.index(),
                     fl.index(),
                     j.source.instr,
                     j.source.bb,
                     j.source.line,
                     j.conditional ? 1u : 0u,
                     tfl.index(),
                     tf.index(),
                     j.target.instr,
                     j.target.bb,
                     j.target.line};
    };
    for (std::size_t r = 0; r < b.jumps.size(); ++r) {
      const auto& j = b.jumps[r];
      idx.emplace(key(j, j.part, j.function, j.source_file, j.target_file, j.target_function), r);
    }
    if (a.jumps.size() != b.jumps.size())
      d.add("jumps " + std::to_string(a.jumps.size()) + " vs " + std::to_string(b.jumps.size()));
    for (const auto& j : a.jumps) {
      auto it = idx.find(key(j, j.part, fmap[j.function], file_map(j.source_file),
                             file_map(j.target_file), fmap[j.target_function]));
      if (it == idx.end()) {
        d.add("jump in " + std::string(a.function_name(j.function)) + " at " + pos_text(j.source) +
              " missing");
      } else if (b.jumps[it->second].executed != j.executed ||
                 b.jumps[it->second].followed != j.followed) {
        d.add("jump counts in " + std::string(a.function_name(j.function)) + " differ");
      }
    }
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// The dump lines of both readings, for a failure message (only read again on failure).

std::string nth_dump_line(const std::function<std::unique_ptr<input>()>& open, bool normalised,
                          std::size_t n) {
  string_pool pool;
  std::ostringstream out;
  dump_sink dump(out, pool, dump_options{false});
  normalise norm(dump);
  diagnostic_collector diags;
  auto in = open();
  (void)detail::read_profile(*in, pool, normalised ? static_cast<record_sink&>(norm) : dump, diags,
                             {}, detail::any_input());
  dump.finish();
  std::istringstream lines(out.str());
  std::string line;
  for (std::size_t i = 0; std::getline(lines, line); ++i)
    if (i == n) return line;
  return "(no line " + std::to_string(n) + ")";
}

// ---------------------------------------------------------------------------------------------

struct mode {
  bool names;
  bool positions;
};

class RoundTrip : public testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, KeepsEveryFact) {  // read, write, read again
  const std::string path = GetParam();
  auto open_original = [&] {
    auto in = open_input(path);
    EXPECT_TRUE(in.has_value()) << path;
    return std::move(in.value());
  };

  for (mode m : {mode{true, true}, mode{false, false}, mode{true, false}, mode{false, true}}) {
    SCOPED_TRACE(std::string("compress names ") + (m.names ? "on" : "off") + ", positions " +
                 (m.positions ? "on" : "off"));
    // Both modes off and both on cover the file; the mixed modes are cheap only for small files.
    if (m.names != m.positions && fs::file_size(path) > (4u << 20)) continue;
    writer_options wo;
    wo.compress_names = m.names;
    wo.compress_positions = m.positions;

    auto original = read_one(open_original(), path, true, &wo);
    ASSERT_TRUE(original->ok) << diag_text(original->diags);
    const std::string written = original->text;
    auto reread = read_one(memory_input(written), "written", false, &wo);
    ASSERT_TRUE(reread->ok);
    EXPECT_EQ(reread->diags.errors(), 0u) << diag_text(reread->diags);

    // 1. Records.
    const auto& hx = original->hashes.lines;
    const auto& hy = reread->hashes.lines;
    EXPECT_EQ(hx.size(), hy.size()) << "record count";
    std::size_t n = std::min(hx.size(), hy.size());
    std::size_t first = n;
    for (std::size_t i = 0; i < n; ++i)
      if (hx[i] != hy[i]) {
        first = i;
        break;
      }
    if (first < n) {
      ADD_FAILURE() << "record " << first
                    << " differs:\n  original: " << nth_dump_line(open_original, true, first)
                    << "\n  re-read:  "
                    << nth_dump_line([&] { return memory_input(written); }, false, first);
    }

    // 2. Models.
    auto md = compare_models(original->p, reread->p);
    for (const auto& problem : md.problems) ADD_FAILURE() << problem;

    // 3. Fixpoint: the written text, read and written again, is the same text.
    EXPECT_TRUE(reread->text == written) << "second writing differs (sizes " << written.size()
                                         << " and " << reread->text.size() << ")";

    // 4. replay(profile) through the writer gives the same profile (once, with compression on).
    if (m.names && m.positions) {
      std::ostringstream replayed;
      callgrind_writer w(replayed, original->p.strings, wo);
      replay(original->p, w);
      ASSERT_TRUE(w.finish());
      auto again = read_one(memory_input(replayed.str()), "replayed", false, nullptr);
      ASSERT_TRUE(again->ok);
      EXPECT_EQ(again->diags.errors(), 0u) << diag_text(again->diags);
      auto rd = compare_models(original->p, again->p);
      for (const auto& problem : rd.problems) ADD_FAILURE() << "replay: " << problem;
    }
  }
}

std::string param_label(const testing::TestParamInfo<std::string>& p) { return label_of(p.param); }

INSTANTIATE_TEST_SUITE_P(Files, RoundTrip, testing::ValuesIn(input_files()), param_label);

TEST(RoundTripSet, CoversTheWholeCorpusAndTheGoldenFiles) {
  auto files = input_files(false);
  std::size_t corpus = 0, golden = 0, gz = 0;
  for (const auto& f : files) {
    if (f.find("/tests/golden/") != std::string::npos)
      ++golden;
    else
      ++corpus;
    if (f.size() > 3 && f.compare(f.size() - 3, 3, ".gz") == 0) ++gz;
  }
  EXPECT_EQ(corpus, 41u);
  EXPECT_EQ(golden, 16u);
  EXPECT_GE(gz, 1u);
}

}  // namespace
}  // namespace calltree

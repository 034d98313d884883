// fuzz_reader.cc — libFuzzer target: the streaming reader on arbitrary bytes.
//
// Every record the reader emits is checked against records.h (ids in range, one cost per
// event, parts opened and closed in order) and every diagnostic must format. Compressed input
// is found by magic bytes, so the seeds' gzip/zstd/xz/bzip2 streams fuzz the decoders too,
// and each compressed input is read a second time with the decoder on its own thread. A plain
// input is read again on the parallel path, once more summed per key and line
// (record_needs::per_line, lines_of) on one thread and on two: the same sums, and once
// more with cost lines in runs (read_needs::grain::runs_of_lines): the same lines, and merged
// by place where chunks are read ahead (merge_cost_lines): the same sums per place, no place
// twice in a merged chunk.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "calltree/cost_matrix.h"
#include "fuzz_common.h"

namespace {

using namespace calltree;

// Sums per key as annotate's source annotation reads them (record_needs::per_line):
// self costs per part and context, calls per part, context and callee, each also per line
// (call-site line) where the source file has lines that count (here: a name of odd length).
class summing_sink final : public record_sink {
 public:
  explicit summing_sink(const string_pool& names) : check_(names), names_(names) {}
  static bool lines_count(std::string_view source_file) { return source_file.size() % 2 == 1; }

  void on_part_begin(const part_header& h) override {
    check_.on_part_begin(h);
    part_ = h.index;
  }
  void on_part_end(const part_end& e) override { check_.on_part_end(e); }
  void on_cost(const cost_record& r) override {
    check_.on_cost(r);
    add({0, part_, r.ctx.object.index(), r.ctx.file.index(), r.ctx.source_file.index(),
         r.ctx.function.index(), line_of(r.ctx.source_file, r.pos.line)},
        0, r.costs);
  }
  void on_call(const call_record& r) override {
    check_.on_call(r);
    add({1, part_, r.ctx.object.index(), r.ctx.file.index(), r.ctx.source_file.index(),
         r.ctx.function.index(), r.callee_object.index(), r.callee_file.index(),
         r.callee_function.index(), r.has_target ? 1u : 0u,
         line_of(r.ctx.source_file, r.site.line)},
        r.count, r.costs);
  }
  std::map<std::vector<std::uint64_t>, std::vector<std::uint64_t>> sums;

 private:
  std::uint64_t line_of(string_id source_file, std::uint64_t line) const {
    return lines_count(names_.view(source_file)) ? line : 0;
  }
  void add(std::vector<std::uint64_t> key, std::uint64_t count,
           std::span<const std::uint64_t> costs) {
    auto& v = sums[std::move(key)];
    if (v.empty()) v.assign(costs.size() + 1, 0);
    CALLTREE_FUZZ_CHECK(v.size() == costs.size() + 1);
    add_saturating(v[0], count);
    for (std::size_t k = 0; k < costs.size(); ++k) add_saturating(v[k + 1], costs[k]);
  }
  fuzz::checking_sink check_;
  const string_pool& names_;
  std::uint64_t part_ = 0;
};

// What the two sinks of cost lines in runs below share: every record checked, the part, a
// run's shape, the calls in order.
class runs_checking_sink : public calltree::run_sink {
 public:
  explicit runs_checking_sink(const string_pool& names) : check_(names) {}
  void on_part_begin(const part_header& h) override {
    check_.on_part_begin(h);
    part_ = h.index;
  }
  void on_part_end(const part_end& e) override { check_.on_part_end(e); }
  void on_cost_run(const cost_run_record& r) override {
    CALLTREE_FUZZ_CHECK(!r.lines.empty() && r.costs.size() % r.lines.size() == 0);
    calltree::run_sink::on_cost_run(r);
  }
  void on_call(const call_record& r) override {
    check_.on_call(r);
    calls.push_back({r.line, r.ctx.function.index(), r.callee_function.index(), r.count});
  }
  std::vector<std::vector<std::uint64_t>> calls;

 protected:
  fuzz::checking_sink check_;
  std::uint64_t part_ = 0;
};

// Each context's cost lines in order (read_needs::grain::runs_of_lines: a run at once),
// every field of each; the calls in order.
class line_sink final : public runs_checking_sink {
 public:
  explicit line_sink(const string_pool& names) : runs_checking_sink(names) {}
  void on_cost(const cost_record& r) override {
    check_.on_cost(r);
    std::vector<std::uint64_t> v{r.line, r.pos.instr, r.pos.bb, r.pos.line, r.given};
    v.insert(v.end(), r.costs.begin(), r.costs.end());
    lines[{part_, r.ctx.object.index(), r.ctx.file.index(), r.ctx.source_file.index(),
           r.ctx.function.index()}]
        .push_back(v);
  }
  std::map<std::vector<std::uint64_t>, std::vector<std::vector<std::uint64_t>>> lines;
};

// Costs summed per place (part, context, position), as the model's self rows; the calls in
// order; whether a chunk merged by place (cost_run_record::merged_chunk) held one twice.
class place_sink final : public runs_checking_sink {
 public:
  explicit place_sink(const string_pool& names) : runs_checking_sink(names) {}
  void on_cost(const cost_record& r) override {
    check_.on_cost(r);
    auto& sum = sums[place(r.ctx, r.pos)];
    if (sum.size() < r.costs.size()) sum.resize(r.costs.size());
    for (std::size_t i = 0; i < r.costs.size(); ++i) sum[i] += r.costs[i];
  }
  void on_cost_run(const cost_run_record& r) override {
    if (r.merged_chunk) {
      CALLTREE_FUZZ_CHECK(r.merged_chunk >= chunk_);
      if (r.merged_chunk != chunk_) seen_.clear();
      chunk_ = r.merged_chunk;
      for (const auto& l : r.lines) CALLTREE_FUZZ_CHECK(seen_.insert(place(r.ctx, l.pos)).second);
    }
    runs_checking_sink::on_cost_run(r);
  }
  std::map<std::vector<std::uint64_t>, std::vector<std::uint64_t>> sums;

 private:
  std::vector<std::uint64_t> place(const context& c, const position& p) const {
    return {part_,
            c.object.index(),
            c.file.index(),
            c.source_file.index(),
            c.function.index(),
            p.instr,
            p.bb,
            p.line};
  }
  std::uint64_t chunk_ = 0;
  std::set<std::vector<std::uint64_t>> seen_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  string_pool names;
  fuzz::checking_sink records(names);
  fuzz::checking_diagnostics diagnostics;
  auto in = memory_input(std::string(bytes));
  const bool compressed = in->kind() != compression::none;
  auto stats = test::read_as(*in, names, records, diagnostics, fuzz::fuzz_reader_options());
  if (!stats) return 0;                     // unreadable input: a fatal error, reported as a result
  CALLTREE_FUZZ_CHECK(!records.in_part());  // every part that began has ended
  CALLTREE_FUZZ_CHECK(stats->parts == records.parts);
  CALLTREE_FUZZ_CHECK(stats->skipped_lines <= stats->lines);
  CALLTREE_FUZZ_CHECK(stats->cost_lines >= records.costs);

  // A compressed input is read again with its decoder on a thread of its own: the reading
  // must not change (reader_options::threads).
  if (compressed) {
    string_pool names2;
    fuzz::checking_sink records2(names2);
    fuzz::checking_diagnostics diagnostics2;
    auto options = fuzz::fuzz_reader_options();
    options.threads = 2;
    auto in2 = memory_input(std::string(bytes));
    auto stats2 = test::read_as(*in2, names2, records2, diagnostics2, options);
    CALLTREE_FUZZ_CHECK(stats2.has_value());
    CALLTREE_FUZZ_CHECK(stats2->lines == stats->lines && stats2->bytes == stats->bytes);
    CALLTREE_FUZZ_CHECK(diagnostics2.errors == diagnostics.errors && stats2->state == stats->state);
    CALLTREE_FUZZ_CHECK(records2.costs == records.costs && records2.calls == records.calls);
    CALLTREE_FUZZ_CHECK(names2.size() == names.size());
  }
  // Every input is read again on the parallel path (chunks of 64 bytes read ahead on
  // speculation, with the options that allow it: a plain input cut up front, a zstd one as it
  // is decoded) and with the same options on one thread: statistics, diagnostics and
  // names must be the same.
  {
    auto once = [&](unsigned threads, string_pool& pool, fuzz::checking_diagnostics& d) {
      fuzz::checking_sink sink(pool);
      auto options = fuzz::fuzz_reader_options();
      options.threads = threads;
      options.chunk_bytes = 64;
      options.sum_cost_runs = true;
      options.skip_jump_records = true;
      options.speculate_every_chunk = true;
      auto in3 = memory_input(std::string(bytes));
      return test::read_as(*in3, pool, sink, d, options);
    };
    string_pool n1, n2;
    fuzz::checking_diagnostics d1, d2;
    auto s1 = once(1, n1, d1);
    auto s2 = once(2, n2, d2);
    CALLTREE_FUZZ_CHECK(s1.has_value() && s2.has_value());
    CALLTREE_FUZZ_CHECK(s1->lines == s2->lines && s1->cost_lines == s2->cost_lines);
    CALLTREE_FUZZ_CHECK(s1->call_lines == s2->call_lines && s1->skipped_lines == s2->skipped_lines);
    CALLTREE_FUZZ_CHECK(d1.errors == d2.errors && d1.warnings == d2.warnings &&
                        s1->state == s2->state);
    CALLTREE_FUZZ_CHECK(d1.total == d2.total && n1.size() == n2.size());
    for (std::size_t i = 0; i < n1.size(); ++i)
      CALLTREE_FUZZ_CHECK(n1.view(string_id{i}) == n2.view(string_id{i}));

    // Summed per key (and per line where lines count, record_needs::per_line and
    // lines_of): the sums per key and line are the same on one thread and on the parallel
    // path, where a speculation that took a file of counting lines for one whose lines do not
    // count is read again.
    auto summed = [&](unsigned threads, string_pool& pool) {
      summing_sink sink(pool);
      fuzz::checking_diagnostics d;
      auto options = fuzz::fuzz_reader_options();
      options.threads = threads;
      options.chunk_bytes = 64;
      options.sum_by_context = options.sum_cost_runs = options.sum_per_line = true;
      options.lines_of = summing_sink::lines_count;
      options.skip_jump_records = true;
      options.speculate_every_chunk = true;
      auto in4 = memory_input(std::string(bytes));
      CALLTREE_FUZZ_CHECK(test::read_as(*in4, pool, sink, d, options).has_value());
      return sink.sums;
    };
    string_pool m1, m2;
    const auto sums1 = summed(1, m1);
    const auto sums2 = summed(2, m2);
    CALLTREE_FUZZ_CHECK(m1.size() == m2.size());
    CALLTREE_FUZZ_CHECK(sums1 == sums2);

    // Cost lines in runs (read_needs::grain::runs_of_lines), merged by place or not, in
    // chunks of 64 bytes read ahead.
    auto read_in_runs = [&](unsigned threads, string_pool& pool, record_sink& sink, bool merge) {
      fuzz::checking_diagnostics d;
      auto options = fuzz::fuzz_reader_options();
      options.threads = threads;
      options.chunk_bytes = 64;
      options.cost_run_records = true;
      options.merge_cost_lines = merge;
      options.speculate_every_chunk = true;
      auto in5 = memory_input(std::string(bytes));
      CALLTREE_FUZZ_CHECK(test::read_as(*in5, pool, sink, d, options).has_value());
    };
    // Every line of every context, in order and as it was, and the calls in order, on one
    // thread and on the parallel path.
    auto in_runs = [&](unsigned threads, string_pool& pool) {
      line_sink sink(pool);
      read_in_runs(threads, pool, sink, false);
      return std::pair{sink.lines, sink.calls};
    };
    string_pool r1, r2;
    const auto runs1 = in_runs(1, r1);
    const auto runs2 = in_runs(2, r2);
    CALLTREE_FUZZ_CHECK(r1.size() == r2.size());
    CALLTREE_FUZZ_CHECK(runs1 == runs2);

    // Merged by place (read_needs::grain::runs_merged_by_place): the same sums, the calls in order.
    auto merged = [&](unsigned threads, string_pool& pool) {
      place_sink sink(pool);
      read_in_runs(threads, pool, sink, true);
      return std::pair{sink.sums, sink.calls};
    };
    string_pool p1, p2;
    const auto merged1 = merged(1, p1);
    const auto merged2 = merged(2, p2);
    CALLTREE_FUZZ_CHECK(p1.size() == p2.size());
    CALLTREE_FUZZ_CHECK(merged1 == merged2);
  }
  return 0;
}

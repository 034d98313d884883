// context_sums.h — (tests) a reading reduced to what does not depend on how cost lines are
// grouped into records: per part and context the summed costs and the largest `given`; every
// other record and diagnostic as text, in order; the names in pool order; the statistics.
// reader_runs_test (sums per run) and reader_parallel_test (the parallel path) compare two
// readings of the same input this way.
#pragma once

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "calltree/cost_matrix.h"
#include "calltree/reader.h"
#include "profile_files.h"
#include "read_as.h"

namespace calltree::test {

struct summed_reading {
  std::map<std::string, std::vector<std::uint64_t>> sums;  // per part and context
  std::map<std::string, std::uint32_t> given;
  std::vector<std::string> others;  // calls, jumps, parts, diagnostics, in order
  std::vector<std::string> names;   // the pool, in id order
  std::string stats;
  std::size_t cost_records = 0;
  std::uint64_t speculated = 0;  // read_hooks::speculated_chunks
};

// What both sinks below write records with: names as text, a record's part and context as a
// key, part records as text.
class text_sink : public run_sink, public diagnostic_sink {
 protected:
  explicit text_sink(const string_pool& names) : names_(names) {}
  std::string name(string_id id) const { return std::string(names_.view(id)); }
  std::string ctx(const context& c) const {
    return std::to_string(part_) + "|" + name(c.object) + "|" + name(c.file) + "|" +
           name(c.source_file) + "|" + name(c.function);
  }
  std::string begin_text(const part_header& h) {
    part_ = h.index;
    return "part " + std::to_string(h.index) + " " + std::to_string(h.line);
  }
  // Every field of a call record.
  // (Pieces appended one by one, not s += " " + std::to_string(v): GCC 12 at -O2 warns, wrongly,
  // -Wrestrict on a literal + std::string&& inlined into an append, GCC bug 105651.)
  std::string call_text(const call_record& r) const {
    std::string s = "call " + std::to_string(r.line) + ctx(r.ctx) + " -> " + name(r.callee_object) +
                    "|" + name(r.callee_file) + "|" + name(r.callee_function) + " n" +
                    std::to_string(r.count) + " @" + std::to_string(r.site.instr) + "," +
                    std::to_string(r.site.line) + " -> " + std::to_string(r.target.instr) + "," +
                    std::to_string(r.target.line) + " g" + std::to_string(r.given);
    for (auto c : r.costs) s.append(" ").append(std::to_string(c));
    return s;
  }
  static std::string end_text(const part_end& e) {
    std::string s = "end " + std::to_string(e.line);
    for (auto v : e.computed) s.append(" ").append(std::to_string(v));
    return s;
  }

 private:
  const string_pool& names_;
  std::uint32_t part_ = 0;
};

// A text_sink that writes every record but the self costs, and every diagnostic, as text in
// order into `out.others` (a reading's `Reading`).
template <typename Reading>
class others_sink : public text_sink {
 public:
  void on_part_begin(const part_header& h) override { out_.others.push_back(begin_text(h)); }
  void on_call(const call_record& r) override { out_.others.push_back(call_text(r)); }
  void on_jump(const jump_record& r) override {
    out_.others.push_back("jump " + std::to_string(r.line) + ctx(r.ctx) + " " +
                          std::to_string(r.executed) + "/" + std::to_string(r.followed));
  }
  void on_part_end(const part_end& e) override { out_.others.push_back(end_text(e)); }
  void report(diagnostic d) override { out_.others.push_back(format_diagnostic(d)); }

 protected:
  others_sink(const string_pool& names, Reading& out) : text_sink(names), out_(out) {}
  Reading& out_;
};

class context_sums final : public others_sink<summed_reading> {
 public:
  context_sums(const string_pool& names, summed_reading& out) : others_sink(names, out) {}

  void on_cost(const cost_record& r) override {
    ++out_.cost_records;
    const std::string key = ctx(r.ctx);
    auto& s = out_.sums[key];
    if (s.size() < r.costs.size()) s.resize(r.costs.size(), 0);
    for (std::size_t k = 0; k < r.costs.size(); ++k) add_saturating(s[k], r.costs[k]);
    auto& g = out_.given[key];
    g = std::max(g, r.given);
  }
};

inline std::string stats_text(const read_stats& st) {
  return std::to_string(st.lines) + " " + std::to_string(st.skipped_lines) + " " +
         std::to_string(st.bytes) + " " + std::to_string(st.parts) + " " +
         std::to_string(st.cost_lines) + " " + std::to_string(st.call_lines) + " " +
         std::to_string(st.jump_lines) + " " + std::string(to_string(st.state));
}

// Reads `in` with `options` through a `Sink` into a `Reading` (with the pool's names and the
// statistics).
template <typename Sink, typename Reading>
Reading read_with(input& in, const read_options& options) {
  string_pool names;
  Reading r;
  Sink sink(names, r);
  auto st = read_as(in, names, sink, sink, options, &r.speculated);
  for (std::size_t i = 0; i < names.size(); ++i) r.names.emplace_back(names.view(string_id{i}));
  r.stats = st ? stats_text(*st) : "error: " + st.error().message;
  return r;
}

inline summed_reading read_summed(input& in, const read_options& options) {
  return read_with<context_sums, summed_reading>(in, options);
}

// A reading reduced to what sums per context keep: per key (self cost: part and
// context; call: and the callee and has_target; jump: and the kind and the target's names) the
// summed values and the largest `given`, and the keys in the order they first appear (each
// with the line and positions of its first record) among the part records; the diagnostics.
struct keyed_reading {
  std::map<std::string, std::vector<std::uint64_t>> sums;
  std::vector<std::string> order;
  std::vector<std::string> diagnostics;  // in order (a run of lines is sent at its end, so
                                         // after the diagnostics of its later lines)
  std::vector<std::string> names;
  std::string stats;
  std::uint64_t speculated = 0;
};

class key_sums final : public text_sink {
 public:
  key_sums(const string_pool& names, keyed_reading& out) : text_sink(names), out_(out) {}

  void on_part_begin(const part_header& h) override { out_.order.push_back(begin_text(h)); }
  void on_cost(const cost_record& r) override {
    add("cost " + ctx(r.ctx), r.line, r.pos, r.given, r.costs, {});
  }
  void on_call(const call_record& r) override {
    add("call " + ctx(r.ctx) + " -> " + name(r.callee_object) + "|" + name(r.callee_file) + "|" +
            name(r.callee_function) + (r.has_target ? " t" : ""),
        r.line, r.site, r.given, r.costs, {r.count});
  }
  void on_jump(const jump_record& r) override {
    add("jump " + ctx(r.ctx) + (r.conditional ? " c " : " j ") + name(r.target_file) + "|" +
            name(r.target_function),
        r.line, r.source, 0, {}, {r.executed, r.followed});
  }
  void on_part_end(const part_end& e) override { out_.order.push_back(end_text(e)); }
  void report(diagnostic d) override { out_.diagnostics.push_back(format_diagnostic(d)); }

 private:
  void add(const std::string& key, std::uint64_t line, const position& p, std::uint32_t given,
           std::span<const std::uint64_t> costs, std::vector<std::uint64_t> counts) {
    auto [it, fresh] = out_.sums.try_emplace(key);
    auto& s = it->second;
    if (fresh) {
      out_.order.push_back(key + " @" + std::to_string(line) + ":" + std::to_string(p.instr) + "," +
                           std::to_string(p.bb) + "," + std::to_string(p.line));
      s.assign(1 + counts.size() + costs.size(), 0);
    }
    s[0] = std::max<std::uint64_t>(s[0], given);
    for (std::size_t k = 0; k < counts.size(); ++k) add_saturating(s[1 + k], counts[k]);
    for (std::size_t k = 0; k < costs.size() && 1 + counts.size() + k < s.size(); ++k)
      add_saturating(s[1 + counts.size() + k], costs[k]);
  }
  keyed_reading& out_;
};

inline keyed_reading read_keyed(input& in, const read_options& options) {
  return read_with<key_sums, keyed_reading>(in, options);
}

}  // namespace calltree::test

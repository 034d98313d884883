// merge.cc — many profiles into one (see analysis/merge.h).
#include "calltree/analysis/merge.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "analysis/merge_any.h"
#include "analysis/negating_sink.h"
#include "calltree/input.h"
#include "calltree/profile_builder.h"
#include "reader/read_hooks.h"

namespace calltree {

namespace {

// The value of the `desc: Merged:` line merge writes, "N parts of M files summed" (M "file"
// when 1): how many original parts and files a merged input stands for.
struct merged_count {
  std::uint64_t parts = 0, files = 0;
};

std::optional<merged_count> parse_merged(std::string_view v) {
  auto number = [&](std::uint64_t& out) {
    const char* end = v.data() + v.size();
    auto [ptr, ec] = std::from_chars(v.data(), end, out);
    if (ec != std::errc() || ptr == v.data()) return false;
    v.remove_prefix(static_cast<std::size_t>(ptr - v.data()));
    return true;
  };
  auto word = [&](std::string_view w) {
    if (!v.starts_with(w)) return false;
    v.remove_prefix(w.size());
    return true;
  };
  merged_count c;
  if (!number(c.parts) || !word(" parts of ") || !number(c.files)) return std::nullopt;
  if (!word(c.files == 1 ? " file summed" : " files summed") || !v.empty()) return std::nullopt;
  if (c.parts == 0 || c.files == 0) return std::nullopt;
  return c;
}

std::string merged_description(const merged_count& c) {
  return std::to_string(c.parts) + " parts of " + std::to_string(c.files) +
         (c.files == 1 ? " file" : " files") + " summed";
}

// The distinct commands of a `cmd:` line: merge joins them with " ; ", so a merged input's
// line is split again (a command that itself holds " ; " is taken as two).
void add_commands(std::string_view cmd, std::vector<std::string>& into) {
  constexpr std::string_view sep = " ; ";
  while (!cmd.empty()) {
    const std::size_t at = cmd.find(sep);
    std::string_view one = cmd.substr(0, at);
    if (!one.empty() && std::find(into.begin(), into.end(), one) == into.end())
      into.emplace_back(one);
    if (at == std::string_view::npos) break;
    cmd.remove_prefix(at + sep.size());
  }
}

// Passes every record on to the builder and remembers what the part headers and ends said that
// the builder, folding parts, does not keep: pids, commands, descriptions, how many original
// parts and files each part stands for, and each part's summary. What it keeps composes: a
// merged input (its `desc: Merged:` line) counts as the parts and files it was made of, and
// its `cmd:` as the commands it joined, so merging merged files gives what one merge of all
// the originals gives.
class header_watch final : public record_sink {
 public:
  void set_next(record_sink* next) { next_ = next; }
  record_needs needs() const override { return next_->needs(); }
  // Around each input file: a file counts once, or as the files its merged parts stand for.
  void begin_input() {
    input_plain_ = false;
    input_files_ = 0;
  }
  void end_input() { origin.files += input_files_ + (input_plain_ ? 1 : 0); }

  void on_part_begin(const part_header& h) override {
    ++parts;
    std::optional<merged_count> merged;
    for (const auto& [type, value] : h.descriptions)
      if (type == "Merged") merged = parse_merged(value);
    if (merged) {
      origin.parts += merged->parts;
      input_files_ += merged->files;
    } else {
      origin.parts += 1;
      input_plain_ = true;
    }
    if (parts == 1)
      pid = h.pid;
    else if (pid != h.pid)
      pid.reset();
    add_commands(h.cmd, cmds);
    if (parts == 1)
      descriptions = h.descriptions;
    else
      std::erase_if(descriptions, [&](const auto& d) {
        return std::find(h.descriptions.begin(), h.descriptions.end(), d) == h.descriptions.end();
      });
    events_ = h.events;
    header_summary_ = h.summary;
    next_->on_part_begin(h);
  }
  void on_cost(const cost_record& r) override { next_->on_cost(r); }
  void on_call(const call_record& r) override { next_->on_call(r); }
  void on_jump(const jump_record& r) override { next_->on_jump(r); }
  void on_part_end(const part_end& e) override {
    const auto* stated = e.summary ? &*e.summary : header_summary_ ? &*header_summary_ : nullptr;
    std::vector<std::pair<std::string, std::uint64_t>> chosen;
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const std::uint64_t computed = i < e.computed.size() ? e.computed[i] : 0;
      const std::uint64_t said = stated && i < stated->size() ? (*stated)[i] : 0;
      chosen.emplace_back(events_[i], plausible(said, computed, e.signed_costs) ? said : computed);
    }
    summaries.push_back(std::move(chosen));
    next_->on_part_end(e);
  }

  // A stated summary is kept when it is at least the sum of the self costs (the spec allows
  // more: costs not attributed to any line) and is not a negative number wrapped to 64 bits.
  // In a file of differences (signed) a number is its signed value: "at least" as such.
  static bool plausible(std::uint64_t said, std::uint64_t computed, bool signed_costs) {
    if (signed_costs) return as_signed(said) >= as_signed(computed);
    constexpr std::uint64_t half = std::uint64_t{1} << 63;
    return said >= computed && !(said >= half && computed < half);
  }

  std::uint64_t parts = 0;           // parts read
  merged_count origin;               // the original parts and files they stand for
  std::optional<std::uint64_t> pid;  // nullopt unless every part had the same pid
  std::vector<std::string> cmds;     // distinct commands, in the order first seen
  std::vector<std::pair<std::string, std::string>> descriptions;  // desc: lines of every part
  // Per part read, in order: (event name, summary chosen).
  std::vector<std::vector<std::pair<std::string, std::uint64_t>>> summaries;

 private:
  record_sink* next_ = nullptr;
  std::vector<std::string> events_;
  std::optional<std::vector<std::uint64_t>> header_summary_;
  bool input_plain_ = false;       // the input has a part that is not a merge's
  std::uint64_t input_files_ = 0;  // files the input's merged parts stand for
};

// Adds a part's chosen summary into `into` (profile event order).
void add_summary(const profile& p, const std::vector<std::pair<std::string, std::uint64_t>>& s,
                 std::vector<std::uint64_t>& into) {
  into.resize(p.events.size(), 0);
  for (const auto& [name, value] : s) {
    const std::optional<event_id> e = p.find_event(name);
    if (e && e->index() < into.size()) add_saturating(into[e->index()], value);
  }
}

std::vector<std::uint64_t> in_part_order(const part& pt, const std::vector<std::uint64_t>& v) {
  std::vector<std::uint64_t> out(pt.events.size(), 0);
  for (std::size_t i = 0; i < pt.events.size(); ++i)
    if (pt.events[i].index() < v.size()) out[i] = v[pt.events[i].index()];
  return out;
}

// The merged part states `summary` in its header and the sum of its self costs as `totals:`
// (the writer writes the totals: a part states, and merge's parts state this one).
void settle_totals(part& pt, std::vector<std::uint64_t> summary, bool signed_costs) {
  for (std::size_t i = 0; i < summary.size() && i < pt.totals.size(); ++i)
    summary[i] =
        signed_costs
            ? static_cast<std::uint64_t>(std::max(as_signed(summary[i]), as_signed(pt.totals[i])))
            : std::max(summary[i], pt.totals[i]);
  pt.header.summary = in_part_order(pt, summary);
  pt.summary = std::move(summary);
  pt.totals_line = pt.totals;
}

result<merge_stats> merge(std::span<const std::string> paths, profile& out,
                          diagnostic_sink& diagnostics, const merge_options& options,
                          bool any_input, std::size_t subtracted = 0) {
  merge_stats stats;
  builder_options build;
  build.sum_parts = options.parts == parts_mode::sum;
  build.max_memory = options.max_memory;
  header_watch watch;
  for (std::size_t index = 0; index < paths.size(); ++index) {
    const std::string& path = paths[index];
    auto in = open_input(path);
    if (!in) return in.error();
    reader_options ro;
    ro.display_name = path == "-" ? "<stdin>" : path;
    ro.max_line_length = options.max_line_length;
    ro.threads = options.threads;
    ro.max_name_bytes = options.max_memory;
    profile_builder builder(out, &diagnostics, ro.display_name, build);
    watch.set_next(&builder);
    watch.begin_input();
    detail::read_hooks hooks;
    hooks.any_input = any_input;
    // The builder sums into `out`: signed once `out` holds differences (an earlier input's
    // negative numbers, or OLD subtracted), whatever this input holds.
    hooks.signed_sums = out.signed_costs || subtracted != 0;
    detail::negating_sink negate(watch);  // (the first `subtracted` inputs count negatively)
    record_sink& sink = index < subtracted ? static_cast<record_sink&>(negate) : watch;
    auto read = detail::read_with_hooks(**in, out.strings, sink, diagnostics, ro, hooks);
    if (!read) return read.error();
    watch.end_input();
    ++stats.inputs;
    stats.parts_read += read->parts;
    stats.bytes += read->bytes;
    stats.lines += read->lines;
    stats.state = std::max(stats.state, read->state);  // (ordered from whole to stopped)
  }

  // The summaries below sum as `out` does (the last input's reading left its own mode).
  signed_costs_scope sums(out.signed_costs || subtracted != 0);
  if (build.sum_parts && !out.parts.empty()) {
    part& pt = out.parts.front();
    part_header& h = pt.header;
    h.positions = out.positions ? out.positions : static_cast<std::uint8_t>(pos_line);
    h.pid = watch.pid;
    h.thread.reset();
    h.part_number.reset();
    // The distinct commands, sorted: which input came first does not change the line.
    std::sort(watch.cmds.begin(), watch.cmds.end());
    std::string cmd;
    for (const auto& c : watch.cmds) {
      if (!cmd.empty()) cmd += " ; ";
      cmd += c;
    }
    h.cmd = cmd;
    // Long names and formulas of every input, not only the first one's.
    h.event_definitions.clear();
    for (const auto& e : out.events)
      if (!e.long_name.empty() || !e.formula.empty())
        h.event_definitions.push_back(event_definition{e.name, e.formula, e.long_name});
    h.descriptions = watch.descriptions;
    // One Merged: line, counting the original parts and files (a merged input counts as
    // what it was made of), so any bracketing of merges of the same files says the same.
    std::erase_if(h.descriptions, [](const auto& d) { return d.first == "Merged"; });
    if (watch.origin.parts > 1)
      h.descriptions.emplace_back("Merged", merged_description(watch.origin));
  }
  // Summaries: every part read counts once, in the part it was folded into. A difference's
  // is the sum of its self costs (difference.h).
  if (subtracted) {
    for (auto& pt : out.parts) settle_totals(pt, pt.totals, true);
  } else if (build.sum_parts) {
    std::vector<std::uint64_t> sum;
    for (const auto& s : watch.summaries) add_summary(out, s, sum);
    if (!out.parts.empty()) settle_totals(out.parts.front(), std::move(sum), out.signed_costs);
  } else if (watch.summaries.size() == out.parts.size()) {
    for (part_id i : out.parts.ids()) {
      std::vector<std::uint64_t> s;
      add_summary(out, watch.summaries[i.index()], s);
      settle_totals(out.parts[i], std::move(s), out.signed_costs);
    }
  } else {
    for (auto& pt : out.parts) settle_totals(pt, pt.totals, out.signed_costs);
  }
  return stats;
}

}  // namespace

result<merge_stats> merge_inputs(std::span<const std::string> paths, profile& out,
                                 diagnostic_sink& diagnostics, const merge_options& options) {
  return merge(paths, out, diagnostics, options, false);
}

namespace detail {

result<merge_stats> merge_any_inputs(std::span<const std::string> paths, profile& out,
                                     diagnostic_sink& diagnostics, const merge_options& options) {
  return merge(paths, out, diagnostics, options, true);
}

result<merge_stats> merge_subtracting(std::span<const std::string> paths, profile& out,
                                      diagnostic_sink& diagnostics, const merge_options& options,
                                      std::size_t subtracted) {
  return merge(paths, out, diagnostics, options, false, subtracted);
}

}  // namespace detail

bool write_callgrind(const profile& p, std::ostream& out, const writer_options& options) {
  signed_costs_scope sums(p.signed_costs);  // (a profile of differences: signed numbers)
  callgrind_writer writer(out, p.strings, options);
  replay(p, writer, replay_order::canonical);
  return writer.finish();
}

}  // namespace calltree

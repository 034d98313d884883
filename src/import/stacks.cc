// stacks.cc — stacks summed, and their records (stacks.h says what each record holds).
#include "import/stacks.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace calltree::detail {

namespace {

std::uint64_t saturated_add(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t s = a + b;
  return s < a ? UINT64_MAX : s;
}

// a + b as signed numbers (their bit patterns), held at the limit of the sign they share.
std::uint64_t signed_add(std::uint64_t a, std::uint64_t b) {
  std::int64_t s;
  if (__builtin_add_overflow(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), &s))
    return static_cast<std::int64_t>(a) < 0 ? static_cast<std::uint64_t>(INT64_MIN)
                                            : static_cast<std::uint64_t>(INT64_MAX);
  return static_cast<std::uint64_t>(s);
}

std::size_t mix(std::size_t h, std::uint64_t v) {
  return (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdull;
}

}  // namespace

std::size_t stack_profile::stack_hash::operator()(
    const std::vector<std::uint32_t>& s) const noexcept {
  std::size_t h = s.size();
  for (auto f : s) h = mix(h, f);
  return h;
}

std::size_t stack_profile::frame_hash::operator()(const stack_frame& f) const noexcept {
  std::size_t h = mix(0, f.object.index());
  h = mix(h, f.file.index());
  h = mix(h, f.function.index());
  h = mix(h, f.line);
  return mix(h, f.first_line);
}

stack_profile::stack_profile(string_pool& names, std::vector<std::string> events)
    : names_(names), events_(std::move(events)) {
  // Each event a token of an `events:` line, read back as it is: blanks and control bytes
  // become '_', an empty name `event`, a name given twice a `_2` (`_3`, ...) after it.
  for (std::size_t e = 0; e < events_.size(); ++e) {
    auto& n = events_[e];
    for (char& c : n)
      if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) c = '_';
    if (n.empty()) n = "event";
    const std::string base = n;
    for (int k = 2; std::find(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(e),
                              n) != events_.begin() + static_cast<std::ptrdiff_t>(e);
         ++k)
      n = base + "_" + std::to_string(k);
  }
}

std::uint32_t stack_profile::frame(const stack_frame& f) {
  auto [it, added] = frame_ids_.try_emplace(f, static_cast<std::uint32_t>(frames_.size()));
  if (added) frames_.push_back(f);
  return it->second;
}

void stack_profile::add(std::span<const std::uint32_t> innermost_first,
                        std::span<const std::uint64_t> values, std::uint64_t samples) {
  if (innermost_first.empty()) return;
  scratch_.assign(innermost_first.begin(), innermost_first.end());
  auto it = stacks_.find(scratch_);
  if (it == stacks_.end()) {
    it = stacks_.emplace(scratch_, sums{std::vector<std::uint64_t>(events_.size(), 0), 0}).first;
    order_.push_back(&it->first);
  }
  auto& s = it->second;
  for (std::size_t e = 0; e < s.values.size() && e < values.size(); ++e)
    s.values[e] =
        signed_costs ? signed_add(s.values[e], values[e]) : saturated_add(s.values[e], values[e]);
  s.samples = saturated_add(s.samples, samples);
}

void stack_profile::emit(import_target& to) const {
  record_sink& sink = to.sink;
  read_stats& stats = to.stats;
  part_header h;
  h.line = 1;
  h.version = "1";
  h.creator = creator;
  h.cmd = cmd;
  h.positions = pos_line;
  h.events = events_;
  h.descriptions = descriptions;
  h.descriptions.emplace_back(sampled_calls_type, sampled_calls_value);
  for (const auto& [type, value] : h.descriptions)
    h.description_lines.push_back(type + ": " + value);
  sink.on_part_begin(h);
  ++stats.parts;

  const std::vector<std::uint64_t> zeros(events_.size(), 0);
  std::vector<std::uint64_t> computed(events_.size(), 0);
  // The functions on the stack from the outermost frame in to the call looked at: a call into
  // a function found among them is a recursive one (stacks.h).
  // (a set, not a scan: pprof's stacks run to 16,384 frames, and a scan of the frames above
  // each call would be their square)
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> outer;
  auto function_of = [](const stack_frame& f) {
    return std::tuple(f.object.index(), f.file.index(), f.function.index());
  };
  std::vector<bool> overflowed(events_.size(), false);
  auto ctx_of = [](const stack_frame& f) {
    context c;
    c.object = f.object;
    c.file = f.file;
    c.source_file = f.file;
    c.function = f.function;
    return c;
  };
  // A function outermost on one stack and called on another would get its first stacks'
  // value through no call: then every stack gets a `(root)` frame above it (stacks.h).
  std::vector<stack_frame> with_root;
  std::optional<stack_frame> root;
  {
    auto key_of = [](const stack_frame& f) {
      return std::tuple(f.object.index(), f.file.index(), f.function.index());
    };
    std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> outermost, called;
    for (const auto* key : order_) {
      outermost.insert(key_of(frames_[key->back()]));
      for (std::size_t i = 0; i + 1 < key->size(); ++i) called.insert(key_of(frames_[(*key)[i]]));
    }
    for (const auto& k : outermost)
      if (called.count(k)) {
        root.emplace();
        root->function = names_.intern("(root)");
        break;
      }
  }
  std::vector<std::uint32_t> rooted;
  std::vector<stack_frame> frames = frames_;
  const std::uint32_t root_frame = static_cast<std::uint32_t>(frames.size());
  if (root) frames.push_back(*root);
  for (const auto* key : order_) {
    const auto& s = stacks_.at(*key);
    if (root) {
      rooted.assign(key->begin(), key->end());
      rooted.push_back(root_frame);
    }
    const auto& stack = root ? rooted : *key;
    const stack_frame& leaf = frames[stack.front()];
    cost_record c;
    c.ctx = ctx_of(leaf);
    c.pos.line = leaf.line;
    c.costs = s.values;
    c.given = static_cast<std::uint32_t>(events_.size());
    sink.on_cost(c);
    ++stats.cost_lines;
    for (std::size_t e = 0; e < computed.size(); ++e) {
      const std::uint64_t before = computed[e];
      computed[e] =
          signed_costs ? signed_add(before, s.values[e]) : saturated_add(before, s.values[e]);
      // (held at a limit: the sum went past it, unless it is exactly the limit)
      const bool held = signed_costs ? computed[e] != before + s.values[e]
                                     : computed[e] == UINT64_MAX && before + s.values[e] < before;
      if (held && !overflowed[e]) {
        overflowed[e] = true;
        to.report(severity::error, diag_code::cost_overflow, 0, 0,
                  "the sum of " + events_[e] + " costs in this part " +
                      (signed_costs ? "leaves the signed 64-bit range; it is held at its limit"
                                    : "goes above 2^64-1; it is held at 2^64-1"));
      }
    }
    outer.clear();
    outer.insert(function_of(frames[stack.back()]));
    for (std::size_t i = stack.size() - 1; i >= 1; --i) {
      const stack_frame& caller = frames[stack[i]];
      const stack_frame& callee = frames[stack[i - 1]];
      const bool recursive = !outer.insert(function_of(callee)).second;
      call_record r;
      r.ctx = ctx_of(caller);
      r.callee_object = callee.object;
      r.callee_file = callee.file;
      r.callee_function = callee.function;
      r.count = s.samples;
      r.site.line = caller.line;
      r.target.line = callee.first_line;
      r.has_target = true;
      r.costs = recursive ? std::span<const std::uint64_t>(zeros) : s.values;
      r.given = static_cast<std::uint32_t>(events_.size());
      sink.on_call(r);
      ++stats.call_lines;
    }
  }
  if (to.stacks) {
    to.stacks->push_back(tree());
    to.stacks->back().part = stats.parts - 1;
  }
  part_end end;
  end.computed = std::move(computed);
  end.signed_costs = signed_costs;
  if (signed_costs) stats.signed_costs = true;
  sink.on_part_end(end);
}

recorded_stacks stack_profile::tree() const {
  recorded_stacks t;
  t.frames = frames_;
  t.events = events_.size();
  t.signed_costs = signed_costs;
  std::unordered_map<std::uint64_t, std::uint32_t> child;  // (parent + 1, frame) -> node
  for (const auto* key : order_) {
    const auto& s = stacks_.at(*key);
    std::uint32_t at = UINT32_MAX;
    for (auto f = key->rbegin(); f != key->rend(); ++f) {
      const std::uint64_t k = (std::uint64_t{at + 1u} << 32) | *f;
      auto [it, added] = child.try_emplace(k, static_cast<std::uint32_t>(t.frame.size()));
      if (added) {
        t.frame.push_back(*f);
        t.parent.push_back(at);
        t.values.resize(t.values.size() + t.events, 0);
      }
      at = it->second;
    }
    std::uint64_t* v = t.values.data() + std::size_t{at} * t.events;
    for (std::size_t e = 0; e < t.events && e < s.values.size(); ++e)
      v[e] = signed_costs ? signed_add(v[e], s.values[e]) : saturated_add(v[e], s.values[e]);
  }
  return t;
}

}  // namespace calltree::detail

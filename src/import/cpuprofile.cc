// cpuprofile.cc — V8's CPU profile (`node --cpu-prof`, Chrome DevTools' .cpuprofile).
//
// A JSON object: `nodes` (each an id, its callFrame — functionName, url, 0-based lineNumber —,
// its children's ids and, from node 12 on, `positionTicks`: its samples by 1-based source
// line), `samples` (the node each sample was taken in) and `timeDeltas` (microseconds from the
// sample before; the first from startTime). Two events, both exact integers:
// - `samples`: the samples taken;
// - `wall_us`: each sample's time, DevTools' rule: from it to the next sample, and for the last
//   one to endTime (a negative delta, which V8 writes now and then, counts 0).
// The older form (Chrome before 2016, node 8-10's inspector modules) is read too: a `head` node
// holding its children whole (each with the callFrame's fields itself), and `timestamps`
// (microseconds; one more than the samples where it holds the end) instead of timeDeltas.
// A sample's stack is its node and the node's ancestors up to the root, whose `(root)` frame is
// left out. Its innermost frame is at the line positionTicks gives (a node's samples split by
// its ticks per line, the time in the same shares, rounded so that the parts add up to the
// node's), else at the function's first line. The call sites of other frames are not in the
// format: a call is at its caller's first line.
#include <algorithm>
#include <map>
#include <unordered_map>
#include <variant>
#include <vector>

#include "import/import.h"
#include "import/json_value.h"
#include "import/stacks.h"

namespace calltree::detail {

namespace {

struct node {
  std::uint32_t frame = 0;   // the function's frame at its first line
  std::int64_t parent = -1;  // the parent node's index, -1 for a root
  bool root = false;         // V8's `(root)`: no frame of its own
  std::uint64_t samples = 0, time = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ticks;  // (line, ticks)
  stack_frame where;
};

std::int64_t int_of(const json::value* v, std::int64_t otherwise) {
  if (!v || !v->is_number()) return otherwise;
  if (v->integer) return *v->integer;
  // (a fraction is cut; a number no 64-bit integer holds, or not a number, is `otherwise`)
  if (!(v->number > -9.2e18 && v->number < 9.2e18)) return otherwise;
  return static_cast<std::int64_t>(v->number);
}

// `total` in parts proportional to `weights` (summing to `sum` > 0), each rounded down and the
// rest given one by one to the largest remainders: the parts add up to `total`.
std::vector<std::uint64_t> split(std::uint64_t total, const std::vector<std::uint64_t>& weights,
                                 std::uint64_t sum) {
  // (total * w / sum as q * w + r * w / sum, total = q * sum + r: r * w < sum^2, which holds
  // while a node has fewer than 2^32 samples.)
  std::vector<std::uint64_t> parts(weights.size());
  std::vector<std::pair<std::uint64_t, std::size_t>> rest;
  std::uint64_t given = 0;
  const std::uint64_t q = total / sum, r = total % sum;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    parts[i] = q * weights[i] + r * weights[i] / sum;
    given += parts[i];
    rest.emplace_back(r * weights[i] % sum, i);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < total && k < rest.size(); ++k, ++given) ++parts[rest[k].second];
  return parts;
}

}  // namespace

void read_cpuprofile(std::string_view bytes, import_target& to) {
  to.stats.lines = static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n')) + 1;
  auto parsed = json::parse(bytes);
  if (auto* e = std::get_if<json::parse_error>(&parsed)) {
    to.report(severity::error, diag_code::bad_cpuprofile, e->line, e->column,
              "not a V8 CPU profile: " + e->message);
    to.no_profile = "its JSON cannot be read";
    return;
  }
  const auto& doc = std::get<json::value>(parsed);
  const json::value* nodes = doc.find("nodes");
  const json::value* samples = doc.find("samples");
  const json::value* deltas = doc.find("timeDeltas");
  const json::value* stamps = doc.find("timestamps");
  // The older form's tree, flattened (a node and its frame's fields in one object, its
  // children whole): each node once, parents before children.
  json::value flat;
  if ((!nodes || !nodes->is_array()) && doc.find("head") && doc.find("head")->is_object()) {
    flat.type = json::value::kind::array;
    std::vector<const json::value*> todo{doc.find("head")};
    while (!todo.empty() && flat.items.size() < (1u << 24)) {
      const json::value* n = todo.back();
      todo.pop_back();
      json::value item;
      item.type = json::value::kind::object;
      json::value children;
      children.type = json::value::kind::array;
      for (const auto& [k, v] : n->members) {
        if (k == "children") {
          if (v.is_array())
            for (const auto& c : v.items)
              if (c.is_object()) {
                if (const json::value* id = c.find("id")) children.items.push_back(*id);
                todo.push_back(&c);
              }
        } else {
          item.members.push_back(json::member{k, v});
        }
      }
      item.members.push_back(json::member{"children", std::move(children)});
      flat.items.push_back(std::move(item));
    }
    nodes = &flat;
  }
  if (!nodes || !nodes->is_array() || !samples || !samples->is_array()) {
    to.report(severity::error, diag_code::bad_cpuprofile, 1, 1,
              "a V8 CPU profile has `nodes` and `samples` arrays: this one lacks them");
    to.no_profile = "no `nodes` and `samples` in it";
    return;
  }
  stack_profile p(to.names, {"samples", "wall_us"});
  p.creator = "V8 CPU profile";
  std::vector<node> all(nodes->items.size());
  std::unordered_map<std::int64_t, std::size_t> index;
  for (std::size_t i = 0; i < nodes->items.size(); ++i) {
    const auto& n = nodes->items[i];
    const auto id = int_of(n.find("id"), -1);
    const json::value* frame = n.find("callFrame");
    if (!frame && n.find("functionName")) frame = &n;  // (the older form)
    if (id < 0 || !frame || !frame->is_object() || !index.emplace(id, i).second) {
      to.report(severity::error, diag_code::bad_cpuprofile, 0, 0,
                "node " + std::to_string(i) +
                    " has no id of its own or no callFrame: its samples are not read");
      continue;
    }
    const json::value* name = frame->find("functionName");
    const json::value* url = frame->find("url");
    std::string fn = name && name->is_string() ? name->text : std::string();
    all[i].root = fn == "(root)";
    if (fn.empty()) fn = "(anonymous)";
    const auto line = int_of(frame->find("lineNumber"), -1);
    all[i].where.function = import_name(to.names, fn);
    all[i].where.file = import_name(to.names, url && url->is_string() ? url->text : std::string());
    all[i].where.first_line = line >= 0 ? static_cast<std::uint64_t>(line) + 1 : 0;
    all[i].where.line = all[i].where.first_line;
    all[i].frame = p.frame(all[i].where);
    if (const json::value* pt = n.find("positionTicks"); pt && pt->is_array())
      for (const auto& t : pt->items) {
        const auto l = int_of(t.find("line"), -1), k = int_of(t.find("ticks"), -1);
        if (l >= 0 && k > 0)
          all[i].ticks.emplace_back(static_cast<std::uint64_t>(l), static_cast<std::uint64_t>(k));
      }
  }
  for (std::size_t i = 0; i < nodes->items.size(); ++i)
    if (const json::value* ch = nodes->items[i].find("children"); ch && ch->is_array())
      for (const auto& c : ch->items)
        if (auto it = index.find(int_of(&c, -1)); it != index.end() && it->second != i)
          all[it->second].parent = static_cast<std::int64_t>(i);

  // Each sample's time: to the next sample, the last one's to endTime.
  const auto n = samples->items.size();
  std::vector<std::int64_t> at(n, 0);
  std::int64_t t = int_of(doc.find("startTime"), 0);
  const bool stamped = stamps && stamps->is_array() && !(deltas && deltas->is_array());
  for (std::size_t i = 0; i < n; ++i) {
    if (stamped)
      t = i < stamps->items.size() ? int_of(&stamps->items[i], t) : t;
    else if (deltas && deltas->is_array() && i < deltas->items.size())
      t = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) +  // (wraps, as V8's do not)
                                    static_cast<std::uint64_t>(int_of(&deltas->items[i], 0)));
    at[i] = t;
  }
  std::int64_t end = int_of(doc.find("endTime"), n ? at[n - 1] : 0);
  if (stamped && n) {
    // The end: a timestamp after the last sample's, else endTime (in seconds in this form).
    if (stamps->items.size() > n)
      end = int_of(&stamps->items[n], at[n - 1]);
    else if (const json::value* e = doc.find("endTime");
             e && e->is_number() && e->number > -9.2e12 && e->number < 9.2e12)
      end = static_cast<std::int64_t>(e->number * 1e6);
  }
  std::uint64_t unknown = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = index.find(int_of(&samples->items[i], -1));
    if (it == index.end()) {
      ++unknown;
      continue;
    }
    const std::int64_t next = i + 1 < n ? at[i + 1] : end;
    auto& nd = all[it->second];
    ++nd.samples;
    nd.time +=
        next > at[i] ? static_cast<std::uint64_t>(next) - static_cast<std::uint64_t>(at[i]) : 0;
  }
  if (unknown)
    to.report(severity::error, diag_code::bad_cpuprofile, 0, 0,
              std::to_string(unknown) + " samples name no node of the profile: they are left out");

  std::vector<std::uint32_t> stack;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& nd = all[i];
    if (!nd.samples || nd.root) continue;
    // The stack above the innermost frame (each ancestor but the root; a cycle of parents,
    // which no V8 writes, is cut after as many steps as there are nodes).
    std::vector<std::uint32_t> above;
    std::size_t steps = 0;
    for (auto a = nd.parent; a >= 0 && ++steps < all.size();
         a = all[static_cast<std::size_t>(a)].parent)
      if (!all[static_cast<std::size_t>(a)].root)
        above.push_back(all[static_cast<std::size_t>(a)].frame);
    // The node's samples by line: its ticks, and what they do not account for at its first line.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> lines;
    std::uint64_t ticked = 0;
    for (const auto& [l, k] : nd.ticks) {
      const auto take = std::min(k, nd.samples - ticked);
      if (take) lines.emplace_back(l, take), ticked += take;
    }
    if (ticked < nd.samples) lines.emplace_back(nd.where.first_line, nd.samples - ticked);
    std::vector<std::uint64_t> weights;
    for (const auto& l : lines) weights.push_back(l.second);
    const auto times = split(nd.time, weights, nd.samples);
    for (std::size_t k = 0; k < lines.size(); ++k) {
      stack_frame leaf = nd.where;
      leaf.line = lines[k].first;
      stack.assign(1, p.frame(leaf));
      stack.insert(stack.end(), above.begin(), above.end());
      const std::uint64_t values[2] = {lines[k].second, times[k]};
      p.add(stack, values, lines[k].second);
    }
  }
  if (p.stacks() == 0) {
    to.no_profile = "no sample in it";
    return;
  }
  p.emit(to);
}

}  // namespace calltree::detail

// file_costs.cc — the self cost of one event per source file, or per function of one file: the
// profile's typed ids (calltree/id.h) at work.
//
//   file_costs PROFILE [EVENT [FILE]]
//
// Without FILE: the 10 source files of highest self cost of EVENT (default: the first event),
// each with its index. With FILE (an index printed before): the functions whose code in that
// file costs most. An index is how an id leaves the program (in text, JSON, a URL); it comes
// back through an explicit constructor and a bounds check.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <calltree/calltree.h>

namespace {

// The ids of `costs` that cost something, the highest first (ties: the lower id), at most `n`.
// In a profile of differences (`signed_costs`: cg_diff's output) the largest changes first.
template <typename Id>
std::vector<Id> highest(const calltree::id_vector<Id, std::uint64_t>& costs, std::size_t n,
                        bool signed_costs) {
  auto size = [&](Id id) { return calltree::cost_magnitude(costs[id], signed_costs); };
  std::vector<Id> out;
  for (Id id : costs.ids())
    if (costs[id] != 0) out.push_back(id);
  std::sort(out.begin(), out.end(), [&](Id a, Id b) { return size(a) != size(b) ? size(a) > size(b) : a < b; });
  if (out.size() > n) out.resize(n);
  return out;
}

// A cost as text: signed (-129) in a profile of differences.
std::string cost_text(const calltree::profile& p, std::uint64_t v) {
  return p.signed_costs ? std::to_string(calltree::as_signed(v)) : std::to_string(v);
}

std::string_view or_unknown(std::string_view name) { return name.empty() ? "(unknown)" : name; }

// (Sums saturate, as the library's do; in a profile of differences a signed_costs_scope makes
// the sums signed: a negative cost is a large bit pattern, added modulo 2^64.)
void add(std::uint64_t& sum, std::uint64_t cost) { calltree::add_saturating(sum, cost); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: file_costs PROFILE [EVENT [FILE]]\n");
    return 2;
  }
  auto loaded = calltree::load(argv[1]);
  if (!loaded) {
    std::fprintf(stderr, "file_costs: error: %s\n", loaded.error().message.c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;

  // A look-up that can fail gives a std::optional: no -1 cast to an id.
  std::optional<calltree::event_id> event;
  if (argc >= 3)
    event = p.find_event(argv[2]);
  else if (!p.events.empty())
    event = calltree::event_id{0};
  if (!event) {
    std::fprintf(stderr, "file_costs: error: %s: no event %s\n", argv[1],
                 argc >= 3 ? argv[2] : "at all");
    return 2;
  }

  // A FILE index from the command line: explicit to an id, then checked against the table.
  std::optional<calltree::file_id> only;
  if (argc == 4) {
    char* end = nullptr;
    const unsigned long long i = std::strtoull(argv[3], &end, 10);
    const calltree::file_id f{i};
    if (*argv[3] == '\0' || *end != '\0' || i > UINT32_MAX || !p.files.contains(f)) {
      std::fprintf(stderr, "file_costs: error: %s: no file %s (it has %zu)\n", argv[1], argv[3],
                   p.files.size());
      return 2;
    }
    only = f;
  }

  // Tables indexed by the profile's ids: one sum per file, one per function. An id indexes
  // its own table only: by_file[row.function] does not compile.
  const calltree::signed_costs_scope sums(p.signed_costs);
  calltree::id_vector<calltree::file_id, std::uint64_t> by_file(p.files.size(), 0);
  calltree::id_vector<calltree::function_id, std::uint64_t> by_function(p.functions.size(), 0);
  for (std::size_t r = 0; r < p.self_rows.size(); ++r) {
    const calltree::self_row& row = p.self_rows[r];
    const std::uint64_t cost = p.self_costs.row(r)[event->index()];  // a cost column: index()
    add(by_file[row.source_file], cost);
    if (only && row.source_file == *only) add(by_function[row.function], cost);
  }

  const std::string& name = p.events[*event].name;
  if (!only) {
    std::printf("%20s %6s  file (self %s)\n", name.c_str(), "index", name.c_str());
    for (calltree::file_id f : highest(by_file, 10, p.signed_costs)) {
      const std::string_view file = or_unknown(p.file_name(f));
      std::printf("%20s %6u  %.*s\n", cost_text(p, by_file[f]).c_str(), f.index(),
                  static_cast<int>(file.size()), file.data());
    }
  } else {
    const std::string_view file = or_unknown(p.file_name(*only));
    std::printf("%20s %6s  function (self %s in %.*s)\n", name.c_str(), "index", name.c_str(),
                static_cast<int>(file.size()), file.data());
    for (calltree::function_id f : highest(by_function, 10, p.signed_costs)) {
      const std::string_view fn = p.function_name(f);
      std::printf("%20s %6u  %.*s\n", cost_text(p, by_function[f]).c_str(), f.index(),
                  static_cast<int>(fn.size()), fn.data());
    }
  }
  return loaded->ok() ? 0 : 1;
}

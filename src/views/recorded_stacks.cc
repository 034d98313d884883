// views/recorded_stacks.cc — an imported file's stacks keyed by the session, and their exact
// tree (see recorded_stacks.h).
#include "views/recorded_stacks.h"

#include <algorithm>
#include <unordered_map>

#include "import/stacks.h"
#include "views/columns.h"
#include "views/path_builder.h"
#include "views/session.h"

namespace calltree::views {

// (No file-local names: the file compiles in a unity batch.)
bool session_stacks::any() const {
  return std::any_of(of_part.begin(), of_part.end(), [](const auto& p) { return p != nullptr; });
}

std::string session_stacks::missing(const std::vector<std::uint32_t>& parts) const {
  if (of_part.empty()) return "the file records no stacks";
  auto lacks = [&](std::uint32_t pt) { return pt >= of_part.size() || !of_part[pt]; };
  if (parts.empty()) {
    for (std::uint32_t pt = 0; pt < of_part.size(); ++pt)
      if (lacks(pt)) return "part " + std::to_string(pt + 1) + " records no stacks";
    return "";
  }
  for (std::uint32_t pt : parts)
    if (lacks(pt)) return "part " + std::to_string(pt + 1) + " records no stacks";
  return "";
}

void keep_recorded_stacks(session& s, const std::vector<calltree::detail::recorded_stacks>& raw) {
  s.stacks.of_part.assign(s.p.parts.size(), nullptr);
  if (raw.empty()) return;
  const annotate_data& t = s.t;
  // The keys by (name, display file), then their object (annotate_direct's key_by_function:
  // a key is object, display file and name).
  std::unordered_map<std::string_view, std::uint32_t> file_of;
  for (std::uint32_t f = 0; f < t.files.size(); ++f) file_of.emplace(t.files[f], f);
  std::unordered_multimap<std::uint64_t, std::uint32_t> keys;
  keys.reserve(s.keys());
  for (std::uint32_t k = 0; k < s.keys(); ++k)
    keys.emplace((std::uint64_t{t.key_function[k].index()} << 32) | t.key_file[k], k);
  auto key_of = [&](const calltree::detail::stack_frame& fr) -> std::uint32_t {
    const auto file = file_of.find(display_name(s.p.strings.text(fr.file), s.options.cwd));
    if (file == file_of.end()) return path_tree::no_frame;
    const std::string object = s.p.strings.text(fr.object);  // (a copy: text() may spill)
    auto [lo, hi] = keys.equal_range((std::uint64_t{fr.function.index()} << 32) | file->second);
    for (auto it = lo; it != hi; ++it)
      if (s.object(it->second) == object) return it->second;
    return path_tree::no_frame;
  };
  const std::size_t nrec = s.columns.nrec;
  for (const calltree::detail::recorded_stacks& r : raw) {
    if (r.part >= s.p.parts.size() || r.part >= s.columns.part_index.size()) continue;
    // The keys of the frames on some stack (an importer may number a frame no stack has: a
    // .cpuprofile's `(root)` node).
    std::vector<std::uint32_t> frame_key(r.frames.size(), path_tree::no_frame);
    bool whole = true;
    for (std::size_t n = 0; n < r.frame.size() && whole; ++n) {
      std::uint32_t& k = frame_key[r.frame[n]];
      if (k == path_tree::no_frame)
        whole = (k = key_of(r.frames[r.frame[n]])) != path_tree::no_frame;
    }
    // (A frame with no key: the reading stopped at a limit before its records. The part is
    // then drawn by the estimate, from what the tables hold.)
    if (!whole) continue;
    auto ps = std::make_shared<part_stacks>();
    ps->self = cost_matrix(nrec);
    ps->key.reserve(r.frame.size());
    ps->parent.reserve(r.frame.size());
    ps->self.reserve_rows(r.frame.size());
    const std::vector<int>& at = s.columns.part_index[r.part];
    for (std::size_t n = 0; n < r.frame.size(); ++n) {
      ps->key.push_back(frame_key[r.frame[n]]);
      ps->parent.push_back(r.parent[n] == UINT32_MAX ? path_tree::no_frame : r.parent[n]);
      auto row = ps->self.row(ps->self.add_row());
      for (std::size_t c = 0; c < nrec && c < at.size(); ++c)
        if (at[c] >= 0 && static_cast<std::size_t>(at[c]) < r.events)
          row[c] = r.values[n * r.events + static_cast<std::size_t>(at[c])];
    }
    s.stacks.of_part[r.part] = std::move(ps);
  }
}

path_tree recorded_tree(const session& s, const std::vector<std::uint32_t>& parts,
                        const column_set& cols, std::size_t weight,
                        std::optional<std::uint32_t> thread_base,
                        const std::vector<std::uint32_t>& thread_parts) {
  const std::size_t ncol = cols.size();
  paths::path_builder b(ncol);
  std::vector<std::uint64_t> v(ncol);
  std::vector<std::uint32_t> made;
  auto add_part = [&](std::uint32_t pt, std::uint32_t top) {
    if (pt >= s.stacks.of_part.size() || !s.stacks.of_part[pt]) return;
    const part_stacks& ps = *s.stacks.of_part[pt];
    made.assign(ps.key.size(), path_tree::no_frame);
    for (std::size_t n = 0; n < ps.key.size(); ++n) {
      made[n] = b.frame(ps.parent[n] == path_tree::no_frame ? top : made[ps.parent[n]], ps.key[n]);
      bool any = false;
      for (std::size_t c = 0; c < ncol; ++c)
        any |= (v[c] = cols.columns[c].value(ps.self.row(n).data())) != 0;
      if (any) b.add_self(made[n], v);
    }
  };
  if (thread_base) {
    for (std::uint32_t i = 0; i < thread_parts.size(); ++i)
      add_part(thread_parts[i], b.frame(path_tree::no_frame, *thread_base + i));
  } else if (parts.empty()) {
    for (std::uint32_t pt = 0; pt < s.stacks.of_part.size(); ++pt)
      add_part(pt, path_tree::no_frame);
  } else {
    for (std::uint32_t pt : parts) add_part(pt, path_tree::no_frame);
  }
  path_tree like;
  like.estimated = false;
  return b.finish(weight, like);
}

}  // namespace calltree::views

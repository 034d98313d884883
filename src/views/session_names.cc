// views/session_names.cc — the session's index of its keys' names: the keys of each name
// (keys_by_name, same_name) and the labels a display joins keys under (label_of, label_name),
// from base_name(). See session.h.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/radix_sort.h"
#include "model/row_index.h"
#include "views/session.h"

namespace calltree::views {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string_view base_name(std::string_view name,
                           const std::function<bool(std::string_view)>& is_function) {
  const std::size_t q = name.find('\'');
  if (q == std::string_view::npos || q == 0) return name;
  std::string_view next = name.substr(q + 1);
  next = next.substr(0, next.find('\''));
  if (all_digits(next) || (!next.empty() && is_function(next))) return name.substr(0, q);
  return name;
}

std::vector<std::uint32_t> session::same_name(std::uint32_t k) const {
  const string_id sid = t.key_function[k];
  auto lo = std::lower_bound(keys_by_name.begin(), keys_by_name.end(), sid,
                             [&](std::uint32_t a, string_id v) { return t.key_function[a] < v; });
  std::vector<std::uint32_t> out;
  for (auto it = lo; it != keys_by_name.end() && t.key_function[*it] == sid; ++it)
    if (*it != k) out.push_back(*it);
  return out;
}

void session::name_cycles() {
  for (std::size_t c = 0; c < t.cycles.size(); ++c)
    cycle_names_.push_back("<cycle " + std::to_string(c + 1) + ">");
}

void session::index_names() {
  const std::size_t nk = keys();
  if (!options.index_names) return;
  {
    std::vector<detail::keyed_index> by(nk);
    for (std::uint32_t k = 0; k < nk; ++k) by[k] = {t.key_function[k].index(), k};
    detail::radix_sort(by);  // (stable: equal names keep their keys' order)
    keys_by_name.resize(nk);
    for (std::size_t i = 0; i < nk; ++i) keys_by_name[i] = by[i].index;
  }
  // Labels: (file, base name), as base_name() gives it. A caller context `f'g` joins f when g
  // is the first piece of some function's name (callgrind names a caller context by its
  // callers' names). The names are read in the order of their ids (the pool's order: its text
  // is read through, not jumped about in, and a name's keys read it once), and a base name is
  // known by a number rather than by its text:
  //  * the first piece of a name (all of it when it has no quote) by its number among the
  //    first pieces, which hold no quote;
  //  * a whole name with a quote in it by its name id (the pool holds each text once).
  // Two bases are the same text exactly when their numbers are, so the labels are those of
  // base_name() by text.
  constexpr std::uint32_t none = UINT32_MAX;
  constexpr std::uint32_t whole = 0x80000000u;  // (a base known by its name id)
  struct pieces {
    std::uint32_t piece = 0;     // the first piece's number
    std::uint32_t quote = none;  // where the first quote is
    std::uint32_t next = 0;      // the length of the piece after it
  };
  std::vector<pieces> of(nk);
  std::unordered_map<std::string_view, std::uint32_t> first_pieces;
  first_pieces.reserve(nk);
  for (std::size_t i = 0; i < nk; ++i) {
    const std::uint32_t k = keys_by_name[i];
    if (i && t.key_function[keys_by_name[i - 1]] == t.key_function[k]) {
      of[k] = of[keys_by_name[i - 1]];
      continue;
    }
    const std::string_view n = t.function_name(k);
    const std::size_t q = n.find('\'');
    pieces& x = of[k];
    x.piece = first_pieces.emplace(n.substr(0, q), static_cast<std::uint32_t>(first_pieces.size()))
                  .first->second;
    if (q == std::string_view::npos) continue;
    x.quote = static_cast<std::uint32_t>(q);
    const std::string_view rest = n.substr(q + 1);
    x.next = static_cast<std::uint32_t>(std::min(rest.size(), rest.find('\'')));
  }
  // Each name's base (a name's keys share it).
  std::vector<std::uint32_t> base(nk);
  for (std::size_t i = 0; i < nk; ++i) {
    const std::uint32_t k = keys_by_name[i];
    if (i && t.key_function[keys_by_name[i - 1]] == t.key_function[k]) {
      base[k] = base[keys_by_name[i - 1]];
      continue;
    }
    const pieces& x = of[k];
    if (x.quote == none) {
      base[k] = x.piece;
      continue;
    }
    bool cut = false;
    if (x.quote != 0) {
      const std::string_view next = t.function_name(k).substr(x.quote + 1, x.next);
      cut = all_digits(next) || (!next.empty() && first_pieces.count(next) != 0);
    }
    base[k] = cut ? x.piece : whole | t.key_function[k].index();
  }
  detail::row_index ids;
  std::vector<std::uint64_t> id_key;  // per label: (file, base)
  label_of.resize(nk);
  for (std::uint32_t k = 0; k < nk; ++k) {
    const std::uint64_t key = (std::uint64_t{t.key_file[k]} << 32) | base[k];
    const std::uint64_t hash = detail::mix(0, key);
    std::size_t slot = 0;
    std::uint32_t l = ids.find(
        hash, [&](std::uint32_t r) { return id_key[r] == key; }, slot);
    if (l == detail::row_index::empty) {
      l = static_cast<std::uint32_t>(id_key.size());
      ids.insert(hash, l, slot);
      id_key.push_back(key);
      const std::string_view n = t.function_name(k);
      label_name.push_back(base[k] & whole ? n : n.substr(0, of[k].quote));
    }
    label_of[k] = l;
  }
}

}  // namespace calltree::views

// server/siblings.cc — the other files of a callgrind run (see siblings.h).
#include "siblings.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <tuple>

namespace calltree::server {

namespace {

struct run_name {
  std::string stem;          // "callgrind.out.1234"
  std::uint64_t dump = 0;    // 0: none (the program's end)
  std::uint64_t thread = 0;  // 0: none
};

bool digits(std::string_view s) {
  return !s.empty() && s.size() <= 18 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
std::uint64_t number(std::string_view s) {
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v;
}

// "X.out.PID", "X.out.PID-TT", "X.out.PID.D", "X.out.PID.D-TT".
std::optional<run_name> parse_run_name(std::string_view name) {
  const std::size_t out = name.rfind(".out.");
  if (out == std::string_view::npos || out == 0) return std::nullopt;
  std::string_view rest = name.substr(out + 5);
  run_name r;
  if (const std::size_t dash = rest.rfind('-'); dash != std::string_view::npos) {
    if (!digits(rest.substr(dash + 1))) return std::nullopt;
    r.thread = number(rest.substr(dash + 1));
    rest = rest.substr(0, dash);
  }
  const std::size_t dot = rest.find('.');
  const std::string_view pid = rest.substr(0, dot);
  if (!digits(pid)) return std::nullopt;
  if (dot != std::string_view::npos) {
    if (!digits(rest.substr(dot + 1))) return std::nullopt;
    r.dump = number(rest.substr(dot + 1));
    if (r.dump == 0) return std::nullopt;
  }
  r.stem = std::string(name.substr(0, out + 5)) + std::string(pid);
  return r;
}

}  // namespace

std::vector<std::string> run_siblings(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const auto own = parse_run_name(p.filename().string());
  if (!own) return {path};
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) return {path};
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> found;
  bool self = false;
  for (; it != end; it.increment(ec)) {
    if (ec) return {path};
    const std::string name = it->path().filename().string();
    const auto r = parse_run_name(name);
    if (!r || r->stem != own->stem) continue;
    std::error_code e2;
    if (!it->is_regular_file(e2) || it->file_size(e2) == 0 || e2) continue;
    const std::string full = p.has_parent_path() ? (dir / name).string() : name;
    self = self || name == p.filename().string();
    // (dump 0, the program's end, sorts after the numbered dumps)
    found.emplace_back(r->dump ? r->dump : UINT64_MAX, r->thread, full);
  }
  if (!self) return {path};
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(std::get<2>(f)));
  return out;
}

}  // namespace calltree::server

// serve_test_util.h — (tests) a session loaded as `calltree serve` loads it, its API asked with
// no socket: what the serve API's tests share.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api.h"
#include "views/session.h"

namespace calltree::test {

inline constexpr const char* serve_token = "0123456789abcdef0123456789abcdef";
inline constexpr int serve_port = 4242;

inline std::string cwd() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) + "/" : std::string();
}

// What `cmd` (a shell command) writes on its standard output.
inline std::string run(const std::string& cmd) {
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[65536];
  std::size_t n;
  while (pipe && (n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  if (pipe) pclose(pipe);
  return out;
}

// `calltree annotate --json [--part=N]` of `path` (the model path), with the corpus as an
// include directory, as the sessions have it; null when it writes nothing.
inline nlohmann::json annotate_json(const std::filesystem::path& path,
                                    std::optional<std::uint32_t> part = std::nullopt) {
  const std::string out = run(
      std::string(CALLTREE_BINARY) + " annotate --json -I " + CALLTREE_CORPUS_DIR +
      (part ? " --part=" + std::to_string(*part) : "") + " '" + path.string() + "' 2>/dev/null");
  return out.empty() ? nlohmann::json() : nlohmann::json::parse(out, nullptr, false);
}

// The options `calltree serve` is given in these tests: the corpus as an include directory.
inline views::load_options where() {
  views::load_options o;
  o.include_dirs = {CALLTREE_CORPUS_DIR};
  o.cwd = cwd();
  o.threads = 2;
  o.defer_lines = true;  // (as `calltree serve` loads: the source lines when first asked for)
  return o;
}

// %-encoded for a query ("main;fib'2" is "main%3Bfib%272").
inline std::string encoded(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '_' || c == '.' || c == '-') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

inline std::shared_ptr<const views::session> load(const std::filesystem::path& path) {
  auto s = views::load_session(path.string(), where());
  EXPECT_TRUE(s) << path << ": " << (s ? "" : s.error().message);
  return s ? std::shared_ptr<const views::session>(std::move(*s)) : nullptr;
}

inline server::api make_api(std::shared_ptr<const views::session> s) {
  server::api_options o;
  o.token = serve_token;
  o.port = serve_port;
  return server::api(o, std::move(s));
}

inline server::response get(const server::api& a, const std::string& target,
                            const std::string& host = "127.0.0.1:4242") {
  const std::string with_token =
      target + (target.find('?') == std::string::npos ? "?" : "&") + "token=" + serve_token;
  return a.handle_target("GET", with_token, host);
}

inline nlohmann::json get_json(const server::api& a, const std::string& target) {
  server::response r = get(a, target);
  EXPECT_EQ(r.status, 200) << target << ": " << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  return nlohmann::json::parse(r.body);
}

// The id of the function named `name` (the first row of that name).
inline int id_of(const server::api& a, const std::string& name) {
  const nlohmann::json list = get_json(a, "/api/v1/functions?cycles=no&limit=5000&filter=" + name);
  for (const auto& r : list["rows"])
    if (r["name"] == name) return r["id"];
  ADD_FAILURE() << "no function " << name;
  return 0;
}

}  // namespace calltree::test

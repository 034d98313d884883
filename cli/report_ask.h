// report_ask.h — one answer of serve's API asked in-process for `calltree report --html` (one
// profile or OLD NEW): as the API wrote it, or parsed; a failure is the report's failure, said
// on standard error.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "api.h"

namespace calltree::cli {

class report_asker {
 public:
  report_asker(const server::api& api, std::string token) : api_(api), token_(std::move(token)) {}

  // The answer's bytes; false (and the API's error on stderr) unless it answered 200.
  bool raw(const std::string& target, std::string& body) const {
    server::response r =
        api_.handle_target("GET", target, "localhost:0", "Bearer " + token_, std::string());
    if (r.status != 200) {
      std::fprintf(stderr, "calltree report: %s: %s\n", target.c_str(), r.body.c_str());
      return false;
    }
    body = std::move(r.body);
    return true;
  }

  // The same, parsed (the answers the report reads: the profile, lists and groups).
  bool json(const std::string& target, nlohmann::json& j) const {
    std::string body;
    if (!raw(target, body)) return false;
    j = nlohmann::json::parse(body, nullptr, false);
    return !j.is_discarded();
  }

 private:
  const server::api& api_;
  std::string token_;
};

}  // namespace calltree::cli

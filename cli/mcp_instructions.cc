// mcp_instructions.cc — the function tool's hottest instructions: the machine code of one
// function with its cost per instruction (serve's /api/v1/asm/ID, `calltree annotate --asm`),
// the costliest few kept.
//
// Why the function tool answers them: a profile of code built without debug information (a
// distribution's cc1plus, a stripped library) has no source lines, so `lines` is null, and its
// per-instruction costs are all there is below the function. When they cannot be given either,
// the answer says why, in the words of the asm view (no instruction addresses: recorded without
// --dump-instr=yes; the object missing or changed since the run; objdump missing).
#include <algorithm>

#include "mcp_profiles.h"
#include "mcp_tools.h"

namespace calltree::cli::mcp {

namespace {
constexpr const char* no_addresses =
    "the profile has no instruction addresses for it (callgrind writes them with "
    "--dump-instr=yes, as `calltree record` does without --fast; other profilers record none)";
}  // namespace

json hottest_instructions(const served& s, std::uint64_t id, const std::string& event,
                          const json& total, std::uint64_t count, std::string& why_null) {
  if (count == 0) {
    why_null = "instructions=0 was asked";
    return nullptr;
  }
  // (A profile without instruction addresses is not read again to find that out.)
  if (!s.sessions.empty() && !(s.sessions[0]->p.positions & pos_instr)) {
    why_null = no_addresses;
    return nullptr;
  }
  query q;
  q.add("events", event);
  json answer;
  try {
    answer = s.ask("/api/v1/asm/" + std::to_string(id) + "?" + q.str());
  } catch (const tool_failure& e) {
    why_null = std::string("its machine code cannot be shown: ") + e.what();
    return nullptr;
  }
  if (!answer.value("has_instructions", false)) {
    why_null = no_addresses;
    return nullptr;
  }
  std::vector<json> rows;
  std::string object, reasons;
  for (const json& view : answer["asm"]) {
    if (view.value("status", "") != "ok") {
      reasons += (reasons.empty() ? "" : "; ") + view.value("message", std::string("not ok"));
      continue;
    }
    if (object.empty()) object = view.value("object_path", "");
    for (const json& in : view["instructions"]) {
      if (!in.value("profiled", false) || signed_cost(in["self"][event]) == 0) continue;
      json row = {{"address", in["address"]},
                  {"code", in["mnemonic"].get<std::string>() +
                               (in["operands"].get<std::string>().empty()
                                    ? ""
                                    : " " + in["operands"].get<std::string>())},
                  {"self", cost_of(in["self"][event])},
                  {"percent", percent_of(in["self"][event], total)}};
      if (in.value("line", 0) > 0) {
        row["file"] = in["file"];
        row["line"] = in["line"];
      }
      if (!in["calls"].empty()) row["calls"] = in["calls"][0]["callee"];
      rows.push_back(std::move(row));
    }
  }
  if (rows.empty()) {
    why_null = reasons.empty() ? "none of its instructions has a cost of " + event
                               : "its machine code cannot be shown: " + reasons;
    return nullptr;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const json& x, const json& y) {
    return signed_cost(x["self"]) > signed_cost(y["self"]);
  });
  const std::size_t costly = rows.size();
  if (rows.size() > count) rows.resize(count);
  json out = {{"object", object}, {"costly", costly}, {"hottest", json(rows)}};
  // (some of its code, in another object, could not be shown: said beside the rest)
  if (!reasons.empty()) out["note"] = reasons;
  return out;
}

}  // namespace calltree::cli::mcp

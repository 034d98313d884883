// mcp_rpc.h — the Model Context Protocol's messages for `calltree mcp`: one line of JSON-RPC
// 2.0 in, at most one line out (docs/mcp.md).
//
// What it is: the server side of MCP's lifecycle and tools (initialize, ping, tools/list,
// tools/call; notifications taken and never answered), with JSON-RPC's errors: -32700 for a
// line that is not JSON, -32600 for a message that is not a request, -32601 for a method it
// does not have, -32602 for bad params (an unknown tool, an argument a tool does not take),
// -32603 when a tool threw what it should not. It never throws and never ends the process: the
// stdio loop (cmd_mcp.cc) may hand it anything. What it is not: the transport (cmd_mcp.cc
// reads and writes the lines) nor the tools (mcp_tools.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "mcp_tools.h"

namespace calltree::cli::mcp {

// The protocol versions answered as the client asks; any other is answered with the first.
inline constexpr std::string_view protocol_versions[] = {"2025-06-18", "2025-11-25", "2025-03-26",
                                                         "2024-11-05"};

class rpc_server {
 public:
  // `log` takes one line for standard error (what was asked, what failed).
  rpc_server(tool_context& tools, std::function<void(const std::string&)> log);

  // The answer to one message (a line without its newline), or nullopt when none is due (a
  // notification, a response, a blank line).
  std::optional<std::string> handle(std::string_view line);

  // The protocol version agreed (empty before initialize).
  const std::string& version() const { return version_; }

 private:
  std::optional<json> answer(const json& message);
  json call_tool(const json& params, const json& id);
  json list_tools() const;

  tool_context& context_;
  std::function<void(const std::string&)> log_;
  std::string version_;
  std::string client_;  // clientInfo's name and version, for the log
};

}  // namespace calltree::cli::mcp

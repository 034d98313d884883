// mcp_rpc.cc — JSON-RPC 2.0 and MCP's lifecycle for `calltree mcp` (mcp_rpc.h).
//
// Which failure is which. The MCP specification tells two kinds apart, and an agent acts on
// each differently:
//  - a protocol error (a JSON-RPC `error`) says the message was wrong: not JSON (-32700), not a
//    request (-32600), a method this server has not (-32601), params that do not fit (-32602:
//    an unknown tool, a missing or mistyped argument, an argument the tool does not take).
//    Its message names what to change ("unknown tool 'summry'; the tools: summary, ...").
//  - a tool result with isError says the call was right and the tool could not do it: a file
//    that does not exist or holds no profile (with its file:line:col diagnostics), a function
//    the profile has not ("no function named X; closest: Y, Z"), an event it lacks. The agent
//    reads it as the tool's answer and tries something else.
// A notification (no id) is never answered, not even when it is wrong; a response from the
// client (this server sends no request) is dropped. Requests before `initialize` are answered
// as after it: a client that skips the handshake still gets its tools.
//
// Versions. The client names the version it speaks; the answer is that version when it is one
// of protocol_versions (2025-06-18 first: this server's), else 2025-06-18, and the client
// decides whether it can go on. Before 2025-06-18 a result had no structuredContent: for such a
// client each result also carries the structured content as JSON text, so nothing is lost.
// Batches (a JSON array of messages, 2025-03-26 only) are answered as an array.
#include "mcp_rpc.h"

#include <algorithm>
#include <exception>
#include <new>

namespace calltree::cli::mcp {

namespace {

constexpr int parse_error = -32700;
constexpr int invalid_request = -32600;
constexpr int method_not_found = -32601;
constexpr int invalid_params = -32602;
constexpr int internal_error = -32603;

json error_message(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json result_message(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

// Whether structuredContent is in the version agreed (2025-06-18 and later).
bool structured_version(const std::string& v) { return v.empty() || v >= "2025-06-18"; }

std::string tool_names(bool with_record) {
  std::string out;
  for (const tool& t : tools()) {
    if (t.runs_programs && !with_record) continue;
    out += (out.empty() ? "" : ", ") + std::string(t.name);
  }
  return out;
}

// What the server says it is for, in initialize's `instructions` (an agent reads it once).
constexpr const char* instructions =
    "Reads profiles of where a program spends its time or instructions: Callgrind and "
    "Cachegrind files (callgrind.out.*), and pprof, perf script, cProfile pstats, V8 "
    ".cpuprofile and folded stacks. Start with `summary` (events, totals, problems), then "
    "`top_functions`, then `function` on a name it lists (callers, callees, hottest lines) and "
    "`source` for the annotated lines. `diff` compares two profiles; `trend` finds the runs "
    "of a folder where a cost changed. Every tool takes `path`; profiles are read once and "
    "kept while the file does not change. The numbers are those of `calltree annotate` and "
    "`calltree serve`.";

}  // namespace

rpc_server::rpc_server(tool_context& tools, std::function<void(const std::string&)> log)
    : context_(tools), log_(std::move(log)) {}

std::optional<std::string> rpc_server::handle(std::string_view line) {
  // (A blank line, or a line of blanks and a CR, is no message.)
  if (std::all_of(line.begin(), line.end(),
                  [](char c) { return c == ' ' || c == '\t' || c == '\r'; }))
    return std::nullopt;
  try {
    json message = json::parse(line, nullptr, false);
    if (message.is_discarded()) {
      log_("a line that is not JSON (" + std::to_string(line.size()) + " bytes)");
      return error_message(nullptr, parse_error,
                           "parse error: the line is not JSON (one JSON-RPC message a line)")
          .dump(-1, ' ', false, json::error_handler_t::replace);
    }
    std::optional<json> out;
    if (message.is_array()) {
      if (message.empty()) {
        out = error_message(nullptr, invalid_request, "an empty batch");
      } else {
        json answers = json::array();
        for (const json& m : message)
          if (auto a = answer(m)) answers.push_back(std::move(*a));
        if (!answers.empty()) out = std::move(answers);
      }
    } else {
      out = answer(message);
    }
    if (!out) return std::nullopt;
    return out->dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const std::exception& e) {
    log_(std::string("internal error: ") + e.what());
    return error_message(nullptr, internal_error, std::string("internal error: ") + e.what())
        .dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

std::optional<json> rpc_server::answer(const json& message) {
  if (!message.is_object())
    return error_message(nullptr, invalid_request, "a message is a JSON object");
  const auto method = message.find("method");
  const auto id_it = message.find("id");
  const bool is_request = id_it != message.end();
  const json id = is_request ? *id_it : json(nullptr);
  if (method == message.end()) {
    // A response to a request of ours (there are none) or nothing at all.
    if (message.contains("result") || message.contains("error")) return std::nullopt;
    return is_request
               ? std::optional<json>(error_message(id, invalid_request, "a request needs a method"))
               : std::nullopt;
  }
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0" || !method->is_string()) {
    if (!is_request) return std::nullopt;
    return error_message(id, invalid_request,
                         "a request is {\"jsonrpc\": \"2.0\", \"id\": ..., \"method\": \"...\"}");
  }
  if (is_request && !id.is_string() && !id.is_number_integer())
    return error_message(nullptr, invalid_request, "a request's id is a string or an integer");
  const std::string name = method->get<std::string>();
  const json params = message.value("params", json::object());
  if (!is_request) {
    // (notifications/initialized, notifications/cancelled, ...: nothing to answer.)
    if (name != "notifications/initialized") log_("notification " + name);
    return std::nullopt;
  }
  if (!params.is_object()) return error_message(id, invalid_params, "params is a JSON object");

  if (name == "initialize") {
    const std::string asked = params.value("protocolVersion", "");
    version_ = std::string(protocol_versions[0]);
    for (std::string_view v : protocol_versions)
      if (asked == v) version_ = asked;
    if (const auto info = params.find("clientInfo"); info != params.end() && info->is_object())
      client_ = info->value("name", "?") + " " + info->value("version", "");
    log_("initialize: " + (client_.empty() ? std::string("a client") : client_) + " asks for " +
         (asked.empty() ? std::string("no version") : asked) + ", answered " + version_);
    return result_message(
        id, {{"protocolVersion", version_},
             {"capabilities", {{"tools", {{"listChanged", false}}}}},
             {"serverInfo",
              {{"name", "calltree"}, {"title", "calltree"}, {"version", CALLTREE_VERSION}}},
             {"instructions", instructions}});
  }
  if (name == "ping") return result_message(id, json::object());
  if (name == "tools/list") return result_message(id, list_tools());
  if (name == "tools/call") return call_tool(params, id);
  return error_message(id, method_not_found,
                       "no method '" + name.substr(0, 100) +
                           "': this server has initialize, ping, tools/list and tools/call");
}

json rpc_server::list_tools() const {
  json list = json::array();
  for (const tool& t : tools()) {
    if (t.runs_programs && !context_.settings.allow_record) continue;
    json entry = {{"name", t.name},
                  {"title", t.title},
                  {"description", t.description},
                  {"inputSchema", json::parse(t.input_schema)},
                  {"annotations",
                   {{"title", t.title},
                    // (A tool that runs programs runs whatever the agent names, which may
                    // write, delete and reach the network: destructive and open-world, as
                    // the specification's hints mean it; the others read files only.)
                    {"readOnlyHint", !t.runs_programs},
                    {"destructiveHint", t.runs_programs},
                    {"idempotentHint", !t.runs_programs},
                    {"openWorldHint", t.runs_programs}}}};
    if (structured_version(version_)) entry["outputSchema"] = json::parse(t.output_schema);
    list.push_back(std::move(entry));
  }
  return {{"tools", std::move(list)}};
}

json rpc_server::call_tool(const json& params, const json& id) {
  const auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string())
    return error_message(
        id, invalid_params,
        "tools/call needs params.name, one of: " + tool_names(context_.settings.allow_record));
  const std::string name = name_it->get<std::string>();
  const tool* found = nullptr;
  for (const tool& t : tools())
    if (t.name == name) found = &t;
  if (found && found->runs_programs && !context_.settings.allow_record)
    return error_message(id, invalid_params,
                         "the tool 'record' runs programs: it is offered only when the server "
                         "is started as `calltree mcp --allow-record`");
  if (!found)
    return error_message(id, invalid_params,
                         "unknown tool '" + name.substr(0, 100) +
                             "'; the tools: " + tool_names(context_.settings.allow_record));
  json arguments = params.value("arguments", json::object());
  if (arguments.is_null()) arguments = json::object();
  if (!arguments.is_object())
    return error_message(id, invalid_params, "params.arguments is a JSON object");

  json result;
  try {
    tool_answer a = found->run(context_, arguments);
    json content = json::array({{{"type", "text"}, {"text", a.text}}});
    if (!structured_version(version_))
      content.push_back({{"type", "text"}, {"text", a.structured.dump()}});
    result = {{"content", std::move(content)},
              {"structuredContent", std::move(a.structured)},
              {"isError", false}};
    log_("tools/call " + name + ": done");
  } catch (const bad_arguments& e) {
    log_("tools/call " + name + ": bad arguments: " + e.what());
    return error_message(id, invalid_params, e.what());
  } catch (const tool_failure& e) {
    log_("tools/call " + name + ": " + e.what());
    result = {{"content", json::array({{{"type", "text"}, {"text", e.what()}}})},
              {"isError", true}};
  } catch (const std::bad_alloc&) {
    log_("tools/call " + name + ": out of memory");
    result = {{"content", json::array({{{"type", "text"},
                                        {"text",
                                         "out of memory for this call (calltree "
                                         "--max-memory, or a smaller profile)"}}})},
              {"isError", true}};
  } catch (const std::exception& e) {
    log_("tools/call " + name + ": internal error: " + e.what());
    return error_message(id, internal_error, std::string("internal error: ") + e.what());
  }
  return result_message(id, std::move(result));
}

}  // namespace calltree::cli::mcp

// mcp_sdk_check.mjs — `calltree mcp` driven by the official MCP TypeScript SDK, a real client
// (it negotiates the version, and validates every structuredContent against the tool's
// outputSchema with ajv). Not part of `make test`: the SDK is not installed by the project.
//
//   mkdir /tmp/sdk && cd /tmp/sdk && npm install @modelcontextprotocol/sdk
//   cp tests/server/mcp_sdk_check.mjs /tmp/sdk/
//   node /tmp/sdk/mcp_sdk_check.mjs $PWD/build/calltree $PWD/tests/corpus RUNS_DIR
//
// RUNS_DIR: a folder of profiles for the trend tool (copies of a corpus file will do). It
// prints one line per call and exits non-zero when a call answers otherwise than expected.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [calltree, corpus, runs] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: calltree, args: ["mcp", "--index=none", "--allow-record"], cwd: corpus, stderr: "ignore" });
const client = new Client({ name: "sdk-check", version: "1.0.0" });
await client.connect(transport);
console.log("server", client.getServerVersion());
const { tools } = await client.listTools();
console.log("tools", tools.map(t => t.name).join(", "));
const p = "vg-recurse-default.callgrind";
const calls = [
  ["summary", { path: p }],
  ["top_functions", { path: p, n: 3, by: "inclusive" }],
  ["function", { path: p, name: "fib" }],
  ["source", { path: p, name: "fib" }],
  ["source", { path: p, file: "src/c/recurse.c", max_lines: 20 }],
  ["diff", { path: p, new_path: "vg-recurse-cacheuse.callgrind", by: "inclusive" }],
  ["trend", { path: runs }],
  ["record", { command: ["/bin/true"], path: "/tmp/mcp_sdk_check.callgrind" }],
  ["function", { path: p, name: "mian" }],
];
let failures = 0;
for (const [name, args] of calls) {
  const r = await client.callTool({ name, arguments: args });
  const expected = args.name === "mian";  // (the one call that must fail)
  if (Boolean(r.isError) !== expected) failures++;
  console.log(name, r.isError ? "isError: " + r.content[0].text : "ok: " + r.content[0].text.split("\n")[0]);
}
for (const [name, args] of [["nope", {}], ["summary", {}]]) {
  try {
    await client.callTool({ name, arguments: args });
    failures++;
  } catch (e) {
    if (e.code !== -32602) failures++;
    console.log(name, "->", e.code, e.message);
  }
}
await client.ping();
await client.close();
console.log(failures ? failures + " failures" : "done");
process.exit(failures ? 1 : 0);

"""mcp_session.py CALLTREE CORPUS — `calltree mcp` driven over pipes as an agent's client drives
it (a client of the protocol written here: initialize, notifications/initialized, tools/list,
tools/call of each tool), its numbers against `calltree annotate --json`'s and `calltree
serve`'s API for the same files, every answer's structuredContent against the tool's
outputSchema, and the errors an agent must be able to act on.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from serve_process import FAILURES, Server, check

CALLTREE = CORPUS = None


class Client:
    """One `calltree mcp` process: a JSON-RPC message a line each way."""

    def __init__(self, *flags, cwd=None):
        self.err = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen([CALLTREE, "mcp", "--index=none", *flags], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, text=True, cwd=cwd)
        self.next_id = 0

    def send(self, message):
        self.p.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.p.stdin.flush()

    def read(self):
        line = self.p.stdout.readline()
        check(line.endswith("\n"), "an answer is one line: %r" % line[:200])
        return json.loads(line)

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.read()
        check(answer.get("id") == self.next_id and answer.get("jsonrpc") == "2.0",
              "%s: the answer's id: %s" % (method, str(answer)[:200]))
        return answer

    def result(self, method, params=None):
        answer = self.request(method, params)
        check("result" in answer, "%s %s: %s" % (method, params, str(answer)[:300]))
        return answer.get("result", {})

    def initialize(self, version="2025-06-18"):
        r = self.result("initialize", {"protocolVersion": version, "capabilities": {},
                                       "clientInfo": {"name": "mcp_session.py", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return r

    def call(self, tool, **arguments):
        """A tools/call that succeeds: its structuredContent, checked against the schema."""
        r = self.result("tools/call", {"name": tool, "arguments": arguments})
        check(r.get("isError") is False, "%s %s: %s" % (tool, arguments, str(r)[:400]))
        check(r["content"][0]["type"] == "text" and r["content"][0]["text"],
              "%s: a text besides the structured content" % tool)
        validate(r.get("structuredContent"), SCHEMAS.get(tool, {}), tool)
        return r.get("structuredContent", {})

    def tool_error(self, tool, **arguments):
        """A tools/call whose tool fails: the text of its isError result."""
        r = self.result("tools/call", {"name": tool, "arguments": arguments})
        check(r.get("isError") is True, "%s %s: isError expected: %s" % (tool, arguments,
                                                                         str(r)[:300]))
        return r["content"][0]["text"]

    def rpc_error(self, tool, **arguments):
        """A tools/call refused as a protocol error: (code, message)."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        check("error" in answer, "%s %s: a JSON-RPC error expected: %s" % (tool, arguments,
                                                                          str(answer)[:300]))
        e = answer.get("error", {})
        return e.get("code"), e.get("message", "")

    def close(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        code = self.p.wait(timeout=30)
        check(rest == "", "nothing on stdout after the last answer: %r" % rest[:200])
        check(code == 0, "exit status %s when stdin closes" % code)
        self.err.seek(0)
        return self.err.read()


SCHEMAS = {}


def validate(value, schema, where):
    """The subset of JSON Schema the tools' outputSchemas use."""
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        ok = {"object": isinstance(value, dict), "array": isinstance(value, list),
              "string": isinstance(value, str), "boolean": isinstance(value, bool),
              "null": value is None,
              "integer": isinstance(value, int) and not isinstance(value, bool),
              "number": isinstance(value, (int, float)) and not isinstance(value, bool)}
        if not any(ok[t] for t in types):
            check(False, "%s: %r is not of type %s" % (where, str(value)[:80], types))
            return
    if "enum" in schema:
        check(value in schema["enum"], "%s: %r not in %s" % (where, value, schema["enum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            check(key in value, "%s: no %s" % (where, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                validate(value[key], sub, where + "." + key)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], "%s[%d]" % (where, i))


def annotate(path):
    return json.loads(subprocess.run([CALLTREE, "annotate", "--json", path], capture_output=True,
                                     text=True).stdout)


def by_key(ann):
    return {f["key"]: f for f in ann["functions"]}


def main():
    global CALLTREE, CORPUS
    CALLTREE, CORPUS = os.path.abspath(sys.argv[1]), sys.argv[2]
    Server.calltree = CALLTREE
    recurse = os.path.join(CORPUS, "vg-recurse-default.callgrind")
    cacheuse = os.path.join(CORPUS, "vg-recurse-cacheuse.callgrind")
    threads = os.path.join(CORPUS, "vg-threads-separate-combined.callgrind")
    started = time.time()

    c = Client()
    init = c.initialize()
    check(init.get("protocolVersion") == "2025-06-18", "version: %s" % init)
    check(init.get("serverInfo", {}).get("name") == "calltree", "serverInfo: %s" % init)
    check("tools" in init.get("capabilities", {}), "capabilities: %s" % init)
    check(c.result("ping") == {}, "ping answers {}")

    tools = c.result("tools/list")["tools"]
    names = [t["name"] for t in tools]
    check(names == ["summary", "top_functions", "function", "source", "diff", "trend"],
          "tools without --allow-record: %s" % names)
    for t in tools:
        SCHEMAS[t["name"]] = t["outputSchema"]
        check(t["inputSchema"]["type"] == "object" and t["outputSchema"]["type"] == "object"
              and t["description"] and t["annotations"]["readOnlyHint"] is True,
              "%s: schemas and annotations" % t["name"])

    # summary: events and totals as annotate prints them, counts as serve's /profile.
    for path in (recurse, cacheuse, threads):
        ann = annotate(path)
        s = c.call("summary", path=path)
        check({e["name"]: e["total"] for e in s["events"]} == ann["totals"],
              "summary %s: totals %s, annotate %s" % (path, s["events"], ann["totals"]))
        check(s["parts"]["count"] == ann["parts"]["count"], "summary %s: parts" % path)
    srv = Server(threads)
    prof = srv.json("/api/v1/profile")
    srv.stop()
    s = c.call("summary", path=threads)
    check(s["functions"] == prof["functions"] and s["cycles"] == prof["cycles"],
          "summary: functions and cycles as serve's")
    check(len(s["parts"]["list"]) == len(prof["inputs"][0]["parts"]) > 1, "summary: the parts")

    # top_functions: serve's list, and annotate's self and inclusive costs per function (these
    # files have no inlined code: a function is one of annotate's keys).
    for path in (recurse, cacheuse):
        ann = by_key(annotate(path))
        srv = Server(path)
        for by in ("self", "inclusive"):
            top = c.call("top_functions", path=path, by=by, n=8)
            want = srv.json("/api/v1/functions?cycles=no&limit=8&by=" + by)
            check([(r["name"], r["self"], r["inclusive"]) for r in top["functions"]] ==
                  [(r["name"], r["self"]["Ir"], r["inclusive"]["Ir"]) for r in want["rows"]],
                  "top_functions %s by %s: serve's rows" % (path, by))
            check(top["matched"] == want["total_rows"] and
                  top["left_out"] == want["total_rows"] - 8, "top_functions: counts")
            for r in top["functions"]:
                a = ann.get(r["file"] + ":" + r["name"])
                check(a is not None and a["self"]["Ir"] == r["self"] and
                      a["inclusive"]["Ir"] == r["inclusive"],
                      "top_functions %s: %s against annotate %s" % (path, r, a and a["self"]))
            check(abs(top["functions"][0]["self_percent"] -
                      100.0 * top["functions"][0]["self"] / top["total"]) < 0.01, "percent")
        srv.stop()
    flt = c.call("top_functions", path=recurse, filter="^cyc_", n=500)
    check(flt["functions"] and all(r["name"].startswith("cyc_") for r in flt["functions"])
          and flt["left_out"] == 0, "top_functions: filter")
    ev = c.call("top_functions", path=cacheuse, event="D1mr", n=3)
    check(ev["event"] == "D1mr" and ev["total"] == annotate(cacheuse)["totals"]["D1mr"],
          "top_functions: event=D1mr")

    # function: self, inclusive, callers and callees as serve's /function and annotate's.
    ann = by_key(annotate(recurse))
    srv = Server(recurse)
    for row in srv.json("/api/v1/functions?cycles=no&limit=6&by=inclusive")["rows"]:
        f = c.call("function", path=recurse, name=row["name"], file=row["file"], n=200)
        want = srv.json("/api/v1/function/%d?limit=200" % row["id"])
        a = ann[row["file"] + ":" + row["name"]]
        check((f["self"], f["inclusive"], f["calls"]) ==
              (want["self"]["Ir"], want["inclusive"]["Ir"], want["calls"]),
              "function %s: serve's figures" % row["name"])
        check((f["self"], f["inclusive"]) == (a["self"]["Ir"], a["inclusive"]["Ir"]),
              "function %s: annotate's figures" % row["name"])
        for side in ("callers", "callees"):
            got = sorted((x["file"] + ":" + x["name"], x["count"], x["cost"]) for x in f[side])
            serve_side = sorted((x["file"] + ":" + x["name"], x["count"], x["cost"]["Ir"])
                                for x in want[side])
            ann_side = sorted((x["function"], x["count"], x["cost"]["Ir"]) for x in a[side])
            check(got == serve_side, "function %s %s: serve's" % (row["name"], side))
            check(got == ann_side, "function %s %s: %s, annotate %s" % (row["name"], side, got,
                                                                       ann_side))
        if f["lines"]:
            check(len(f["lines"]["hottest"]) > 0 and
                  f["lines"]["hottest"][0]["self"] >= f["lines"]["hottest"][-1]["self"],
                  "function %s: hottest lines" % row["name"])
    srv.stop()

    # source: each line's self cost and calls as annotate's source listing.
    ann_full = annotate(recurse)
    lines = {}
    for src in ann_full["source"]:
        for l in src["lines"]:
            lines[(src["file"], l["line"])] = l
    top = c.call("top_functions", path=recurse, n=3)["functions"]
    checked = 0
    for r in top:
        v = c.call("source", path=recurse, name=r["name"], context=2)
        check(v["function"] == r["name"] and v["lines"], "source %s: lines" % r["name"])
        for l in v["lines"]:
            a = lines.get((v["file"], l["line"]))
            check(l["self"] == (a["self"]["Ir"] if a else 0),
                  "source %s:%d: %s, annotate %s" % (v["file"], l["line"], l["self"], a))
            if a and a.get("calls"):
                check(sum(x["count"] for x in l.get("calls", [])) ==
                      sum(x["count"] for x in a["calls"]), "source: calls of line %d" % l["line"])
            checked += 1
    check(checked > 10, "source: lines checked (%d)" % checked)
    whole = c.call("source", path=recurse, file=top[0]["file"], max_lines=5)
    check(len(whole["lines"]) == 5 and whole["left_out"] > 0, "source: max_lines cuts, counted")

    # trend: a folder of four runs, the last two 10 % dearer in one function.
    tmp = tempfile.mkdtemp()
    runs = os.path.join(tmp, "runs")
    os.mkdir(runs)
    text = open(recurse).read()
    # (cyc_c'2's self cost 36,000,000 more, about 10 % of the total, and the totals with it)
    dearer = text.replace("fn=(565) cyc_c'2\n30 70063338\n", "fn=(565) cyc_c'2\n30 106063338\n")
    dearer = dearer.replace("summary: 362861224", "summary: 398861224")
    dearer = dearer.replace("totals: 362861224", "totals: 398861224")
    check(dearer != text, "trend: the edit of the fixture applies")
    for i, body in enumerate([text, text, dearer, dearer]):
        p = os.path.join(runs, "run%d.callgrind" % (i + 1))
        open(p, "w").write(body)
        os.utime(p, (1000000 + i * 60, 1000000 + i * 60))

    # diff: serve OLD NEW's list (calltree diff's functions), calltree diff --json's totals and
    # change of the function made dearer.
    run3 = os.path.join(runs, "run3.callgrind")
    d = c.call("diff", path=recurse, new_path=run3, n=5)
    srv = Server(recurse, run3)
    want = srv.json("/api/v1/functions?measure=abs_delta&by=self&limit=5&events=Ir&sort=Ir"
                    "&unchanged=no")
    srv.stop()
    check([(r["name"], r["self"]["delta"], r["inclusive"]["delta"]) for r in d["functions"]] ==
          [(r["name"], r["self"]["Ir"]["delta"], r["inclusive"]["Ir"]["delta"])
           for r in want["rows"]], "diff: serve's rows")
    check(d["counts"] == want["counts"] and d["matched"] == want["total_rows"], "diff: counts")
    cli = json.loads(subprocess.run([CALLTREE, "diff", "--json", "--threshold=0", recurse, run3],
                                    capture_output=True, text=True).stdout)
    check(d["total"] == cli["totals"]["Ir"], "diff: totals %s, calltree diff's %s" % (
        d["total"], cli["totals"]["Ir"]))
    check(d["functions"][0]["name"] == "cyc_c'2" and
          d["functions"][0]["self"] == [f for f in cli["functions"]
                                        if f["name"] == "cyc_c'2"][0]["self"]["Ir"],
          "diff: cyc_c'2's change as calltree diff's")
    check(d["total"]["delta"] == 36000000, "diff: the change made")

    t = c.call("trend", path=runs)
    cli = json.loads(subprocess.run([CALLTREE, "trend", "--json", "--index=none", runs],
                                    capture_output=True, text=True).stdout)
    check(t["runs"] == 4 and [p["total"] for p in t["points"]] ==
          [r["total"]["Ir"] for r in cli["runs"]], "trend: the runs' totals as calltree trend's")
    total_changes = [(x["run"], x["before"], x["after"]) for x in cli["changes"]
                     if x["function"] is None]
    check([(x["run"], x["before"], x["after"]) for x in t["changes"]] == total_changes
          and len(total_changes) == 1, "trend: the total's change point as calltree trend's")
    check(t["top"] and t["top"][0]["run"] == 2 and t["top"][0]["function"] == "cyc_c'2",
          "trend: the function that changed: %s" % t["top"][:1])

    # A file that changed on disk is read again; one that did not answers from memory.
    copy = os.path.join(tmp, "copy.callgrind")
    shutil.copy(recurse, copy)
    first = c.call("summary", path=copy)["events"][0]["total"]
    shutil.copy(cacheuse, copy)
    second = c.call("summary", path=copy)["events"]
    check(first == annotate(recurse)["totals"]["Ir"] and
          {e["name"]: e["total"] for e in second} == annotate(cacheuse)["totals"],
          "a changed file is read again")

    # Errors an agent acts on.
    code, msg = c.rpc_error("summry", path=recurse)
    check(code == -32602 and "summary" in msg, "unknown tool: %s %s" % (code, msg))
    code, msg = c.rpc_error("summary")
    check(code == -32602 and "path" in msg, "missing path: %s" % msg)
    code, msg = c.rpc_error("top_functions", path=recurse, count=3)
    check(code == -32602 and "count" in msg and "n" in msg, "unknown argument: %s" % msg)
    code, msg = c.rpc_error("top_functions", path=recurse, by="total")
    check(code == -32602 and "self or inclusive" in msg, "bad choice: %s" % msg)
    code, msg = c.rpc_error("top_functions", path=recurse, n="ten")
    check(code == -32602 and "whole number" in msg, "bad n: %s" % msg)
    code, msg = c.rpc_error("record", command=["true"])
    check(code == -32602 and "--allow-record" in msg, "record without --allow-record: %s" % msg)
    msg = c.tool_error("summary", path=os.path.join(tmp, "none.callgrind"))
    check("none.callgrind" in msg and "No such file" in msg, "missing file: %s" % msg)
    bad = os.path.join(tmp, "bad.callgrind")
    open(bad, "w").write("events: Ir\nfn=main\n1 x\n2 5\n")
    problems = c.call("summary", path=bad)["problems"]
    check(problems["errors"] == 1 and problems["diagnostics"][0].startswith(
        bad + ":3:3: error: invalid cost 'x'"), "a profile with errors: %s" % problems)
    open(bad, "w").write("hello\n")
    msg = c.tool_error("summary", path=bad)
    check("holds no profile" in msg and bad + ":1:1: warning:" in msg and "[no-events]" in msg,
          "unreadable profile: %s" % msg)
    binary = os.path.join(tmp, "binary.callgrind")
    open(binary, "wb").write(bytes(range(256)))
    msg = c.tool_error("summary", path=binary)
    check("binary" in msg, "binary file: %s" % msg)
    msg = c.tool_error("function", path=recurse, name="cyc_aa")
    check("no function named 'cyc_aa'" in msg and "closest: cyc_a" in msg, "closest: %s" % msg)
    msg = c.tool_error("function", path=recurse, name="main", file="nowhere.c")
    check("nowhere.c" in msg, "function in no such file: %s" % msg)
    msg = c.tool_error("top_functions", path=recurse, event="Dr")
    check("Dr" in msg, "no such event: %s" % msg)
    msg = c.tool_error("top_functions", path=recurse, filter="(")
    check("regular expression" in msg, "bad regex: %s" % msg)
    msg = c.tool_error("trend", path=recurse)
    check("not a folder" in msg, "trend of a file: %s" % msg)
    c.send("{not json")
    check(c.read()["error"]["code"] == -32700, "parse error")
    check(c.request("resources/list")["error"]["code"] == -32601, "unknown method")
    c.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    c.send({"jsonrpc": "2.0", "method": "no/such/notification"})
    c.send({"jsonrpc": "2.0", "id": 77, "result": {}})  # (a response: dropped)
    check(c.result("ping") == {}, "notifications and responses get no answer")
    c.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"}])
    batch = c.read()
    check(isinstance(batch, list) and len(batch) == 1 and batch[0]["id"] == "a", "a batch")
    c.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": "x"})
    check(c.read()["error"]["code"] == -32602, "params not an object")
    c.send({"id": 6, "method": "ping"})
    check(c.read()["error"]["code"] == -32600, "no jsonrpc member")
    log = c.close()
    check("initialize" in log and "mcp_session.py" in log, "the log on stderr: %r" % log[:300])

    # Versions: an older client gets its version and the JSON as text too; an unknown one ours.
    old = Client()
    check(old.initialize("2024-11-05")["protocolVersion"] == "2024-11-05", "2024-11-05")
    r = old.result("tools/call", {"name": "summary", "arguments": {"path": recurse}})
    check(len(r["content"]) == 2 and json.loads(r["content"][1]["text"]) == r["structuredContent"],
          "2024-11-05: the structured content as text too")
    old.close()
    other = Client()
    check(other.initialize("1999-01-01")["protocolVersion"] == "2025-06-18", "unknown version")
    other.close()

    # record, where valgrind is installed.
    if shutil.which("valgrind"):
        rec = Client("--allow-record", cwd=tmp)
        rec.initialize()
        listed = [t["name"] for t in rec.result("tools/list")["tools"]]
        check(listed[-1] == "record", "record listed with --allow-record: %s" % listed)
        for t in rec.result("tools/list")["tools"]:
            SCHEMAS[t["name"]] = t["outputSchema"]
        r = rec.call("record", command=["/bin/true"], path="true.callgrind")
        check(r["path"] == os.path.join(os.path.realpath(tmp), "true.callgrind") and
              r["exit_status"] == 0 and os.path.exists(r["path"]), "record: %s" % r["path"])
        check(r["summary"]["events"][0]["name"] == "Ir" and
              r["summary"]["events"][0]["total"] == annotate(r["path"])["totals"]["Ir"],
              "record: the summary of the profile written")
        msg = rec.tool_error("record", command=[os.path.join(tmp, "no-such-program")])
        check("no profile was written" in msg, "record of no program: %s" % msg)
        rec.close()
    else:
        print("valgrind is not installed: record not tried")
    shutil.rmtree(tmp)
    print("mcp_session.py: %d failures, %.1f s" % (len(FAILURES), time.time() - started))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()

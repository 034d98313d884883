"""mcp_agents.py CALLTREE CORPUS — what agents tripped on in `calltree mcp` (issue 67, point 7),
each answer one an agent can act on:

* a file that is not a profile (Python or C source, a README, a shell script, a program) is a
  tool error naming what it is and what makes a profile of it, in the words `calltree check`
  gives the same file;
* the function tool on code built without line information: `lines` null with the reason in
  why_null, and its hottest instructions, as `calltree annotate --json --asm` costs them;
* callers' and callees' function_percent: the share of the function's inclusive cost;
* every count at its schema's minimum: 0 where the minimum is 1 is refused (-32602);
* the record tool: marked destructive and open-world; a path in a folder that does not exist
  refused before the run; the profilers and --children of `calltree record` (python3 runs
  under cProfile; a shell-script shim of python3 under callgrind says to follow children, and
  is recorded with children).
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

import mcp_session
from mcp_session import SCHEMAS, Client
from serve_process import FAILURES, check

PYTHON = "/usr/bin/python3"


def main():
    calltree, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    mcp_session.CALLTREE = calltree
    started = time.time()
    recurse = os.path.join(corpus, "vg-recurse-default.callgrind")
    tmp = os.path.realpath(tempfile.mkdtemp())

    c = Client(cwd=tmp)
    c.initialize()
    for t in c.result("tools/list")["tools"]:
        SCHEMAS[t["name"]] = t["outputSchema"]

    # --- files that are not profiles -----------------------------------------------------------
    files = {
        "x.py": ("import sys\nprint(sys.argv)\n", "x.py is Python source, not a profile: "
                 "`calltree record -- python3 x.py` makes one"),
        "x.c": ("#include <stdio.h>\nint main(void) { return 0; }\n",
                "x.c is C source, not a profile: build the program"),
        "README.md": ("# A project\n\nIt does things.\n", "README.md is text, not a profile"),
        "run.sh": ("#!/bin/sh\nexec ./prog \"$@\"\n", "run.sh is a shell script, not a profile: "
                   "`calltree record --children -- ./run.sh` makes one"),
    }
    for name, (text, _) in files.items():
        open(os.path.join(tmp, name), "w").write(text)
    shutil.copy("/bin/true", os.path.join(tmp, "prog"))
    files["prog"] = (None, "prog is a program (ELF), not a profile: "
                     "`calltree record -- ./prog` makes one")
    for name, (_, said) in files.items():
        for tool in ("summary", "top_functions"):
            r = c.result("tools/call", {"name": tool, "arguments": {"path": name}})
            text = r.get("content", [{}])[0].get("text", "")
            check(r.get("isError") is True and said in text,
                  "%s of %s: a tool error saying %r: %s" % (tool, name, said, str(r)[:300]))
        # (check says the same of it: the reader's words)
        out = subprocess.run([calltree, "check", name], cwd=tmp, capture_output=True, text=True)
        said = "this is " + said.split(" is ", 1)[1]
        check(out.returncode != 0 and said in out.stderr,
              "check %s says %r: %s" % (name, said, out.stderr[-400:]))

    # --- function: callers' and callees' share of its inclusive cost ------------------------------
    top = c.call("top_functions", path=recurse, by="inclusive", n=6)["functions"]
    shares = 0
    for row in top:
        f = c.call("function", path=recurse, name=row["name"], file=row["file"], n=200)
        for side in ("callers", "callees"):
            for x in f[side]:
                want = round(x["cost"] * 10000.0 / f["inclusive"]) / 100 if f["inclusive"] else 0
                check(abs(x.get("function_percent", -1) - want) < 0.006,
                      "function %s %s %s: function_percent %s, want %s" % (
                          row["name"], side, x["name"], x.get("function_percent"), want))
                shares += 1
        if f["callers"] and not any(x["recursive"] for x in f["callers"]) and \
                f["callers_left_out"] == 0 and f["cycle"] is None:
            check(abs(sum(x.get("function_percent", 0) for x in f["callers"]) - 100) < 0.1,
                  "function %s: its callers' shares sum to 100: %s" % (
                      row["name"], [x.get("function_percent") for x in f["callers"]]))
    check(shares > 5, "function_percent: calls checked (%d)" % shares)
    f = c.call("function", path=recurse, name="main")
    why = f.get("why_null", {})
    check(f["lines"] is not None and "lines" not in why, "lines of a -g profile")
    check(f.get("instructions") is None and "--dump-instr=yes" in why.get("instructions", ""),
          "a profile without instruction addresses: why_null says so: %s" % why)

    # --- counts below their schema's minimum -----------------------------------------------------
    for tool, args in (("top_functions", {"path": recurse, "n": 0}),
                       ("function", {"path": recurse, "name": "main", "n": 0}),
                       ("source", {"path": recurse, "name": "main", "max_lines": 0}),
                       ("diff", {"path": recurse, "new_path": recurse, "n": 0}),
                       ("trend", {"path": tmp, "n": 0})):
        code, msg = c.rpc_error(tool, **args)
        check(code == -32602 and "from 1 to" in msg, "%s %s: -32602: %s %s" % (tool, args, code,
                                                                              msg))
        schema = [t for t in c.result("tools/list")["tools"] if t["name"] == tool][0]
        key = [k for k in args if k not in ("path", "name", "new_path")][0]
        check(schema["inputSchema"]["properties"][key]["minimum"] == 1, "%s: minimum 1" % tool)
    c.close()

    if not shutil.which("valgrind") or not shutil.which("gcc"):
        print("valgrind or gcc missing: the record tool not tried")
    else:
        record_tool(calltree, tmp)
    shutil.rmtree(tmp)
    print("mcp_agents.py: %d failures, %.1f s" % (len(FAILURES), time.time() - started))
    sys.exit(1 if FAILURES else 0)


def record_tool(calltree, tmp):
    rec = Client("--allow-record", cwd=tmp)
    rec.initialize()
    for t in rec.result("tools/list")["tools"]:
        SCHEMAS[t["name"]] = t["outputSchema"]
        hints = t["annotations"]
        runs = t["name"] == "record"
        check(hints["destructiveHint"] is runs and hints["openWorldHint"] is runs and
              hints["readOnlyHint"] is not runs, "%s: annotations %s" % (t["name"], hints))
    code, msg = rec.rpc_error("record", command=["/bin/true"], timeout_seconds=0)
    check(code == -32602 and "from 1 to" in msg, "record timeout_seconds=0: %s" % msg)
    msg = rec.tool_error("record", command=["/bin/true"], path="no/such/folder/t.callgrind")
    check("no/such/folder does not exist" in msg and "nothing was run" in msg,
          "record into a folder that does not exist: %s" % msg)

    # A program built without -g: no source lines, its instructions' costs instead.
    open(os.path.join(tmp, "w.c"), "w").write(
        "#include <stdio.h>\n#include <stdlib.h>\n"
        "__attribute__((noinline)) long work(long n) { long s = 0;\n"
        "  for (long i = 0; i < n; i++) s += i * i % 7; return s; }\n"
        "int main(int argc, char** argv) { printf(\"%ld\\n\", work(atol(argv[1]))); return 0; }\n")
    subprocess.run(["gcc", "-O2", "-o", "w", "w.c"], cwd=tmp, check=True)
    r = rec.call("record", command=["./w", "30000"], path="w.callgrind")
    check(r.get("profiler") == "callgrind" and r["exit_status"] == 0, "record ./w: %s" % r)
    f = rec.call("function", path=r["path"], name="work", instructions=5)
    why = f.get("why_null", {})
    check(f.get("lines") is None and "line information" in why.get("lines", ""),
          "work built without -g: lines null, and why: %s" % why)
    ins = f.get("instructions")
    check(ins is not None and 0 < len(ins["hottest"]) <= 5, "work: its hottest instructions: %s"
          % why)
    if ins:
        ann = json.loads(subprocess.run([calltree, "annotate", "--json", "--asm=^work$",
                                         r["path"]], capture_output=True, text=True).stdout)
        costs = sorted(((i["self"].get("Ir", 0), i["address"]) for v in ann["asm"]
                        for i in v["instructions"] if i["self"].get("Ir", 0)), reverse=True)
        check([x["self"] for x in ins["hottest"]] == [c for c, _ in costs[:len(ins["hottest"])]],
              "work: the hottest instructions' costs as annotate --asm's: %s, %s" % (
                  ins["hottest"], costs[:5]))
        # (instructions of a loop ran as often: ties, in either order)
        check(ins["hottest"][0]["address"] in [a for c, a in costs if c == costs[0][0]] and
              ins["hottest"][0]["code"],
              "work: the hottest instruction's address and code: %s" % ins["hottest"][0])
        check(ins["costly"] == len(costs), "work: costly %s, annotate %d" % (ins["costly"],
                                                                           len(costs)))

    # record's profilers: python3 under cProfile, as calltree record runs it.
    open(os.path.join(tmp, "s.py"), "w").write(
        "def work(n):\n    return sum(i * i % 7 for i in range(n))\nprint(work(3000))\n")
    r = rec.call("record", command=[PYTHON, "s.py"])
    check(r.get("profiler") == "cprofile" and r.get("path", "").endswith(".pstats") and
          any(e["name"] for e in r.get("summary", {}).get("events", [])),
          "record python3: %s" % r.get("path"))
    top = rec.call("top_functions", path=r.get("path", "s.py"), filter="work").get("functions", [])
    check(any(x["name"].endswith("work") for x in top), "record python3: work profiled: %s" % top)

    # A shell-script shim of python3 (pyenv's kind) under callgrind: children follows it.
    os.mkdir(os.path.join(tmp, "shim"))
    shim = os.path.join(tmp, "shim", "python3")
    open(shim, "w").write("#!/bin/sh\nexec %s \"$@\"\n" % PYTHON)
    os.chmod(shim, os.stat(shim).st_mode | stat.S_IEXEC)
    msg = rec.tool_error("record", command=["./shim/python3", "s.py"], profiler="callgrind")
    check("is a script (#!/bin/sh) that started another process" in msg and "children" in msg,
          "record of a shim without children: %s" % msg[:500])
    r = rec.call("record", command=["./shim/python3", "s.py"], profiler="callgrind",
                 children=True, path="shim.callgrind")
    summary = r.get("summary", {})
    check(r.get("exit_status") == 0 and summary.get("parts", {}).get("count", 0) >= 1 and
          summary["events"][0]["total"] > 0, "record of a shim with children: %s" % r)
    rec.close()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""check_cfg.py CALLTREE PROFILE FUNCTION — `calltree serve`'s GET /api/v1/cfg/ID on a real run.

Starts `calltree serve PROFILE`, finds FUNCTION, asks /api/v1/cfg/ID and checks its control
flow against the profile file itself: the blocks' costs (and what is left out) sum to the
function's self cost in every event; every taken edge is a jump=/jcnd= line of the file from
the function (the same source, target and counts) and every such line an edge; every block but
the entry runs as often as its incoming edges are followed (all counts known: the run has Ir and
jumps); the heaviest edge is in the loop. Then cfg of an unknown id: 404. Exits 1 on any
difference.
"""
import http.client
import json
import re
import subprocess
import sys

calltree, profile, function = sys.argv[1:4]
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def file_jumps(path, name):
    """(source, target) -> (conditional, executed, followed) of NAME's jump lines: positions
    are compressed (+N/-N from the last cost line's address, * the same); a jump line's source
    is the address of the cost line after it."""
    jumps, last, fn, pending = {}, 0, None, None
    names = {}

    def addr(tok):
        if tok == "*":
            return last
        if tok[0] in "+-":
            return last + int(tok, 0)
        return int(tok, 16)

    for line in open(path):
        line = line.rstrip("\n")
        # a name is defined where it first appears, which may be a cfn= line (the order of
        # the file's functions differs from one machine to the next)
        m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3) is not None:
                names[m.group(2)] = m.group(3)
            if not m.group(1):
                fn = names.get(m.group(2))
            continue
        m = re.match(r"(jump|jcnd)=(\d+)(?:/(\d+))? (\S+)", line)
        if m:
            pending = (m.group(1) == "jcnd", int(m.group(2)), m.group(3), addr(m.group(4)))
            continue
        if line and (line[0] in "+-*" or line.startswith("0x")):
            last = addr(line.split()[0])
            if pending and fn == name:
                cond, a, b, target = pending
                executed, followed = (int(b), a) if cond else (a, a)
                jumps[(last, target)] = (cond, executed, followed)
            pending = None
    return jumps


p = subprocess.Popen([calltree, "serve", profile], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
try:
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", p.stdout.readline().strip())
    port, token = int(m.group(1)), m.group(2)

    def get(target):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        target += ("&" if "?" in target else "?") + "token=" + token
        c.request("GET", target, headers={"Host": "127.0.0.1:%d" % port})
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, json.loads(body) if body.startswith(b"{") else body

    status, functions = get("/api/v1/functions?filter=%5E" + function + "%24")
    rows = [f for f in functions["rows"] if f["name"] == function]
    check(status == 200 and len(rows) == 1, function + " in /api/v1/functions")
    status, answer = get("/api/v1/cfg/%d" % rows[0]["id"])
    views = [o for o in answer.get("cfg", []) if o["function"] == function]
    check(status == 200 and len(views) == 1 and views[0]["status"] == "ok",
          "GET /api/v1/cfg/ID: one ok graph of " + function)
    g = views[0]
    blocks, edges = g["blocks"], g["edges"]
    for e in g["events"]:
        total = sum(int(b["self"][e]) for b in blocks) + int(g["left_out"][e])
        check(total == int(g["self"][e]) and int(g["left_out"][e]) == 0,
              "%s: the %d blocks' costs sum to the self cost %s" % (e, len(blocks), g["self"][e]))
    start = {int(b["from"], 16): b["index"] for b in blocks}
    last = {b["index"]: int(b["instructions"][-1]["address"], 16) for b in blocks}
    expected = file_jumps(profile, function)
    served = {}
    for e in edges:
        key = (last[e["from"]], int(e["target"], 16))
        # (a branch never taken has no line in the file: its edge has count 0)
        if e["kind"] == "taken" and (int(e["count"] or 0) > 0 or key in expected):
            served[key] = (e["conditional"], int(e["executed"]), int(e["count"]))
    check(len(expected) > 0 and served == expected,
          "the %d taken edges are the file's jump/jcnd lines of %s" % (len(expected), function))
    for e in edges:
        if e["to"] is not None and e["kind"] == "taken":
            check(start[int(e["target"], 16)] == e["to"], "edge to %s: the block there" % e["target"])
    incoming = {}
    for e in edges:
        check(e["count"] is not None, "edge %d->%s: a count" % (e["from"], e["to"]))
        if e["to"] is not None:
            incoming[e["to"]] = incoming.get(e["to"], 0) + int(e["count"] or 0)
    bad = [b["index"] for b in blocks
           if not b["entry"] and int(b["executed"]) != incoming.get(b["index"], 0)]
    check(not bad, "every block but the entry runs as often as its incoming edges (%s)" % bad)
    hot = max(edges, key=lambda e: int(e["count"] or 0))
    check(hot["to"] is not None and int(hot["count"]) > 1, "the heaviest edge, %s times, in the loop"
          % hot["count"])
    status, _ = get("/api/v1/cfg/999999999")
    check(status == 404, "cfg of an unknown id: 404")
finally:
    p.terminate()
    p.wait(timeout=30)
sys.exit(1 if failures else 0)

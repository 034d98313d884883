#!/usr/bin/env python3
"""serve_asm.py CALLTREE PROFILE ANNOTATE_JSON — `calltree serve`'s GET /api/v1/asm/ID.

Starts `calltree serve PROFILE` (127.0.0.1, bounded waits), finds hot_loop in /api/v1/functions,
asks /api/v1/asm/ID and checks that its machine code is the one `calltree annotate --json
--asm` gives (ANNOTATE_JSON): the same instructions, costs and jumps. Then the refusals: a cycle
or unknown id, a bad hot= and no token. Exits 1 on any difference.
"""
import http.client
import json
import re
import subprocess
import sys

calltree, profile, annotate_json = sys.argv[1:4]
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


p = subprocess.Popen([calltree, "serve", profile], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
try:
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", p.stdout.readline().strip())
    port, token = int(m.group(1)), m.group(2)

    def get(target, with_token=True):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        if with_token:
            target += ("&" if "?" in target else "?") + "token=" + token
        c.request("GET", target, headers={"Host": "127.0.0.1:%d" % port})
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, json.loads(body) if body.startswith(b"{") else body

    status, functions = get("/api/v1/functions?filter=%5Ehot_loop%24")
    rows = [f for f in functions["rows"] if f["name"] == "hot_loop"]
    check(status == 200 and len(rows) == 1, "hot_loop in /api/v1/functions")
    fid = rows[0]["id"]
    status, answer = get("/api/v1/asm/%d" % fid)
    check(status == 200 and answer["name"] == "hot_loop" and answer["has_instructions"],
          "GET /api/v1/asm/%d: 200, hot_loop, instructions" % fid)
    served = [a for a in answer["asm"] if a["function"] == "hot_loop"]
    expected = [a for a in json.load(open(annotate_json))["asm"] if a["function"] == "hot_loop"]
    check(len(served) == 1 and len(expected) == 1 and served[0]["status"] == "ok",
          "one ok view of hot_loop")
    if served and expected:
        s, e = served[0], expected[0]
        check(s["instructions"] == e["instructions"],
              "the same %d instructions, costs, calls and jumps as annotate --json --asm"
              % len(e["instructions"]))
        check(s["self"] == e["self"] and s["events"] == e["events"], "the same self cost and events")
    status, _ = get("/api/v1/asm/%d?hot=2" % fid)
    check(status == 400, "hot=2: 400")
    status, _ = get("/api/v1/asm/999999999")
    check(status == 404, "an unknown id: 404")
    status, _ = get("/api/v1/asm/..%2f..%2fetc%2fpasswd")
    check(status == 400, "a path for an id: 400")
    status, _ = get("/api/v1/asm/%d" % fid, with_token=False)
    check(status == 401, "no token: 401")
finally:
    p.terminate()
    p.wait(timeout=30)
sys.exit(1 if failures else 0)

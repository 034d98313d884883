#!/usr/bin/env python3
"""serve_trend.py CALLTREE MAKE_RUNS — serve DIR's GET /api/v1/trend, through a socket.

MAKE_RUNS is tests/trend/make_runs.sh: eight valgrind --tool=callgrind runs whose work()
steps up 30 % from the sixth run on, and eight Xdebug runs whose work() takes ten times as
long from the sixth. On each folder: /api/v1/trend?function=work answers 8 points oldest first, each a
profile of the folder's table (its id opens it), its total check's program total (the stated
one, else the sum of self costs: annotate's),
work's self cost as `calltree trend --json` says, and its change at run 5; with no function,
the program total; an unknown function is 404, an unknown event 400; two points' ids open
their diff.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import serve_process
from serve_process import FAILURES, check

CALLTREE, MAKE_RUNS = (os.path.abspath(a) for a in sys.argv[1:3])


class Server(serve_process.Server):
    calltree = CALLTREE


tmp = tempfile.mkdtemp(prefix="calltree-trend-")
os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
try:
    subprocess.run(["bash", MAKE_RUNS, os.path.join(tmp, "fx")], check=True)
    folders = [("callgrind", "Ir", "exact", 29, 31)]
    if os.path.exists(os.path.join(tmp, "fx", "xdebug", "cachegrind.out.run8")):
        folders.append(("xdebug", None, "robust", 50, 100000))
    else:
        print("SKIP: no Xdebug runs (php with Xdebug is not installed)")
    for name, event, detector, low, high in folders:
        d = os.path.join(tmp, "fx", name)
        cli = json.loads(subprocess.run([CALLTREE, "trend", "--json", "--index=none", d],
                                        capture_output=True, text=True, check=True).stdout)
        s = Server(d)
        try:
            t = s.json("/api/v1/trend?function=work")
            pts = t["points"]
            check(len(pts) == 8, "%s: %d points" % (name, len(pts)))
            check([p["file"] for p in pts] == [os.path.basename(r["file"]) for r in cli["runs"]],
                  "%s: the points' files: %s" % (name, [p["file"] for p in pts]))
            check(t["detector"] == detector and (event is None or t["event"] == event),
                  "%s: event %s, detector %s" % (name, t["event"], t["detector"]))
            ev = t["event"]
            work = [c for c in t["changes"] if c["kind"] == "self"]
            # (Xdebug's Time on a loaded machine: run 4 when the run before the step was slowed
            # as much as the step, tests/cli/trend.sh.)
            check(len(work) == 1 and work[0]["run"] in ((5,) if detector == "exact" else (4, 5))
                  and low < work[0]["delta_percent"] < high,
                  "%s: work's self change: %s" % (name, t["changes"]))
            cli_work = [c for c in cli["changes"] if c["function"] == "work"]
            check([(c["run"], c["kind"], c["before"], c["after"]) for c in t["changes"]]
                  == [(c["run"], c["kind"], c["before"], c["after"]) for c in cli_work],
                  "%s: the changes are trend --json's: %s vs %s" % (name, t["changes"], cli_work))
            check(all(p["total"] == r["total"][ev] for p, r in zip(pts, cli["runs"])),
                  "%s: the points' totals are trend --json's" % name)
            check(pts[5]["self"] > pts[4]["self"] and pts[0]["inclusive"] >= pts[0]["self"],
                  "%s: work's costs: %s" % (name, pts))
            # Each point is a profile of the folder: its id opens it.
            table = {r["id"]: r for r in s.json("/api/v1/folder?limit=100")["rows"]}
            for p in (pts[0], pts[5]):
                check(p["id"] in table and table[p["id"]]["name"] == p["file"],
                      "%s: point %s is not the table's row" % (name, p))
                prof = s.json("/api/v1/f/%d/profile" % p["id"])
                check(prof["inputs"][0]["name"].endswith("/" + p["file"]),
                      "%s: opened %s: %s" % (name, p["file"], prof["inputs"][0]["name"]))
                # The total is the program total, as calltree check and annotate take it (the
                # summary: line where the file states one: Xdebug's; else the sum of the self
                # costs), and as the opened page shows it.
                c = json.loads(subprocess.run([CALLTREE, "check", "--json", os.path.join(d, p["file"])],
                                              capture_output=True, text=True).stdout.splitlines()[0])
                check(c["program_totals"][ev] == p["total"], "%s: %s's total %s, check %s" % (name, p["file"], p["total"], c["program_totals"]))
                check(prof["totals"][ev] == p["total"], "%s: %s's total %s, the page's %s" % (name, p["file"], p["total"], prof["totals"][ev]))
            diff = s.json("/api/v1/d/%d/%d/profile" % (pts[4]["id"], pts[5]["id"]))
            check(diff["mode"] == "diff", "%s: the diff of two points" % name)
            # The program total; errors.
            t0 = s.json("/api/v1/trend")
            check(t0["function"] is None and len(t0["points"]) == 8
                  and all(p["self"] == p["total"] for p in t0["points"]),
                  "%s: the program total: %s" % (name, t0["points"][:2]))
            check(any(c["function"] == "work" for c in t0["top"]), "%s: work in top" % name)
            status, body = s.get("/api/v1/trend?function=no_such_function")
            check(status == 404 and body["error"]["code"] == "no_function", "%s: unknown function: %s %s" % (name, status, body))
            status, body = s.get("/api/v1/trend?event=Nope")
            check(status == 400 and body["error"]["code"] == "bad_event", "%s: unknown event: %s %s" % (name, status, body))
            status, body = s.get("/api/v1/trend?order=size")
            check(status == 400, "%s: bad order: %s" % (name, status))
            t2 = s.json("/api/v1/trend?function=work&order=name")
            check([p["file"] for p in t2["points"]] == [p["file"] for p in pts], "%s: by name" % name)
        finally:
            code, err = s.stop()
            check(code == 0, "%s: serve exited %s: %s" % (name, code, err[-400:]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

if FAILURES:
    sys.exit(1)
print("serve trend: all checks passed")

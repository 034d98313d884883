#!/usr/bin/env python3
"""Folded stacks and V8 .cpuprofile files read by calltree, checked against the files themselves.

usage: check_stacks.py CALLTREE TESTS_IMPORT_DIR

For every file of tests/import/folded and tests/import/cpuprofile, and a .cpuprofile made here by
`node --cpu-prof` (node 20, installed by scripts/install-deps.sh), this script computes each
function's self and inclusive cost from the file on its own (docs/import.md says the rules: a
stack's count or a sample's time is self cost of its innermost frame, and inclusive cost of every
function on it, once per stack) and compares them with `calltree annotate --json`: self costs,
the callers' costs summed (the inclusive cost of a function someone calls, as callgrind_annotate
sums it), and the totals. Then each file converted to callgrind's format (`calltree convert`) is
read by valgrind's callgrind_annotate, whose PROGRAM TOTALS must be calltree's: these files and
those of tests/import/pprof and tests/import/perf (check_pprof.py and check_perf.py check their
numbers).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

calltree, here = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []
checked = 0


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def annotate(path, *extra):
    r = subprocess.run([calltree, *extra, "annotate", "--json", "--auto=no", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: annotate exit %d: %s" % (path, r.returncode, r.stderr[:300]))
        return None
    return json.loads(r.stdout)


def compare(path, want_self, want_incl, totals, events, extra=()):
    """want_*: {(file, name): [cost per event]}."""
    global checked
    a = annotate(path, *extra)
    if a is None:
        return
    if a["recorded_events"] != events:
        fail("%s: events %s, not %s" % (path, a["recorded_events"], events))
        return
    got_self, got_callers, got_roots = {}, defaultdict(lambda: [0] * len(events)), {}
    for f in a["functions"]:
        key = (f["file"], f["name"])
        got_self[key] = [f["self"].get(e, 0) for e in events]
        for c in f["callers"]:
            for i, e in enumerate(events):
                got_callers[key][i] += c["cost"].get(e, 0)
        if not f["callers"]:
            got_roots[key] = [f["self"].get(e, 0) + sum(c["cost"].get(e, 0) for c in f["callees"])
                              for e in events]
    for key in set(want_self) | set(got_self):
        if want_self.get(key, [0] * len(events)) != got_self.get(key, [0] * len(events)):
            fail("%s: %s self %s, not %s" % (path, key, got_self.get(key), want_self.get(key)))
    for key, want in want_incl.items():
        got = got_roots[key] if key in got_roots else got_callers.get(key)
        if got != want:
            fail("%s: %s inclusive %s, not %s" % (path, key, got, want))
    if [a["totals"][e] for e in events] != totals:
        fail("%s: totals %s, not %s" % (path, a["totals"], totals))
    checked += 1
    callgrind_annotate(path, totals, extra)


def callgrind_annotate(path, totals, extra):
    if not shutil.which("callgrind_annotate"):
        return
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "x.callgrind")
        r = subprocess.run([calltree, *extra, "convert", path, "-o", out], capture_output=True,
                           text=True)
        if r.returncode != 0:
            fail("%s: convert exit %d: %s" % (path, r.returncode, r.stderr[:300]))
            return
        r = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True)
        line = [l for l in r.stdout.splitlines() if "PROGRAM TOTALS" in l]
        if r.returncode != 0 or not line:
            fail("%s: callgrind_annotate of the converted file: %s" % (path, r.stderr[:300]))
            return
        got = [int(x.replace(",", "")) for x in line[0].split("PROGRAM TOTALS")[0].split()
               if x.replace(",", "").isdigit()]
        if got != totals:
            fail("%s: callgrind_annotate's PROGRAM TOTALS %s, not %s" % (path, got, totals))


def frame_of(f):
    """folded.cc's rule: `name (file:LINE)` is function name of file, else the name alone."""
    if f.endswith(")") and " (" in f:
        open_ = f.rfind(" (")
        inner = f[open_ + 2:-1]
        if ":" in inner and inner.rsplit(":", 1)[1].isdigit():
            return (inner.rsplit(":", 1)[0], f[:open_])
    return ("", f)


def check_folded(path, extra=()):
    self_, incl, total = defaultdict(lambda: [0]), defaultdict(lambda: [0]), 0
    # (UTF-16 with its byte-order mark, as PowerShell's `>` writes it: speedscope's -utf16- files)
    raw = open(path, "rb").read()
    text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw.decode("utf-8")
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if not line or line.startswith("#") or " " not in line:
            continue
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = [frame_of(f) for f in stack.rstrip(" ").split(";") if f]
        if not frames:
            continue
        n = int(count)
        total += n
        self_[frames[-1]][0] += n
        for f in set(frames):
            incl[f][0] += n
    compare(path, dict(self_), dict(incl), [total], ["samples"], extra)


def check_cpuprofile(path):
    d = json.load(open(path))
    nodes = {}
    parent = {}
    if "nodes" in d:
        for n in d["nodes"]:
            cf = n["callFrame"]
            nodes[n["id"]] = (cf.get("url", ""), cf.get("functionName") or "(anonymous)", n)
            for c in n.get("children", []):
                parent[c] = n["id"]
    else:
        todo = [d["head"]]
        while todo:
            n = todo.pop()
            nodes[n["id"]] = (n.get("url", ""), n.get("functionName") or "(anonymous)", n)
            for c in n.get("children", []):
                parent[c["id"]] = n["id"]
                todo.append(c)
    samples = d["samples"]
    if "timeDeltas" in d:
        at, t = [], d["startTime"]
        for delta in d["timeDeltas"][:len(samples)]:
            t += delta
            at.append(t)
        end = d["endTime"]
    else:
        at = d["timestamps"][:len(samples)]
        end = d["timestamps"][len(samples)] if len(d["timestamps"]) > len(samples) \
            else int(d["endTime"] * 1e6)
    self_, incl = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])
    totals = [0, 0]
    for i, s in enumerate(samples):
        nxt = at[i + 1] if i + 1 < len(samples) else end
        v = [1, max(nxt - at[i], 0)]
        url, name, _ = nodes[s]
        if name == "(root)":
            continue
        stack, x = [], s
        while x in nodes:
            if nodes[x][1] != "(root)":
                stack.append(nodes[x][:2])
            x = parent.get(x)
        self_[stack[0]] = [a + b for a, b in zip(self_[stack[0]], v)]
        for f in set(stack):
            incl[f] = [a + b for a, b in zip(incl[f], v)]
        totals = [a + b for a, b in zip(totals, v)]
    compare(path, dict(self_), dict(incl), totals, ["samples", "wall_us"])


def check_invalid(path):
    """speedscope's file with invalid lines: folded only when said (--from=folded); each invalid
    line an error with its place, the others read."""
    r = subprocess.run([calltree, "--from=folded", "check", "--json", path], capture_output=True,
                       text=True)
    j = json.loads(r.stdout)
    lines = sorted(x["line"] for x in j["diagnostics"] if x["code"] == "bad-folded-line")
    if r.returncode != 1 or lines != [2, 8]:
        fail("%s: exit %d, bad-folded-line at %s, not 1 and [2, 8]" % (path, r.returncode, lines))
    if j["totals"] != {"samples": 14}:
        fail("%s: totals %s, not 14 samples" % (path, j["totals"]))


for f in sorted(os.listdir(os.path.join(here, "folded"))):
    if f.endswith(".txt"):
        if "invalid" in f:
            check_invalid(os.path.join(here, "folded", f))
        else:
            check_folded(os.path.join(here, "folded", f))
for f in sorted(os.listdir(os.path.join(here, "cpuprofile"))):
    if f.endswith(".cpuprofile"):
        check_cpuprofile(os.path.join(here, "cpuprofile", f))

# pprof's and perf's files (check_pprof.py and check_perf.py check their numbers): converted,
# callgrind_annotate's PROGRAM TOTALS are calltree's too.
for sub in ("pprof", "perf"):
    for f in sorted(os.listdir(os.path.join(here, sub))):
        path = os.path.join(here, sub, f)
        if f.endswith((".md", ".py", ".c", ".go")) or not os.path.isfile(path):
            continue
        if subprocess.run([calltree, "check", "-q", path], capture_output=True).returncode != 0:
            continue
        a = annotate(path)
        if a is not None:
            callgrind_annotate(path, [a["totals"][e] for e in a["recorded_events"]], ())
            checked += 1

# A profile made here by node, of a program with a hot loop, recursion and a callback.
if shutil.which("node"):
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "work.js")
        with open(script, "w") as fh:
            fh.write("function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
                     "function hot() { let s = 0; for (let i = 0; i < 2e7; i++) s += i % 7;"
                     " return s; }\n"
                     "function main() { let t = 0; for (let k = 0; k < 4; k++) {"
                     " t += fib(24); t += [1, 2, 3].map(x => hot() + x).length; } return t; }\n"
                     "console.log(main());\n")
        r = subprocess.run(["node", "--cpu-prof", "--cpu-prof-dir=" + d, script],
                           capture_output=True, text=True)
        made = [f for f in os.listdir(d) if f.endswith(".cpuprofile")]
        if r.returncode != 0 or len(made) != 1:
            fail("node --cpu-prof made no profile: " + r.stderr[:300])
        else:
            check_cpuprofile(os.path.join(d, made[0]))
else:
    fail("node is not installed (scripts/install-deps.sh installs nodejs)")

print("%d files checked" % checked)
if checked < 10:
    fail("only %d files checked" % checked)
sys.exit(1 if failures else 0)

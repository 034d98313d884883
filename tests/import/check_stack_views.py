#!/usr/bin/env python3
"""check_stack_views.py CALLTREE TESTS_IMPORT_DIR — an imported profile's stack views are its
own stacks (issue 67, point 3; views/recorded_stacks.h).

Folded stacks, `perf script`, pprof and .cpuprofile files record every stack. For every such
file of tests/import (folded/, perf/, cpuprofile/, pprof/ where `go tool pprof` is installed to
read its samples), this script reads the file's stacks on its own (the parsers of
check_stacks.py and check_perf.py; `go tool pprof -raw` for pprof) and checks:
  - `calltree export --to=folded` gives back those stacks: the same lines, identical stacks
    summed, in any order (the first event);
  - serve's flame graph (GET /api/v1/flame, min=0, frames not merged) says it is drawn from
    the recorded stacks, not estimated, and each frame's total, in every event, is the sum of
    the file's stacks that begin with the frame's path (its prefix sum), and every prefix of
    the file is a frame;
  - the sandwich of the heaviest function that some function calls: its lower half (callees)
    is the file's stacks below that function's outermost frame on each stack, summed, its
    upper half (callers) their frames above it, each stack once however often the function is
    on it; and the call graph of the filtered stacks gives it that inclusive cost;
  - a run of an imported file and a callgrind file (two parts): all parts together are the
    call graph's estimate, saying why (stacks_note); the imported part alone is its stacks.
Before the stacks were kept, the stack views were estimated from the caller->callee pairs:
on recursive and multi-caller files their prefixes differed from the file's.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_perf  # noqa: E402  (its perf script parser)

calltree, here = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []
checked = 0


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# ---- the files' own stacks: {(name, ...) outermost first: [value per event]}, events ----

def folded_name(f):
    """folded.cc's rule: `name (file:LINE)` is function `name`, any other frame its name."""
    if f.endswith(")") and " (" in f:
        open_ = f.rfind(" (")
        inner = f[open_ + 2:-1]
        if ":" in inner and inner.rsplit(":", 1)[1].isdigit() and inner.rsplit(":", 1)[0]:
            return f[:open_].strip()
    return f.strip()


def folded_stacks(path):
    stacks = defaultdict(lambda: [0])
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
        frames = tuple(folded_name(f) for f in stack.rstrip(" ").split(";") if f)
        if frames:
            stacks[frames][0] += int(count)
    return dict(stacks), ["samples"]


def cpuprofile_stacks(path):
    d = json.load(open(path))
    nodes, parent = {}, {}
    if "nodes" in d:
        for n in d["nodes"]:
            nodes[n["id"]] = n["callFrame"].get("functionName") or "(anonymous)"
            for c in n.get("children", []):
                parent[c] = n["id"]
    else:
        todo = [d["head"]]
        while todo:
            n = todo.pop()
            nodes[n["id"]] = n.get("functionName") or "(anonymous)"
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
    stacks = defaultdict(lambda: [0, 0])
    for i, s in enumerate(samples):
        nxt = at[i + 1] if i + 1 < len(samples) else end
        v = [1, max(nxt - at[i], 0)]
        stack, x = [], s
        while x in nodes:
            if nodes[x] != "(root)":
                stack.append(nodes[x])
            x = parent.get(x)
        if not stack:
            continue
        key = tuple(reversed(stack))
        stacks[key] = [a + b for a, b in zip(stacks[key], v)]
    return dict(stacks), ["samples", "wall_us"]


def perf_stacks(path):
    smp = check_perf.samples(path)
    with_period = {e for e, p, _ in smp if p is not None}
    events = []
    stacks = defaultdict(Counter)
    for event, period, stack in smp:
        key = tuple(fn for _, fn in reversed(stack))
        for col, v in check_perf.columns(event, period, with_period):
            if col not in events:
                events.append(col)
            stacks[key][col] += v
    return {k: [c[e] for e in events] for k, c in stacks.items()}, events


GO_ENV = None


def pprof_stacks(path):
    """The samples of `go tool pprof -raw`: values, then location ids leaf first; each location's
    lines innermost first (a location without lines is named by its address, as calltree does)."""
    text = subprocess.run(["go", "tool", "pprof", "-symbolize=none", "-raw", path],
                          capture_output=True, text=True, env=GO_ENV, check=True).stdout
    lines = text.splitlines()
    i = lines.index("Samples:")
    events = ["%s_%s" % tuple(t.replace("[dflt]", "").split("/")) for t in lines[i + 1].split()]
    samples = []
    i += 2
    sample = re.compile(r"^\s*(-?\d+(?:\s+-?\d+)*):((?:\s+\d+)*)\s*$")
    while i < len(lines) and not lines[i].startswith("Locations"):
        m = sample.match(lines[i])
        if m:
            samples.append(([int(v) for v in m.group(1).split()],
                            [int(x) for x in m.group(2).split()]))
        i += 1
    locs, cur = {}, None
    loc = re.compile(r"^\s*(\d+): 0x([0-9a-f]+) M=\d+(?: (.*))?$")
    for line in lines[i + 1:]:
        if line.startswith("Mappings"):
            break
        m = loc.match(line)
        if m:
            cur = int(m.group(1))
            locs[cur] = []
            rest = (m.group(3) or "").strip()
            if rest:
                locs[cur].append(rest.rsplit(" ", 2)[0])
            else:
                locs[cur].append("0x%x" % int(m.group(2), 16))
        elif cur is not None and line.strip():
            locs[cur].append(line.strip().rsplit(" ", 2)[0])
    stacks = defaultdict(lambda: [0] * len(events))
    for values, ids in samples:
        frames = [name for x in ids for name in locs[x]]  # innermost first
        key = tuple(reversed(frames))
        stacks[key] = [a + b for a, b in zip(stacks[key], values)]
    return dict(stacks), events


# ---- calltree's ----

def export_folded(path):
    r = subprocess.run([calltree, "export", "--to=folded", "-o", "-", path], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail("%s: export --to=folded exit %d: %s" % (path, r.returncode, r.stderr[:300]))
        return None
    got = Counter()
    for line in r.stdout.splitlines():
        stack, _, n = line.rpartition(" ")
        got[tuple(stack.split(";"))] += int(n)
    return got


class Server:
    def __init__(self, *args):
        import http.client  # noqa: F401
        self.p = subprocess.Popen([calltree, "serve", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().strip()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", line)
        if not m:
            raise RuntimeError("serve %s: no URL line: %r %s" % (args, line, self.p.stderr.read()))
        self.port, self.token = int(m.group(1)), m.group(2)

    def json(self, target):
        import http.client
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        c.request("GET", target + ("&" if "?" in target else "?") + "token=" + self.token)
        r = c.getresponse()
        body = r.read()
        c.close()
        if r.status != 200:
            raise RuntimeError("%s: %d %s" % (target, r.status, body[:300]))
        return json.loads(body)

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()


def frame_paths(fl, event):
    """{path of names from the root: total of `event`} of a flame answer, frames of one path
    summed (two functions of one name in different files)."""
    names = {int(k): v["name"] for k, v in fl["functions"].items()}
    fr = fl["frames"]
    paths, out = [], Counter()
    for i in range(fr["count"]):
        p = fr["parent"][i]
        paths.append((paths[p] if p >= 0 else ()) + (names[fr["id"][i]],))
        out[paths[i]] += int(fr["total"][event][i])
    return out


def prefix_sums(stacks, e):
    out = Counter()
    for stack, v in stacks.items():
        for d in range(1, len(stack) + 1):
            out[stack[:d]] += v[e]
    return out


def below(stacks, fn, e):
    """The callee tree of `fn` from the stacks: each stack's frames from `fn`'s outermost
    frame on, each later frame of `fn` the root again (callees_below merges a recursion's
    frames into the root): the stack's value goes to every prefix of the path it ends on."""
    out = Counter()
    for stack, v in stacks.items():
        if fn not in stack:
            continue
        path = (fn,)
        for name in stack[stack.index(fn) + 1:]:
            path = (fn,) if name == fn else path + (name,)
        for d in range(1, len(path) + 1):
            out[path[:d]] += v[e]
    return out


def above(stacks, fn, e):
    """The caller tree of `fn` from the stacks: `fn`, then its callers outwards from its
    outermost frame on each stack (callers_above; a frame of `fn` inside another counted in
    that one): the stack's value goes to every prefix of that path."""
    out = Counter()
    for stack, v in stacks.items():
        if fn not in stack:
            continue
        i = stack.index(fn)
        path = (fn,) + tuple(reversed(stack[:i]))
        for d in range(1, len(path) + 1):
            out[path[:d]] += v[e]
    return out


def nonzero(c):
    return {k: v for k, v in c.items() if v}


def show_diff(want, got):
    keys = sorted(set(want) | set(got), key=lambda k: -abs(want.get(k, 0) - got.get(k, 0)))
    return "; ".join("%s: file %d, calltree %d" % (";".join(k)[-240:], want.get(k, 0),
                                                   got.get(k, 0))
                     for k in keys if want.get(k, 0) != got.get(k, 0))[:600]


def check(path, stacks, events):
    global checked
    name = os.path.relpath(path, here)
    # export --to=folded: the file's stacks, the first event.
    got = export_folded(path)
    if got is not None:
        # (a name's own ';' is written ':': folded text has no escapes)
        want = Counter()
        for k, v in stacks.items():
            want[tuple(n.replace(";", ":") for n in k)] += v[0]
        want = nonzero(want)
        if nonzero(got) != want:
            fail("%s: export --to=folded is not the file's stacks: %s" % (
                name, show_diff(want, nonzero(got))))
    # The flame graph: the recorded stacks, every prefix.
    try:
        s = Server(path)
    except RuntimeError as e:
        fail("%s: %s" % (name, e))
        return
    try:
        fl = s.json("/api/v1/flame?min=0&merge=no&max_frames=200000")
        names = [e["name"] if isinstance(e, dict) else e for e in fl["events"]]
        if fl.get("stacks") != "recorded" or fl.get("estimated"):
            fail("%s: the flame graph is not drawn from the recorded stacks: stacks=%s, "
                 "estimated=%s" % (name, fl.get("stacks"), fl.get("estimated")))
        for e, ev in enumerate(events):
            if ev not in names:
                fail("%s: the flame answer has no event %s (%s)" % (name, ev, names))
                continue
            # (weighed by the event: the frames of no weight in the first are cut, as always)
            by = fl if e == 0 else s.json("/api/v1/flame?min=0&merge=no&max_frames=200000&sort=" +
                                          urllib.parse.quote(ev))
            want, got = nonzero(prefix_sums(stacks, e)), nonzero(frame_paths(by, ev))
            if got != want:
                fail("%s: flame graph prefixes (%s) are not the file's: %s" % (
                    name, ev, show_diff(want, got)))
        # The sandwich's callees of the heaviest function that is on a stack below the root.
        incl = Counter()
        for stack, v in stacks.items():
            for fn in set(stack[1:]):
                incl[fn] += v[0]
        if incl:
            fn = max(sorted(incl), key=lambda f: incl[f])
            ids = [int(k) for k, v in fl["functions"].items() if v["name"] == fn]
            if len(ids) == 1:
                sw = s.json("/api/v1/flame?min=0&merge=no&max_frames=200000&direction=callees"
                            "&root=%d" % ids[0])
                want, got = nonzero(below(stacks, fn, 0)), nonzero(frame_paths(sw, events[0]))
                if sw.get("stacks") != "recorded" or got != want:
                    fail("%s: the callees of %s are not the file's: %s" % (
                        name, fn, show_diff(want, got)))
                up = s.json("/api/v1/flame?min=0&merge=no&max_frames=200000&direction=callers"
                            "&root=%d" % ids[0])
                want, got = nonzero(above(stacks, fn, 0)), nonzero(frame_paths(up, events[0]))
                if up.get("stacks") != "recorded" or got != want:
                    fail("%s: the callers of %s are not the file's: %s" % (
                        name, fn, show_diff(want, got)))
                # The call graph of the filtered stacks (a filter that hides nothing): the
                # function's inclusive cost is the stacks it is on, once each.
                g = s.json("/api/v1/graph/%d?hide=%%5E%%24&up=1&down=1" % ids[0])
                on = sum(v[0] for st, v in stacks.items() if fn in st)
                got = [int(n["inclusive"][events[0]]) for n in g["nodes"] if n["id"] == ids[0]]
                if got != [on]:
                    fail("%s: the filtered call graph's inclusive cost of %s is %s, not %d" % (
                        name, fn, got, on))
    except RuntimeError as e:
        fail("%s: %s" % (name, e))
    finally:
        s.stop()
    checked += 1
    print("ok %s: %d stacks" % (name, len(stacks)))


def check_run(imported, callgrind):
    """A run of an imported file and a callgrind file: both parts, the estimate (said why);
    the imported part alone, its stacks. `serve OLD NEW` of two imported files: the flame
    graph of a side is its stacks."""
    s = Server(imported, imported)
    try:
        side = s.json("/api/v1/flame?min=0&merge=no")
        if side.get("stacks") != "recorded":
            fail("serve OLD NEW of %s: stacks=%s" % (imported, side.get("stacks")))
    finally:
        s.stop()
    s = Server("--parts", imported, callgrind)
    try:
        both = s.json("/api/v1/flame?min=0&merge=no")
        if both.get("stacks") != "call graph" or "part 2" not in both.get("stacks_note", ""):
            fail("run %s + %s: both parts: stacks=%s, stacks_note=%r" % (
                imported, callgrind, both.get("stacks"), both.get("stacks_note")))
        one = s.json("/api/v1/flame?min=0&merge=no&parts=1")
        if one.get("stacks") != "recorded" or "stacks_note" in one:
            fail("run: part 1 alone: stacks=%s" % one.get("stacks"))
    finally:
        s.stop()


for sub, reader, pattern in (("folded", folded_stacks, ".txt"),
                             ("cpuprofile", cpuprofile_stacks, ".cpuprofile"),
                             ("perf", perf_stacks, ".txt")):
    for f in sorted(os.listdir(os.path.join(here, sub))):
        if not f.endswith(pattern) or "invalid" in f or (sub == "perf" and
                                                          not f.startswith("perf-")):
            continue
        path = os.path.join(here, sub, f)
        check(path, *reader(path))

if shutil.which("go"):
    tmp = tempfile.mkdtemp(prefix="calltree-stack-views-")
    GO_ENV = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
                  GOTOOLCHAIN="local", PPROF_TMPDIR=tmp, PPROF_BINARY_PATH=tmp)
    for f in sorted(os.listdir(os.path.join(here, "pprof"))):
        path = os.path.join(here, "pprof", f)
        # (a profile of differences has negative values: folded stacks cannot hold them)
        if f.endswith(".pb.gz") and "diff" not in f:
            check(path, *pprof_stacks(path))
    shutil.rmtree(tmp, ignore_errors=True)
else:
    print("SKIP pprof: go is not installed (scripts/install-deps.sh installs golang-go)")

corpus = os.path.join(os.path.dirname(os.path.dirname(here)), "tests", "corpus")
check_run(os.path.join(here, "folded", "speedscope-recursion.txt"),
          os.path.join(corpus, "vg-recurse-default.callgrind"))

print("%d files checked" % checked)
if checked < 15:
    fail("only %d files checked" % checked)
sys.exit(1 if failures else 0)

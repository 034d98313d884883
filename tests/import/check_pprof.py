#!/usr/bin/env python3
"""pprof's profile.proto read by calltree, checked against the real `go tool pprof`.

For every .pb.gz in DIR (tests/import/pprof, README.md there says how each was made) and every
sample type: `go tool pprof -top` (functions, no trimming, the file's own unit so the numbers
are exact integers) lists each function's flat and cum; `calltree annotate --json
--inclusive=yes --raw` (inclusive = the sum of the calls into a function, stacks.h) must give
the same self and inclusive cost for the function of that name. Locations without lines, which
-top sums per object as `[object]`, are checked one by one with `-top -addresses`, which lists
them by address as calltree names them (`0x...`). Then a round trip: `calltree export
--to=pprof` of corpus files, read back, gives every function the self cost it had.

usage: check_pprof.py CALLTREE DIR CORPUS_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

if len(sys.argv) < 4:
    sys.exit(__doc__)
calltree, files_dir, corpus_dir = (os.path.abspath(a) for a in sys.argv[1:4])
if not shutil.which("go"):
    print("SKIP: go is not installed (scripts/install-deps.sh installs golang-go); "
          "the pprof importer is not checked against go tool pprof")
    sys.exit(0)
tmp = tempfile.mkdtemp(prefix="calltree-import-pprof-")
env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
           GOTOOLCHAIN="local", PPROF_TMPDIR=tmp, PPROF_BINARY_PATH=tmp)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, env=env)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                                r.stderr.decode(errors="replace")))
    return r.stdout.decode(errors="replace")


def pprof(*args):
    return run(["go", "tool", "pprof", "-symbolize=none"] + list(args))


def sample_types(path):
    text = pprof("-raw", path)
    lines = text.splitlines()
    i = lines.index("Samples:")
    return [t.replace("[dflt]", "").split("/") for t in lines[i + 1].split()]


NUM = r"(-?\d+(?:\.\d+)?)([A-Za-z]*)"
PCT = r"[-+\d.e]+%"
ROW = re.compile(r"^\s*" + NUM + r"\s+" + PCT + r"\s+" + PCT + r"\s+" + NUM + r"\s+" + PCT +
                 r"\s+(.*)$")


def top(path, index, unit, *extra):
    """{node name: (flat, cum)} of `go tool pprof -top` for sample type `index`."""
    out = {}
    text = pprof("-top", "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0",
                 "-sample_index=%d" % index, "-unit=" + unit, *extra, path)
    for line in text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        flat, cum = m.group(1), m.group(3)
        # (a bare 0 has no unit; every other number must be a whole one of the file's unit)
        if "." in flat or "." in cum:
            raise AssertionError("%s: pprof printed a fraction: %s" % (path, line))
        name = m.group(5)
        if name.endswith(" (inline)"):
            name = name[:-len(" (inline)")]
        out[name] = (int(flat), int(cum))
    return out


def annotate(path):
    d = json.loads(run([calltree, "annotate", "--json", "--inclusive=yes", "--raw", path]))
    return d["events"], d["functions"]


ADDRESS = re.compile(r"^0x[0-9a-f]+$")


def check(path):
    """Compares every sample type; returns the number of (function, sample type) checked."""
    types = sample_types(path)
    events, functions = annotate(path)
    assert events == ["%s_%s" % (t, u) for t, u in types], \
        "%s: events %s, sample types %s" % (path, events, types)
    by_name = defaultdict(list)
    by_address = {}
    for f in functions:
        if ADDRESS.match(f["name"]):
            by_address[(int(f["name"], 16), f["object"])] = f
        else:
            by_name[f["name"]].append(f)
    checked = 0
    for i, (t, unit) in enumerate(types):
        e = events[i]
        rows = top(path, i, unit)
        ours = set()
        for name, (flat, cum) in rows.items():
            m = re.match(r"^\[(.*)\]$|^<unknown>$", name)
            if m and name not in by_name:
                obj = m.group(1) or ""
                mine = [f for (a, o), f in by_address.items() if os.path.basename(o) == obj]
                got = sum(f["self"][e] for f in mine)
                assert got == flat, "%s %s: %s flat %d, calltree's addresses in it %d" % (
                    path, e, name, flat, got)
                checked += 1
                continue
            fs = by_name.get(name)
            assert fs, "%s %s: pprof's %s is not a calltree function" % (path, e, name)
            ours.add(name)
            got = sum(f["self"][e] for f in fs)
            assert got == flat, "%s %s: %s flat %d, calltree self %d" % (path, e, name, flat, got)
            # (functions of one name in several files are one node to pprof: their cum is not a
            # sum of calltree's, which keeps them apart)
            if len(fs) == 1:
                got = fs[0]["inclusive"][e]
                assert got == cum, "%s %s: %s cum %d, calltree inclusive %d" % (
                    path, e, name, cum, got)
            checked += 1
        missing = [n for n, fs in by_name.items()
                   if n not in ours and any(f["self"][e] or f["inclusive"][e] for f in fs)]
        assert not missing, "%s %s: calltree functions pprof does not list: %s" % (
            path, e, missing[:5])
        if not by_address:
            continue
        # Locations without lines, one by one: -addresses names them `%016x [object]`.
        rows = top(path, i, unit, "-addresses")
        seen = set()
        for name, (flat, cum) in rows.items():
            m = re.match(r"^([0-9a-f]{16}) (?:\[(.*)\]|<unknown>)$", name)
            if not m:
                continue
            address, obj = int(m.group(1), 16), m.group(2) or ""
            f = [f for (a, o), f in by_address.items()
                 if a == address and os.path.basename(o) == obj]
            assert len(f) == 1, "%s: pprof's %s is not one calltree function" % (path, name)
            f = f[0]
            assert (f["self"][e], f["inclusive"][e]) == (flat, cum), \
                "%s %s: %s flat/cum %d/%d, calltree %d/%d" % (
                    path, e, name, flat, cum, f["self"][e], f["inclusive"][e])
            seen.add(id(f))
            checked += 1
        left = [f["name"] for f in by_address.values()
                if id(f) not in seen and (f["self"][e] or f["inclusive"][e])]
        assert not left, "%s %s: addresses pprof does not list: %s" % (path, e, left[:5])
    return checked


def self_costs(path):
    """{(name, file): {event: self}} from `calltree export --to=json` (the model)."""
    out = os.path.join(tmp, "model.json")
    run([calltree, "export", "--to=json", path, "-o", out])
    with open(out) as fh:
        m = json.load(fh)
    events = [e["name"] for e in m["events"]]
    names = [(f["name"], m["files"][f["file"]]) for f in m["functions"]]
    cols = m["costs"]["columns"]
    fcol, scol = cols.index("function"), cols.index("self")
    got = defaultdict(lambda: defaultdict(int))
    for row in m["costs"]["rows"]:
        for i, e in enumerate(events):
            if i < len(row[scol]) and int(row[scol][i]):
                got[names[row[fcol]]][e] += int(row[scol][i])
    return events, got


def round_trip(path):
    """export --to=pprof, read back: the same self cost per function and event (the export's
    unit scaling aside: pprof's events are named type_unit, their values as exported)."""
    out = os.path.join(tmp, os.path.basename(path) + ".pb.gz")
    run([calltree, "export", "--to=pprof", path, "-o", out])
    events, before = self_costs(path)
    back_events, after = self_costs(out)
    types = sample_types(out)
    assert len(back_events) == len(types)
    for i, e in enumerate(events):
        scale = int(re.search(r"\((\d+)[a-z]+\)$", e).group(1)) if re.search(
            r"\((\d+)[a-z]+\)$", e) else 1
        want = {k: v[e] * scale for k, v in before.items() if v.get(e)}
        got = {k: v[back_events[i]] for k, v in after.items() if v.get(back_events[i])}
        assert want == got, "%s %s: self costs differ after the round trip on %s" % (
            path, e, sorted(set(want.items()) ^ set(got.items()))[:4])
    return len(before)


failures, checked, files = [], 0, sorted(
    os.path.join(files_dir, f) for f in os.listdir(files_dir) if f.endswith(".pb.gz"))
assert len(files) >= 6, "only %d pprof files in %s" % (len(files), files_dir)
for f in files:
    try:
        n = check(f)
        checked += n
        print("ok %s: %d function/sample-type pairs equal to go tool pprof -top" % (
            os.path.basename(f), n))
    except Exception as e:  # noqa: BLE001 (each file's failure said, the others checked)
        failures.append("%s: %s" % (f, e))
trips = 0
for name in ("go-pprof-gowork-cpu.callgrind", "gperftools-recurse-cpu.callgrind",
             "gperftools-python-heap-alloc-space.callgrind", "vg-gxx-small-default.as.callgrind"):
    p = os.path.join(corpus_dir, name)
    try:
        n = round_trip(p)
        trips += 1
        print("ok round trip %s: %d functions' self costs" % (name, n))
    except Exception as e:  # noqa: BLE001
        failures.append("round trip %s: %s" % (p, e))
shutil.rmtree(tmp, ignore_errors=True)
for f in failures:
    print("FAIL", f)
print("%d files, %d function/sample-type pairs checked, %d round trips, %d failures" % (
    len(files), checked, trips, len(failures)))
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""export --to=pprof, read by the real `go tool pprof` (Debian golang-go).

For every corpus file: `-raw` lists the sample types (name/unit as docs/export.md says) and
samples whose values, summed per leaf function, are the self costs `calltree annotate --json`
prints (Xdebug's Time_(10ns) in nanoseconds: times 10); `-top` per sample type shows the same
flat cost per function name and, as its total, the sum of the self costs. Then `-diff_base` of
two exports gives, per function, the self-cost change `calltree diff` gives.
"""
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

import corpus
from check_pprof_lib import parse_raw, per_function

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
           GOTOOLCHAIN="local", PPROF_TMPDIR=tmp)
if not shutil.which("go"):
    sys.exit("go is not installed (scripts/install-deps.sh installs golang-go)")

UNIT_FLAG = {"count": None, "nanoseconds": "ns", "microseconds": "us", "milliseconds": "ms",
             "seconds": "s", "bytes": "B"}
EXPECTED_TYPE = {"Ir": "Ir/count", "Time_(10ns)": "Time/nanoseconds",
                 "Memory_(bytes)": "Memory/bytes", "ns": "ns/nanoseconds",
                 "cpu(ms)": "cpu/milliseconds", "Hits": "Hits/count",
                 "microseconds": "microseconds/microseconds"}


def scale_of(event):
    m = re.search(r"\((\d+)[a-z]+\)$", event)
    return int(m.group(1)) if m else 1


def pprof(*a):
    return corpus.run(["go", "tool", "pprof"] + list(a), env=env).decode()


def check(path):
    name = os.path.basename(path)
    out = os.path.join(tmp, name + ".pb.gz")
    corpus.run([calltree, "export", "--to=pprof", path, "-o", out])
    events, self_of, sums = corpus.annotate(calltree, path)
    types, locs, samples = parse_raw(pprof("-raw", out))
    assert len(types) >= len(events), "sample types %s, events %s" % (types, events)
    for i, e in enumerate(events):
        if e in EXPECTED_TYPE:
            assert types[i] == EXPECTED_TYPE[e], "%s: sample type %s" % (e, types[i])
        else:
            assert types[i].split("/")[0] == e, "%s: sample type %s" % (e, types[i])
    got = per_function(locs, samples, len(types))
    expected_keys = {"%s %s" % k for k, v in self_of.items() if any(v.values())}
    got_keys = {k for k, v in got.items() if any(v[:len(events)])}
    assert expected_keys == got_keys, "functions with self cost differ: only annotate %s, " \
        "only pprof %s" % (sorted(expected_keys - got_keys)[:5], sorted(got_keys - expected_keys)[:5])
    for (fname, ffile), costs in self_of.items():
        row = got.get("%s %s" % (fname, ffile), [0] * len(types))
        for i, e in enumerate(events):
            assert row[i] == costs[e] * scale_of(e), \
                "%s %s: %s self %d in pprof, %d x %d in annotate" % (
                    fname, ffile, e, row[i], costs[e], scale_of(e))
    # -top, per sample type (the first three: -raw checked every one): flat per function name
    # and the total.
    for i, e in enumerate(events[:3]):
        unit = types[i].split("/")[1]
        flags = ["-top", "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0",
                 "-sample_index=%d" % i]
        if UNIT_FLAG.get(unit):
            flags.append("-unit=" + UNIT_FLAG[unit])
        text = pprof(*flags, out)
        suffix = UNIT_FLAG.get(unit) or ""
        num = r"(-?\d+)" + re.escape(suffix)
        m = re.search(r"of " + num + " total", text)
        if sums[e] == 0:
            continue
        assert m, "%s: no total in pprof -top:\n%s" % (e, text[:400])
        assert int(m.group(1)) == sums[e] * scale_of(e), \
            "%s: pprof total %s, annotate %d" % (e, m.group(1), sums[e])
        by_name = defaultdict(int)
        for (fname, _), costs in self_of.items():
            by_name[fname] += costs[e] * scale_of(e)
        flat = {}
        pct = r"[-+\d.e]+%"
        row_re = re.compile(r"^\s*" + num + r"\s+" + pct + r"\s+" + pct + r"\s+" + num + r"\s+" +
                            pct + r"\s+(.*)$")
        for line in text.splitlines():
            m = row_re.match(line)
            if m:
                flat[m.group(3)] = int(m.group(1))
        for fname, v in by_name.items():
            if v:
                assert flat.get(fname) == v, "%s: pprof -top flat %s for %s, annotate %d" % (
                    e, flat.get(fname), fname, v)


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)


def check_diff():
    a = os.path.join(corpus_dir, "vg-threads-separate.t01.callgrind")
    b = os.path.join(corpus_dir, "vg-threads-separate.t02.callgrind")
    pa, pb = os.path.join(tmp, "diff-a.pb.gz"), os.path.join(tmp, "diff-b.pb.gz")
    corpus.run([calltree, "export", "--to=pprof", a, "-o", pa])
    corpus.run([calltree, "export", "--to=pprof", b, "-o", pb])
    import json
    d = json.loads(corpus.run([calltree, "diff", "--json", "--threshold=0", a, b]))
    want = defaultdict(int)
    for f in d["functions"]:
        want[f["name"]] += f["self"]["Ir"]["delta"]
    types, locs, samples = parse_raw(pprof("-raw", "-diff_base=" + pa, pb))
    # (by name: calltree diff lists inlined code under its function's file, annotate and the
    # export under the fi= file)
    got = defaultdict(int)
    for k, v in per_function(locs, samples, len(types)).items():
        got[k.rsplit(" ", 1)[0] if " " in k else k] += v[0]
    gotd = {k: v for k, v in got.items() if v}
    wantd = {k: v for k, v in want.items() if v}
    assert gotd == wantd, "pprof -diff_base and calltree diff differ on %s" % sorted(
        set(gotd.items()) ^ set(wantd.items()))[:6]
    assert len(wantd) > 50, "the pair differs in only %d functions" % len(wantd)
    text = pprof("-top", "-diff_base=" + pa, pb)
    m = re.search(r"of (-?\d+) total", text)
    assert m and int(m.group(1)) == d["totals"]["Ir"]["old"], "diff total: %s" % text[:300]


failures += corpus.parallel(lambda _: check_diff(), ["diff_base pair t01 t02"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export pprof", failures, len(files) + 1)

#!/usr/bin/env python3
"""export --to=chrome: trace-event JSON (chrome://tracing, ui.perfetto.dev), exact.

For every corpus file: the export is valid JSON with the trace-event keys; its complete ("X")
events nest (each inside the one before it at a lower depth, per thread); the durations of
the top-level events of each thread sum to the total of the first event (in µs: Time_(10ns)
counts / 100); and args.self, summed per function (name and file) over all threads, is the
self cost `calltree annotate --json` prints, for every event.

Then Chrome DevTools' own trace engine (the Performance panel's parser, from npm) reads every
export: for every thread it must build the same call tree (as many entries, roots and levels,
the roots' durations summing to the same total, exactly) as the nesting checked here.
"""
import json
import os
import re
import shutil
import sys
from collections import defaultdict
from decimal import Decimal

import corpus

calltree, corpus_dir = corpus.args()
node_modules = sys.argv[3]
tmp = corpus.tempdir()
trees = {}  # export -> {(pid, tid): (entries, roots, sum of the roots' durations, max depth)}


def micros(event, v):
    m = re.search(r"\((\d+)([a-z]+)\)$", event)
    if m and m.group(2) == "ns":
        return Decimal(v) * int(m.group(1)) / 1000
    if event == "ns":
        return Decimal(v) / 1000
    if m and m.group(2) == "ms":
        return Decimal(v) * int(m.group(1)) * 1000
    if event == "cpu(ms)":
        return Decimal(v) * 1000
    return Decimal(v)


def check(path):
    out = os.path.join(tmp, os.path.basename(path) + ".trace.json")
    corpus.run([calltree, "export", "--to=chrome", path, "-o", out])
    events, self_of, sums = corpus.annotate(calltree, path)
    with open(out, encoding="utf-8") as f:
        d = json.load(f, parse_float=Decimal)
    assert isinstance(d["traceEvents"], list)
    got = defaultdict(lambda: defaultdict(int))
    roots = Decimal(0)
    open_ = defaultdict(list)  # tid -> stack of (start, end)
    tree = defaultdict(lambda: [0, 0, Decimal(0), 0])
    n = 0
    for ev in d["traceEvents"]:
        assert ev["ph"] in ("X", "M"), ev
        if ev["ph"] != "X":
            continue
        n += 1
        ts, dur = Decimal(ev["ts"]), Decimal(ev["dur"])
        assert dur >= 0
        stack = open_[ev["tid"]]
        # (an event that starts where the frame on top ends is not inside it, even one of no
        # duration: DevTools makes it the next sibling, or a root)
        while stack and not (stack[-1][0] <= ts and ts + dur <= stack[-1][1] and
                             ts < stack[-1][1]):
            stack.pop()
        t = tree[(ev["pid"], ev["tid"])]
        t[0] += 1
        if not stack:
            roots += dur
            t[1] += 1
            t[2] += dur
        else:
            assert stack[-1][0] <= ts and ts + dur <= stack[-1][1], "not nested: %s" % ev
        t[3] = max(t[3], len(stack))
        stack.append((ts, ts + dur))
        for e, v in ev["args"]["self"].items():
            got[e][(ev["name"], ev["args"]["file"])] += v
    assert n > 0, "no X events"
    # Fractions of a µs are written in steps of 1/1024 µs (chrome.cc), rounded to the nearest.
    total = micros(events[0], sums[events[0]])
    assert abs(roots - total) <= Decimal(1) / 2048, "top-level durations sum to %s, " \
        "total %s" % (roots, total)
    for ev in d["traceEvents"]:
        if ev["ph"] == "X":
            assert (Decimal(ev["ts"]) * 1024) % 1 == 0 and (Decimal(ev["dur"]) * 1024) % 1 == 0, \
                "not a multiple of 1/1024 µs: %s" % ev
    for e in events:
        want = {k: v[e] for k, v in self_of.items() if v[e]}
        have = {k: v for k, v in got[e].items() if v}
        assert want == have, "%s: args.self differs from self costs on %s" % (
            e, sorted(set(want.items()) ^ set(have.items()))[:5])
    trees[out] = dict(tree)


def check_devtools(line):
    """One line of parse_chrome_devtools.mjs against the nesting check_chrome found."""
    d = json.loads(line)
    want = trees[d["file"]]
    have = {(t["pid"], t["tid"]): t for t in d["threads"]}
    assert set(want) == set(have), "threads %s, DevTools found %s" % (sorted(want), sorted(have))
    for key, (entries, roots, root_sum, depth) in want.items():
        t = have[key]
        assert (t["entries"], t["roots"], t["maxDepth"]) == (entries, roots, depth), \
            "thread %s: %d entries, %d roots, depth %d; DevTools: %d, %d, %d" % (
                key, entries, roots, depth, t["entries"], t["roots"], t["maxDepth"])
        assert Decimal(t["rootSum"]) == root_sum, \
            "thread %s: roots sum to %s, DevTools %s" % (key, root_sum, t["rootSum"])


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
if not failures:
    parsed = corpus.run(["node", os.path.join(os.path.dirname(__file__),
                                               "parse_chrome_devtools.mjs"),
                         node_modules] + sorted(trees)).decode().splitlines()
    if len(parsed) != len(trees):
        failures.append("DevTools' trace engine read %d of %d exports" % (len(parsed), len(trees)))
    failures += corpus.parallel(check_devtools, parsed, workers=1)
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export chrome", failures, len(files))

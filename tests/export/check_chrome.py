#!/usr/bin/env python3
"""export --to=chrome: trace-event JSON (chrome://tracing, ui.perfetto.dev), exact.

For every corpus file: the export is valid JSON with the trace-event keys; its complete ("X")
events nest (each inside the one before it at a lower depth, per thread); the durations of
the top-level events of each thread sum to the total of the first event (in µs: Time_(10ns)
counts / 100); and args.self, summed per function (name and file) over all threads, is the
self cost `calltree annotate --json` prints, for every event.
"""
import json
import os
import re
import shutil
from collections import defaultdict
from decimal import Decimal

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()


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
    n = 0
    for ev in d["traceEvents"]:
        assert ev["ph"] in ("X", "M"), ev
        if ev["ph"] != "X":
            continue
        n += 1
        ts, dur = Decimal(ev["ts"]), Decimal(ev["dur"])
        assert dur >= 0
        stack = open_[ev["tid"]]
        while stack and not (stack[-1][0] <= ts and ts + dur <= stack[-1][1] and
                             (ts < stack[-1][1] or dur == 0)):
            stack.pop()
        if not stack:
            roots += dur
        else:
            assert stack[-1][0] <= ts and ts + dur <= stack[-1][1], "not nested: %s" % ev
        stack.append((ts, ts + dur))
        for e, v in ev["args"]["self"].items():
            got[e][(ev["name"], ev["args"]["file"])] += v
    assert n > 0, "no X events"
    assert roots == micros(events[0], sums[events[0]]), "top-level durations sum to %s, " \
        "total %s" % (roots, micros(events[0], sums[events[0]]))
    for e in events:
        want = {k: v[e] for k, v in self_of.items() if v[e]}
        have = {k: v for k, v in got[e].items() if v}
        assert want == have, "%s: args.self differs from self costs on %s" % (
            e, sorted(set(want.items()) ^ set(have.items()))[:5])


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export chrome", failures, len(files))

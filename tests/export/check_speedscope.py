#!/usr/bin/env python3
"""export --to=speedscope: valid against speedscope's schema, and exact.

For every corpus file: the export validates against the file-format schema of the npm
speedscope package (ajv, tests/export/validate_speedscope.js); it has one profile per event
and part; per event, the weights summed per leaf frame (name and file) over the parts are
the self costs `calltree annotate --json` prints (in the event's unit: Time_(10ns) times 10),
and each profile's endValue is the sum of its weights.
"""
import json
import os
import re
import shutil
import sys
from collections import defaultdict

import corpus

calltree, corpus_dir = corpus.args()
node_modules = sys.argv[3]
tmp = corpus.tempdir()
UNITS = {"Ir": "none", "Time_(10ns)": "nanoseconds", "Memory_(bytes)": "bytes",
         "ns": "nanoseconds", "cpu(ms)": "milliseconds", "Hits": "none"}


def scale_of(event):
    m = re.search(r"\((\d+)[a-z]+\)$", event)
    return int(m.group(1)) if m else 1


def check(path):
    out = os.path.join(tmp, os.path.basename(path) + ".speedscope.json")
    corpus.run([calltree, "export", "--to=speedscope", path, "-o", out])
    events, self_of, sums = corpus.annotate(calltree, path)
    with open(out, encoding="utf-8") as f:
        d = json.load(f)
    frames = d["shared"]["frames"]
    profiles = d["profiles"]
    parts = len(profiles) // len(events)
    assert len(profiles) == parts * len(events) and parts >= 1, \
        "%d profiles for %d events" % (len(profiles), len(events))
    got = defaultdict(lambda: defaultdict(int))
    for i, p in enumerate(profiles):
        e = events[i % len(events)]
        assert p["name"].split(",")[0] == e, "profile %d is %s, not %s" % (i, p["name"], e)
        if e in UNITS:
            assert p["unit"] == UNITS[e], "%s: unit %s" % (e, p["unit"])
        assert len(p["samples"]) == len(p["weights"])
        assert p["endValue"] == sum(p["weights"]), "%s: endValue %d" % (e, p["endValue"])
        for stack, w in zip(p["samples"], p["weights"]):
            fr = frames[stack[-1]]
            got[e][(fr["name"], fr["file"])] += w
    for e in events:
        want = {k: v[e] * scale_of(e) for k, v in self_of.items() if v[e]}
        have = {k: v for k, v in got[e].items() if v}
        assert want == have, "%s: per-frame weights differ from self costs on %s" % (
            e, sorted(set(want.items()) ^ set(have.items()))[:5])
        assert sum(have.values()) == sums[e] * scale_of(e)


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
exports = sorted(os.path.join(tmp, f) for f in os.listdir(tmp))
if len(exports) != len(files):
    failures.append("only %d exports of %d files" % (len(exports), len(files)))
try:
    print(corpus.run(["node", os.path.join(os.path.dirname(__file__), "validate_speedscope.js"),
                      node_modules] + exports).decode().strip())
except RuntimeError as e:
    failures.append("schema: %s" % e)
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export speedscope", failures, len(files))

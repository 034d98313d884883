#!/usr/bin/env python3
"""export --to=speedscope: valid against speedscope's schema, and exact.

For every corpus file: the export validates against the file-format schema of the npm
speedscope package (ajv, tests/export/validate_speedscope.js); it has one profile per event
and part; per event, the weights summed per leaf frame (name and file) over the parts are
the self costs `calltree annotate --json` prints (in the event's unit: Time_(10ns) times 10),
and each profile's endValue is the sum of its weights. Then the speedscope app itself (the
npm package's build, served on 127.0.0.1) opens an Xdebug export in headless Chromium: its
sandwich view lists every function with its self time, as annotate gives it (speedscope
rounds to 3 digits).
"""
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
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


def check_app(_):
    site = os.path.join(tmp, "site")
    shutil.copytree(os.path.join(node_modules, "speedscope", "dist", "release"), site)
    path = os.path.join(corpus_dir, "xdebug-recursion.callgrind")
    corpus.run([calltree, "export", "--to=speedscope", path, "-o",
                os.path.join(site, "profile.json")])
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = "http://127.0.0.1:%d/" % server.server_address[1]
        r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(tmp, "chromium"),
                            "--virtual-time-budget=10000", "--dump-dom",
                            base + "index.html#profileURL=" + base + "profile.json&view=sandwich"],
                           capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
    texts = [t for t in re.findall(r">([^<>]+)<", r.stdout) if t.strip()]
    assert "Symbol Name" in texts, "no sandwich table in the page: %s" % texts[:30]
    rows = {}
    i = texts.index("Symbol Name") + 1
    while i + 2 < len(texts) and re.match(r"^[\d.]+(ns|µs|ms|s) \(", texts[i]):
        rows[texts[i + 2]] = texts[i + 1]
        i += 3
    events, self_of, _ = corpus.annotate(calltree, path)
    want = {name: costs["Time_(10ns)"] * 10 for (name, _), costs in self_of.items()
            if costs["Time_(10ns)"]}
    assert set(rows) == set(want), "functions shown %s, annotate %s" % (sorted(rows), sorted(want))
    scale = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}
    for name, text in rows.items():
        m = re.match(r"^([\d.]+)(ns|µs|ms|s) ", text)
        shown = float(m.group(1)) * scale[m.group(2)]
        assert abs(shown - want[name]) <= 0.006 * want[name], "%s: speedscope shows self %s, " \
            "annotate %d ns" % (name, text, want[name])


failures += corpus.parallel(check_app, ["speedscope app in Chromium"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export speedscope", failures, len(files) + 1)
